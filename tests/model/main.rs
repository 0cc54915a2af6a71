//! Properties of the model that the lesson relies on, checked against their definitions.
//!
//! One test binary, by feature: `norms.rs`, `training.rs`, `init.rs`; the helpers they share are here.

mod init;
mod norms;
mod training;

use ablation_playground::config::*;
use ablation_playground::model::norm::Norm;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::model::sublayer::Sublayer;
use ablation_playground::training::tasks::data::DataStream;
use ablation_playground::training::tasks::task::Batches;
use ablation_playground::Trainer;
use nalgebra::DMatrix;

fn random(r: usize, c: usize, scale: f64, shift: f64, rng: &mut Rng) -> DMatrix<f32> {
    DMatrix::from_fn(r, c, |_, _| (shift + scale * rng.normal()) as f32)
}

fn token(y: &DMatrix<f32>, t: usize) -> Vec<f64> {
    y.row(t).iter().map(|&v| v as f64).collect()
}
