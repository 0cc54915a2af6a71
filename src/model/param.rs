//! A learned tensor and its gradient.

use crate::model::real::Real;
use crate::model::rng::Rng;
use crate::model::stats::sum8;
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Param<F: Real> {
    pub value: DMatrix<F>,
    pub grad: DMatrix<F>,
}

impl<F: Real> Param<F> {
    pub fn constant(rows: usize, cols: usize, v: F) -> Self {
        Param { value: DMatrix::from_element(rows, cols, v), grad: DMatrix::zeros(rows, cols) }
    }

    /// Entries ~ N(0, std²), drawn column by column.
    pub fn normal(rows: usize, cols: usize, std: f64, rng: &mut Rng) -> Self {
        let values = (0..rows * cols).map(|_| F::of(std * rng.normal())); // column-major order
        Param { value: DMatrix::from_iterator(rows, cols, values), grad: DMatrix::zeros(rows, cols) }
    }

    pub fn grad_sq_sum(&self) -> f64 {
        sum8(self.grad.as_slice(), |g| g.f64() * g.f64())
    }
}

/// Anything that owns parameters lets a visitor walk them in a fixed order
/// (the optimiser relies on that order to pair each parameter with its state).
pub trait Params<F: Real> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>));

    /// ‖∂L/∂θ‖ over every parameter visited.
    fn grad_norm(&mut self) -> f64 {
        let mut s = 0.0;
        self.visit(&mut |p| s += p.grad_sq_sum());
        s.sqrt()
    }
}
