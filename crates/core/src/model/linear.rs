//! `y = x W + b`: the only op with weights to multiply by.

use crate::model::compiled::{same, same_mut};
use crate::model::kernels::matmul::{column_sums, gemm_nn, gemm_nt, gemm_tn};
use crate::model::param::{Draw, Param, Params};
use crate::model::real::Real;
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Linear<F: Real> {
    pub weight: Param<F>,       // (in, out)
    pub bias: Option<Param<F>>, // (1, out)
}

impl<F: Real> Linear<F> {
    /// Weights ~ N(0, gain²/fan_in), bias zero.
    pub fn new(fan_in: usize, fan_out: usize, gain: f64, bias: bool, draw: &mut Draw<F>) -> Self {
        let std = gain / (fan_in as f64).sqrt();
        Linear {
            weight: Param::normal(fan_in, fan_out, std, draw),
            bias: bias.then(|| Param::constant(1, fan_out, F::zero())),
        }
    }

    /// Back to a freshly drawn state in place: what `new` gives for the same `draw`.
    pub fn init(&mut self, gain: f64, draw: &mut Draw<F>) {
        let std = gain / (self.weight.value.nrows() as f64).sqrt();
        draw.fill(self.weight.value.as_mut_slice(), std);
        if let Some(b) = &mut self.bias {
            b.value.fill(F::zero());
        }
    }

    /// `y = x W + b`                                     (T, in) · (in, out) → (T, out)
    /// (Compiled in this crate for f32: `compiled.rs`.)
    pub fn forward(&self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        if let (Some(l), Some(x), Some(y)) = (same(self), same(x), same_mut(y)) {
            return forward_f32(l, x, y);
        }
        self.forward_here(x, y)
    }

    fn forward_here(&self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        let (t, fan_in) = x.shape();
        let fan_out = self.weight.value.ncols();
        gemm_nn(t, fan_in, fan_out, x.as_slice(), self.weight.value.as_slice(), y.as_mut_slice(), false);
        if let Some(b) = &self.bias {
            for (col, &bj) in y.as_mut_slice().chunks_exact_mut(t).zip(b.value.as_slice()) {
                col.iter_mut().for_each(|v| *v += bj);
            }
        }
    }

    /// Sets `∂L/∂W = xᵀ dy`, `∂L/∂b = Σ_t dy`, and writes (or adds, with `add`) `dx = dy Wᵀ`.
    pub fn backward(&mut self, x: &DMatrix<F>, dy: &DMatrix<F>, dx: &mut DMatrix<F>, add: bool) {
        if let (Some(l), Some(x), Some(dy), Some(dx)) = (same_mut(self), same(x), same(dy), same_mut(dx)) {
            return backward_f32(l, x, dy, dx, add);
        }
        self.backward_here(x, dy, dx, add)
    }

    fn backward_here(&mut self, x: &DMatrix<F>, dy: &DMatrix<F>, dx: &mut DMatrix<F>, add: bool) {
        let (t, fan_in) = x.shape();
        let fan_out = dy.ncols();
        let grad = self.weight.grad.as_mut_slice();
        gemm_tn(fan_in, t, fan_out, x.as_slice(), dy.as_slice(), grad, false); // (in, out)
        if let Some(b) = &mut self.bias {
            column_sums(t, dy.as_slice(), dy.as_slice(), b.grad.as_mut_slice(), |v, _| v);
            // (1, out)
        }
        gemm_nt(t, fan_out, fan_in, dy.as_slice(), self.weight.value.as_slice(), dx.as_mut_slice(), add);
        // (T, in)
    }
}

#[inline(never)]
fn forward_f32(l: &Linear<f32>, x: &DMatrix<f32>, y: &mut DMatrix<f32>) {
    l.forward_here(x, y)
}

#[inline(never)]
fn backward_f32(l: &mut Linear<f32>, x: &DMatrix<f32>, dy: &DMatrix<f32>, dx: &mut DMatrix<f32>, add: bool) {
    l.backward_here(x, dy, dx, add)
}

impl<F: Real> Params<F> for Linear<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        f(&mut self.weight);
        if let Some(b) = &mut self.bias {
            f(b);
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        out.push(format!("{prefix}.weight"));
        if self.bias.is_some() {
            out.push(format!("{prefix}.bias"));
        }
    }
}
