//! Causal multi-head self-attention: the only sublayer that mixes positions.
//!
//! Per head h with `Q = x W_q`, `K = x W_k`, `V = x W_v` restricted to the head's columns:
//! `P = softmax(Q Kᵀ / √d_h)` with token t seeing only tokens s ≤ t, `C = P V`, and
//! `F(x) = C W_o`. Scores and probabilities are column-major `(T, T)`, `S[t, s]` with query t
//! down a column: the softmax then runs over key columns s and vectorises across the queries
//! t ≥ s that see key s, while every query's own max and sum still go over s = 0, 1, …, t in order.

use crate::model::linear::Linear;
use crate::model::matmul::{gemm_nn_lower_a, gemm_nt_lower_c, gemm_tn_lower_a};
use crate::model::param::{Draw, Param, Params};
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
}

impl<F: Real> Attention<F> {
    pub fn new(tokens: usize, width: usize, gain: f64, draw: &mut Draw<F>) -> Self {
        let m = || DMatrix::zeros(tokens, width);
        Attention {
            wq: Linear::new(width, width, gain, false, draw),
            wk: Linear::new(width, width, gain, false, draw),
            wv: Linear::new(width, width, gain, false, draw),
            wo: Linear::new(width, width, gain, false, draw),
            q: m(),
            k: m(),
            v: m(),
            ctx: m(),
            probs: vec![F::zero(); HEADS * tokens * tokens],
            row_max: vec![F::zero(); tokens],
            row_sum: vec![F::zero(); tokens],
        }
    }

    /// Back to a freshly drawn state in place (as `new`: W_q, W_k, W_v, W_o, keeping the buffers).
    pub fn init(&mut self, gain: f64, draw: &mut Draw<F>) {
        for w in [&mut self.wq, &mut self.wk, &mut self.wv, &mut self.wo] {
            w.init(gain, draw);
        }
    }

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        let (t, d) = x.shape();
        let dh = d / HEADS;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        self.wq.forward(x, &mut self.q);
        self.wk.forward(x, &mut self.k);
        self.wv.forward(x, &mut self.v);
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
        dp.resize(t * t, F::zero());
        self.wo.backward(&self.ctx, dy, dctx, false);
        for h in 0..HEADS {
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

/// In place on the `(t, t)` scores `s[q, k]` (column-major): each query's row becomes
/// `softmax(scale · s[q, 0..=q])`, and the future keys k > q get 0. Per query the max and the
/// sum run over k = 0, 1, …, q in order; the loops go down key columns, so they vectorise
/// over the queries. (A function of its own: inlined into the attention forward, its
/// exponentials stayed scalar natively.)
#[inline(never)]
pub fn softmax_causal<F: Real>(s: &mut [F], t: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    for (m, &v) in max.iter_mut().zip(&s[..t]) {
        *m = v * scale;
    }
    for key in 1..t {
        for (m, &v) in max[key..].iter_mut().zip(&s[key * t + key..(key + 1) * t]) {
            // Natively `max`, not `if z > m { m = z }`, which vectorises as a masked store (slow
            // on AMD's cores); in wasm the `if` (there `max` has other NaN rules, and Rust's
            // emulation of its own made the attention step twice as slow). The two differ only
            // once m is NaN (max moves on), and then the query's first score was NaN, so its
            // sum and every P of it are NaN either way.
            let z = v * scale;
            if cfg!(target_arch = "wasm32") {
                if z > *m {
                    *m = z;
                }
            } else {
                *m = m.max(z);
            }
        }
    }
    sum.fill(F::zero());
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        col[..key].fill(F::zero());
        let exp_and_sum = |v: &mut F, m: F, acc: &mut F| {
            *v = (*v * scale - m).exp_det();
            *acc += *v;
        };
        let (col, max, sum) = (&mut col[key..], &max[key..], &mut sum[key..]);
        if cfg!(target_arch = "wasm32") {
            // (in wasm the plain loop is the faster: 7.3 against 8.8 µs per head in Node)
            col.iter_mut().zip(max).zip(sum).for_each(|((v, &m), acc)| exp_and_sum(v, m, acc));
        } else {
            by_eights(col, max, sum, exp_and_sum);
        }
    }
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        for (v, &acc) in col[key..].iter_mut().zip(&sum[key..]) {
            *v /= acc;
        }
    }
}

/// `f(&mut a[i], b[i], &mut c[i])` for every i, 8 at a time and then one by one: the compiler
/// makes each group of 8 one vector operation. A plain loop it unrolls 32 wide, and the short
/// columns of a causal matrix (a key's column holds T − key queries) then ran in its scalar tail.
#[inline(always)]
fn by_eights<F: Copy>(a: &mut [F], b: &[F], c: &mut [F], mut f: impl FnMut(&mut F, F, &mut F)) {
    let n = a.len().min(b.len()).min(c.len());
    let (mut a8, mut b8, mut c8) =
        (a[..n].chunks_exact_mut(8), b[..n].chunks_exact(8), c[..n].chunks_exact_mut(8));
    for ((x, y), z) in (&mut a8).zip(&mut b8).zip(&mut c8) {
        for l in 0..8 {
            f(&mut x[l], y[l], &mut z[l]);
        }
    }
    let rest = a8.into_remainder().iter_mut().zip(b8.remainder()).zip(c8.into_remainder());
    for ((x, &y), z) in rest {
        f(x, y, z);
    }
}

/// In place: `dp ← ∂L/∂s` for `p = softmax(scale · s)` row by row as above, given `dp = ∂L/∂p`.
/// `inner` is scratch for each query's `Σ_k p dp`, summed over k = 0, 1, …, q in order.
pub fn softmax_causal_backward<F: Real>(p: &[F], dp: &mut [F], t: usize, scale: F, inner: &mut [F]) {
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
    fn causal_softmax_is_each_querys_softmax_in_key_order() {
        let mut rng = Rng::new(9, Stream::Data);
        for t in [1, 2, 7, 8, 9, 13, 16, 64, 70] {
            let s0 = scores(t, &mut rng);
            let scale = 0.35f32;
            let mut p = s0.clone();
            let (mut max, mut sum) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal(&mut p, t, scale, &mut max, &mut sum);
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
                    let got = p[key * t + q];
                    assert!(
                        got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan(),
                        "t {t}, query {q}, key {key}: {got} vs {want}"
                    );
                }
            }
        }
    }
}
