//! A comparison's runs: jobs any worker runs, an arm over seeds and its numbers, All four's and the sweep's runs, a pin, and the search that chooses a tuned arm's setting (`tuner`, on `grid`).

pub mod all_four;
pub mod arm;
pub mod grid;
pub mod job;
pub mod outcome;
pub mod pinned;
pub mod spread;
pub mod sweep;
pub mod trial;
pub mod tuned;
pub mod tuner;
