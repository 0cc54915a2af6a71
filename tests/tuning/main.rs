//! The tuner (issue 52): a grid that widens until the best rate is inside it, an arm whose
//! best is at the table's limit said to be there, ties said (`grid.rs`); successive halving's
//! survivors going on bit for bit from their checkpoints, no warmup judged mid-ramp
//! (`halving.rs`); choosing seeds apart from the seeds shown, the plateau rule on runs that
//! plateau and runs that do not, and the CLI's contract (`runs.rs`).

mod grid;
mod halving;
mod runs;

use ablation_playground::comparisons::tuner::Tuner;
use ablation_playground::config::{copy_defaults, Config};
use ablation_playground::training::runs::trial::TrialEnd;

/// Drives `tuner` to its choice with each trial scored by `loss(rate, until)` (the same on
/// every seed): the search's logic alone, no training. Returns every (rate, until) trained.
pub fn search(tuner: &mut Tuner, loss: impl Fn(f64, usize) -> f64) -> Vec<(f64, usize)> {
    search_by(tuner, |c, until| loss(c.learning_rate, until))
        .into_iter()
        .map(|(c, u)| (c.learning_rate, u))
        .collect()
}

/// `search` with each trial scored by `loss(its configuration, until)`; returns every
/// (configuration, until) trained.
pub fn search_by(tuner: &mut Tuner, loss: impl Fn(&Config, usize) -> f64) -> Vec<(Config, usize)> {
    let mut trained = Vec::new();
    for _ in 0..10_000 {
        let asked = tuner.requests();
        if asked.is_empty() {
            break;
        }
        for t in asked {
            let tail = loss(&t.config, t.until);
            trained.push((t.config, t.until));
            tuner.record(t.setting, t.seed, t.round, TrialEnd { tail, resume: Vec::new() });
        }
    }
    assert!(tuner.done(), "the search ended without choosing");
    trained
}

pub fn tuned(lr: f64) -> Config {
    Config { tune: true, learning_rate: lr, seeds: 2, choose_seeds: 3, ..Config::default() }
}

/// A small stack on the copy task, quick to train.
pub fn small_copy() -> Config {
    Config { depth: 2, width: 16, tokens: 32, ..copy_defaults() }
}
