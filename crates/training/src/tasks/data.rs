//! The task: regress a fixed random linear teacher, `y = x A`, from random tokens.
//!
//! Tokens are x ~ N(0, I_d), the teacher A ~ N(0, 1/d) so that targets have unit variance:
//! a model that outputs zero scores a loss of about 1, a perfect one 0. Every training step
//! draws a fresh batch from the seeded data stream (so the batch order is fixed by the seed);
//! a separate fixed probe batch is what the histogram and the per-depth panels look at.

use ablation_core::model::kernels::matmul::gemm_nn;
use ablation_core::model::real::Real;
use ablation_core::model::rng::{Rng, Stream};
use nalgebra::DMatrix;

#[derive(Clone)]
pub struct Teacher<F: Real> {
    pub a: DMatrix<F>, // (d, d_out)
}

impl<F: Real> Teacher<F> {
    pub fn new(seed: u64, width: usize, outputs: usize) -> Self {
        let mut rng = Rng::new(seed, Stream::Teacher);
        let std = 1.0 / (width as f64).sqrt();
        Teacher { a: DMatrix::from_fn(width, outputs, |_, _| F::of(std * rng.normal())) }
    }

    /// Fills `x` with fresh tokens from `rng` and `y` with the teacher's targets.
    pub fn sample(&self, rng: &mut Rng, x: &mut DMatrix<F>, y: &mut DMatrix<F>) {
        rng.fill_normal(x.as_mut_slice(), 1.0); // 1 · n is n: the same bits as F::of(n)
        let (t, d) = x.shape();
        gemm_nn(t, d, self.a.ncols(), x.as_slice(), self.a.as_slice(), y.as_mut_slice(), false);
    }
}

/// The endless, seeded stream of training batches.
#[derive(Clone)]
pub struct DataStream<F: Real> {
    pub teacher: Teacher<F>,
    rng: Rng,
    seed: u64,
}

impl<F: Real> DataStream<F> {
    pub fn new(seed: u64, width: usize, outputs: usize) -> Self {
        DataStream { teacher: Teacher::new(seed, width, outputs), rng: Rng::new(seed, Stream::Data), seed }
    }

    /// Where the stream of batches stands (`Rng::position`), and back there.
    pub fn position(&self) -> u64 {
        self.rng.position()
    }
    pub fn set_position(&mut self, position: u64) {
        self.rng = Rng::at(position);
    }

    pub fn next_batch(&mut self, x: &mut DMatrix<F>, y: &mut DMatrix<F>) {
        self.teacher.sample(&mut self.rng, x, y);
    }

    /// The fixed probe batch: same teacher, its own stream.
    pub fn probe(&self, tokens: usize) -> (DMatrix<F>, DMatrix<F>) {
        let d = self.teacher.a.nrows();
        let mut x = DMatrix::zeros(tokens, d);
        let mut y = DMatrix::zeros(tokens, self.teacher.a.ncols());
        self.teacher.sample(&mut Rng::new(self.seed, Stream::Probe), &mut x, &mut y);
        (x, y)
    }
}
