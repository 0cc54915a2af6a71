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
    /// GELU over a slice: `y = z Φ(z)`, and `z ←` the slope `Φ(z) + z φ(z)`, entry by entry
    /// from `normal_cdf_pdf`. (f32 computes the same operations a batch of entries at a time.)
    fn gelu_and_slope(z: &mut [Self], y: &mut [Self]) {
        for (yi, zi) in y.iter_mut().zip(z) {
            let x = *zi;
            let (cdf, pdf) = x.normal_cdf_pdf();
            *yi = x * cdf;
            *zi = cdf + x * pdf;
        }
    }
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
    fn gelu_and_slope(z: &mut [Self], y: &mut [Self]) {
        let n = y.len().min(z.len());
        let (mut y_at, mut z_at) = (y[..n].chunks_exact_mut(GELU_LANES), z[..n].chunks_exact_mut(GELU_LANES));
        for (yc, zc) in (&mut y_at).zip(&mut z_at) {
            let x: &[f32; GELU_LANES] = (&*zc).try_into().unwrap();
            let (cdf, pdf) = normal_cdf_pdf_f32_lanes(x);
            for l in 0..GELU_LANES {
                yc[l] = x[l] * cdf[l];
            }
            for l in 0..GELU_LANES {
                zc[l] = cdf[l] + zc[l] * pdf[l];
            }
        }
        for (yi, zi) in y_at.into_remainder().iter_mut().zip(z_at.into_remainder()) {
            let x = *zi;
            let (cdf, pdf) = normal_cdf_pdf_f32(x);
            *yi = x * cdf;
            *zi = cdf + x * pdf;
        }
    }
}

/// Entries per batch of `gelu_and_slope` in f32: four AVX2 vectors natively (where 16 would be
/// slower than 32, and one at a time slowest: 13.4 → 11.6 µs for 64×128 entries); in wasm two
/// 4-lane vectors, because V8 keeps fewer values in registers (27 → 22 µs in Node; 32 at a
/// time there gives 26).
const GELU_LANES: usize = if cfg!(target_arch = "wasm32") { 8 } else { 32 };

/// `eˣ` in plain arithmetic (so it vectorises, and is the same on every target): Cody–Waite
/// range reduction `x = k ln2 + r`, a degree-7 polynomial for `eʳ`, and `2ᵏ` from the bits.
/// Arguments are clamped to [−87.3, 88] (results stay normal); NaN stays NaN. (The formula is
/// written once, for a batch, in `exp_f32_lanes`.)
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    exp_f32_lanes(&[x])[0]
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
/// `exp(−(x/√2)²)` is also `√(2π) φ(x)`, so one exp serves both. (The formula is written once,
/// for a batch, in `normal_cdf_pdf_f32_lanes`.)
#[inline(always)]
pub fn normal_cdf_pdf_f32(x: f32) -> (f32, f32) {
    let (cdf, pdf) = normal_cdf_pdf_f32_lanes(&[x]);
    (cdf[0], pdf[0])
}

/// `normal_cdf_pdf_f32` of `N` values, each step of its formula (and of `exp_f32`'s) applied to
/// all of them before the next. Every value goes through the same operations in the same order,
/// so the results have the same bits; but the CPU now sees N/8 vectors' independent chains side
/// by side. One value's chain (a division and two polynomials) is about 100 cycles long, and
/// entry by entry the CPU overlapped only a few of them: GELU ran at 30 cycles per 8 entries.
#[inline(always)]
pub fn normal_cdf_pdf_f32_lanes<const N: usize>(x: &[f32; N]) -> ([f32; N], [f32; N]) {
    let a = each::<N>(|l| x[l].abs() * std::f32::consts::FRAC_1_SQRT_2);
    let t = each::<N>(|l| 1.0 / (1.0 + 0.327_591_1 * a[l]));
    // t (0.254… + t (−0.284… + t (1.421… + t (−1.453… + t 1.061…)))), innermost first
    let mut poly = each::<N>(|l| -1.453_152 + t[l] * 1.061_405_4);
    for c in [1.421_413_7, -0.284_496_74, 0.254_829_6] {
        poly = each::<N>(|l| c + t[l] * poly[l]);
    }
    let poly = each::<N>(|l| t[l] * poly[l]);
    let gauss = exp_f32_lanes(&each::<N>(|l| -0.5 * x[l] * x[l]));
    let erf_abs = each::<N>(|l| 1.0 - poly[l] * gauss[l]);
    let erf = each::<N>(|l| if x[l] < 0.0 { -erf_abs[l] } else { erf_abs[l] });
    (each::<N>(|l| 0.5 * (1.0 + erf[l])), each::<N>(|l| gauss[l] * 0.398_942_3))
}

/// `[f(0), f(1), …, f(N − 1)]`: one step of a formula across a batch.
#[inline(always)]
fn each<const N: usize>(f: impl Fn(usize) -> f32) -> [f32; N] {
    std::array::from_fn(f)
}

/// `exp_f32` of `N` values, step by step across them (see `normal_cdf_pdf_f32_lanes`).
#[inline(always)]
pub fn exp_f32_lanes<const N: usize>(x: &[f32; N]) -> [f32; N] {
    const LN2_HI: f32 = 0.693_359_4; // exactly representable, so k·LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    let x = each::<N>(|l| x[l].clamp(-87.3, 88.0));
    let k = each::<N>(|l| (x[l] * std::f32::consts::LOG2_E + 0.5).floor());
    let r = each::<N>(|l| (x[l] - k[l] * LN2_HI) - k[l] * LN2_LO);
    // 1 + r (1 + r (1/2 + r (1/6 + r (1/24 + r (1/120 + r (1/720 + r/5040)))))), innermost first
    let mut p = each::<N>(|l| 1.0 / 720.0 + r[l] * (1.0 / 5040.0));
    for c in [1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0] {
        p = each::<N>(|l| c + r[l] * p[l]);
    }
    // 2ᵏ: adding 1.5·2²³ puts the integer k in the low mantissa bits (k is integral and small,
    // so the sum is exact); this avoids `k as i32`, whose saturating conversion does not vectorise
    each::<N>(|l| {
        let k_bits = (k[l] + 12_582_912.0).to_bits().wrapping_sub(0x4B40_0000);
        p[l] * f32::from_bits(k_bits.wrapping_add(127) << 23)
    })
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
    fn batched_cdf_pdf_and_exp_have_the_bits_of_one_at_a_time() {
        let mut rng = crate::model::rng::Rng::new(3, crate::model::rng::Stream::Data);
        let special =
            [0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-40, -1e-40, 87.5, -88.0, 200.0];
        for round in 0..2000 {
            let x: [f32; 32] = std::array::from_fn(|l| match (round + l) % 11 {
                0 => special[(rng.next_u64() % special.len() as u64) as usize],
                1 => (100.0 * rng.normal()) as f32,
                _ => (3.0 * rng.normal()) as f32,
            });
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan();
            let (cdf, pdf) = normal_cdf_pdf_f32_lanes(&x);
            let e = exp_f32_lanes(&x);
            for l in 0..32 {
                let (c, p) = normal_cdf_pdf_f32(x[l]);
                assert!(same(cdf[l], c) && same(pdf[l], p) && same(e[l], exp_f32(x[l])), "at {}", x[l]);
            }
            let (mut z, mut y) = (x.to_vec(), vec![0.0f32; 32]);
            f32::gelu_and_slope(&mut z[..(round % 33)], &mut y[..(round % 33)]);
            for l in 0..round % 33 {
                let (c, p) = normal_cdf_pdf_f32(x[l]);
                assert!(same(y[l], x[l] * c) && same(z[l], c + x[l] * p), "gelu at {}", x[l]);
            }
        }
    }

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
