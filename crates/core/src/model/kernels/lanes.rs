//! The f32 formulas of `exp` and of the normal cdf and density, written once over `Lanes`: one
//! value (`f32`), a batch of values with each step applied across the batch (`Batch<N>`), or
//! natively one AVX2 register of 8 (`F32x8`). Every form performs exactly the IEEE operations the
//! formula names, in its order (no fused multiply-add, no reassociation), so all give the same
//! bits, on every target; a test checks them against each other.

use std::ops::{Add, Div, Mul, Sub};

/// What the formulas below are written over.
pub trait Lanes:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    fn splat(c: f32) -> Self;
    /// `f32::abs`: the sign bit cleared.
    fn abs(self) -> Self;
    /// `f32::floor`.
    fn floor(self) -> Self;
    /// `f32::clamp(lo, hi)`: NaN stays NaN.
    fn clamp(self, lo: f32, hi: f32) -> Self;
    /// `−self` where `x < 0`, else `self`.
    fn negated_where_negative(self, x: Self) -> Self;
    /// `0` where `x < c`, else `self` (NaN in `x` keeps `self`).
    fn zero_where_below(self, x: Self, c: f32) -> Self;
    /// `2ᵏ` for an integral `k` in [−126, 127]: adding 1.5·2²³ puts k in the low mantissa bits
    /// (k is integral and small, so the sum is exact); this avoids `k as i32`, whose saturating
    /// conversion does not vectorise.
    fn pow2(k: Self) -> Self;
}

/// `exp(x)` is exactly 0 for `x` below this (e⁻⁶⁴ ≈ 1.6·10⁻²⁸). A softmax or a GELU of a stack
/// that has blown up meets arguments of −1000; clamped to −87.3 they gave e⁻⁸⁷·³ ≈ 1.2·10⁻³⁸,
/// which the next division or product took below f32's normal range, and every operation on a
/// subnormal float costs the CPU up to a hundred cycles (wasm engines keep them too): a tuned
/// comparison's arm that blew up trained up to 20× slower per step than a healthy one. A term
/// below e⁻⁶⁴ of a sum whose largest term is about 1 (a softmax's, a GELU's Φ) is 10²⁰ times below
/// that sum's rounding, so a healthy run's numbers do not change.
pub const EXP_FLUSH: f32 = -64.0;

/// `eˣ` in plain arithmetic (so it vectorises, and is the same on every target): Cody–Waite
/// range reduction `x = k ln2 + r`, a degree-7 polynomial for `eʳ`, and `2ᵏ` from the bits.
/// Arguments are clamped to [−87.3, 88] (results stay normal), and below `EXP_FLUSH` the result
/// is 0; NaN stays NaN.
#[inline(always)]
pub fn exp<V: Lanes>(x: V) -> V {
    const LN2_HI: f32 = 0.693_359_4; // exactly representable, so k·LN2_HI is exact
    const LN2_LO: f32 = -2.121_944_4e-4;
    let unclamped = x;
    let x = x.clamp(-87.3, 88.0);
    let k = (x * V::splat(std::f32::consts::LOG2_E) + V::splat(0.5)).floor();
    let r = (x - k * V::splat(LN2_HI)) - k * V::splat(LN2_LO);
    // 1 + r (1 + r (1/2 + r (1/6 + r (1/24 + r (1/120 + r (1/720 + r/5040)))))), innermost first
    let mut p = V::splat(1.0 / 720.0) + r * V::splat(1.0 / 5040.0);
    for c in [1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0] {
        p = V::splat(c) + r * p;
    }
    (p * V::pow2(k)).zero_where_below(unclamped, EXP_FLUSH)
}

/// `(Φ(x), φ(x))`: `Φ(x) = (1 + erf(x/√2)) / 2` with erf by Abramowitz & Stegun 7.1.26
/// (absolute error below 1.5·10⁻⁷, about f32's own), whose `exp(−(x/√2)²)` is also `√(2π) φ(x)`,
/// so one exp serves both.
#[inline(always)]
pub fn normal_cdf_pdf<V: Lanes>(x: V) -> (V, V) {
    let a = x.abs() * V::splat(std::f32::consts::FRAC_1_SQRT_2);
    let t = V::splat(1.0) / (V::splat(1.0) + V::splat(0.327_591_1) * a);
    // t (0.254… + t (−0.284… + t (1.421… + t (−1.453… + t 1.061…)))), innermost first
    let mut poly = V::splat(-1.453_152) + t * V::splat(1.061_405_4);
    for c in [1.421_413_7, -0.284_496_74, 0.254_829_6] {
        poly = V::splat(c) + t * poly;
    }
    let poly = t * poly;
    let gauss = exp(V::splat(-0.5) * x * x);
    let erf = (V::splat(1.0) - poly * gauss).negated_where_negative(x);
    (V::splat(0.5) * (V::splat(1.0) + erf), gauss * V::splat(0.398_942_3))
}

impl Lanes for f32 {
    #[inline(always)]
    fn splat(c: f32) -> Self {
        c
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        f32::floor(self)
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        f32::clamp(self, lo, hi)
    }
    #[inline(always)]
    fn negated_where_negative(self, x: Self) -> Self {
        if x < 0.0 {
            -self
        } else {
            self
        }
    }
    #[inline(always)]
    fn zero_where_below(self, x: Self, c: f32) -> Self {
        if x < c {
            0.0
        } else {
            self
        }
    }
    #[inline(always)]
    fn pow2(k: Self) -> Self {
        let k_bits = (k + 12_582_912.0).to_bits().wrapping_sub(0x4B40_0000);
        f32::from_bits(k_bits.wrapping_add(127) << 23)
    }
}

/// K values (or vectors) side by side, each step of a formula applied to all of them before
/// the next: the CPU sees K independent chains next to each other in the program.
#[derive(Clone, Copy)]
pub struct Many<V, const K: usize>(pub [V; K]);

/// N values of f32, a step at a time across them (in wasm, N/4 simd128 vectors).
pub type Batch<const N: usize> = Many<f32, N>;

impl<V: Lanes, const K: usize> Many<V, K> {
    #[inline(always)]
    fn each(f: impl Fn(usize) -> V) -> Self {
        Many(std::array::from_fn(f))
    }
}

macro_rules! many_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<V: Lanes, const K: usize> $trait for Many<V, K> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, o: Self) -> Self {
                Many::each(|l| self.0[l] $op o.0[l])
            }
        }
    };
}
many_op!(Add, add, +);
many_op!(Sub, sub, -);
many_op!(Mul, mul, *);
many_op!(Div, div, /);

impl<V: Lanes, const K: usize> Lanes for Many<V, K> {
    #[inline(always)]
    fn splat(c: f32) -> Self {
        Many([V::splat(c); K])
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Many::each(|l| self.0[l].abs())
    }
    #[inline(always)]
    fn floor(self) -> Self {
        Many::each(|l| self.0[l].floor())
    }
    #[inline(always)]
    fn clamp(self, lo: f32, hi: f32) -> Self {
        Many::each(|l| self.0[l].clamp(lo, hi))
    }
    #[inline(always)]
    fn negated_where_negative(self, x: Self) -> Self {
        Many::each(|l| self.0[l].negated_where_negative(x.0[l]))
    }
    #[inline(always)]
    fn zero_where_below(self, x: Self, c: f32) -> Self {
        Many::each(|l| self.0[l].zero_where_below(x.0[l], c))
    }
    #[inline(always)]
    fn pow2(k: Self) -> Self {
        Many::each(|l| V::pow2(k.0[l]))
    }
}

/// Natively, 8 values in one AVX2 register, each operation one instruction (`vmulps`, `vaddps`,
/// `vdivps`, `vroundps` toward −∞, `vmaxps`/`vminps` in the order that keeps NaN, a sign flip by
/// xor and a blend). `Many<F32x8, K>` then puts K registers' chains side by side: the compiler's
/// own vectorisation of a `Batch` had re-serialised them (and turned batches of 8 into
/// transposes).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use avx2::F32x8;

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use super::Lanes;
    use std::arch::x86_64::*;
    use std::ops::{Add, Div, Mul, Sub};

    #[derive(Clone, Copy)]
    pub struct F32x8(__m256);

    impl F32x8 {
        /// The 8 values at the start of `v`.
        #[inline(always)]
        pub fn load(v: &[f32]) -> Self {
            assert!(v.len() >= 8);
            // SAFETY: 8 values are there (asserted); AVX2 is enabled for this build (cfg above).
            F32x8(unsafe { _mm256_loadu_ps(v.as_ptr()) })
        }
        /// Into the first 8 entries of `v`.
        #[inline(always)]
        pub fn store(self, v: &mut [f32]) {
            assert!(v.len() >= 8);
            // SAFETY: as in `load`.
            unsafe { _mm256_storeu_ps(v.as_mut_ptr(), self.0) }
        }
    }

    macro_rules! op {
        ($trait:ident, $method:ident, $intrinsic:ident) => {
            impl $trait for F32x8 {
                type Output = Self;
                #[inline(always)]
                fn $method(self, o: Self) -> Self {
                    // SAFETY: AVX2 is enabled for this build.
                    F32x8(unsafe { $intrinsic(self.0, o.0) })
                }
            }
        };
    }
    op!(Add, add, _mm256_add_ps);
    op!(Sub, sub, _mm256_sub_ps);
    op!(Mul, mul, _mm256_mul_ps);
    op!(Div, div, _mm256_div_ps);

    // SAFETY (every block below): AVX2 is enabled for this build.
    impl Lanes for F32x8 {
        #[inline(always)]
        fn splat(c: f32) -> Self {
            F32x8(unsafe { _mm256_set1_ps(c) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            F32x8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
        }
        #[inline(always)]
        fn floor(self) -> Self {
            F32x8(unsafe { _mm256_round_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(self.0) })
        }
        #[inline(always)]
        fn clamp(self, lo: f32, hi: f32) -> Self {
            // `vmaxps a, b` returns b when either is NaN: with x second, NaN stays NaN, as in
            // f32::clamp (`if x < lo { lo }`, then `if x > hi { hi }`)
            unsafe {
                let at_least_lo = _mm256_max_ps(_mm256_set1_ps(lo), self.0);
                F32x8(_mm256_min_ps(_mm256_set1_ps(hi), at_least_lo))
            }
        }
        #[inline(always)]
        fn negated_where_negative(self, x: Self) -> Self {
            unsafe {
                let negative = _mm256_cmp_ps::<_CMP_LT_OQ>(x.0, _mm256_setzero_ps());
                let negated = _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0));
                F32x8(_mm256_blendv_ps(self.0, negated, negative))
            }
        }
        #[inline(always)]
        fn zero_where_below(self, x: Self, c: f32) -> Self {
            unsafe {
                let below = _mm256_cmp_ps::<_CMP_LT_OQ>(x.0, _mm256_set1_ps(c));
                F32x8(_mm256_andnot_ps(below, self.0))
            }
        }
        #[inline(always)]
        fn pow2(k: Self) -> Self {
            unsafe {
                let k_bits = _mm256_sub_epi32(
                    _mm256_castps_si256(_mm256_add_ps(k.0, _mm256_set1_ps(12_582_912.0))),
                    _mm256_set1_epi32(0x4B40_0000),
                );
                F32x8(_mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
                    k_bits,
                    _mm256_set1_epi32(127),
                ))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every kind: ordinary, large, tiny, ±0, ±∞, NaN, at the clamps.
    fn values(n: usize) -> Vec<f32> {
        let mut rng = crate::model::rng::Rng::new(3, crate::model::rng::Stream::Data);
        let special = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -1e-40,
            87.5,
            -88.0,
            200.0,
            -64.0,
            -64.01,
            -63.99,
        ];
        (0..n)
            .map(|i| match i % 11 {
                0 => special[(rng.next_u64() % special.len() as u64) as usize],
                1 => (100.0 * rng.normal()) as f32,
                _ => (3.0 * rng.normal()) as f32,
            })
            .collect()
    }

    /// The flush: below `EXP_FLUSH` exactly +0, from it on a normal float within f32's rounding
    /// of libm's `exp` (no argument gives a subnormal, whose arithmetic is what it spares).
    #[test]
    fn exp_is_zero_below_the_flush_and_normal_above() {
        for x in [-1000.0, f32::NEG_INFINITY, -87.4, -80.0, -64.001] {
            assert_eq!(exp(x).to_bits(), 0, "exp({x}) = {:e}", exp(x));
        }
        let mut x = EXP_FLUSH;
        while x < 0.0 {
            let (ours, libm) = (exp(x), libm::exp(x as f64));
            assert!(ours.is_normal(), "exp({x}) = {ours:e} is not normal");
            assert!(((ours as f64 - libm) / libm).abs() < 1e-6, "exp({x}) = {ours:e}, libm {libm:e}");
            x += 0.37;
        }
    }

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()
    }

    #[test]
    fn batches_have_the_bits_of_one_value_at_a_time() {
        let x = values(32 * 2000);
        for chunk in x.chunks_exact(32) {
            let batch: Batch<32> = Many(chunk.try_into().unwrap());
            let (cdf, pdf) = normal_cdf_pdf(batch);
            let e = exp(batch);
            for l in 0..32 {
                let (c, p) = normal_cdf_pdf(chunk[l]);
                assert!(
                    same(cdf.0[l], c) && same(pdf.0[l], p) && same(e.0[l], exp(chunk[l])),
                    "at {}",
                    chunk[l]
                );
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[test]
    fn avx2_has_the_bits_of_one_value_at_a_time() {
        let x = values(8 * 8000);
        for chunk in x.chunks_exact(8) {
            let v = F32x8::load(chunk);
            let (mut cdf, mut pdf, mut e) = ([0.0; 8], [0.0; 8], [0.0; 8]);
            let (c8, p8) = normal_cdf_pdf(v);
            c8.store(&mut cdf);
            p8.store(&mut pdf);
            exp(v).store(&mut e);
            for l in 0..8 {
                let (c, p) = normal_cdf_pdf(chunk[l]);
                assert!(same(cdf[l], c) && same(pdf[l], p) && same(e[l], exp(chunk[l])), "at {}", chunk[l]);
            }
        }
    }
}
