//! The depth sweep: the four switch combinations at each of several depths, everything else as
//! configured. The loss after N steps and the initial gradient ratio against depth show where
//! each combination stops training.

use crate::runs::arm::Arm;
use crate::runs::outcome::Outcome;
use crate::runs::spread::Spread;
use ablation_core::config::{find, Config, ConfigError, NormPlacement, StackKind, Value};
use ablation_words::Said;

/// The page's and the CLI's depths: doubling, plus the lesson's 12 and 24.
pub const DEFAULT_SWEEP_DEPTHS: [usize; 8] = [1, 2, 4, 8, 12, 24, 48, 96];
/// An encoder–decoder's: whole layers of 5 sublayers (1, 2, 4, 8, 12 and 19 layers in each stack).
pub const ENCODER_DECODER_SWEEP_DEPTHS: [usize; 6] = [5, 10, 20, 40, 60, 95];

/// The depths a sweep of `config` goes over when none are given: an encoder–decoder's own.
pub fn default_sweep_depths(config: &Config) -> &'static [usize] {
    if config.stack == StackKind::EncoderDecoder {
        &ENCODER_DECODER_SWEEP_DEPTHS
    } else {
        &DEFAULT_SWEEP_DEPTHS
    }
}

/// At most this many depths: 64 runs, a few minutes at depth 96.
pub const MAX_SWEEP_DEPTHS: usize = 16;

fn sweep_error(said: Said) -> ConfigError {
    ConfigError::new("sweep", said)
}

/// Parses a comma-separated list of depths, e.g. `1,2,4,8`: each an allowed depth, at least
/// one, at most `MAX_SWEEP_DEPTHS`, none twice. Errors read like the parameter table's.
pub fn parse_depths(text: &str) -> Result<Vec<usize>, ConfigError> {
    let depth = find("depth").expect("depth is in the table");
    if text.trim().is_empty() {
        return Err(sweep_error(Said::new("error-sweep-none").arg("allowed", depth.allowed_said())));
    }
    let mut depths = Vec::new();
    for entry in text.split(',') {
        let value = depth.parse(entry).map_err(|e| sweep_error(e.said))?;
        depths.push(match value {
            Value::Int(d) => d as usize,
            _ => unreachable!("depth is an integer parameter"),
        });
    }
    check_depths(&depths)?;
    Ok(depths)
}

/// The rules `parse_depths` applies to the list as a whole.
pub fn check_depths(depths: &[usize]) -> Result<(), ConfigError> {
    let depth = find("depth").expect("depth is in the table");
    if depths.is_empty() {
        return Err(sweep_error(Said::new("error-sweep-none").arg("allowed", depth.allowed_said())));
    }
    if depths.len() > MAX_SWEEP_DEPTHS {
        return Err(sweep_error(
            Said::new("error-sweep-many").arg("n", depths.len()).arg("max", MAX_SWEEP_DEPTHS),
        ));
    }
    for (i, d) in depths.iter().enumerate() {
        depth.check_value(Value::Int(*d as i64)).map_err(|e| sweep_error(e.said))?;
        if depths[..i].contains(d) {
            return Err(sweep_error(Said::new("error-sweep-twice").arg("depth", *d)));
        }
    }
    Ok(())
}

/// One switch combination across the depths: each list has an entry per depth swept so far.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSeries {
    pub residual: bool,
    pub norm: NormPlacement,
    /// The first seed's loss after the last update at each depth, at its chosen rate (NaN
    /// where the run diverged).
    pub final_loss: Vec<f64>,
    /// `‖∂L/∂x₀‖ / ‖∂L/∂x_L‖` at initialisation at each depth (the first seed's).
    pub grad_ratio: Vec<f64>,
    pub diverged_at: Vec<Option<usize>>,
    /// Every seed's runs at every rate, at each depth.
    pub arms: Vec<Arm<Outcome>>,
}

impl SweepSeries {
    /// The series of `first`'s combination from its arms, shallowest depth first.
    pub fn of(first: &Config, arms: impl Iterator<Item = Arm<Outcome>>) -> SweepSeries {
        let arms: Vec<Arm<Outcome>> = arms.collect();
        let firsts: Vec<&Outcome> =
            arms.iter().map(|a| a.shown()[0].as_ref().expect("a finished arm's runs")).collect();
        SweepSeries {
            residual: first.residual,
            norm: first.norm,
            final_loss: firsts.iter().map(|o| o.final_loss).collect(),
            grad_ratio: firsts.iter().map(|o| o.grad_ratio).collect(),
            diverged_at: firsts.iter().map(|o| o.diverged_at).collect(),
            arms,
        }
    }

    /// The loss after the last update at each depth over the seeds (at the chosen rate).
    pub fn final_spread(&self) -> Vec<Spread> {
        self.arms
            .iter()
            .map(|a| Spread::of(&a.shown_done().map(|(_, o)| o.final_loss).collect::<Vec<_>>()))
            .collect()
    }

    /// The chosen rate at each depth.
    pub fn rates(&self) -> Vec<f64> {
        self.arms.iter().map(Arm::rate).collect()
    }
}
