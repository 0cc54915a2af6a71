//! What a search over settings did (`tuner::Tuner::tuned`): the values it tried, the setting it
//! chose and whether that setting is bracketed, its rounds. An arm, a pin and the reports read
//! this record, never the search.

/// One round of the search: how many candidates it trained, to which step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    pub candidates: usize,
    pub steps: usize,
}

/// What the search did, for a report and a sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// Every value tried, lowest first.
    pub lrs: Vec<f64>,
    pub warmups: Vec<usize>,
    pub beta2s: Vec<f64>,
    /// Whether the warmup and β₂ were searched (`tune_grid=lr,warmup,beta2`).
    pub recipe: bool,
    /// The setting chosen, once the search is over: the rate, the warmup, β₂.
    pub chosen: Option<(f64, usize, f64)>,
    /// The chosen rate has a neighbour on both sides that trained the full run and did no better;
    /// otherwise `limit` says which limit it is at.
    pub bracketed: bool,
    pub limit: Option<Limit>,
    pub choosing_seeds: Vec<u64>,
    /// The rounds so far (the last one in progress) and how many are planned.
    pub rounds: Vec<Round>,
    pub planned_rounds: usize,
}

/// Which of the table's limits a chosen rate is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Lowest,
    Highest,
}
