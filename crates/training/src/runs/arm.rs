//! One arm of a comparison over its seeds: its runs shown as they come in, the configuration
//! they train (the chosen setting once tuned, `ablation_comparisons::tuner`) and what the search did. Its
//! seeds and numbers are `spread.rs`'s.

use crate::runs::tuned::Tuned;
use ablation_core::config::Config;

/// One arm once its runs are in: the runs shown (one per seed of `seeds`, `None` while not
/// done), the configuration they train (the chosen setting once tuned) and, when tuned, what
/// the search did.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm<T> {
    pub seeds: Vec<u64>,
    pub runs: Vec<Option<T>>,
    /// The arm's configuration: its setting as chosen (or as set, untuned or while choosing).
    pub config: Config,
    pub tuning: Option<Tuned>,
    /// Every run is in (and the setting, if tuned, chosen).
    pub done: bool,
}

impl<T> Arm<T> {
    /// The rate its runs train at (the chosen one once tuned).
    pub fn rate(&self) -> f64 {
        self.config.learning_rate
    }

    /// The runs shown, seed by seed (`None` for one not done).
    pub fn shown(&self) -> &[Option<T>] {
        &self.runs
    }

    /// The runs shown that are done, with their seeds.
    pub fn shown_done(&self) -> impl Iterator<Item = (u64, &T)> {
        self.seeds.iter().zip(self.shown()).filter_map(|(&s, r)| r.as_ref().map(|r| (s, r)))
    }

    /// How many of the arm's runs shown are done.
    pub fn finished(&self) -> usize {
        self.runs.iter().filter(|r| r.is_some()).count()
    }

    /// Whether the arm was tuned.
    pub fn tuned(&self) -> bool {
        self.tuning.is_some()
    }

    /// Whether its setting is chosen (untuned: always).
    pub fn chosen(&self) -> bool {
        self.tuning.as_ref().is_none_or(|t| t.chosen.is_some())
    }
}
