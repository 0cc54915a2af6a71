//! The scalar type the model is written over.
//!
//! The playground runs in `f32`; the gradient checks run the very same code in `f64`
//! so that central finite differences are precise enough to catch a wrong backward.
//! Transcendental functions come from the pure-Rust `libm` crate on every target:
//! the platform's own `expf` differs between glibc and wasm in the last bit, and we
//! promise bit-identical runs natively and in the browser.

use crate::model::matmul::add_lanes;
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
    /// `out[j][i] = add_lanes(acc[j][i])`: the ends of a block of `gemm_tn`'s dot products.
    /// f32 overrides it for the block sizes it uses, with the same additions in vector registers.
    #[inline(always)]
    fn add_lanes_block<const TI: usize, const TJ: usize>(acc: &[[[Self; 8]; TI]; TJ]) -> [[Self; TI]; TJ] {
        acc.map(|col| col.map(|l| add_lanes(&l)))
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
    #[inline(always)]
    fn add_lanes_block<const TI: usize, const TJ: usize>(acc: &[[[f32; 8]; TI]; TJ]) -> [[f32; TI]; TJ] {
        let mut out = [[0.0; TI]; TJ];
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        if TI == 4 && TJ == 2 {
            use std::arch::x86_64::{_mm256_loadu_ps, _mm256_storeu_ps};
            // SAFETY: avx2 is enabled at compile time; every pointer is to 8 f32 (out is 2×4)
            unsafe {
                let v = std::array::from_fn(|d| _mm256_loadu_ps(acc[d % 2][d / 2].as_ptr()));
                _mm256_storeu_ps(out.as_mut_ptr().cast(), vector_lanes::add_lanes_8(v));
            }
            return out;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if TI == 2 && TJ == 2 {
            use std::arch::wasm32::{f32x4_add, v128, v128_load, v128_store};
            // SAFETY: every pointer is to 4 f32 (acc's halves, and out, which is 2×2)
            unsafe {
                let half = |d: usize, h: usize| v128_load(acc[d / 2][d % 2][4 * h..].as_ptr() as *const v128);
                let v = std::array::from_fn(|d| f32x4_add(half(d, 0), half(d, 1)));
                v128_store(out.as_mut_ptr().cast(), vector_lanes::add_halves_4(v));
            }
            return out;
        }
        for (o, a) in out.iter_mut().zip(acc) {
            *o = a.map(|l| add_lanes(&l));
        }
        out
    }
}

/// `add_lanes` of several dot products at once, as a vector unit likes it: instead of summing
/// across one register per dot product (a shuffle and an add per halving, then one number out),
/// the registers are interleaved so each shuffle and add serves 2 to 8 dot products. Every
/// number is still `((l₀+l₄) + (l₂+l₆)) + ((l₁+l₅) + (l₃+l₇))`, so the bits do not change.
mod vector_lanes {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    use std::arch::x86_64::*;

    /// The 8 sums of `v[0..8]`, in the order v₀, v₂, v₄, v₆, v₁, v₃, v₅, v₇.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    pub unsafe fn add_lanes_8(v: [__m256; 8]) -> __m256 {
        // halves of v_a and v_b in one register: [a: l₀+l₄, l₁+l₅, l₂+l₆, l₃+l₇ | b: the same]
        let h =
            |a, b| _mm256_add_ps(_mm256_permute2f128_ps::<0x20>(a, b), _mm256_permute2f128_ps::<0x31>(a, b));
        let (h01, h23, h45, h67) = (h(v[0], v[1]), h(v[2], v[3]), h(v[4], v[5]), h(v[6], v[7]));
        // quarters: q(h01, h23) = [v₀: h₀+h₂, h₁+h₃, v₂: the same | v₁, v₃: the same]
        let q = |a, b| {
            _mm256_add_ps(_mm256_shuffle_ps::<0b01_00_01_00>(a, b), _mm256_shuffle_ps::<0b11_10_11_10>(a, b))
        };
        let (q0213, q4657) = (q(h01, h23), q(h45, h67));
        // the last pair: [v₀, v₂, v₄, v₆ | v₁, v₃, v₅, v₇]
        _mm256_add_ps(
            _mm256_shuffle_ps::<0b10_00_10_00>(q0213, q4657),
            _mm256_shuffle_ps::<0b11_01_11_01>(q0213, q4657),
        )
    }

    /// The 4 sums of `h[0..4]`, each given as its halves `[l₀+l₄, l₁+l₅, l₂+l₆, l₃+l₇]`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    pub fn add_halves_4(h: [std::arch::wasm32::v128; 4]) -> std::arch::wasm32::v128 {
        use std::arch::wasm32::{f32x4_add, i32x4_shuffle};
        // quarters: q(a, b) = [a: h₀+h₂, h₁+h₃, b: the same]
        let q = |a, b| f32x4_add(i32x4_shuffle::<0, 1, 4, 5>(a, b), i32x4_shuffle::<2, 3, 6, 7>(a, b));
        let (q01, q23) = (q(h[0], h[1]), q(h[2], h[3]));
        f32x4_add(i32x4_shuffle::<0, 2, 4, 6>(q01, q23), i32x4_shuffle::<1, 3, 5, 7>(q01, q23))
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
