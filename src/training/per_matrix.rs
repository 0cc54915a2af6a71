//! Measures read matrix by matrix, as Xiong et al. 2020 read them: each sublayer's weight
//! gradient at initialisation, averaged over many training batches (their Figure 3 and
//! Theorem 1 speak of `W^{2,L}`, the last FFN's second matrix, not of a layer's parameters
//! lumped together), and how far the first updates move each matrix (`‖W_n − W_0‖ / ‖W_0‖`),
//! which is what a warmup keeps small.

use crate::config::Config;
use crate::model::param::Params;
use crate::model::real::Real;
use crate::model::stats::frobenius;
use crate::training::train::Trainer;

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
    let mut trainer = Trainer::<F>::new(config);
    let mut out = PerMatrix::zeros(&trainer);
    for _ in 0..batches {
        trainer.gradients_on_next_batch();
        for (layer, row) in trainer.stack.layers.iter_mut().zip(&mut out.layers) {
            let mut i = 0;
            layer.sublayer.visit(&mut |p| {
                row[i].1 += frobenius(p.grad.as_slice());
                i += 1;
            });
        }
    }
    for row in &mut out.layers {
        row.iter_mut().for_each(|(_, v)| *v /= batches.max(1) as f64);
    }
    out
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
