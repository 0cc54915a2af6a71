//! The depth sweep: the four switch combinations at each of several depths, everything else as
//! configured. The loss after N steps and the initial gradient ratio against depth show where
//! each combination stops training.

use crate::config::{find, Config, ConfigError, NormPlacement, Value};
use crate::training::compare::four_combinations;
use crate::training::run_queue::RunQueue;

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
        depth.check(&d.to_string()).map_err(|e| sweep_error(e.message))?;
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

/// The runs of a sweep, depth by depth (the four combinations at each), so that the chart
/// fills in from the shallow end.
pub struct DepthSweep {
    /// The configuration swept (its depth and switches are the sweep's to vary).
    config: Config,
    depths: Vec<usize>,
    queue: RunQueue,
}

impl DepthSweep {
    /// The sweep of `config` over `depths` (checked with `check_depths`), `steps` per run.
    pub fn new(config: &Config, depths: &[usize], steps: usize) -> Result<DepthSweep, ConfigError> {
        check_depths(depths)?;
        let configs =
            depths.iter().flat_map(|&depth| four_combinations(&Config { depth, ..config.clone() })).collect();
        // a sweep keeps four numbers per run, not its curve
        Ok(DepthSweep {
            config: config.clone(),
            depths: depths.to_vec(),
            queue: RunQueue::new(configs, steps, false),
        })
    }

    /// Takes up to `max_steps` training steps and says whether every run is done.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        self.queue.advance(max_steps)
    }

    pub fn is_done(&self) -> bool {
        self.queue.is_done()
    }

    /// The configuration swept.
    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn depths(&self) -> &[usize] {
        &self.depths
    }

    pub fn steps(&self) -> usize {
        self.queue.steps()
    }

    /// Runs finished so far, out of `4 × depths`.
    pub fn runs_finished(&self) -> usize {
        self.queue.finished().len()
    }

    /// The four combinations in the order of `four_combinations`, each over the depths whose
    /// run of that combination has finished.
    pub fn series(&self) -> [SweepSeries; 4] {
        std::array::from_fn(|combination| {
            let config = &self.queue.configs()[combination];
            let runs: Vec<_> = self.queue.finished().iter().skip(combination).step_by(4).collect();
            SweepSeries {
                residual: config.residual,
                norm: config.norm,
                final_loss: runs.iter().map(|o| o.final_loss).collect(),
                grad_ratio: runs.iter().map(|o| o.grad_ratio).collect(),
                diverged_at: runs.iter().map(|o| o.diverged_at).collect(),
            }
        })
    }
}

/// The sweep of `config` over `depths`, each run trained for `steps` updates.
pub fn sweep(config: &Config, depths: &[usize], steps: usize) -> Result<[SweepSeries; 4], ConfigError> {
    let mut sweep = DepthSweep::new(config, depths, steps)?;
    sweep.advance(usize::MAX);
    Ok(sweep.series())
}
