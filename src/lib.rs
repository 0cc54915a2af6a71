//! ablation-playground: a real, trainable stack of up to 96 sublayers with residual and
//! normalisation switches, for seeing why residual connections and LayerNorm make deep
//! stacks trainable.
//!
//! The floors are crates (`crates/`), each using only those below it, so the compiler holds
//! them:
//! - `ablation-words` (`language`): the words' language, Fluent catalogues and `say!`;
//! - `ablation-core` (`config`, `model`, `wire`, `order`, `memory`): what the reader
//!   configures, and the maths of the stack;
//! - `ablation-training` (`training`): data, optimiser, the training step, runs, the page's
//!   session, the search over settings and the measurements;
//! - `ablation-view` (`view`): the words and charts, from plain data;
//! - `ablation-comparisons` (`comparisons`): each comparison one module behind one trait,
//!   their registry, the scheduler of their jobs, and the page's every panel.
//!
//! - `ablation-web` (`web`, wasm32 only): the one thin binding the page uses.
//!
//! This crate is the top floor: the page's `cdylib` (the binding's exports, linked here, at
//! the step's speed: the whole-program pass runs at this crate's level);
//! `schema`, the tables written out for the page's JavaScript, the notebook, TypeScript and
//! the pandoc filter; and `ablate`, the CLI. It re-exports each floor under its module's name.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub use ablation_comparisons as comparisons;
pub use ablation_core::{config, memory, model};
pub use ablation_training as training;
pub use ablation_view as view;
pub use ablation_words as language;
pub use ablation_words::say;

pub mod schema;

pub use config::{Config, ConfigError, NormKind, NormPlacement, OptimizerKind, SublayerKind};
pub use model::stack::Stack;
pub use training::step::train::Trainer;

/// The page's binding (`crates/web`), a crate of its own built for size.
#[cfg(target_arch = "wasm32")]
pub use ablation_web as web;
