//! The layer knockout: on a trained stack and the fixed probe batch, each layer in turn
//! replaced by the identity (`x_{ℓ+1} = x_ℓ`), measuring the probe loss and how far the top of
//! the stream moves. The lessons claim a trained residual stack barely notices losing one
//! layer while a plain stack collapses; this measures it.

use crate::model::real::Real;
use crate::model::stats::frobenius;
use crate::training::train::Trainer;
use nalgebra::DMatrix;

#[derive(Clone, Debug, PartialEq)]
pub struct Knockout {
    /// Probe loss of the intact stack.
    pub intact_loss: f64,
    /// Probe loss with layer ℓ knocked out, for ℓ = 0..L (so far).
    pub loss: Vec<f64>,
    /// `‖x_L' − x_L‖ / ‖x_L‖` with layer ℓ knocked out: how far the output moved, relative
    /// to its size.
    pub output_change: Vec<f64>,
}

/// `‖changed − intact‖ / ‖intact‖` (Frobenius norms, summed in f64).
pub fn relative_change<F: Real>(changed: &DMatrix<F>, intact: &DMatrix<F>) -> f64 {
    let difference: f64 = changed.iter().zip(intact.iter()).map(|(&a, &b)| (a.f64() - b.f64()).powi(2)).sum();
    difference.sqrt() / frobenius(intact.as_slice())
}

/// A knockout that goes forward a few layers at a time (each is a forward pass on the probe
/// batch), so that a worker can run it in small slices at depth 96. Every call must get the
/// same trainer, untrained in between.
pub struct KnockoutInProgress {
    result: Knockout,
    intact_top: DMatrix<f32>, // (T, d) x_L of the intact stack
    depth: usize,
}

impl KnockoutInProgress {
    /// Measures the intact stack: one forward pass on the probe batch.
    pub fn new(trainer: &mut Trainer<f32>) -> KnockoutInProgress {
        let intact_loss = trainer.probe_forward_skipping(None);
        let depth = trainer.stack.layers.len();
        KnockoutInProgress {
            result: Knockout {
                intact_loss,
                loss: Vec::with_capacity(depth),
                output_change: Vec::with_capacity(depth),
            },
            intact_top: trainer.stack.output().clone(),
            depth,
        }
    }

    /// Knocks out up to `max_layers` more layers, one forward pass each, and says whether
    /// every layer is done. The last call leaves the intact stack's probe activations in the
    /// stream, as they were before the knockout.
    pub fn advance(&mut self, trainer: &mut Trainer<f32>, max_layers: usize) -> bool {
        assert_eq!(trainer.stack.layers.len(), self.depth, "the knockout's own trainer");
        let start = self.result.loss.len();
        let end = start.saturating_add(max_layers).min(self.depth);
        for skipped in start..end {
            let loss = trainer.probe_forward_skipping(Some(skipped));
            self.result.loss.push(loss);
            self.result.output_change.push(relative_change(trainer.stack.output(), &self.intact_top));
        }
        if start < end && end == self.depth {
            trainer.probe_forward_skipping(None); // what the panels read is the intact stack's
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.result.loss.len() == self.depth
    }

    /// The measurements so far.
    pub fn result(&self) -> &Knockout {
        &self.result
    }

    pub fn into_result(self) -> Knockout {
        self.result
    }
}

/// Every layer of `trainer`'s stack knocked out in turn, on the probe batch.
pub fn knockout(trainer: &mut Trainer<f32>) -> Knockout {
    let mut progress = KnockoutInProgress::new(trainer);
    progress.advance(trainer, usize::MAX);
    progress.into_result()
}
