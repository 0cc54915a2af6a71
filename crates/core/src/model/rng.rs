//! A small, fully specified random number generator.
//!
//! SplitMix64 for the bits and Marsaglia and Tsang's ziggurat (256 layers) for normals: the
//! same seed gives the same numbers on every machine and in every browser. The ziggurat's
//! tables are computed once, from two published constants, with `libm`'s pure-Rust exp and log,
//! and a sample needs only one 64-bit draw, a multiply and a comparison 98.8% of the time (the
//! rare wedge and tail samples use `libm` again). Each use of randomness
//! (one sublayer's weights, the teacher, the data stream, ...) gets its own stream, so
//! that changing the depth leaves the first layers' weights and the data untouched.

use crate::model::compiled::f32s_mut;
use crate::model::real::Real;
use std::sync::OnceLock;

/// (Clone: a checkpoint keeps the data stream's position, `Trainer::checkpoint`.)
#[derive(Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// Where the stream stands: `at(position)` goes on from there (a run put aside).
    pub fn position(&self) -> u64 {
        self.state
    }
    pub fn at(position: u64) -> Rng {
        Rng { state: position }
    }
}

/// Named streams derived from the one user-facing seed.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    Layer(usize),
    Readout,
    Teacher,
    Probe,
    Data,
    /// A sequence task's embeddings.
    Embedding,
    /// What the model writes.
    Sample,
    /// A sequence task's held-out set.
    HeldOut,
    /// The batches a tuned lens is fitted on (`tuned_lens.rs`): training data, but not the
    /// training run's own stream, so fitting a lens changes no later step of the run.
    Lens,
    /// The layers a knockout removes at random (`knockout.rs`).
    Knockout,
    /// The batches a linear probe is fitted on (`probe.rs`), apart from the run's own.
    LinearProbe,
}

impl Stream {
    fn id(self) -> u64 {
        match self {
            Stream::Readout => 1,
            Stream::Teacher => 2,
            Stream::Probe => 3,
            Stream::Data => 4,
            Stream::Embedding => 5,
            Stream::Sample => 6,
            Stream::HeldOut => 7,
            Stream::Lens => 8,
            Stream::Knockout => 9,
            Stream::LinearProbe => 10,
            Stream::Layer(i) => 1000 + i as u64,
        }
    }
}

/// SplitMix64's increment: its state after n draws is the seed's plus n times this.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// Normals drawn side by side in `fill_normal_batched`.
const BATCH: usize = 4;
/// Batches are faster in wasm, where the one-at-a-time loop runs each draw's chain of 64-bit
/// multiplies to the end before the next, and slower natively, so there the loop stays
/// (BENCHMARKS.md, "The kernels' forms").
const BATCHED: bool = cfg!(target_arch = "wasm32");

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(GOLDEN);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64, stream: Stream) -> Self {
        let mut s = seed ^ stream.id().wrapping_mul(0xD1B5_4A32_D192_ED03);
        // Mix twice so that nearby seeds and stream ids give unrelated states.
        let state = splitmix(&mut s) ^ splitmix(&mut s);
        Rng { state }
    }

    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.state)
    }

    /// Uniform in the open interval (0, 1).
    pub fn uniform(&mut self) -> f64 {
        (((self.next_u64() >> 11) as i64) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal sample.
    pub fn normal(&mut self) -> f64 {
        self.normal_from(ziggurat())
    }

    /// `out[i] = std · normal()`, in order: the same numbers as calling `normal` for each, with
    /// the ziggurat's tables looked up once.
    /// (Compiled in this crate for f32: `compiled.rs`.)
    pub fn fill_normal<F: Real>(&mut self, out: &mut [F], std: f64) {
        match f32s_mut(out) {
            Some(out) => self.fill_normal_f32(out, std),
            None => self.fill_normal_here(out, std),
        }
    }

    #[inline(never)]
    fn fill_normal_f32(&mut self, out: &mut [f32], std: f64) {
        self.fill_normal_here(out, std)
    }

    fn fill_normal_here<F: Real>(&mut self, out: &mut [F], std: f64) {
        if BATCHED {
            self.fill_normal_batched(out, std);
        } else {
            let zig = ziggurat();
            for v in out {
                *v = F::of(std * self.normal_from(zig));
            }
        }
    }

    /// `fill_normal`'s samples, BATCH draws at a time: SplitMix's state is a counter, so the next
    /// BATCH draws are independent of each other and the CPU works on them side by side. When
    /// all land in their rectangles (95% of batches) they are the next BATCH samples; else the
    /// ones before the first miss are kept, the state steps back to that draw, and `normal_from`
    /// takes it from there, so the sequence is exactly `normal`'s.
    pub fn fill_normal_batched<F: Real>(&mut self, out: &mut [F], std: f64) {
        let zig = ziggurat();
        let mut rest = out;
        while rest.len() >= BATCH {
            let start = self.state;
            let tries: [(f64, bool); BATCH] = std::array::from_fn(|_| {
                let (x, _, i) = zig.first_try(self.next_u64());
                (x, x.abs() < zig.x[i + 1])
            });
            let inside = tries.iter().position(|&(_, hit)| !hit).unwrap_or(BATCH);
            for (v, &(x, _)) in rest.iter_mut().zip(&tries[..inside]) {
                *v = F::of(std * x);
            }
            let taken = if inside < BATCH {
                self.state = start.wrapping_add(GOLDEN.wrapping_mul(inside as u64));
                rest[inside] = F::of(std * self.normal_from(zig));
                inside + 1
            } else {
                BATCH
            };
            rest = &mut rest[taken..];
        }
        for v in rest {
            *v = F::of(std * self.normal_from(zig));
        }
    }

    #[inline(always)]
    fn normal_from(&mut self, zig: &Ziggurat) -> f64 {
        loop {
            let (x, u, i) = zig.first_try(self.next_u64());
            if x.abs() < zig.x[i + 1] {
                return x; // inside the layer's rectangle that lies wholly under the curve
            }
            if i == 0 {
                return self.normal_tail(u < 0.0);
            }
            // the wedge between the rectangle and the curve
            if zig.f[i + 1] + (zig.f[i] - zig.f[i + 1]) * self.uniform() < libm::exp(-0.5 * x * x) {
                return x;
            }
        }
    }

    /// A sample from the normal's tail beyond `ZIG_R` (Marsaglia's 1964 method).
    fn normal_tail(&mut self, negative: bool) -> f64 {
        loop {
            let x = libm::log(self.uniform()) / ZIG_R; // ≤ 0
            let y = libm::log(self.uniform()); // ≤ 0
            if -2.0 * y >= x * x {
                return if negative { x - ZIG_R } else { ZIG_R - x };
            }
        }
    }
}

/// Where the tail begins, and the area of each of the 256 layers under `e^(−x²/2)`
/// (Marsaglia & Tsang, "The Ziggurat Method for Generating Random Variables", 2000).
const ZIG_R: f64 = 3.654_152_885_361_009;
const ZIG_V: f64 = 0.004_928_673_233_99;

/// Layer i spans heights `f[i] ..= f[i + 1]` and is `x[i]` wide; `x[0]` is the width the base
/// layer would have if its tail were a rectangle.
struct Ziggurat {
    x: [f64; 257],
    f: [f64; 257],
}

impl Ziggurat {
    /// A sample's first try from 64 random bits: `(x, u, i)` with layer i from the low 8 bits,
    /// u uniform in [−1, 1) from the top 53 (exactly), and `x = u · x[i]`, which is the sample
    /// if it lies inside the layer's rectangle (`|x| < x[i + 1]`).
    #[inline(always)]
    fn first_try(&self, bits: u64) -> (f64, f64, usize) {
        let i = (bits & 0xff) as usize;
        // (via i64: the value is below 2⁵³ either way, and x86 converts signed integers in one
        // instruction but unsigned ones in several)
        let u = ((bits >> 11) as i64) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0;
        (u * self.x[i], u, i)
    }
}

fn ziggurat() -> &'static Ziggurat {
    static TABLES: OnceLock<Ziggurat> = OnceLock::new();
    TABLES.get_or_init(|| {
        let density = |x: f64| libm::exp(-0.5 * x * x);
        let mut x = [0.0; 257];
        x[0] = ZIG_V / density(ZIG_R);
        x[1] = ZIG_R;
        for i in 1..255 {
            // the next layer up has the same area: x[i+1] solves V = x[i] (f(x[i+1]) − f(x[i]))
            x[i + 1] = libm::sqrt(-2.0 * libm::log(ZIG_V / x[i] + density(x[i])));
        }
        x[256] = 0.0;
        Ziggurat { x, f: x.map(density) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batched_normals_are_normal_draws() {
        // lengths around the batch, and enough samples that wedge and tail draws fall inside
        // batches (a few per thousand)
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 100_003] {
            for std in [1.0, 0.37] {
                let (mut by_fill, mut by_one) = (Rng::new(11, Stream::Data), Rng::new(11, Stream::Data));
                let mut filled = vec![0f32; len];
                by_fill.fill_normal_batched(&mut filled, std);
                let one: Vec<f32> = (0..len).map(|_| (std * by_one.normal()) as f32).collect();
                assert!(filled.iter().zip(&one).all(|(a, b)| a.to_bits() == b.to_bits()), "length {len}");
                assert_eq!(by_fill.next_u64(), by_one.next_u64(), "the stream continues alike, length {len}");
            }
        }
    }

    #[test]
    fn normals_have_unit_moments() {
        let mut rng = Rng::new(7, Stream::Data);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "var {var}");
        let kurtosis = xs.iter().map(|x| (x - mean).powi(4)).sum::<f64>() / n as f64 / (var * var);
        assert!((kurtosis - 3.0).abs() < 0.05, "kurtosis {kurtosis}");
    }

    #[test]
    fn normals_follow_the_normal_cdf_into_the_tail() {
        let mut rng = Rng::new(11, Stream::Data);
        let n = 400_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        for z in [-3.0, -2.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.0, 3.0] {
            let below = xs.iter().filter(|&&x| x < z).count() as f64 / n as f64;
            let cdf = 0.5 * (1.0 + libm::erf(z / std::f64::consts::SQRT_2));
            assert!((below - cdf).abs() < 0.003, "P(x < {z}) = {below}, expected {cdf}");
        }
        // beyond the ziggurat's base layer: P(|x| > 3.654) ≈ 2.58·10⁻⁴, about 103 of 400 000
        let tail = xs.iter().filter(|x| x.abs() > ZIG_R).count();
        assert!((60..150).contains(&tail), "{tail} samples in the tail");
        let table = ziggurat();
        assert!(table.x.windows(2).all(|w| w[0] > w[1]), "layer widths decrease");
        assert!(table.x[255] > 0.0 && table.x[255] < 0.3, "top layer width {}", table.x[255]);
    }

    #[test]
    fn streams_are_independent_and_repeatable() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(1, Stream::Layer(0)).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::new(1, Stream::Layer(0)).next_u64(), Rng::new(1, Stream::Layer(1)).next_u64());
        assert_ne!(Rng::new(1, Stream::Data).next_u64(), Rng::new(2, Stream::Data).next_u64());
    }
}
