//! Elementwise nonlinearities, each forward beside its derivative.
//! The `if` forms (not `max`) vectorise under wasm simd128, and ReLU lets NaN through
//! (as PyTorch does) so that a diverged run cannot hide behind a zero.

use crate::model::real::Real;

/// `y = relu(z)`
pub fn relu_forward<F: Real>(z: &[F], y: &mut [F]) {
    for (yi, &zi) in y.iter_mut().zip(z) {
        *yi = if zi < F::zero() { F::zero() } else { zi };
    }
}

/// `dz = dy · [z > 0]`
pub fn relu_backward<F: Real>(z: &[F], dy: &[F], dz: &mut [F]) {
    for ((dzi, &zi), &dyi) in dz.iter_mut().zip(z).zip(dy) {
        *dzi = if zi > F::zero() { dyi } else { F::zero() };
    }
}

/// `y = gelu(z) = z Φ(z)`, the exact (erf) form. `z` is then overwritten with the slope
/// `gelu'(z) = Φ(z) + z φ(z)`, which is all the backward needs: one exp per entry serves Φ and φ.
pub fn gelu_forward<F: Real>(z: &mut [F], y: &mut [F]) {
    F::gelu_and_slope(z, y);
}

/// `dy ← dz = dy · gelu'(z)` in place, given the slope the forward left in place of `z`.
pub fn gelu_backward<F: Real>(slope: &[F], dy: &mut [F]) {
    for (g, &si) in dy.iter_mut().zip(slope) {
        *g *= si;
    }
}
