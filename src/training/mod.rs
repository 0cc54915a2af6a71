//! Training and the session: data, optimiser, the training step, a full run as plain data,
//! and the per-widget session that produces the frames the page draws.

pub mod data;
pub mod frame;
pub mod initial_layers;
pub mod loss_history;
pub mod optim;
pub mod report;
pub mod session;
pub mod train;
