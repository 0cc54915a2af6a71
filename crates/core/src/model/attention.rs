//! Multi-head attention: the only sublayer that mixes positions. Causal self-attention (a
//! decoder's), self-attention without a mask (an encoder's, or a decoder's with the mask off),
//! and cross-attention (an encoder–decoder's decoder: queries from its own stream, keys and
//! values from the encoder's last output, its `Memory`).
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
//!
//! Without the mask, and for cross-attention, every query sees every key of its sequence: the
//! scores of each sequence are a full `(C_q, C_k)` (C_k the memory's positions for
//! cross-attention), through the full products and `softmax_dense`, always by sequences. For
//! cross-attention `K = m W_k`, `V = m W_v` for the memory m, and the backward adds
//! `∂L/∂m = dK W_kᵀ + dV W_vᵀ` into the memory's gradient, which the stack carries back to the
//! encoder.

use crate::model::kernels::matmul::{
    gemm_nn, gemm_nn_lower_a, gemm_nt, gemm_nt_lower_c, gemm_tn, gemm_tn_lower_a,
};
use crate::model::kernels::softmax::{softmax_causal, softmax_causal_backward};
use crate::model::kernels::softmax_dense::{softmax_rows, softmax_rows_backward};
use crate::model::linear::Linear;
use crate::model::param::{Draw, InitGain, Param, Params};
use crate::model::real::Real;
use crate::model::scratch::{sized, Scratch};
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Attention<F: Real> {
    pub wq: Linear<F>, // (d, d)
    pub wk: Linear<F>, // (d, d)
    pub wv: Linear<F>, // (d, d)
    pub wo: Linear<F>, // (d, d)
    q: DMatrix<F>,     // (T, d)
    k: DMatrix<F>,     // (T, d), or (T_m, d) for cross-attention
    v: DMatrix<F>,     // (T, d), or (T_m, d)
    ctx: DMatrix<F>,   // (T, d) heads' outputs side by side
    probs: Vec<F>,     // H × (T / C) × (C, C_k) column-major P per head and sequence
    row_max: Vec<F>,   // (T) per query: the max score, then Σ_s P dP
    row_sum: Vec<F>,   // (T) per query: Σ_s exp
    /// Positions per sequence C (T when the batch is one sequence).
    context: usize,
    /// Heads H, each of d / H of the width's columns.
    pub heads: usize,
    /// One sequence's rows of one head, each (max(C, C_k), d_h): Q, K, V and C in the
    /// forward; dC, an operand (V, K, then Q), dV and a gradient (dQ, then dK) in the backward.
    rows: [Vec<F>; 4],
    /// Each token sees only the earlier tokens of its sequence (a decoder's self-attention).
    masked: bool,
    /// Cross-attention's keys and values come from here (None: self-attention).
    pub memory: Option<Memory<F>>,
}

/// What cross-attention attends to: the encoder's last output, which the stack copies in
/// before the decoder's pass, and its gradient, which the backward writes.
#[derive(Clone)]
pub struct Memory<F: Real> {
    /// (T_m, d) the source positions of every sequence, in sequences of `context`.
    pub x: DMatrix<F>,
    /// (T_m, d) `∂L/∂x` from the last backward.
    pub grad: DMatrix<F>,
    context: usize,
}

impl<F: Real> Attention<F> {
    /// For batches of `tokens` tokens in sequences of `context` positions (a divisor of `tokens`),
    /// with `heads` heads (a divisor of `width`). Queries and keys are drawn at `gain.gain`,
    /// values and the output at `gain.output()`.
    pub fn new(
        tokens: usize,
        context: usize,
        width: usize,
        heads: usize,
        gain: InitGain,
        draw: &mut Draw<F>,
    ) -> Self {
        assert!(context > 0 && tokens.is_multiple_of(context), "{tokens} tokens in sequences of {context}");
        assert!(heads > 0 && width.is_multiple_of(heads), "{heads} heads of a width {width}");
        Self::attending(tokens, context, None, width, heads, gain, draw)
    }

    /// Cross-attention for batches of `tokens` queries in sequences of `context`, to a memory
    /// of `memory_tokens` in sequences of `memory_context` (as many sequences). Its weights are
    /// drawn as self-attention's.
    pub fn cross(
        (tokens, context): (usize, usize),
        (memory_tokens, memory_context): (usize, usize),
        width: usize,
        heads: usize,
        gain: InitGain,
        draw: &mut Draw<F>,
    ) -> Self {
        assert_eq!(tokens / context, memory_tokens / memory_context, "as many sequences as the memory");
        Self::attending(tokens, context, Some((memory_tokens, memory_context)), width, heads, gain, draw)
    }

    fn attending(
        tokens: usize,
        context: usize,
        memory: Option<(usize, usize)>,
        width: usize,
        heads: usize,
        gain: InitGain,
        draw: &mut Draw<F>,
    ) -> Self {
        assert!(context > 0 && tokens.is_multiple_of(context), "{tokens} tokens in sequences of {context}");
        assert!(heads > 0 && width.is_multiple_of(heads), "{heads} heads of a width {width}");
        let m = || DMatrix::zeros(tokens, width);
        let (key_tokens, key_context) = memory.unwrap_or((tokens, context));
        let rows = || vec![F::zero(); context.max(key_context) * (width / heads)];
        let key = || DMatrix::zeros(key_tokens, width);
        Attention {
            wq: Linear::new(width, width, gain.gain, false, draw),
            wk: Linear::new(width, width, gain.gain, false, draw),
            wv: Linear::new(width, width, gain.output(), false, draw),
            wo: Linear::new(width, width, gain.output(), false, draw),
            q: m(),
            k: key(),
            v: key(),
            ctx: m(),
            probs: vec![F::zero(); heads * tokens * key_context],
            row_max: vec![F::zero(); tokens],
            row_sum: vec![F::zero(); tokens],
            context,
            heads,
            rows: [rows(), rows(), rows(), rows()],
            masked: memory.is_none(),
            memory: memory.map(|(_, c)| Memory { x: key(), grad: key(), context: c }),
        }
    }

    /// Self-attention causal (`true`) or seeing the whole sequence: the same weights either way
    /// (what the mask switch changes, and what the stack sets to measure a model trained
    /// without the mask with it). Cross-attention is never masked.
    pub fn set_masked(&mut self, masked: bool) {
        self.masked = masked && self.memory.is_none();
    }

    /// Each token sees only the earlier tokens of its sequence.
    pub fn is_masked(&self) -> bool {
        self.masked
    }

    /// Positions per sequence of the keys: the memory's for cross-attention, else the queries'.
    pub fn key_context(&self) -> usize {
        self.memory.as_ref().map_or(self.context, |m| m.context)
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
        let dh = d / self.heads;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        self.wq.forward(x, &mut self.q);
        let keys = self.memory.as_ref().map_or(x, |m| &m.x);
        self.wk.forward(keys, &mut self.k);
        self.wv.forward(keys, &mut self.v);
        if !self.masked {
            self.attend_dense(dh, scale);
            self.wo.forward(&self.ctx, y);
            return;
        }
        if self.context < t {
            self.attend_by_sequences(dh, scale);
            self.wo.forward(&self.ctx, y);
            return;
        }
        for h in 0..self.heads {
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
        let dh = d / self.heads;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        let Scratch { dq, dk, dv, dctx, dp, .. } = scratch;
        let key_tokens = self.k.nrows();
        let [dq, dctx] = [dq, dctx].map(|m| sized(m, t, d));
        let [dk, dv] = [dk, dv].map(|m| sized(m, key_tokens, d));
        dp.resize(t * self.context.max(self.key_context()), F::zero());
        self.wo.backward(&self.ctx, dy, dctx, false);
        if !self.masked {
            self.back_dense(dh, scale, [&mut *dq, &mut *dk, &mut *dv, &mut *dctx], dp);
            self.wq.backward(x, dq, dx, false);
            match &mut self.memory {
                Some(m) => {
                    self.wk.backward(&m.x, dk, &mut m.grad, false);
                    self.wv.backward(&m.x, dv, &mut m.grad, true);
                }
                None => {
                    self.wk.backward(x, dk, dx, true);
                    self.wv.backward(x, dv, dx, true);
                }
            }
            return;
        }
        if self.context < t {
            self.back_by_sequences(dh, scale, [&mut *dq, &mut *dk, &mut *dv, &mut *dctx], dp);
        }
        for h in (0..self.heads).filter(|_| self.context == t) {
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
    /// Without the mask (and for cross-attention) row q holds `P[q, s]` for every key s of the
    /// sequence (C_k of them).
    pub fn weights(&self, b: usize, out: &mut Vec<f32>) {
        let (t, c) = (self.q.nrows(), self.context);
        if !self.masked {
            let ck = self.key_context();
            for h in 0..self.heads {
                let p = &self.probs[(h * (t / c) + b) * c * ck..][..c * ck]; // P[q, s] at s·C + q
                for q in 0..c {
                    out.extend((0..ck).map(|s| p[s * c + q].f64() as f32));
                }
            }
            return;
        }
        for h in 0..self.heads {
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
        let [q_h, k_h, v_h, c_h] = &mut self.rows;
        for h in 0..self.heads {
            for b in 0..t / c {
                let rows = Rows { t, c, dh, h, b };
                rows.gather(self.q.as_slice(), q_h);
                rows.gather(self.k.as_slice(), k_h);
                rows.gather(self.v.as_slice(), v_h);
                let p = &mut self.probs[(h * (t / c) + b) * c * c..][..c * c];
                // S = Q_h K_hᵀ, P = softmax(S / √d_h), C_h = P V_h      (C, d_h) each
                gemm_nt_lower_c(c, dh, q_h, k_h, p);
                softmax_causal(p, c, scale, &mut self.row_max[..c], &mut self.row_sum[..c]);
                gemm_nn_lower_a(c, dh, p, v_h, c_h);
                rows.scatter(c_h, self.ctx.as_mut_slice());
            }
        }
    }

    /// The backward's heads when the batch holds several sequences: `dQ`, `dK`, `dV` from
    /// `dC`, per head and per sequence, as `backward` does for one.
    fn back_by_sequences(&mut self, dh: usize, scale: F, grads: [&mut DMatrix<F>; 4], dp: &mut [F]) {
        let (t, c) = (self.q.nrows(), self.context);
        let [dq, dk, dv, dctx] = grads;
        let [dc_h, operand, dv_h, grad] = &mut self.rows;
        for h in 0..self.heads {
            for b in 0..t / c {
                let rows = Rows { t, c, dh, h, b };
                let p = &self.probs[(h * (t / c) + b) * c * c..][..c * c];
                rows.gather(dctx.as_slice(), dc_h);
                // dV_h = Pᵀ dC_h
                gemm_tn_lower_a(c, dh, p, dc_h, dv_h);
                rows.scatter(dv_h, dv.as_mut_slice());
                // dP = dC_h V_hᵀ, then dS
                rows.gather(self.v.as_slice(), operand);
                gemm_nt_lower_c(c, dh, dc_h, operand, dp);
                softmax_causal_backward(p, dp, c, scale, &mut self.row_max[..c]);
                // dQ_h = dS K_h
                rows.gather(self.k.as_slice(), operand);
                gemm_nn_lower_a(c, dh, dp, operand, grad);
                rows.scatter(grad, dq.as_mut_slice());
                // dK_h = dSᵀ Q_h
                rows.gather(self.q.as_slice(), operand);
                gemm_tn_lower_a(c, dh, dp, operand, grad);
                rows.scatter(grad, dk.as_mut_slice());
            }
        }
    }
}

impl<F: Real> Attention<F> {
    /// The forward's heads without a mask (and cross-attention's): per head and per sequence,
    /// `S = Q_h K_hᵀ` over every key, `P = softmax(S / √d_h)`, `C_h = P V_h`.
    fn attend_dense(&mut self, dh: usize, scale: F) {
        let (t, c) = (self.q.nrows(), self.context);
        let (tk, ck) = (self.k.nrows(), self.key_context());
        let [q_h, k_h, v_h, c_h] = &mut self.rows;
        let (q_h, c_h, k_h, v_h) =
            (&mut q_h[..c * dh], &mut c_h[..c * dh], &mut k_h[..ck * dh], &mut v_h[..ck * dh]);
        for h in 0..self.heads {
            for b in 0..t / c {
                let (queries, keys) = (Rows { t, c, dh, h, b }, Rows { t: tk, c: ck, dh, h, b });
                queries.gather(self.q.as_slice(), q_h);
                keys.gather(self.k.as_slice(), k_h);
                keys.gather(self.v.as_slice(), v_h);
                let p = &mut self.probs[(h * (t / c) + b) * c * ck..][..c * ck];
                // S = Q_h K_hᵀ                                  (C, d_h) · (d_h, C_k)
                gemm_nt(c, dh, ck, q_h, k_h, p, false);
                softmax_rows(p, c, ck, scale, &mut self.row_max[..c], &mut self.row_sum[..c]);
                // C_h = P V_h                                   (C, C_k) · (C_k, d_h)
                gemm_nn(c, ck, dh, p, v_h, c_h, false);
                queries.scatter(c_h, self.ctx.as_mut_slice());
            }
        }
    }

    /// The backward's heads without a mask: `dQ`, `dK`, `dV` from `dC`, per head and sequence.
    fn back_dense(&mut self, dh: usize, scale: F, grads: [&mut DMatrix<F>; 4], dp: &mut [F]) {
        let (t, c) = (self.q.nrows(), self.context);
        let (tk, ck) = (self.k.nrows(), self.key_context());
        let [dq, dk, dv, dctx] = grads;
        let [dc_h, operand, dv_h, grad] = &mut self.rows;
        let dc_h = &mut dc_h[..c * dh];
        let dp = &mut dp[..c * ck];
        for h in 0..self.heads {
            for b in 0..t / c {
                let (queries, keys) = (Rows { t, c, dh, h, b }, Rows { t: tk, c: ck, dh, h, b });
                let p = &self.probs[(h * (t / c) + b) * c * ck..][..c * ck];
                queries.gather(dctx.as_slice(), dc_h);
                // dV_h = Pᵀ dC_h                               (C_k, C) · (C, d_h)
                gemm_tn(ck, c, dh, p, dc_h, &mut dv_h[..ck * dh], false);
                keys.scatter(&dv_h[..ck * dh], dv.as_mut_slice());
                // dP = dC_h V_hᵀ, then dS
                keys.gather(self.v.as_slice(), &mut operand[..ck * dh]);
                gemm_nt(c, dh, ck, dc_h, &operand[..ck * dh], dp, false);
                softmax_rows_backward(p, dp, c, ck, scale, &mut self.row_max[..c]);
                // dQ_h = dS K_h                                (C, C_k) · (C_k, d_h)
                keys.gather(self.k.as_slice(), &mut operand[..ck * dh]);
                gemm_nn(c, ck, dh, dp, &operand[..ck * dh], &mut grad[..c * dh], false);
                queries.scatter(&grad[..c * dh], dq.as_mut_slice());
                // dK_h = dSᵀ Q_h                               (C_k, C) · (C, d_h)
                queries.gather(self.q.as_slice(), &mut operand[..c * dh]);
                gemm_tn(ck, c, dh, dp, &operand[..c * dh], &mut grad[..ck * dh], false);
                keys.scatter(&grad[..ck * dh], dk.as_mut_slice());
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

impl<F: Real> Params<F> for Attention<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.wq.visit(f);
        self.wk.visit(f);
        self.wv.visit(f);
        self.wo.visit(f);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        for (name, w) in [("q", &self.wq), ("k", &self.wk), ("v", &self.wv), ("o", &self.wo)] {
            w.names(&format!("{prefix}.{name}"), out);
        }
    }
}
