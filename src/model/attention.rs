//! Causal multi-head self-attention: the only sublayer that mixes positions.
//!
//! Per head h with `Q = x W_q`, `K = x W_k`, `V = x W_v` restricted to the head's columns:
//! `P = softmax(Q Kᵀ / √d_h)` with token t seeing only tokens s ≤ t, `C = P V`, and
//! `F(x) = C W_o`. Scores and probabilities are column-major `(T, T)`, `S[t, s]` with query t
//! down a column: the softmax then runs over key columns s and vectorises across the queries
//! t ≥ s that see key s, while every query's own max and sum still go over s = 0, 1, …, t in order.
//!
//! A batch of T tokens is T / C sequences of C positions (the `context`): a token sees only the
//! earlier tokens of its own sequence. With one sequence the heads' columns of Q, K and V are
//! used in place; with several, each sequence's rows of a head are first copied side by side
//! (T·d numbers per matrix, against the T·d² of each projection), so one set of kernels serves both.

use crate::model::linear::Linear;
use crate::model::matmul::{gemm_nn_lower_a, gemm_nt_lower_c, gemm_tn_lower_a};
use crate::model::param::{Draw, InitGain, Param, Params};
use crate::model::real::Real;
use crate::model::scratch::{sized, Scratch};
use nalgebra::DMatrix;

pub const HEADS: usize = 4;

#[derive(Clone)]
pub struct Attention<F: Real> {
    pub wq: Linear<F>, // (d, d)
    pub wk: Linear<F>, // (d, d)
    pub wv: Linear<F>, // (d, d)
    pub wo: Linear<F>, // (d, d)
    q: DMatrix<F>,     // (T, d)
    k: DMatrix<F>,     // (T, d)
    v: DMatrix<F>,     // (T, d)
    ctx: DMatrix<F>,   // (T, d) heads' outputs side by side
    probs: Vec<F>,     // H × (T, T) column-major P per head
    row_max: Vec<F>,   // (T) per query: the max score, then Σ_s P dP
    row_sum: Vec<F>,   // (T) per query: Σ_s exp
    /// Positions per sequence C (T when the batch is one sequence).
    context: usize,
    /// One sequence's rows of a head's Q, K, V and C (or their gradients), each (C, d_h),
    /// when the batch holds several sequences.
    gathered: [Vec<F>; 4],
}

impl<F: Real> Attention<F> {
    /// For batches of `tokens` tokens in sequences of `context` positions (a divisor of `tokens`).
    /// Queries and keys are drawn at `gain.gain`, values and the output at `gain.output()`.
    pub fn new(tokens: usize, context: usize, width: usize, gain: InitGain, draw: &mut Draw<F>) -> Self {
        assert!(context > 0 && tokens.is_multiple_of(context), "{tokens} tokens in sequences of {context}");
        let m = || DMatrix::zeros(tokens, width);
        let several = tokens > context;
        let gathered = || if several { vec![F::zero(); context * (width / HEADS)] } else { Vec::new() };
        Attention {
            wq: Linear::new(width, width, gain.gain, false, draw),
            wk: Linear::new(width, width, gain.gain, false, draw),
            wv: Linear::new(width, width, gain.output(), false, draw),
            wo: Linear::new(width, width, gain.output(), false, draw),
            q: m(),
            k: m(),
            v: m(),
            ctx: m(),
            probs: vec![F::zero(); HEADS * tokens * context],
            row_max: vec![F::zero(); tokens],
            row_sum: vec![F::zero(); tokens],
            context,
            gathered: [gathered(), gathered(), gathered(), gathered()],
        }
    }

    /// Back to a freshly drawn state in place (as `new`: W_q, W_k, W_v, W_o, keeping the buffers).
    pub fn init(&mut self, gain: InitGain, draw: &mut Draw<F>) {
        for w in [&mut self.wq, &mut self.wk] {
            w.init(gain.gain, draw);
        }
        for w in [&mut self.wv, &mut self.wo] {
            w.init(gain.output(), draw);
        }
    }

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        let (t, d) = x.shape();
        let dh = d / HEADS;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        self.wq.forward(x, &mut self.q);
        self.wk.forward(x, &mut self.k);
        self.wv.forward(x, &mut self.v);
        if self.context < t {
            self.attend_by_sequences(dh, scale);
            self.wo.forward(&self.ctx, y);
            return;
        }
        for h in 0..HEADS {
            let cols = h * dh * t..(h + 1) * dh * t; // the head's columns, contiguous
            let p = &mut self.probs[h * t * t..(h + 1) * t * t];
            // S = Q_h K_hᵀ, the causal (lower) triangle only     (T, dh) · (dh, T) → (T, T)
            gemm_nt_lower_c(t, dh, &self.q.as_slice()[cols.clone()], &self.k.as_slice()[cols.clone()], p);
            softmax_causal(p, t, scale, &mut self.row_max, &mut self.row_sum);
            // C_h = P V_h                                      (T, T) · (T, dh) → (T, dh)
            gemm_nn_lower_a(t, dh, p, &self.v.as_slice()[cols.clone()], &mut self.ctx.as_mut_slice()[cols]);
        }
        self.wo.forward(&self.ctx, y);
    }

    pub fn backward(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        let (t, d) = x.shape();
        let dh = d / HEADS;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        let Scratch { dq, dk, dv, dctx, dp, .. } = scratch;
        let [dq, dk, dv, dctx] = [dq, dk, dv, dctx].map(|m| sized(m, t, d));
        dp.resize(t * self.context, F::zero());
        self.wo.backward(&self.ctx, dy, dctx, false);
        if self.context < t {
            self.back_by_sequences(dh, scale, [&mut *dq, &mut *dk, &mut *dv, &mut *dctx], dp);
        }
        for h in (0..HEADS).filter(|_| self.context == t) {
            let cols = h * dh * t..(h + 1) * dh * t;
            let p = &self.probs[h * t * t..(h + 1) * t * t];
            let dc = &dctx.as_slice()[cols.clone()];
            // dV_h = Pᵀ dC_h                                   (T, T)ᵀ · (T, dh)
            gemm_tn_lower_a(t, dh, p, dc, &mut dv.as_mut_slice()[cols.clone()]);
            // dP = dC_h V_hᵀ, lower triangle                   (T, dh) · (dh, T)
            gemm_nt_lower_c(t, dh, dc, &self.v.as_slice()[cols.clone()], dp);
            softmax_causal_backward(p, dp, t, scale, &mut self.row_max);
            // now dp holds dS (with respect to the unscaled scores)
            // dQ_h = dS K_h                                    (T, T) · (T, dh)
            let k_h = &self.k.as_slice()[cols.clone()];
            gemm_nn_lower_a(t, dh, dp, k_h, &mut dq.as_mut_slice()[cols.clone()]);
            // dK_h = dSᵀ Q_h                                   (T, T)ᵀ · (T, dh)
            let (q_h, dk_h) = (&self.q.as_slice()[cols.clone()], &mut dk.as_mut_slice()[cols]);
            gemm_tn_lower_a(t, dh, dp, q_h, dk_h);
        }
        self.wq.backward(x, dq, dx, false);
        self.wk.backward(x, dk, dx, true);
        self.wv.backward(x, dv, dx, true);
    }
}

impl<F: Real> Attention<F> {
    /// Appends every head's attention weights in sequence `b` of the last forward: for each
    /// head, C rows of C numbers, row q (the query's position) holding `P[q, s]` for the keys
    /// s ≤ q and exact zeros for the future, which the kernels never compute nor read.
    pub fn weights(&self, b: usize, out: &mut Vec<f32>) {
        let (t, c) = (self.q.nrows(), self.context);
        for h in 0..HEADS {
            let p = &self.probs[(h * (t / c) + b) * c * c..][..c * c]; // column-major, P[q, s] at s·C + q
            for q in 0..c {
                out.extend((0..c).map(|s| if s <= q { p[s * c + q].f64() as f32 } else { 0.0 }));
            }
        }
    }

    /// The forward's heads when the batch holds several sequences: `C = P V` per head and per
    /// sequence, on that sequence's rows copied side by side.
    fn attend_by_sequences(&mut self, dh: usize, scale: F) {
        let (t, c) = (self.q.nrows(), self.context);
        let [gq, gk, gv, gc] = &mut self.gathered;
        for h in 0..HEADS {
            for b in 0..t / c {
                let rows = Rows { t, c, dh, h, b };
                rows.gather(self.q.as_slice(), gq);
                rows.gather(self.k.as_slice(), gk);
                rows.gather(self.v.as_slice(), gv);
                let p = &mut self.probs[(h * (t / c) + b) * c * c..][..c * c];
                gemm_nt_lower_c(c, dh, gq, gk, p);
                softmax_causal(p, c, scale, &mut self.row_max[..c], &mut self.row_sum[..c]);
                gemm_nn_lower_a(c, dh, p, gv, gc);
                rows.scatter(gc, self.ctx.as_mut_slice());
            }
        }
    }

    /// The backward's heads when the batch holds several sequences: `dQ`, `dK`, `dV` from
    /// `dC`, per head and per sequence, as `backward` does for one.
    fn back_by_sequences(&mut self, dh: usize, scale: F, grads: [&mut DMatrix<F>; 4], dp: &mut [F]) {
        let (t, c) = (self.q.nrows(), self.context);
        let [dq, dk, dv, dctx] = grads;
        let [ga, gb, gd, gg] = &mut self.gathered;
        for h in 0..HEADS {
            for b in 0..t / c {
                let rows = Rows { t, c, dh, h, b };
                let p = &self.probs[(h * (t / c) + b) * c * c..][..c * c];
                rows.gather(dctx.as_slice(), gg); // dC_h
                rows.gather(self.v.as_slice(), ga); // V_h
                                                    // dV_h = Pᵀ dC_h
                gemm_tn_lower_a(c, dh, p, gg, gd);
                rows.scatter(gd, dv.as_mut_slice());
                // dP = dC_h V_hᵀ, then dS
                gemm_nt_lower_c(c, dh, gg, ga, dp);
                softmax_causal_backward(p, dp, c, scale, &mut self.row_max[..c]);
                // dQ_h = dS K_h
                rows.gather(self.k.as_slice(), ga);
                gemm_nn_lower_a(c, dh, dp, ga, gb);
                rows.scatter(gb, dq.as_mut_slice());
                // dK_h = dSᵀ Q_h
                rows.gather(self.q.as_slice(), ga);
                gemm_tn_lower_a(c, dh, dp, ga, gb);
                rows.scatter(gb, dk.as_mut_slice());
            }
        }
    }
}

/// Sequence `b`'s rows of head `h`'s columns in a column-major (T, d) matrix: d_h runs of C
/// contiguous numbers.
struct Rows {
    t: usize,
    c: usize,
    dh: usize,
    h: usize,
    b: usize,
}

impl Rows {
    fn run(&self, j: usize) -> std::ops::Range<usize> {
        let start = (self.h * self.dh + j) * self.t + self.b * self.c;
        start..start + self.c
    }

    /// Copies them from `m` into `out`, a column-major (C, d_h).
    fn gather<F: Real>(&self, m: &[F], out: &mut [F]) {
        for j in 0..self.dh {
            out[j * self.c..(j + 1) * self.c].copy_from_slice(&m[self.run(j)]);
        }
    }

    /// Writes `part`, a column-major (C, d_h), into them in `m`.
    fn scatter<F: Real>(&self, part: &[F], m: &mut [F]) {
        for j in 0..self.dh {
            m[self.run(j)].copy_from_slice(&part[j * self.c..(j + 1) * self.c]);
        }
    }
}

/// In place on the `(t, t)` scores `s[q, k]` (column-major): each query's row becomes
/// `softmax(scale · s[q, 0..=q])`, and the future keys k > q get 0. Per query the max and the
/// sum run over k = 0, 1, …, q in order. The work goes by blocks of `W` consecutive queries
/// (their entries of one key are contiguous, one vector): the block's maxima and sums stay in
/// registers while its keys go by, every key before the block's first query is wholly seen,
/// and only the block's diagonal keys need a mask. (Down whole key columns instead, a column's
/// `t − k` entries left a scalar tail of up to 7 in every column, and the sums went through
/// memory.) `max` and `sum` receive each query's max and sum. (A function of its own: inlined
/// into the attention forward, its exponentials stayed scalar natively.) In wasm the blocks are
/// slower (7.95 against 6.7 µs per head in Node, and 8.6 or 9.4 with 16 or 4 queries a block):
/// there `softmax_causal_by_columns` computes the same.
#[inline(never)]
pub fn softmax_causal<F: Real>(s: &mut [F], t: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    if cfg!(target_arch = "wasm32") {
        return softmax_causal_by_columns(s, t, scale, max, sum);
    }
    const W: usize = 8;
    let whole = t / W * W;
    for q0 in (0..whole).step_by(W) {
        softmax_causal_block::<F, W>(s, t, scale, q0, &mut max[q0..q0 + W], &mut sum[q0..q0 + W]);
    }
    for q0 in whole..t {
        softmax_causal_block::<F, 1>(s, t, scale, q0, &mut max[q0..q0 + 1], &mut sum[q0..q0 + 1]);
    }
}

/// `softmax_causal` for the queries `q0..q0 + W`.
#[inline(always)]
fn softmax_causal_block<F: Real, const W: usize>(
    s: &mut [F],
    t: usize,
    scale: F,
    q0: usize,
    max: &mut [F],
    sum: &mut [F],
) {
    let last = q0 + W - 1; // keys 0..=q0 every query sees, q0 + 1..=last only some
    let seen = |key: usize, l: usize| key <= q0 + l;
    // the max over k ≤ q, in key order, by `max`: `if z > m { m = z }` vectorises as a masked
    // store (slow on AMD's cores). The two differ only once m is NaN (max moves on), and then
    // the query's first score was NaN, so its sum and every P of it are NaN either way.
    let larger = |m: F, z: F| m.max(z);
    let mut m: [F; W] = entries::<F, W>(s, q0).map(|v| v * scale);
    for key in 1..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            m[l] = larger(m[l], r[l] * scale);
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        let bigger: [F; W] = std::array::from_fn(|l| larger(m[l], r[l] * scale));
        for l in 0..W {
            m[l] = if seen(key, l) { bigger[l] } else { m[l] };
        }
    }
    // the exponentials and their sums, in key order
    let mut acc = [F::zero(); W];
    let first = exp_and_sum_by_fours::<F, W>(s, t, q0, scale, &m, &mut acc);
    for key in first..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            r[l] = (r[l] * scale - m[l]).exp_det();
            acc[l] += r[l];
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        // (each value computed, then kept or not: the compiler then keeps the lanes together)
        let e: [F; W] = std::array::from_fn(|l| (r[l] * scale - m[l]).exp_det());
        for l in 0..W {
            r[l] = if seen(key, l) { e[l] } else { F::zero() };
            acc[l] += r[l]; // + 0 past the query: acc ≥ +0, so it stays as it was
        }
    }
    for key in last + 1..t {
        entries::<F, W>(s, key * t + q0).fill(F::zero());
    }
    for key in 0..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            r[l] /= acc[l];
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        let p: [F; W] = std::array::from_fn(|l| r[l] / acc[l]);
        for l in 0..W {
            r[l] = if seen(key, l) { p[l] } else { F::zero() };
        }
    }
    max.copy_from_slice(&m);
    sum.copy_from_slice(&acc);
}

/// The unmasked exponentials of `softmax_causal_block`, natively for `W` = 8 in f32: for keys
/// 0, 1, … up to the largest multiple of 4 not past `q0 + 1`, `r ← exp(r · scale − m)` and
/// `acc += r` in key order, four keys' exponentials side by side (`Many<F32x8, 4>`, as in GELU:
/// each is a chain of about 40 cycles, and one key at a time left the CPU waiting on them).
/// Returns the keys done (none elsewhere): per head 3.04 → 2.7 µs.
#[inline(always)]
fn exp_and_sum_by_fours<F: Real, const W: usize>(
    s: &mut [F],
    t: usize,
    q0: usize,
    scale: F,
    m: &[F; W],
    acc: &mut [F; W],
) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if W == 8 && std::any::TypeId::of::<F>() == std::any::TypeId::of::<f32>() {
        use crate::model::lanes::{exp, F32x8, Lanes, Many};
        // SAFETY: F is f32 (checked just above) and W is 8: the same slice and arrays, retyped.
        let (s, m, acc) = unsafe {
            let s = std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<f32>(), s.len());
            (s, &*m.as_ptr().cast::<[f32; 8]>(), &mut *acc.as_mut_ptr().cast::<[f32; 8]>())
        };
        let (scale, m) = (F32x8::splat(scale.f64() as f32), F32x8::load(m));
        let mut sum = F32x8::load(acc);
        let done = (q0 + 1) / 4 * 4;
        for k0 in (0..done).step_by(4) {
            let z =
                Many::<F32x8, 4>(std::array::from_fn(|i| F32x8::load(&s[(k0 + i) * t + q0..]) * scale - m));
            for (i, e) in exp(z).0.iter().enumerate() {
                e.store(&mut s[(k0 + i) * t + q0..]);
                sum = sum + *e;
            }
        }
        sum.store(acc);
        return done;
    }
    let _ = (s, t, q0, scale, m, acc);
    0
}

/// The `W` entries of `s` from `at` on.
#[inline(always)]
fn entries<F, const W: usize>(s: &mut [F], at: usize) -> &mut [F; W] {
    (&mut s[at..at + W]).try_into().unwrap()
}

/// `entries`, to read.
#[inline(always)]
fn entries_of<F, const W: usize>(s: &[F], at: usize) -> &[F; W] {
    s[at..at + W].try_into().unwrap()
}

/// `softmax_causal` down whole key columns, each column's entries one by one: vectorised over
/// the queries, each query's max and sum (in `max` and `sum`) accumulated key by key, in order.
pub fn softmax_causal_by_columns<F: Real>(s: &mut [F], t: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    for (m, &v) in max.iter_mut().zip(&s[..t]) {
        *m = v * scale;
    }
    for key in 1..t {
        for (m, &v) in max[key..].iter_mut().zip(&s[key * t + key..(key + 1) * t]) {
            let z = v * scale;
            if z > *m {
                *m = z;
            }
        }
    }
    sum.fill(F::zero());
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        col[..key].fill(F::zero());
        for ((v, &m), acc) in col[key..].iter_mut().zip(&max[key..]).zip(&mut sum[key..]) {
            *v = (*v * scale - m).exp_det();
            *acc += *v;
        }
    }
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        for (v, &acc) in col[key..].iter_mut().zip(&sum[key..]) {
            *v /= acc;
        }
    }
}

/// In place: `dp ← ∂L/∂s` for `p = softmax(scale · s)` row by row as above, given `dp = ∂L/∂p`
/// (whose entries above the diagonal are unspecified). `inner` receives each query's
/// `Σ_k p dp`, summed over k = 0, 1, …, q in order. By blocks of queries natively, as the
/// forward (1.31 → 1.09 µs per head); by key columns in wasm, where blocks were slower.
pub fn softmax_causal_backward<F: Real>(p: &[F], dp: &mut [F], t: usize, scale: F, inner: &mut [F]) {
    if cfg!(target_arch = "wasm32") {
        return softmax_causal_backward_by_columns(p, dp, t, scale, inner);
    }
    const W: usize = 8;
    let whole = t / W * W;
    for q0 in (0..whole).step_by(W) {
        softmax_causal_backward_block::<F, W>(p, dp, t, scale, q0, &mut inner[q0..q0 + W]);
    }
    for q0 in whole..t {
        softmax_causal_backward_block::<F, 1>(p, dp, t, scale, q0, &mut inner[q0..q0 + 1]);
    }
}

/// `softmax_causal_backward` for the queries `q0..q0 + W`.
#[inline(always)]
fn softmax_causal_backward_block<F: Real, const W: usize>(
    p: &[F],
    dp: &mut [F],
    t: usize,
    scale: F,
    q0: usize,
    inner: &mut [F],
) {
    let last = q0 + W - 1;
    let seen = |key: usize, l: usize| key <= q0 + l;
    let at = |key: usize| key * t + q0;
    let mut acc = [F::zero(); W];
    for key in 0..=q0 {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        for l in 0..W {
            acc[l] += pk[l] * gk[l];
        }
    }
    for key in q0 + 1..=last {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        let term: [F; W] = std::array::from_fn(|l| pk[l] * gk[l]);
        for l in 0..W {
            acc[l] += if seen(key, l) { term[l] } else { F::zero() }; // acc is never −0: + 0 keeps it
        }
    }
    for key in 0..=q0 {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        for l in 0..W {
            gk[l] = scale * pk[l] * (gk[l] - acc[l]);
        }
    }
    for key in q0 + 1..=last {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        let ds: [F; W] = std::array::from_fn(|l| scale * pk[l] * (gk[l] - acc[l]));
        for l in 0..W {
            gk[l] = if seen(key, l) { ds[l] } else { F::zero() };
        }
    }
    for key in last + 1..t {
        entries::<F, W>(dp, at(key)).fill(F::zero());
    }
    inner.copy_from_slice(&acc);
}

/// `softmax_causal_backward` down whole key columns (see `softmax_causal_by_columns`).
pub fn softmax_causal_backward_by_columns<F: Real>(
    p: &[F],
    dp: &mut [F],
    t: usize,
    scale: F,
    inner: &mut [F],
) {
    inner.fill(F::zero());
    for (key, (pc, gc)) in p.chunks_exact(t).zip(dp.chunks_exact(t)).enumerate() {
        for ((acc, &pi), &gi) in inner[key..].iter_mut().zip(&pc[key..]).zip(&gc[key..]) {
            *acc += pi * gi;
        }
    }
    for (key, (pc, gc)) in p.chunks_exact(t).zip(dp.chunks_exact_mut(t)).enumerate() {
        gc[..key].fill(F::zero());
        for ((g, &pi), &acc) in gc[key..].iter_mut().zip(&pc[key..]).zip(&inner[key..]) {
            *g = scale * pi * (*g - acc);
        }
    }
}

impl<F: Real> Params<F> for Attention<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.wq.visit(f);
        self.wk.visit(f);
        self.wv.visit(f);
        self.wo.visit(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::{Rng, Stream};

    /// Scores with every kind of value, and junk above the diagonal (which the scores'
    /// product leaves unspecified).
    fn scores(t: usize, rng: &mut Rng) -> Vec<f32> {
        (0..t * t)
            .map(|e| {
                let (q, key) = (e % t, e / t);
                let junk = [f32::NAN, f32::INFINITY, -1e30, 7.0];
                if key > q {
                    junk[(rng.next_u64() % 4) as usize]
                } else if rng.next_u64().is_multiple_of(97) {
                    [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][(rng.next_u64() % 3) as usize]
                } else {
                    (3.0 * rng.normal()) as f32
                }
            })
            .collect()
    }

    #[test]
    fn both_forms_of_the_causal_softmax_backward_give_the_same_bits() {
        let mut rng = Rng::new(10, Stream::Data);
        for t in [1, 2, 7, 8, 9, 13, 16, 64, 70] {
            // P from a forward (zeros above the diagonal), ∂L/∂P with junk above it
            let mut p = scores(t, &mut rng);
            let (mut max, mut sum) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal_by_columns(&mut p, t, 0.35, &mut max, &mut sum);
            let dp0 = scores(t, &mut rng);
            let (mut by_blocks, mut by_columns) = (dp0.clone(), dp0.clone());
            let (mut inner_blocks, mut inner_columns) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal_backward(&p, &mut by_blocks, t, 0.35, &mut inner_blocks);
            softmax_causal_backward_by_columns(&p, &mut by_columns, t, 0.35, &mut inner_columns);
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan();
            for e in 0..t * t {
                let (q, key) = (e % t, e / t);
                assert!(same(by_blocks[e], by_columns[e]), "t {t}, query {q}, key {key}");
                assert!(key <= q || by_blocks[e].to_bits() == 0, "t {t}: 0 above the diagonal");
            }
            assert!(inner_blocks.iter().zip(&inner_columns).all(|(&a, &b)| same(a, b)), "t {t}: Σ p dp");
        }
    }

    #[test]
    fn causal_softmax_is_each_querys_softmax_in_key_order() {
        let mut rng = Rng::new(9, Stream::Data);
        for t in [1, 2, 7, 8, 9, 13, 16, 64, 70] {
            let s0 = scores(t, &mut rng);
            let scale = 0.35f32;
            let (mut by_blocks, mut by_columns) = (s0.clone(), s0.clone());
            let (mut max, mut sum) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal(&mut by_blocks, t, scale, &mut max, &mut sum);
            softmax_causal_by_columns(&mut by_columns, t, scale, &mut max, &mut sum);
            for q in 0..t {
                // the definition, one query at a time, keys in order
                let mut m = s0[q] * scale;
                for key in 1..=q {
                    let z = s0[key * t + q] * scale;
                    if z > m {
                        m = z;
                    }
                }
                let e: Vec<f32> = (0..=q).map(|key| (s0[key * t + q] * scale - m).exp_det()).collect();
                let total = e.iter().fold(0.0f32, |acc, &v| acc + v);
                for key in 0..t {
                    let want = if key <= q { e[key] / total } else { 0.0 };
                    // (a NaN's sign and payload are the CPU's business, and vary between
                    // vector and scalar code; the value is NaN either way)
                    for (form, p) in [("blocks", &by_blocks), ("columns", &by_columns)] {
                        let got = p[key * t + q];
                        assert!(
                            got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan(),
                            "by {form}, t {t}, query {q}, key {key}: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
