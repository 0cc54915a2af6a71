//! Training and the session: data, optimiser, the training step, a full run as plain data,
//! the per-widget session that produces the frames the page draws, and the comparisons (all
//! four combinations, the depth sweep, the layer knockout), each advanceable in slices.

pub mod compare;
pub mod data;
pub mod frame;
pub mod initial_layers;
pub mod job;
pub mod knockout;
pub mod lab;
pub mod loss_history;
pub mod optim;
pub mod outcome;
pub mod report;

pub mod session;
pub mod sweep;
pub mod train;
