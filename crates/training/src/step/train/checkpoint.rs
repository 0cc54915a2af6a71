//! What a run needs to go on from a step, and its binary form.

use crate::step::optim::OptimizerState;
use crate::tasks::task::Batches;
use ablation_core::config::Config;
use ablation_core::model::real::Real;
use ablation_core::wire::{Reader, Writer};

/// What a run needs to go on from a step (`Trainer::checkpoint`).
pub struct Checkpoint<F: Real> {
    pub(super) step: usize,
    pub(super) earlier_updates: usize,
    pub(super) weights: Vec<F>,
    pub(super) optimizer: OptimizerState<F>,
    pub(super) data: Batches<F>,
}

impl<F: Real> Checkpoint<F> {
    /// The updates the run had applied.
    pub fn step(&self) -> usize {
        self.step
    }
}

impl Checkpoint<f32> {
    pub fn write(&self, w: &mut Writer) {
        w.u64(self.step as u64);
        w.u64(self.earlier_updates as u64);
        w.f32s(&self.weights);
        self.optimizer.write(w);
        self.data.position().iter().for_each(|&p| w.u64(p));
    }

    /// What `write` wrote, for a run of `config`; `Trainer::resume_from` checks that it fits.
    pub fn read(r: &mut Reader, config: &Config) -> Result<Self, String> {
        let step = r.usize()?;
        let earlier_updates = r.usize()?;
        let weights = r.f32s()?;
        let optimizer = OptimizerState::read(r)?;
        let mut data = Batches::new(config);
        data.set_position([r.u64()?, r.u64()?]);
        Ok(Checkpoint { step, earlier_updates, weights, optimizer, data })
    }
}
