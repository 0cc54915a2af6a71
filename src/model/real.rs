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
    /// `(Φ(x), φ(x))`, the standard normal's cdf and density (GELU and its slope need both).
    fn normal_cdf_pdf(self) -> (Self, Self);
    fn is_finite_det(self) -> bool {
        self.f64().is_finite()
    }
    /// Runs `f` with this thread's scratch buffer for this type: kernels that need room for
    /// intermediate results borrow it, so a training step allocates nothing once it has grown.
    fn with_scratch<R>(f: impl FnOnce(&mut Vec<Self>) -> R) -> R;
}

thread_local! {
    static SCRATCH_F32: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
    static SCRATCH_F64: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Real for f32 {
    fn with_scratch<R>(f: impl FnOnce(&mut Vec<Self>) -> R) -> R {
        SCRATCH_F32.with(|s| f(&mut s.borrow_mut()))
    }
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
        exp_f32(self)
    }
    #[inline(always)]
    fn erf_det(self) -> Self {
        erf_f32(self)
    }
    #[inline(always)]
    fn normal_cdf_pdf(self) -> (Self, Self) {
        normal_cdf_pdf_f32(self)
    }
}

/// `eˣ` in plain arithmetic (so it vectorises, and is the same on every target): Cody–Waite
/// range reduction `x = k ln2 + r`, a degree-7 polynomial for `eʳ`, and `2ᵏ` from the bits.
/// Arguments are clamped to [−87.3, 88] (results stay normal); NaN stays NaN.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4; // exactly representable, so k·LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    let x = x.clamp(-87.3, 88.0);
    let k = (x * std::f32::consts::LOG2_E + 0.5).floor();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // 2ᵏ: adding 1.5·2²³ puts the integer k in the low mantissa bits (k is integral and small,
    // so the sum is exact); this avoids `k as i32`, whose saturating conversion does not vectorise
    let k_bits = (k + 12_582_912.0).to_bits().wrapping_sub(0x4B40_0000);
    p * f32::from_bits(k_bits.wrapping_add(127) << 23)
}

/// `erf(x)` by Abramowitz & Stegun 7.1.26 (absolute error below 1.5·10⁻⁷, about f32's own).
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * a);
    let poly =
        t * (0.254_829_6 + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152 + t * 1.061_405_4))));
    let y = 1.0 - poly * exp_f32(-a * a);
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// `(Φ(x), φ(x))` in f32: `Φ(x) = (1 + erf(x/√2)) / 2` by the same formula as `erf_f32`, whose
/// `exp(−(x/√2)²)` is also `√(2π) φ(x)`, so one exp serves both.
#[inline(always)]
pub fn normal_cdf_pdf_f32(x: f32) -> (f32, f32) {
    let a = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * a);
    let poly =
        t * (0.254_829_6 + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152 + t * 1.061_405_4))));
    let gauss = exp_f32(-0.5 * x * x);
    let erf_abs = 1.0 - poly * gauss;
    let erf = if x < 0.0 { -erf_abs } else { erf_abs };
    (0.5 * (1.0 + erf), gauss * 0.398_942_3) // 1/√(2π)
}

impl Real for f64 {
    fn with_scratch<R>(f: impl FnOnce(&mut Vec<Self>) -> R) -> R {
        SCRATCH_F64.with(|s| f(&mut s.borrow_mut()))
    }
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
    #[inline(always)]
    fn normal_cdf_pdf(self) -> (Self, Self) {
        let cdf = 0.5 * (1.0 + libm::erf(self * std::f64::consts::FRAC_1_SQRT_2));
        (cdf, libm::exp(-0.5 * self * self) / (2.0 * std::f64::consts::PI).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_f32_exp_and_erf_match_libm() {
        let mut worst = (0.0f64, 0.0f64);
        let mut x = -87.0f32;
        while x < 88.0 {
            let rel = ((exp_f32(x) as f64 - libm::exp(x as f64)) / libm::exp(x as f64)).abs();
            worst.0 = worst.0.max(rel);
            x += 0.0137;
        }
        let mut x = -6.0f32;
        while x < 6.0 {
            worst.1 = worst.1.max((erf_f32(x) as f64 - libm::erf(x as f64)).abs());
            x += 0.00113;
        }
        assert!(worst.0 < 3e-7, "exp relative error {}", worst.0);
        assert!(worst.1 < 1e-6, "erf absolute error {}", worst.1);
        assert!(exp_f32(f32::NAN).is_nan() && erf_f32(f32::NAN).is_nan());
        assert_eq!(exp_f32(0.0), 1.0);
        assert!(exp_f32(-1000.0) < 1e-37 && exp_f32(1000.0) > 1e38);
        assert!(erf_f32(0.0).abs() < 1e-6);
        assert_eq!(erf_f32(-10.0), -1.0);
        let mut x = -9.0f32;
        while x < 9.0 {
            let (cdf, pdf) = normal_cdf_pdf_f32(x);
            let (cdf64, pdf64) = (x as f64).normal_cdf_pdf();
            assert!((cdf as f64 - cdf64).abs() < 1e-6 && (pdf as f64 - pdf64).abs() < 1e-6, "at {x}");
            x += 0.0071;
        }
    }
}
