//! The scalar type the model is written over.
//!
//! The playground runs in `f32`; the gradient checks run the very same code in `f64`
//! so that central finite differences are precise enough to catch a wrong backward.
//! Transcendental functions come from the pure-Rust `libm` crate on every target:
//! the platform's own `expf` differs between glibc and wasm in the last bit, and we
//! promise bit-identical runs natively and in the browser.

use nalgebra::RealField;

pub trait Real: RealField + Copy + Default + std::fmt::Debug {
    fn of(x: f64) -> Self;
    fn f64(self) -> f64;
    fn exp_det(self) -> Self;
    fn erf_det(self) -> Self;
    fn is_finite_det(self) -> bool {
        self.f64().is_finite()
    }
}

impl Real for f32 {
    #[inline(always)]
    fn of(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn exp_det(self) -> Self {
        libm::expf(self)
    }
    #[inline(always)]
    fn erf_det(self) -> Self {
        libm::erff(self)
    }
}

impl Real for f64 {
    #[inline(always)]
    fn of(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn exp_det(self) -> Self {
        libm::exp(self)
    }
    #[inline(always)]
    fn erf_det(self) -> Self {
        libm::erf(self)
    }
}
