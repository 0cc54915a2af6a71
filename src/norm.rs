//! LayerNorm and RMSNorm: per token, over its features.
//!
//! LayerNorm: `y = γ ⊙ (x − mean(x)) / √(var(x) + ε) + β`
//! RMSNorm:   `y = γ ⊙ x / √(mean(x²) + ε)`
//!
//! Activations are column-major `(T, d)`, so a feature is a contiguous column; the
//! per-token sums run column by column into a length-T buffer, which vectorises over tokens.

use crate::config::NormKind;
use crate::param::{Param, Params};
use crate::real::Real;
use nalgebra::DMatrix;

pub const EPS: f64 = 1e-5;

pub struct Norm<F: Real> {
    pub kind: NormKind,
    pub gamma: Param<F>,        // (1, d)
    pub beta: Option<Param<F>>, // (1, d), LayerNorm only
    xhat: DMatrix<F>,           // (T, d) normalised input, before γ and β
    inv: Vec<F>,                // (T) 1/√(var + ε) or 1/rms
    a: Vec<F>,                  // (T) scratch: mean of x, then of dx̂
    b: Vec<F>,                  // (T) scratch: variance, then mean of dx̂ ⊙ x̂
}

/// `acc[t] += f(x[t, j])` for every feature column j, in column order.
fn per_token_sum<F: Real>(x: &DMatrix<F>, acc: &mut [F], f: impl Fn(usize, F) -> F) {
    acc.fill(F::zero());
    for col in x.column_iter() {
        for (t, (s, &v)) in acc.iter_mut().zip(col.iter()).enumerate() {
            *s += f(t, v);
        }
    }
}

impl<F: Real> Norm<F> {
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

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        let d = F::of(x.ncols() as f64);
        let eps = F::of(EPS);
        match self.kind {
            NormKind::LayerNorm => {
                per_token_sum(x, &mut self.a, |_, v| v);
                self.a.iter_mut().for_each(|m| *m /= d); // mean
                let mean = &self.a;
                per_token_sum(x, &mut self.b, |t, v| (v - mean[t]) * (v - mean[t]));
                for (inv, &ss) in self.inv.iter_mut().zip(&self.b) {
                    *inv = F::one() / (ss / d + eps).sqrt();
                }
            }
            NormKind::RmsNorm => {
                self.a.fill(F::zero());
                per_token_sum(x, &mut self.b, |_, v| v * v);
                for (inv, &ss) in self.inv.iter_mut().zip(&self.b) {
                    *inv = F::one() / (ss / d + eps).sqrt();
                }
            }
        }
        let t_len = x.nrows();
        let gamma = self.gamma.value.as_slice();
        let (xs, hs, ys) = (x.as_slice(), self.xhat.as_mut_slice(), y.as_mut_slice());
        for j in 0..x.ncols() {
            let beta = self.beta.as_ref().map_or(F::zero(), |b| b.value[j]);
            let col = j * t_len..(j + 1) * t_len;
            for (t, ((&xv, h), yv)) in xs[col.clone()]
                .iter()
                .zip(&mut hs[col.clone()])
                .zip(&mut ys[col])
                .enumerate()
            {
                *h = (xv - self.a[t]) * self.inv[t];
                *yv = *h * gamma[j] + beta;
            }
        }
    }

    /// Sets ∂L/∂γ, ∂L/∂β and writes `dx` from `dy`.
    pub fn backward(&mut self, dy: &DMatrix<F>, dx: &mut DMatrix<F>) {
        let (t_len, width) = dy.shape();
        let d = F::of(width as f64);
        let gamma = self.gamma.value.as_slice();
        let (dys, hs, dxs) = (dy.as_slice(), self.xhat.as_slice(), dx.as_mut_slice());
        // a = Σ_j dx̂, b = Σ_j dx̂ ⊙ x̂ per token, with dx̂ = dy ⊙ γ
        self.a.fill(F::zero());
        self.b.fill(F::zero());
        for j in 0..width {
            let col = j * t_len..(j + 1) * t_len;
            let (dyc, hc) = (&dys[col.clone()], &hs[col]);
            self.gamma.grad[j] = dyc.iter().zip(hc).fold(F::zero(), |s, (&g, &h)| s + g * h);
            if let Some(b) = &mut self.beta {
                b.grad[j] = dyc.iter().fold(F::zero(), |s, &g| s + g);
            }
            for t in 0..t_len {
                let g = dyc[t] * gamma[j];
                self.a[t] += g;
                self.b[t] += g * hc[t];
            }
        }
        let centre = self.kind == NormKind::LayerNorm;
        for j in 0..width {
            let col = j * t_len..(j + 1) * t_len;
            let (dyc, hc, dxc) = (&dys[col.clone()], &hs[col.clone()], &mut dxs[col]);
            for t in 0..t_len {
                let g = dyc[t] * gamma[j];
                let mean_g = if centre { self.a[t] / d } else { F::zero() };
                dxc[t] = self.inv[t] * (g - mean_g - hc[t] * (self.b[t] / d));
            }
        }
    }
}

impl<F: Real> Params<F> for Norm<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        f(&mut self.gamma);
        if let Some(b) = &mut self.beta {
            f(b);
        }
    }
}
