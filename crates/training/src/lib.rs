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

pub mod arm;
pub mod attention_view;
pub mod compare;
pub mod copy_task;
pub mod corpus;
pub mod data;
pub mod depth_width;
pub mod frame;
pub mod induction_task;
pub mod initial_layers;
pub mod job;
pub mod knockout;
pub mod loss_history;
pub mod optim;
pub mod outcome;
pub mod per_matrix;
pub mod pinned;
pub mod probe;
pub mod report;
pub mod session;
pub mod shards;
pub mod similarity;
pub mod spread;
pub mod sweep;
pub mod task;
pub mod train;
pub mod tuned_lens;
pub mod tuner;
pub mod writing;
