//! A small, fully specified random number generator.
//!
//! SplitMix64 for the bits and Box–Muller (through `libm`) for normals: the same seed
//! gives the same numbers on every machine and in every browser. Each use of randomness
//! (one sublayer's weights, the teacher, the data stream, ...) gets its own stream, so
//! that changing the depth leaves the first layers' weights and the data untouched.

pub struct Rng {
    state: u64,
    spare: Option<f64>,
}

/// Named streams derived from the one user-facing seed.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    Layer(usize),
    Readout,
    Teacher,
    Probe,
    Data,
}

impl Stream {
    fn id(self) -> u64 {
        match self {
            Stream::Readout => 1,
            Stream::Teacher => 2,
            Stream::Probe => 3,
            Stream::Data => 4,
            Stream::Layer(i) => 1000 + i as u64,
        }
    }
}

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
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
        Rng { state, spare: None }
    }

    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.state)
    }

    /// Uniform in the open interval (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal sample.
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let r = libm::sqrt(-2.0 * libm::log(self.uniform()));
        let theta = 2.0 * std::f64::consts::PI * self.uniform();
        self.spare = Some(r * libm::sin(theta));
        r * libm::cos(theta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normals_have_unit_moments() {
        let mut rng = Rng::new(7, Stream::Data);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.01, "var {var}");
    }

    #[test]
    fn streams_are_independent_and_repeatable() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(1, Stream::Layer(0)).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::new(1, Stream::Layer(0)).next_u64(), Rng::new(1, Stream::Layer(1)).next_u64());
        assert_ne!(Rng::new(1, Stream::Data).next_u64(), Rng::new(2, Stream::Data).next_u64());
    }
}
