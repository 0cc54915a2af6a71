//! The lessons' toy sublayer: `F(x) = relu(x W)`.

use crate::model::activation::{relu_backward, relu_forward};
use crate::model::linear::Linear;
use crate::model::param::{Draw, Param, Params};
use crate::model::real::Real;
use crate::model::scratch::{sized, Scratch};
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Mlp<F: Real> {
    pub linear: Linear<F>, // (d, d), no bias
    z: DMatrix<F>,         // (T, d) pre-activation x W
}

impl<F: Real> Mlp<F> {
    pub fn new(tokens: usize, width: usize, gain: f64, draw: &mut Draw<F>) -> Self {
        Mlp { linear: Linear::new(width, width, gain, false, draw), z: DMatrix::zeros(tokens, width) }
    }

    /// Back to a freshly drawn state in place (as `new`, keeping the buffers).
    pub fn init(&mut self, gain: f64, draw: &mut Draw<F>) {
        self.linear.init(gain, draw);
    }

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        self.linear.forward(x, &mut self.z); // (T, d)
        relu_forward(self.z.as_slice(), y.as_mut_slice());
    }

    pub fn backward(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        let dz = sized(&mut scratch.dz, dy.nrows(), dy.ncols());
        relu_backward(self.z.as_slice(), dy.as_slice(), dz.as_mut_slice());
        self.linear.backward(x, dz, dx, false);
    }
}

impl<F: Real> Params<F> for Mlp<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.linear.visit(f);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        self.linear.names(&format!("{prefix}.mlp"), out);
    }
}
