//! ablation-playground: a real, trainable stack of up to 96 sublayers with residual and
//! normalisation switches, for seeing why residual connections and LayerNorm make deep
//! stacks trainable.
//!
//! The floors, each using only those below it:
//! - `config`: what the reader configures, and the one parameter table;
//! - `model`: the maths of the stack (kernels, ops with forward and backward, layers);
//! - `training`: data, optimiser, the training step, runs and the page's session;
//! - `view`: the words and charts, from plain data;
//! - `comparisons`: each comparison one module (its state, jobs, JSON, words and chart) behind
//!   one trait, their registry, the scheduler of their jobs, and the page's every panel;
//! - `web` (wasm32 only): the one thin binding the page uses; `schema`, the tables written out
//!   for the page's JavaScript, the notebook, TypeScript and the pandoc filter.
//!
//! Beside them, `memory`: the allocator every binary built from this crate uses (buffers on
//! cache lines, for the kernels' loads); `wire`, the checked binary codec; `order`, the sort
//! of short lists.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod comparisons;
pub mod config;
pub mod language;
pub mod memory;
pub mod model;
pub(crate) mod order;
pub mod schema;
pub mod training;
pub mod view;
pub(crate) mod wire;

pub use config::{Config, ConfigError, NormKind, NormPlacement, OptimizerKind, SublayerKind};
pub use model::stack::Stack;
pub use training::train::Trainer;

#[cfg(target_arch = "wasm32")]
pub mod web;
