//! Training and the session: data, optimiser, the training step, a full run as plain data,
//! the per-widget session that produces the frames the page draws, and the comparisons (all
//! four combinations, the depth sweep, the layer knockout): jobs that any worker or thread
//! runs from the seed, and the page's bookkeeping of them.
//!
//! The kinds of run, one line each: `Trainer` takes one step at a time; `RunInProgress` is a
//! run of a fixed length that keeps every loss, and `Run` that run finished (what the CLI
//! reports); `Outcome` is what a comparison keeps of a finished run; `Session` is the page's
//! live run (a step limit, a bounded history, the probe); `Job` is one run of a comparison,
//! described in bytes, and `JobRunner` one under way.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod live;
pub mod measures;
pub mod runs;
pub mod step;
pub mod tasks;
