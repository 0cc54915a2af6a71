//! Token and position embeddings, what feeds the stack on the sequence tasks:
//! `x₀[t] = E[id_t] + P[t mod C]` for a batch of sequences of `C` positions each.
//! Each table's entries are drawn N(0, ½), so that `x₀` has unit variance as the teacher
//! task's tokens do.

use crate::model::param::{Draw, Param, Params};
use crate::model::real::Real;
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Embedding<F: Real> {
    pub tokens: Param<F>,    // (V, d)
    pub positions: Param<F>, // (C, d)
}

impl<F: Real> Embedding<F> {
    pub fn new(vocab: usize, context: usize, width: usize, draw: &mut Draw<F>) -> Self {
        let std = 0.5f64.sqrt();
        Embedding {
            tokens: Param::normal(vocab, width, std, draw),
            positions: Param::normal(context, width, std, draw),
        }
    }

    /// Back to `new`'s state in place, from the same `draw`.
    pub fn init(&mut self, draw: &mut Draw<F>) {
        let std = 0.5f64.sqrt();
        draw.fill(self.tokens.value.as_mut_slice(), std);
        draw.fill(self.positions.value.as_mut_slice(), std);
    }

    /// `x[t] = E[ids[t]] + P[t mod C]`                       ids (T) → x (T, d)
    pub fn forward(&self, ids: &[u32], x: &mut DMatrix<F>) {
        let context = self.positions.value.nrows();
        for j in 0..x.ncols() {
            for (t, &id) in ids.iter().enumerate() {
                x[(t, j)] = self.tokens.value[(id as usize, j)] + self.positions.value[(t % context, j)];
            }
        }
    }

    /// Sets `∂L/∂E[v] = Σ_{t: ids[t]=v} dx[t]` and `∂L/∂P[c] = Σ_{t mod C = c} dx[t]`.
    pub fn backward(&mut self, ids: &[u32], dx: &DMatrix<F>) {
        let context = self.positions.value.nrows();
        self.tokens.grad.fill(F::zero());
        self.positions.grad.fill(F::zero());
        for j in 0..dx.ncols() {
            for (t, &id) in ids.iter().enumerate() {
                let g = dx[(t, j)];
                self.tokens.grad[(id as usize, j)] += g;
                self.positions.grad[(t % context, j)] += g;
            }
        }
    }
}

impl<F: Real> Params<F> for Embedding<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        f(&mut self.tokens);
        f(&mut self.positions);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        out.extend([format!("{prefix}.tokens"), format!("{prefix}.positions")]);
    }
}
