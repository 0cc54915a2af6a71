//! Causal multi-head self-attention: the only sublayer that mixes positions.
//!
//! Per head h with `Q = x W_q`, `K = x W_k`, `V = x W_v` restricted to the head's columns:
//! `P = softmax(Q Kᵀ / √d_h)` with token t seeing only tokens s ≤ t, `C = P V`, and
//! `F(x) = C W_o`. Scores are kept transposed, `Sᵀ[s, t]`, so that each query's
//! probabilities are one contiguous column whose first t + 1 entries are the unmasked ones.

use crate::model::linear::Linear;
use crate::model::matmul::{gemm_nn, gemm_nt, gemm_tn};
use crate::model::param::{Param, Params};
use crate::model::real::Real;
use crate::model::rng::Rng;
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
    probs: Vec<F>,     // H × (T, T) column-major Pᵀ per head
    dq: DMatrix<F>,
    dk: DMatrix<F>,
    dv: DMatrix<F>,
    dctx: DMatrix<F>,
    dp: Vec<F>,      // (T, T) scratch
    scratch: Vec<F>, // transposes for gemm_tn
}

impl<F: Real> Attention<F> {
    pub fn new(tokens: usize, width: usize, gain: f64, rng: &mut Rng) -> Self {
        let m = || DMatrix::zeros(tokens, width);
        Attention {
            wq: Linear::new(width, width, gain, false, rng),
            wk: Linear::new(width, width, gain, false, rng),
            wv: Linear::new(width, width, gain, false, rng),
            wo: Linear::new(width, width, gain, false, rng),
            q: m(),
            k: m(),
            v: m(),
            ctx: m(),
            probs: vec![F::zero(); HEADS * tokens * tokens],
            dq: m(),
            dk: m(),
            dv: m(),
            dctx: m(),
            dp: vec![F::zero(); tokens * tokens],
            scratch: Vec::new(),
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
            // Sᵀ = K_h Q_hᵀ                                    (T, dh) · (dh, T) → (T, T)
            gemm_nt(t, dh, t, &self.k.as_slice()[cols.clone()], &self.q.as_slice()[cols.clone()], p, false);
            for query in 0..t {
                softmax_causal(&mut p[query * t..(query + 1) * t], query + 1, scale);
            }
            // C_h = P V_h = (Pᵀ)ᵀ V_h                          (T, T) · (T, dh) → (T, dh)
            gemm_tn(
                t,
                t,
                dh,
                p,
                &self.v.as_slice()[cols.clone()],
                &mut self.ctx.as_mut_slice()[cols],
                false,
                &mut self.scratch,
            );
        }
        self.wo.forward(&self.ctx, y);
    }

    pub fn backward(&mut self, x: &DMatrix<F>, dy: &DMatrix<F>, dx: &mut DMatrix<F>) {
        let (t, d) = x.shape();
        let dh = d / HEADS;
        let scale = F::of(1.0 / (dh as f64).sqrt());
        self.wo.backward(&self.ctx, dy, &mut self.dctx, false);
        for h in 0..HEADS {
            let cols = h * dh * t..(h + 1) * dh * t;
            let p = &self.probs[h * t * t..(h + 1) * t * t];
            let dc = &self.dctx.as_slice()[cols.clone()];
            // dV_h = Pᵀ dC_h                                   (T, T) · (T, dh)
            gemm_nn(t, t, dh, p, dc, &mut self.dv.as_mut_slice()[cols.clone()], false);
            // dPᵀ = V_h dC_hᵀ                                  (T, dh) · (dh, T)
            gemm_nt(t, dh, t, &self.v.as_slice()[cols.clone()], dc, &mut self.dp, false);
            for query in 0..t {
                let c = query * t..(query + 1) * t;
                softmax_causal_backward(&p[c.clone()], &mut self.dp[c], query + 1, scale);
            }
            // now dp holds dSᵀ (with respect to the unscaled scores)
            // dQ_h = (dSᵀ)ᵀ K_h                                (T, T) · (T, dh)
            gemm_tn(
                t,
                t,
                dh,
                &self.dp,
                &self.k.as_slice()[cols.clone()],
                &mut self.dq.as_mut_slice()[cols.clone()],
                false,
                &mut self.scratch,
            );
            // dK_h = dSᵀ Q_h                                   (T, T) · (T, dh)
            gemm_nn(
                t,
                t,
                dh,
                &self.dp,
                &self.q.as_slice()[cols.clone()],
                &mut self.dk.as_mut_slice()[cols],
                false,
            );
        }
        self.wq.backward(x, &self.dq, dx, false);
        self.wk.backward(x, &self.dk, dx, true);
        self.wv.backward(x, &self.dv, dx, true);
    }
}

/// In place: `s[..visible] ← softmax(scale · s[..visible])`, the rest (future tokens) ← 0.
pub fn softmax_causal<F: Real>(s: &mut [F], visible: usize, scale: F) {
    let mut max = s[0] * scale;
    for &v in &s[1..visible] {
        let z = v * scale;
        if z > max {
            max = z;
        }
    }
    let mut sum = F::zero();
    for v in &mut s[..visible] {
        *v = (*v * scale - max).exp_det();
        sum += *v;
    }
    for v in &mut s[..visible] {
        *v /= sum;
    }
    s[visible..].fill(F::zero());
}

/// In place: `dp ← ∂L/∂s` for `p = softmax(scale · s)`, given `dp = ∂L/∂p`.
pub fn softmax_causal_backward<F: Real>(p: &[F], dp: &mut [F], visible: usize, scale: F) {
    let inner = p[..visible].iter().zip(&dp[..visible]).fold(F::zero(), |s, (&pi, &gi)| s + pi * gi);
    for (g, &pi) in dp[..visible].iter_mut().zip(p) {
        *g = scale * pi * (*g - inner);
    }
    dp[visible..].fill(F::zero());
}

impl<F: Real> Params<F> for Attention<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.wq.visit(f);
        self.wk.visit(f);
        self.wv.visit(f);
        self.wo.visit(f);
    }
}
