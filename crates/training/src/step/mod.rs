//! The training step: `Trainer` (one step: forward, backward, update), the optimisers, a step split into shards, and a run of a fixed length as plain data (`report`).

pub mod optim;
pub mod report;
pub mod shards;
pub mod train;
