//! A Transformer's position-wise feed-forward network: `F(x) = gelu(x W₁ + b₁) W₂ + b₂`, d → 4d → d.

use crate::model::activation::{gelu_backward, gelu_forward};
use crate::model::linear::Linear;
use crate::model::param::{Draw, Param, Params};
use crate::model::real::Real;
use crate::model::scratch::{sized, Scratch};
use nalgebra::DMatrix;

pub const EXPANSION: usize = 4;

#[derive(Clone)]
pub struct Ffn<F: Real> {
    pub up: Linear<F>,   // (d, 4d) + bias
    pub down: Linear<F>, // (4d, d) + bias
    z: DMatrix<F>,       // (T, 4d) x W₁ + b₁, then the slope gelu'(z)
    h: DMatrix<F>,       // (T, 4d) gelu(z)
}

impl<F: Real> Ffn<F> {
    pub fn new(tokens: usize, width: usize, gain: f64, draw: &mut Draw<F>) -> Self {
        let hidden = EXPANSION * width;
        Ffn {
            up: Linear::new(width, hidden, gain, true, draw),
            down: Linear::new(hidden, width, gain, true, draw),
            z: DMatrix::zeros(tokens, hidden),
            h: DMatrix::zeros(tokens, hidden),
        }
    }

    /// Back to a freshly drawn state in place (as `new`: W₁ then W₂, keeping the buffers).
    pub fn init(&mut self, gain: f64, draw: &mut Draw<F>) {
        self.up.init(gain, draw);
        self.down.init(gain, draw);
    }

    pub fn forward(&mut self, x: &DMatrix<F>, y: &mut DMatrix<F>) {
        self.up.forward(x, &mut self.z); // (T, 4d)
        gelu_forward(self.z.as_mut_slice(), self.h.as_mut_slice()); // (T, 4d)
        self.down.forward(&self.h, y); // (T, d)
    }

    pub fn backward(
        &mut self,
        x: &DMatrix<F>,
        dy: &DMatrix<F>,
        dx: &mut DMatrix<F>,
        scratch: &mut Scratch<F>,
    ) {
        let dh = sized(&mut scratch.dh, self.h.nrows(), self.h.ncols()); // ∂L/∂h, then ∂L/∂z
        self.down.backward(&self.h, dy, dh, false); // (T, 4d)
        gelu_backward(self.z.as_slice(), dh.as_mut_slice()); // dz = dh ⊙ gelu'(z), in place
        self.up.backward(x, dh, dx, false); // (T, d)
    }
}

impl<F: Real> Params<F> for Ffn<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        self.up.visit(f);
        self.down.visit(f);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        self.up.names(&format!("{prefix}.up"), out);
        self.down.names(&format!("{prefix}.down"), out);
    }
}
