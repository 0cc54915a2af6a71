//! What a search over settings did (`tuner::Tuner::tuned`): the values it tried, the setting it
//! chose and whether that setting is bracketed, its rounds and every candidate's scores. An arm, a pin and the reports read
//! this record, never the search.

/// One round of the search: how many candidates it trained, to which step, and how many of
/// them it carried to the next round unjudged (their warmup had not ended before the stretch
/// the round scores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    pub candidates: usize,
    pub steps: usize,
    pub carried: usize,
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
    /// Every candidate tried and its score at every round, so that the choice can be audited
    /// from the record alone (a chosen rate is bracketed when both its neighbours on the grid
    /// scored no better at the last round).
    pub candidates: Vec<CandidateScores>,
    /// A candidate that scored lower than the chosen one at the last round, by less than the
    /// tie margin, kept out because the search keeps the setting it had among those as good:
    /// said, so that a reader sees what the rule did.
    pub tie: Option<TieKept>,
}

/// The lowest score of the last round, where the tie rule kept another setting.
#[derive(Clone, Debug, PartialEq)]
pub struct TieKept {
    pub lr: f64,
    pub warmup: usize,
    pub beta2: f64,
    pub score: f64,
    /// The chosen setting's score at the last round.
    pub chosen_score: f64,
}

/// A candidate setting and its score at each round: the median over the choosing seeds of its
/// training loss over the last tenth of its steps (∞ if a run diverged); None where it was not
/// trained that far.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateScores {
    pub lr: f64,
    pub warmup: usize,
    pub beta2: f64,
    pub scores: Vec<Option<f64>>,
}

/// Which of the table's limits a chosen rate is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Lowest,
    Highest,
}
