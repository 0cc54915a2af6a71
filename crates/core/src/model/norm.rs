//! LayerNorm and RMSNorm: per token, over its features.
//!
//! LayerNorm: `y = γ ⊙ (x − mean(x)) / √(var(x) + ε) + β`
//! RMSNorm:   `y = γ ⊙ x / √(mean(x²) + ε)`
//!
//! Activations are column-major `(T, d)`, so a feature is a contiguous column; the
//! per-token sums run column by column into a length-T buffer, which vectorises over tokens.

use crate::config::NormKind;
use crate::model::compiled::{same, same_mut};
use crate::model::kernels::matmul::column_sums;
use crate::model::param::{Param, Params};
use crate::model::real::Real;
use nalgebra::DMatrix;

pub const EPS: f64 = 1e-5;

#[derive(Clone)]
pub struct Norm<F: Real> {
    pub kind: NormKind,
    pub gamma: Param<F>,        // (1, d)
    pub beta: Option<Param<F>>, // (1, d), LayerNorm only
    xhat: DMatrix<F>,           // (T, d) normalised input, before γ and β
    inv: Vec<F>,                // (T) 1/√(var + ε) or 1/rms
    a: Vec<F>,                  // (T) scratch: mean of x, then of dx̂
    b: Vec<F>,                  // (T) scratch: variance, then mean of dx̂ ⊙ x̂
}

/// `acc[t] = Σ_j f(x[t, j], shift[t])` over the feature columns j, in column order.
fn per_token_sum<F: Real>(x: &DMatrix<F>, shift: &[F], acc: &mut [F], f: impl Fn(F, F) -> F) {
    acc.fill(F::zero());
    for col in x.as_slice().chunks_exact(x.nrows()) {
        for ((s, &v), &c) in acc.iter_mut().zip(col).zip(shift) {
            *s += f(v, c);
        }
    }
}

impl<F: Real> Norm<F> {
    /// The last forward pass's normalised input `x̂`, before γ and β.
    pub fn normalised(&self) -> &DMatrix<F> {
        &self.xhat
    }

    pub fn new(kind: NormKind, tokens: usize, width: usize) -> Self {
        Norm {
            kind,
            gamma: Param::constant(1, width, F::one()),
            beta: (kind == NormKind::LayerNorm).then(|| Param::constant(1, width, F::zero())),
            xhat: DMatrix::zeros(tokens, width),
            inv: vec![F::zero(); tokens],
            a: vec![F::zero(); tokens],
            b: vec![F::zero(); tokens],
        }
    }

    /// Back to γ = 1, β = 0.
    pub fn init(&mut self) {
        self.gamma.value.fill(F::one());
        if let Some(b) = &mut self.beta {
            b.value.fill(F::zero());
        }
    }

    /// `y = γ ⊙ (x − mean) / σ + β` per token (RMSNorm: no mean, no β). (Compiled in this
    /// crate for f32, as `backward` is: `compiled.rs`.)
    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        if let (Some(n), Some(x), Some(y)) = (same_mut(self), same(x), same_mut(y)) {
            return forward_f32(n, x, y);
        }
        self.forward_here(x, y)
    }

    fn forward_here(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        let d = F::of(x.ncols() as f64);
        let eps = F::of(EPS);
        let (mean, sq) = (&mut self.a, &mut self.b);
        match self.kind {
            NormKind::LayerNorm => {
                per_token_sum(x, &self.inv, mean, |v, _| v);
                mean.iter_mut().for_each(|m| *m /= d);
                per_token_sum(x, mean, sq, |v, m| (v - m) * (v - m));
            }
            NormKind::RmsNorm => {
                mean.fill(F::zero());
                per_token_sum(x, mean, sq, |v, _| v * v);
            }
        }
        for (inv, &ss) in self.inv.iter_mut().zip(sq.iter()) {
            *inv = F::one() / (ss / d + eps).sqrt();
        }
        let t_len = x.nrows();
        let gamma = self.gamma.value.as_slice();
        let (xs, hs, ys) = (x.as_slice(), self.xhat.as_mut_slice(), y.as_mut_slice());
        for (j, ((xc, hc), yc)) in
            xs.chunks_exact(t_len).zip(hs.chunks_exact_mut(t_len)).zip(ys.chunks_exact_mut(t_len)).enumerate()
        {
            let (g, beta) = (gamma[j], self.beta.as_ref().map_or(F::zero(), |b| b.value[j]));
            for ((((&xv, h), yv), &m), &inv) in xc.iter().zip(hc).zip(yc).zip(mean.iter()).zip(&self.inv) {
                *h = (xv - m) * inv;
                *yv = *h * g + beta;
            }
        }
    }

    /// Sets ∂L/∂γ, ∂L/∂β and writes `dx` from `dy`.
    pub fn backward(&mut self, dy: &DMatrix<F>, dx: &mut DMatrix<F>) {
        if let (Some(n), Some(dy), Some(dx)) = (same_mut(self), same(dy), same_mut(dx)) {
            return backward_f32(n, dy, dx);
        }
        self.backward_here(dy, dx)
    }

    fn backward_here(&mut self, dy: &DMatrix<F>, dx: &mut DMatrix<F>) {
        let (t_len, width) = dy.shape();
        let d = F::of(width as f64);
        let gamma = self.gamma.value.as_slice();
        let (dys, hs, dxs) = (dy.as_slice(), self.xhat.as_slice(), dx.as_mut_slice());
        // a = mean_j dx̂, b = mean_j dx̂ ⊙ x̂ per token, with dx̂ = dy ⊙ γ
        let (a, b) = (&mut self.a, &mut self.b);
        a.fill(F::zero());
        b.fill(F::zero());
        column_sums(t_len, dys, hs, self.gamma.grad.as_mut_slice(), |g, h| g * h); // (1, d)
        if let Some(beta) = &mut self.beta {
            column_sums(t_len, dys, dys, beta.grad.as_mut_slice(), |g, _| g); // (1, d)
        }
        for (j, (dyc, hc)) in dys.chunks_exact(t_len).zip(hs.chunks_exact(t_len)).enumerate() {
            for (((at, bt), &g), &h) in a.iter_mut().zip(b.iter_mut()).zip(dyc).zip(hc) {
                let g = g * gamma[j];
                *at += g;
                *bt += g * h;
            }
        }
        if self.kind == NormKind::RmsNorm {
            a.fill(F::zero()); // RMSNorm does not centre
        }
        a.iter_mut().chain(b.iter_mut()).for_each(|v| *v /= d);
        // dx = (dx̂ − a − x̂ ⊙ b) / σ
        for (j, ((dyc, hc), dxc)) in
            dys.chunks_exact(t_len).zip(hs.chunks_exact(t_len)).zip(dxs.chunks_exact_mut(t_len)).enumerate()
        {
            let it = dyc.iter().zip(hc).zip(dxc).zip(a.iter()).zip(b.iter()).zip(&self.inv);
            for (((((&g, &h), dx), &at), &bt), &inv) in it {
                *dx = inv * (g * gamma[j] - at - h * bt);
            }
        }
    }
}

#[inline(never)]
fn forward_f32(n: &mut Norm<f32>, x: &DMatrix<f32>, y: &mut DMatrix<f32>) {
    n.forward_here(x, y)
}

#[inline(never)]
fn backward_f32(n: &mut Norm<f32>, dy: &DMatrix<f32>, dx: &mut DMatrix<f32>) {
    n.backward_here(dy, dx)
}

impl<F: Real> Params<F> for Norm<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        f(&mut self.gamma);
        if let Some(b) = &mut self.beta {
            f(b);
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        out.push(format!("{prefix}.gamma"));
        if self.beta.is_some() {
            out.push(format!("{prefix}.beta"));
        }
    }
}
