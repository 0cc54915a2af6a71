//! The maths of the model: numbers and kernels, the ops (forward and backward side by side),
//! one layer with its switches, and the whole stack.

pub mod activation;
pub mod attention;
pub mod batch;
pub mod compiled;
pub mod embedding;
pub mod ffn;
pub mod kernels;
pub mod layer;
pub mod lens;
pub mod linear;
pub mod loss;
pub mod mlp;
pub mod norm;
pub mod param;
pub mod part;
pub mod passes;
pub mod real;
pub mod rng;
pub mod scratch;
pub mod stack;
pub mod stats;
pub mod sublayer;
pub mod update;
