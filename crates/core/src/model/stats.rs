//! Statistics of a tensor's values, straight from their definitions, and histograms.

use crate::model::compiled::f32s;
use crate::model::kernels::matmul::add_lanes;
use crate::model::real::Real;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// Mean over all values (NaN if any value is not finite).
    pub mean: f64,
    /// Population standard deviation √(Σ(x − mean)² / n) (NaN if any value is not finite).
    pub std: f64,
    /// Largest |x| over the finite values.
    pub max_abs: f64,
    /// How many values are ±∞ or NaN.
    pub nonfinite: usize,
}

/// (Each statistic here is compiled in this crate for f32: `compiled.rs`.)
pub fn moments<F: Real>(xs: &[F]) -> Moments {
    match f32s(xs) {
        Some(xs) => moments_f32(xs),
        None => moments_here(xs),
    }
}

#[inline(never)]
fn moments_f32(xs: &[f32]) -> Moments {
    moments_here(xs)
}

fn moments_here<F: Real>(xs: &[F]) -> Moments {
    let (mean, std) = mean_std(xs);
    // max |x| over the finite values and the count of the others, 8 lanes at a time (a max
    // and a count come out the same in any order)
    let (mut max, mut nonfinite) = ([0.0f64; 8], [0usize; 8]);
    let update = |m: &mut f64, c: &mut usize, x: F| {
        let a = x.f64().abs();
        let finite = a < f64::INFINITY; // false for ±∞ and NaN
        *c += usize::from(!finite);
        *m = if finite && a > *m { a } else { *m };
    };
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for chunk in chunks {
        for l in 0..8 {
            update(&mut max[l], &mut nonfinite[l], chunk[l]);
        }
    }
    for (l, &x) in rest.iter().enumerate() {
        update(&mut max[l], &mut nonfinite[l], x);
    }
    Moments { mean, std, max_abs: max.into_iter().fold(0.0, f64::max), nonfinite: nonfinite.iter().sum() }
}

/// Mean and standard deviation in f64 (the std is NaN once the mean is not finite): what
/// `moments` reports, without its max and count (the probe's per-depth std needs only these).
pub fn mean_std<F: Real>(xs: &[F]) -> (f64, f64) {
    match f32s(xs) {
        Some(xs) => mean_std_f32(xs),
        None => mean_std_here(xs),
    }
}

#[inline(never)]
fn mean_std_f32(xs: &[f32]) -> (f64, f64) {
    mean_std_here(xs)
}

fn mean_std_here<F: Real>(xs: &[F]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = sum8(xs, |x| x.f64()) / n;
    let var = sum8(xs, |x| (x.f64() - mean) * (x.f64() - mean)) / n;
    (mean, if mean.is_finite() { var.sqrt() } else { f64::NAN })
}

/// `Σ f(x)` over `xs`, in f64, as 8 interleaved partial sums (entry e goes to sum e mod 8, in
/// order) combined by `add_lanes`: a fixed order, so the same bits on every target, with 8
/// independent additions in flight instead of one chain.
pub fn sum8<F: Real>(xs: &[F], f: impl Fn(F) -> f64) -> f64 {
    let mut acc = [0.0f64; 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (a, &x) in acc.iter_mut().zip(chunk) {
            *a += f(x);
        }
    }
    for (a, &x) in acc.iter_mut().zip(rest) {
        *a += f(x);
    }
    add_lanes(&acc)
}

/// True if every value is finite; cheap enough to run on every layer at every step.
pub fn all_finite<F: Real>(xs: &[F]) -> bool {
    match f32s(xs) {
        Some(xs) => all_finite_f32(xs),
        None => all_finite_here(xs),
    }
}

#[inline(never)]
fn all_finite_f32(xs: &[f32]) -> bool {
    all_finite_here(xs)
}

fn all_finite_here<F: Real>(xs: &[F]) -> bool {
    // x·0 is 0 for finite x and NaN for ±∞ and NaN; 8 sums so that they vectorise
    let mut acc = [F::zero(); 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for chunk in chunks {
        for l in 0..8 {
            acc[l] += chunk[l] * F::zero();
        }
    }
    for (a, &x) in acc.iter_mut().zip(rest) {
        *a += x * F::zero();
    }
    acc.iter().all(|&a| a == F::zero())
}

/// `√Σ x²`, summed in f64 (see `sum8`).
pub fn frobenius<F: Real>(xs: &[F]) -> f64 {
    match f32s(xs) {
        Some(xs) => frobenius_f32(xs),
        None => sum8(xs, |x| x.f64() * x.f64()).sqrt(),
    }
}

#[inline(never)]
fn frobenius_f32(xs: &[f32]) -> f64 {
    sum8(xs, |x| x.f64() * x.f64()).sqrt()
}

#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    /// Equal-width bins over [lo, hi); a value equal to `hi` goes in the last bin.
    pub counts: Vec<u32>,
    /// Values below `lo` (−∞ included).
    pub below: u32,
    /// Values above `hi` (+∞ included).
    pub above: u32,
    /// NaN values, in no bin.
    pub nan: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A fixed axis, so an exploding stack piles its values up at both edges.
    Fixed(f64, f64),
    /// The finite values' own min and max.
    Auto,
}

pub fn histogram<F: Real>(xs: &[F], bins: usize, range: Range) -> Histogram {
    match f32s(xs) {
        Some(xs) => histogram_f32(xs, bins, range),
        None => histogram_here(xs, bins, range),
    }
}

#[inline(never)]
fn histogram_f32(xs: &[f32], bins: usize, range: Range) -> Histogram {
    histogram_here(xs, bins, range)
}

fn histogram_here<F: Real>(xs: &[F], bins: usize, range: Range) -> Histogram {
    let bins = bins.max(1);
    let (lo, hi) = match range {
        Range::Fixed(lo, hi) => (lo, hi),
        Range::Auto => {
            let finite = xs.iter().map(|x| x.f64()).filter(|x| x.is_finite());
            let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
            if lo > hi {
                (-1.0, 1.0)
            } else if lo == hi {
                (lo - 0.5, hi + 0.5)
            } else {
                (lo, hi)
            }
        }
    };
    let mut h = Histogram { lo, hi, counts: vec![0; bins], below: 0, above: 0, nan: 0 };
    let width = (hi - lo) / bins as f64;
    for x in xs.iter().map(|x| x.f64()) {
        if x.is_nan() {
            h.nan += 1;
        } else if x < lo {
            h.below += 1;
        } else if x > hi {
            h.above += 1;
        } else {
            let i = (((x - lo) / width) as usize).min(bins - 1);
            h.counts[i] += 1;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_match_definitions() {
        let xs = [1.0f32, 2.0, 3.0, 4.0, -10.0];
        let m = moments(&xs);
        let mean = 0.0;
        let var = (1.0 + 4.0 + 9.0 + 16.0 + 100.0) / 5.0;
        assert_eq!(m.mean, mean);
        assert!((m.std - f64::sqrt(var)).abs() < 1e-12);
        assert_eq!(m.max_abs, 10.0);
        assert_eq!(m.nonfinite, 0);
        let m = moments(&[1.0f32, f32::INFINITY, f32::NAN, 2.0]);
        assert_eq!(m.nonfinite, 2);
        assert_eq!(m.max_abs, 2.0);
        assert!(m.std.is_nan());
        assert!(all_finite(&[1.0f32, -3.0, 0.0]));
        assert!(!all_finite(&[1.0f32, f32::NEG_INFINITY]));
        assert!(!all_finite(&[f32::NAN]));
    }

    /// `n` uneven values around 3, so that the mean is far from 0 and the variance from the
    /// mean square.
    fn uneven(n: usize) -> Vec<f32> {
        (0..n).map(|i| 3.0 + ((i * 7919 + 13) % 101) as f32 / 17.0 - 2.9).collect()
    }

    #[test]
    fn moments_match_a_two_pass_definition_across_whole_lanes_and_a_remainder() {
        // 37 = 4 rows of 8 lanes and 5 more, 64 = 8 whole rows, 72 and 1: every loop runs
        for n in [1, 37, 64, 72] {
            let xs = uneven(n);
            let wide: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
            let mean = wide.iter().sum::<f64>() / n as f64;
            let var = wide.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
            let max_abs = wide.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let m = moments(&xs);
            // the library adds in 8 interleaved sums: the same terms in another order
            assert!((m.mean - mean).abs() <= 1e-14 * max_abs, "n {n}: mean {} vs {mean}", m.mean);
            assert!(
                (m.std - var.sqrt()).abs() <= 1e-13 * var.sqrt(),
                "n {n}: std {} vs {}",
                m.std,
                var.sqrt()
            );
            assert!(m.std > 0.5 || n == 1, "n {n}: the values spread");
            assert_eq!((m.max_abs, m.nonfinite), (max_abs, 0), "n {n}");
            assert_eq!(mean_std(&xs), (m.mean, m.std), "n {n}");
            let norm = wide.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((frobenius(&xs) - norm).abs() <= 1e-14 * norm, "n {n}: ‖x‖ {} vs {norm}", frobenius(&xs));

            // the largest |x|, a NaN, a +∞ and a −∞ in each lane and in the remainder in turn
            for at in 0..n {
                let mut ys = xs.clone();
                ys[at] = -40.0;
                assert_eq!(moments(&ys).max_abs, 40.0, "n {n}: largest at {at}");
                for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    ys[at] = bad;
                    let rest = (0..n).filter(|&i| i != at).fold(0.0f64, |m, i| m.max(wide[i].abs()));
                    let m = moments(&ys);
                    assert_eq!((m.nonfinite, m.max_abs), (1, rest), "n {n}: {bad} at {at}");
                    assert!(m.mean.is_nan() || m.mean.is_infinite(), "n {n}: {bad} at {at}");
                    assert!(m.std.is_nan(), "n {n}: {bad} at {at}");
                    assert!(!all_finite(&ys), "n {n}: {bad} at {at}");
                }
            }
            assert!(all_finite(&xs));
        }
    }

    #[test]
    fn histogram_counts_every_value_once() {
        let xs =
            [-5.0f32, -1.0, -0.25, 0.0, 0.25, 0.99, 1.0, 7.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        let h = histogram(&xs, 4, Range::Fixed(-1.0, 1.0));
        assert_eq!(h.counts, vec![1, 1, 2, 2]);
        assert_eq!((h.below, h.above, h.nan), (2, 2, 1));
        let total: u32 = h.counts.iter().sum::<u32>() + h.below + h.above + h.nan;
        assert_eq!(total as usize, xs.len());
        let h = histogram(&xs, 4, Range::Auto);
        assert_eq!((h.lo, h.hi), (-5.0, 7.0));
        assert_eq!((h.below, h.above), (1, 1));
        assert_eq!(h.counts.iter().sum::<u32>(), 8);
    }
}
