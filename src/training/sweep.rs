//! The depth sweep: the four switch combinations at each of several depths, everything else as
//! configured. The loss after N steps and the initial gradient ratio against depth show where
//! each combination stops training.

use crate::config::{find, Config, ConfigError, NormPlacement, Value};
use crate::training::compare::four_combinations;
use crate::training::outcome::{run_all, Outcome};

/// The page's and the CLI's depths: doubling, plus the lesson's 12 and 24.
pub const DEFAULT_SWEEP_DEPTHS: [usize; 8] = [1, 2, 4, 8, 12, 24, 48, 96];
/// At most this many depths: 64 runs, a few minutes at depth 96.
pub const MAX_SWEEP_DEPTHS: usize = 16;

fn sweep_error(message: String) -> ConfigError {
    ConfigError { name: "sweep".into(), message }
}

/// Parses a comma-separated list of depths, e.g. `1,2,4,8`: each an allowed depth, at least
/// one, at most `MAX_SWEEP_DEPTHS`, none twice. Errors read like the parameter table's.
pub fn parse_depths(text: &str) -> Result<Vec<usize>, ConfigError> {
    let depth = find("depth").expect("depth is in the table");
    if text.trim().is_empty() {
        return Err(sweep_error(format!("no depths; give a comma-separated list, each {}", depth.allowed())));
    }
    let mut depths = Vec::new();
    for entry in text.split(',') {
        let value = depth.parse(entry).map_err(|e| sweep_error(e.message))?;
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
        return Err(sweep_error(format!("no depths; give a comma-separated list, each {}", depth.allowed())));
    }
    if depths.len() > MAX_SWEEP_DEPTHS {
        return Err(sweep_error(format!("{} depths; at most {MAX_SWEEP_DEPTHS}", depths.len())));
    }
    for (i, d) in depths.iter().enumerate() {
        depth.check_value(Value::Int(*d as i64)).map_err(|e| sweep_error(e.message))?;
        if depths[..i].contains(d) {
            return Err(sweep_error(format!("depth {d} is listed twice")));
        }
    }
    Ok(())
}

/// One switch combination across the depths: each list has an entry per depth swept so far.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSeries {
    pub residual: bool,
    pub norm: NormPlacement,
    /// Loss after the last update at each depth (NaN where the run diverged).
    pub final_loss: Vec<f64>,
    /// `‖∂L/∂x₀‖ / ‖∂L/∂x_L‖` at initialisation at each depth.
    pub grad_ratio: Vec<f64>,
    pub diverged_at: Vec<Option<usize>>,
}

/// The sweep of `config` over `depths`, each run trained for `steps` updates.
pub fn sweep(config: &Config, depths: &[usize], steps: usize) -> Result<[SweepSeries; 4], ConfigError> {
    sweep_on(config, depths, steps, 1)
}

/// `sweep` on up to `threads` threads: the same bits.
pub fn sweep_on(
    config: &Config,
    depths: &[usize],
    steps: usize,
    threads: usize,
) -> Result<[SweepSeries; 4], ConfigError> {
    check_depths(depths)?;
    let configs: Vec<Config> =
        depths.iter().flat_map(|&depth| four_combinations(&Config { depth, ..config.clone() })).collect();
    let outcomes = run_all(&configs, steps, false, threads);
    Ok(std::array::from_fn(|combination| {
        SweepSeries::of(&configs[combination], outcomes.iter().skip(combination).step_by(4))
    }))
}

impl SweepSeries {
    /// The series of `first`'s combination from its runs, shallowest depth first.
    pub fn of<'a>(first: &Config, runs: impl Iterator<Item = &'a Outcome>) -> SweepSeries {
        let runs: Vec<&Outcome> = runs.collect();
        SweepSeries {
            residual: first.residual,
            norm: first.norm,
            final_loss: runs.iter().map(|o| o.final_loss).collect(),
            grad_ratio: runs.iter().map(|o| o.grad_ratio).collect(),
            diverged_at: runs.iter().map(|o| o.diverged_at).collect(),
        }
    }
}
