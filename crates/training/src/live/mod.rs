//! The page's live run: the session, the frame it sends, its bounded loss history, the probe, what the model writes, the attention maps shown.

pub mod attention_view;
pub mod frame;
pub mod loss_history;
pub mod probe;
pub mod session;
pub mod writing;
