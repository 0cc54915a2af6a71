//! Measures read matrix by matrix, as Xiong et al. 2020 read them: each sublayer's weight
//! gradient at initialisation, averaged over many training batches (their Figure 3 and
//! Theorem 1 speak of `W^{2,L}`, the last FFN's second matrix, not of a layer's parameters
//! lumped together), and how far the first updates move each matrix (`‖W_n − W_0‖ / ‖W_0‖`),
//! which is what a warmup keeps small.

use crate::step::train::Trainer;
use ablation_core::config::Config;
use ablation_core::model::param::Params;
use ablation_core::model::real::Real;
use ablation_core::model::stats::frobenius;

/// One value per matrix (a weight or a bias) of every sublayer, named within its sublayer as a
/// weights file names it after the layer's prefix: `attention.q.weight`, `ffn.down.weight`, …
#[derive(Clone, Debug, PartialEq)]
pub struct PerMatrix {
    /// Sublayer ℓ's matrices, in `visit`'s order: (name, value).
    pub layers: Vec<Vec<(String, f64)>>,
}

impl PerMatrix {
    fn zeros<F: Real>(trainer: &Trainer<F>) -> Self {
        let layers = trainer
            .stack
            .layers
            .iter()
            .map(|layer| {
                let mut names = Vec::new();
                layer.sublayer.names("", &mut names);
                names.into_iter().map(|n| (n.trim_start_matches('.').to_string(), 0.0)).collect()
            })
            .collect();
        PerMatrix { layers }
    }
}

/// Every sublayer matrix's gradient norm `‖∂L/∂W‖` at initialisation, averaged over the first
/// `batches` training batches of `config`'s run (the batches its first steps train on), with
/// the weights left at their initial values: the mean over batches of each batch's norm.
pub fn gradient_norms<F: Real>(config: &Config, batches: usize) -> PerMatrix {
    let mut average = GradientAverage::<F>::new(config, batches);
    average.advance(batches);
    average.so_far()
}

/// `gradient_norms`, a batch at a time: the page's matrices' view measures it between frames
/// (`Session::measure_matrices`), and its figures are the CLI's.
pub struct GradientAverage<F: Real> {
    trainer: Trainer<F>,
    sums: PerMatrix,
    /// Batches measured, and to measure.
    pub done: usize,
    pub batches: usize,
}

impl<F: Real> GradientAverage<F> {
    /// Its own stack at `config`'s initialisation and its own data stream (the run's first
    /// batches): the run it measures beside is not touched.
    pub fn new(config: &Config, batches: usize) -> Self {
        let trainer = Trainer::<F>::new(&Config { shards: 1, ..config.clone() });
        let sums = PerMatrix::zeros(&trainer);
        GradientAverage { trainer, sums, done: 0, batches }
    }

    /// Measures the stack with `weights` (`Params::visit` order) instead of the seed's draw.
    pub fn load_weights(&mut self, weights: &[F]) -> Result<(), String> {
        self.trainer.load_weights(weights)
    }

    /// Measures up to `n` more batches; returns whether all are measured.
    pub fn advance(&mut self, n: usize) -> bool {
        for _ in 0..n.min(self.batches - self.done) {
            self.trainer.gradients_on_next_batch();
            for (layer, row) in self.trainer.stack.layers.iter_mut().zip(&mut self.sums.layers) {
                add_norms(&mut layer.sublayer, row);
            }
            self.done += 1;
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.done >= self.batches
    }

    /// The mean over the batches measured so far (zeros before the first).
    pub fn so_far(&self) -> PerMatrix {
        let mut out = self.sums.clone();
        for row in &mut out.layers {
            row.iter_mut().for_each(|(_, v)| *v /= self.done.max(1) as f64);
        }
        out
    }
}

/// Adds each of `sublayer`'s matrices' gradient norm (`frobenius`) to its entry of `row`.
#[inline(never)] // one small instance (the page's wasm)
fn add_norms<F: Real>(sublayer: &mut impl Params<F>, row: &mut [(String, f64)]) {
    let mut i = 0;
    sublayer.visit(&mut |p| {
        row[i].1 += p.grad_sq_sum().sqrt();
        i += 1;
    });
}

/// The matrix of a sublayer Xiong et al. read, by its name within the sublayer: the FFN's
/// second (down) matrix `W²` (their Theorem 1 and Figure 3), an attention sublayer's value
/// matrix `W_V` (the only one its output is linear in), a single-matrix sublayer's weight.
pub fn xiong_matrix(names: &[(String, f64)]) -> Option<usize> {
    let named = |n: &str| names.iter().position(|(name, _)| name == n);
    named("ffn.down.weight")
        .or_else(|| names.iter().position(|(name, _)| name.ends_with(".v.weight")))
        .or_else(|| names.iter().position(|(name, _)| name.ends_with(".weight")))
}

/// The matrices' view's measure, as a frame carries it: each sublayer's Xiong matrix
/// (`xiong_matrix`), its gradient at initialisation averaged over `batches` of `of` batches.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixGradients {
    /// Each sublayer's matrix, by its name within the sublayer (`ffn.down.weight`, …).
    pub names: Vec<String>,
    pub values: Vec<f64>,
    pub batches: usize,
    pub of: usize,
}

impl MatrixGradients {
    /// What `average` has measured so far: none before its first batch.
    pub fn of<F: Real>(average: &GradientAverage<F>) -> Option<MatrixGradients> {
        if average.done == 0 {
            return None;
        }
        let (names, values) = xiong_matrices(&average.so_far()).into_iter().unzip();
        Some(MatrixGradients { names, values, batches: average.done, of: average.batches })
    }

    /// The whole measure at `config`'s initialisation (a static figure's), `batches` batches.
    pub fn at_init(config: &Config, batches: usize) -> Option<MatrixGradients> {
        let mut average = GradientAverage::<f32>::new(config, batches);
        average.advance(batches);
        Self::of(&average)
    }
}

/// Each sublayer's Xiong matrix (`xiong_matrix`) out of `m`: its name and value.
pub fn xiong_matrices(m: &PerMatrix) -> Vec<(String, f64)> {
    m.layers
        .iter()
        .map(|row| xiong_matrix(row).map_or((String::new(), f64::NAN), |i| row[i].clone()))
        .collect()
}

/// How far `steps` updates of `config`'s run move each sublayer matrix, relative to its size
/// at initialisation: `‖W_steps − W_0‖ / ‖W_0‖` (NaN for a matrix that starts at zero, as a
/// bias does, and once the run has diverged).
pub fn update_sizes<F: Real>(config: &Config, steps: usize) -> PerMatrix {
    let mut trainer = Trainer::<F>::new(config);
    let initial: Vec<Vec<Vec<F>>> = trainer
        .stack
        .layers
        .iter_mut()
        .map(|layer| {
            let mut kept = Vec::new();
            layer.sublayer.visit(&mut |p| kept.push(p.value.as_slice().to_vec()));
            kept
        })
        .collect();
    for _ in 0..steps {
        trainer.replay_step();
        if trainer.diverged_at.is_some() {
            break;
        }
    }
    let diverged = trainer.diverged_at.is_some();
    let mut out = PerMatrix::zeros(&trainer);
    for ((layer, row), before) in trainer.stack.layers.iter_mut().zip(&mut out.layers).zip(&initial) {
        let mut i = 0;
        layer.sublayer.visit(&mut |p| {
            let w0 = frobenius(&before[i]);
            let dw =
                p.value.iter().zip(&before[i]).map(|(a, b)| (a.f64() - b.f64()).powi(2)).sum::<f64>().sqrt();
            row[i].1 = if diverged || w0 == 0.0 { f64::NAN } else { dw / w0 };
            i += 1;
        });
    }
    out
}
