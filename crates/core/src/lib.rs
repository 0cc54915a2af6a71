//! The core of ablation-playground: what the reader configures and the maths of the stack.
//!
//! - `config`: `Config` and the one parameter table, presets, pins, the URL query, each
//!   comparison's names, the element's own attributes;
//! - `model`: the stack, each op's forward and backward side by side (`kernels/` the products,
//!   the causal softmax and the vector formulas, each opening with its bit-order contract);
//! - `wire`, the checked binary codec; `order`, the one sort of short lists (with `config`, the
//!   crate below, `ablation-config`, re-exported here); `memory`, the allocator every binary
//!   that links this crate uses (buffers on cache lines).
//!
//! It is built at full speed in every profile: the kernels are here.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod memory;
pub mod model;

// What the reader configures, and the codec: a crate below this one (`crates/config`), built for
// size in the page, under the names the floors above use.
pub use ablation_config as config;
pub use ablation_config::{order, wire};

pub use config::{Config, ConfigError, NormKind, NormPlacement, OptimizerKind, SublayerKind};
pub use model::stack::Stack;
