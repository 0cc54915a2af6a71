//! "All four": the four switch combinations at one configuration's depth and settings, trained
//! for the same steps, side by side. The lesson's table, live: std at the top and the
//! gradient ratio at initialisation, the loss after N steps, and where a run diverged.

use crate::config::{Config, NormPlacement};
use crate::training::report::RunInProgress;
use crate::training::run_queue::{Outcome, RunQueue};

/// Both off, the norm alone, the residual alone, both on: `config` with only the two switches
/// changed. The norm keeps the config's placement, or is `Pre` if the config has none.
pub fn four_combinations(config: &Config) -> [Config; 4] {
    let placement = match config.norm {
        NormPlacement::Off => NormPlacement::Pre,
        placement => placement,
    };
    let with = |residual, norm| Config { residual, norm, ..config.clone() };
    [
        with(false, NormPlacement::Off),
        with(false, placement),
        with(true, NormPlacement::Off),
        with(true, placement),
    ]
}

/// The two switches as the parameter table spells their values: ("on", "pre").
pub fn switch_words(residual: bool, norm: NormPlacement) -> (String, String) {
    let switches = Config { residual, norm, ..Config::default() };
    let word = |name| switches.get(name).expect("a parameter of the table");
    (word("residual"), word("norm"))
}

/// A combination's label: "residual on, norm pre".
pub fn switches_label(residual: bool, norm: NormPlacement) -> String {
    let (residual, norm) = switch_words(residual, norm);
    format!("residual {residual}, norm {norm}")
}

/// The four runs, trained one after another a budget of steps at a time.
pub struct Comparison {
    queue: RunQueue,
}

impl Comparison {
    pub fn new(config: &Config, steps: usize) -> Comparison {
        Comparison { queue: RunQueue::new(four_combinations(config).to_vec(), steps, true) }
    }

    /// Takes up to `max_steps` training steps and says whether all four runs are done.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        self.queue.advance(max_steps)
    }

    pub fn is_done(&self) -> bool {
        self.queue.is_done()
    }

    /// The four configurations, in the order of `four_combinations`.
    pub fn configs(&self) -> &[Config] {
        self.queue.configs()
    }

    /// The runs finished so far, in the order of `four_combinations`, each with its loss curve.
    pub fn entries(&self) -> &[Outcome] {
        self.queue.finished()
    }

    /// The run in progress, if any: the next entry, partly trained.
    pub fn current(&self) -> Option<&RunInProgress> {
        self.queue.current()
    }

    pub fn steps(&self) -> usize {
        self.queue.steps()
    }
}

/// The four combinations of `config`, each trained for `steps` updates.
pub fn compare(config: &Config, steps: usize) -> Vec<Outcome> {
    let mut comparison = Comparison::new(config, steps);
    comparison.advance(usize::MAX);
    comparison.entries().to_vec()
}
