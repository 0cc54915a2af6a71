//! A full run as plain data: what the CLI prints and what static figures are drawn from.

use crate::config::Config;
use crate::model::stats::{histogram, mean_std, Histogram, Range};
use crate::training::train::Trainer;

/// The histogram's fixed axis: wide enough for a healthy unit-scale stream, narrow enough
/// that an exploding one piles up visibly at both edges.
pub const HISTOGRAM_RANGE: Range = Range::Fixed(-4.0, 4.0);
pub const HISTOGRAM_BINS: usize = 40;

/// The per-depth picture on the fixed probe batch at one moment of training.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// std of the stream `x_ℓ`, ℓ = 0..=L.
    pub act_std: Vec<f64>,
    /// `‖∂L/∂x_ℓ‖`, ℓ = 0..=L.
    pub grad_norm: Vec<f64>,
    /// `‖∂L/∂W_ℓ‖` for each sublayer.
    pub weight_grad_norm: Vec<f64>,
    /// std of what the readout reads: `LN_f(x_L)` with a final norm, else `x_L`.
    pub readout_std: f64,
    /// Loss on the probe batch.
    pub probe_loss: f64,
}

impl Snapshot {
    pub fn take(trainer: &mut Trainer<f32>) -> Snapshot {
        let probe_loss = trainer.probe();
        let stack = &trainer.stack;
        Snapshot {
            act_std: stack.stream_stds(),
            grad_norm: stack.stream_grad_norm.clone(),
            weight_grad_norm: stack.weight_grad_norm.clone(),
            readout_std: mean_std(stack.readout_input().as_slice()).1,
            probe_loss,
        }
    }
}

pub struct Run {
    pub config: Config,
    pub init: Snapshot,
    pub last: Snapshot,
    /// Loss before each update and after the last (`steps + 1` values; NaN after divergence).
    pub loss: Vec<f64>,
    pub diverged_at: Option<usize>,
    /// What the readout reads on the probe batch after training, on the fixed axis.
    pub histogram: Histogram,
}

/// Trains `config` for `steps` updates and measures it before and after.
pub fn run(config: &Config, steps: usize) -> Run {
    let mut trainer = Trainer::<f32>::new(config);
    let init = Snapshot::take(&mut trainer);
    // after a divergence one_step measures nothing and returns NaN
    let loss: Vec<f64> = (0..=steps).map(|s| trainer.one_step(s < steps)).collect();
    let last = Snapshot::take(&mut trainer);
    let histogram = histogram(trainer.stack.readout_input().as_slice(), HISTOGRAM_BINS, HISTOGRAM_RANGE);
    Run { config: config.clone(), init, last, loss, diverged_at: trainer.diverged_at, histogram }
}
