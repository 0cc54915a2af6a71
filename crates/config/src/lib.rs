//! What the reader configures: the settings (`Config` and its choices) and the one table that
//! names, ranges and parses them for every entry point (URL, element, messages, CLI); with
//! `wire`, the checked binary codec, and `order`, the one sort of short lists.
//!
//! The core re-exports it as `ablation_core::config` (and `wire`, `order`). A crate of its own,
//! under the core's maths, so that it is built for size in the page: nothing of it runs per
//! step (BENCHMARKS.md, "Issue 69, third sitting").

pub mod order;
pub mod wire;

mod attributes;
mod choice;
mod codec;
mod comparisons;
pub mod messages;
mod pins;
mod presets;
mod query;
mod settings;
mod state;
mod table;
mod text;
mod tuning;

pub use attributes::*;
pub use choice::{Choice, Options, Words, ON_OFF};
pub use codec::{read_pins, write_pins};
pub use comparisons::*;
pub use pins::*;
pub use presets::*;
pub use query::*;
pub use settings::*;
pub use state::Settings;
pub use table::*;
pub use text::*;
pub use tuning::{tuning, Tuning};
