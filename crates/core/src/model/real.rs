//! The scalar type the model is written over.
//!
//! The playground runs in `f32`; the gradient checks run the very same code in `f64`
//! so that central finite differences are precise enough to catch a wrong backward.
//! Transcendental functions come from the pure-Rust `libm` crate on every target:
//! the platform's own `expf` differs between glibc and wasm in the last bit, and we
//! promise bit-identical runs natively and in the browser.

use crate::model::kernels::lanes;
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
        let (z, y) = (&mut z[..n], &mut y[..n]);
        let done = gelu_and_slope_lanes(z, y);
        for (yi, zi) in y[done..].iter_mut().zip(&mut z[done..]) {
            let x = *zi;
            let (cdf, pdf) = lanes::normal_cdf_pdf(x);
            *yi = x * cdf;
            *zi = cdf + x * pdf;
        }
    }
}

/// `gelu_and_slope` of f32 for the leading entries that fill whole groups of lanes; returns how
/// many it did. Natively 4 AVX2 registers (32 entries) at a time, each step of the formula across
/// the four (`Many<F32x8, 4>`): one value's formula is a chain of about 100 cycles, and the CPU
/// holds too few waiting operations to overlap such chains from successive iterations, but four
/// chains side by side in the program keep its units busy (four was the fastest count, and
/// faster than the compiler's own vectorisation of a batch of 32).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
fn gelu_and_slope_lanes(z: &mut [f32], y: &mut [f32]) -> usize {
    use lanes::{F32x8, Many};
    const K: usize = 4;
    let whole = z.len() / (8 * K) * (8 * K);
    for (zv, yv) in z[..whole].chunks_exact_mut(8 * K).zip(y.chunks_exact_mut(8 * K)) {
        let x = Many::<F32x8, K>(std::array::from_fn(|i| F32x8::load(&zv[8 * i..])));
        let (cdf, pdf) = lanes::normal_cdf_pdf(x);
        let (yo, zo) = (x * cdf, cdf + x * pdf);
        for i in 0..K {
            yo.0[i].store(&mut yv[8 * i..]);
            zo.0[i].store(&mut zv[8 * i..]);
        }
    }
    whole
}

/// Elsewhere (wasm) a batch of 8 at a time, each step of the formula across the batch: two
/// simd128 vectors (faster there than 32 at a time).
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
fn gelu_and_slope_lanes(z: &mut [f32], y: &mut [f32]) -> usize {
    const N: usize = 8;
    for (zc, yc) in z.chunks_exact_mut(N).zip(y.chunks_exact_mut(N)) {
        let x: lanes::Batch<N> = lanes::Many((&*zc).try_into().unwrap());
        let (cdf, pdf) = lanes::normal_cdf_pdf(x);
        yc.copy_from_slice(&(x * cdf).0);
        zc.copy_from_slice(&(cdf + x * pdf).0);
    }
    z.len() / N * N
}

/// `eˣ` in f32, the same on every target (see `lanes::exp`).
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    lanes::exp(x)
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

/// `(Φ(x), φ(x))` in f32 (see `lanes::normal_cdf_pdf`).
#[inline(always)]
pub fn normal_cdf_pdf_f32(x: f32) -> (f32, f32) {
    lanes::normal_cdf_pdf(x)
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
    fn gelu_has_the_bits_of_one_value_at_a_time() {
        let mut rng = crate::model::rng::Rng::new(3, crate::model::rng::Stream::Data);
        let special =
            [0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-40, -1e-40, 87.5, -88.0, 200.0];
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan();
        // every length up to past two of the native loop's chunks, then a layer's 64×128
        for len in (0..=140).chain([64 * 128]) {
            let x: Vec<f32> = (0..len)
                .map(|l| match (len + l) % 11 {
                    0 => special[(rng.next_u64() % special.len() as u64) as usize],
                    1 => (100.0 * rng.normal()) as f32,
                    _ => (3.0 * rng.normal()) as f32,
                })
                .collect();
            let (mut z, mut y) = (x.clone(), vec![0.0f32; len]);
            f32::gelu_and_slope(&mut z, &mut y);
            for l in 0..len {
                let (c, p) = normal_cdf_pdf_f32(x[l]);
                assert!(same(y[l], x[l] * c) && same(z[l], c + x[l] * p), "gelu at {}", x[l]);
            }
        }
    }

    #[test]
    fn fast_f32_exp_and_erf_match_libm() {
        let mut worst = (0.0f64, 0.0f64);
        // from EXP_FLUSH on (below it exp is 0 on purpose: lanes::EXP_FLUSH)
        let mut x = crate::model::kernels::lanes::EXP_FLUSH;
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
