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

/// `y = gelu(z) = z Φ(z)`, the exact (erf) form.
pub fn gelu_forward<F: Real>(z: &[F], y: &mut [F]) {
    let half = F::of(0.5);
    let inv_sqrt2 = F::of(std::f64::consts::FRAC_1_SQRT_2);
    for (yi, &zi) in y.iter_mut().zip(z) {
        *yi = half * zi * (F::one() + (zi * inv_sqrt2).erf_det());
    }
}

/// `dz = dy · (Φ(z) + z φ(z))`
pub fn gelu_backward<F: Real>(z: &[F], dy: &[F], dz: &mut [F]) {
    let half = F::of(0.5);
    let inv_sqrt2 = F::of(std::f64::consts::FRAC_1_SQRT_2);
    let inv_sqrt_2pi = F::of(1.0 / (2.0 * std::f64::consts::PI).sqrt());
    for ((dzi, &zi), &dyi) in dz.iter_mut().zip(z).zip(dy) {
        let cdf = half * (F::one() + (zi * inv_sqrt2).erf_det());
        let pdf = inv_sqrt_2pi * (-half * zi * zi).exp_det();
        *dzi = dyi * (cdf + zi * pdf);
    }
}
