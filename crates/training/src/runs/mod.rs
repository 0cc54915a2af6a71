//! A comparison's runs: jobs any worker runs, an arm over seeds and its numbers, All four's and the sweep's runs, a pin, and a search's record (`tuned`; the search itself, driven by the comparisons' scheduler, is `ablation_comparisons::tuner`).

pub mod all_four;
pub mod arm;
pub mod job;
pub mod outcome;
pub mod pinned;
pub mod spread;
pub mod sweep;
pub mod trial;
pub mod tuned;
