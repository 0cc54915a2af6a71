//! ablation-playground: a real, trainable stack of up to 96 sublayers with residual and
//! normalisation switches, for seeing why residual connections and LayerNorm make deep
//! stacks trainable.
//!
//! The core (everything but `web`) is plain Rust with no browser imports; `web.rs` is the
//! one thin binding the page uses.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod activation;
pub mod attention;
pub mod config;
pub mod data;
pub mod ffn;
pub mod figures;
pub mod initial_layers;
pub mod layer;
pub mod linear;
pub mod loss;
pub mod matmul;
pub mod mlp;
pub mod norm;
pub mod optim;
pub mod param;
pub mod params;
pub mod real;
pub mod rng;
pub mod stack;
pub mod stats;
pub mod sublayer;
pub mod train;

pub use config::{Config, ConfigError, NormKind, NormPlacement, OptimizerKind, SublayerKind};
pub use stack::Stack;
pub use train::Trainer;
pub mod json;
pub mod readout;
pub mod report;

pub mod charts;
#[cfg(target_arch = "wasm32")]
pub mod web;
