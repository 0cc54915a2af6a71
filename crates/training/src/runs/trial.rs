//! One trial of the search over settings (`tuner`): a comparison's run trained to a given step,
//! from the seed or from where an earlier trial stopped, and what it gave.

use crate::runs::spread::tail_loss;
use crate::step::train::{Checkpoint, Trainer};
use ablation_core::config::Config;
use ablation_core::wire::{Reader, Writer};

/// What a trial gave: the mean training loss over the last tenth of its steps so far (∞ if it
/// diverged), and the bytes to go on from (empty at the run's end or after a divergence).
#[derive(Clone, Debug, PartialEq)]
pub struct TrialEnd {
    pub tail: f64,
    pub resume: Vec<u8>,
}

/// One trial: a comparison's run of `steps` updates trained to update `until` (the whole run,
/// with its last measuring step, when `until` is `steps`), from the seed or from the bytes a
/// trial before it stopped with. The calls of `one_step` are the run's own, in its order: a
/// trial continued is bit for bit the run trained straight through.
pub struct TrialRun {
    trainer: Trainer<f32>,
    /// The losses so far, as `RunInProgress` keeps them.
    loss: Vec<f64>,
    steps: usize,
    until: usize,
}

impl TrialRun {
    pub fn new(config: &Config, steps: usize, until: usize, from: &[u8]) -> Result<TrialRun, String> {
        let mut trainer = Trainer::<f32>::new(config);
        let mut loss = Vec::with_capacity(until.min(steps) + 1);
        if !from.is_empty() {
            let mut r = Reader { bytes: from, at: 0 };
            loss = r.f64s()?;
            let checkpoint = Checkpoint::read(&mut r, config)?;
            r.done()?;
            if checkpoint.step() != loss.len() || loss.len() > until.min(steps) {
                return Err("a trial's checkpoint is not where its losses end".into());
            }
            trainer.resume_from(&checkpoint)?;
        }
        Ok(TrialRun { trainer, loss, steps, until: until.min(steps) })
    }

    /// How many losses the trial keeps when done: one per update, and at the run's end the
    /// loss after the last.
    fn target(&self) -> usize {
        if self.until == self.steps {
            self.steps + 1
        } else {
            self.until
        }
    }

    /// Takes up to `max_steps` more steps and says whether it is done.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        let mut taken = 0;
        while taken < max_steps && !self.is_done() {
            if self.trainer.diverged_at.is_some() {
                self.loss.resize(self.target(), f64::NAN);
                break;
            }
            // an update without the held-out measurement (the search reads the training loss
            // alone): the same batch and update as `one_step(true)`
            let update = self.loss.len() < self.steps;
            self.loss.push(if update { self.trainer.replay_step() } else { self.trainer.one_step(false) });
            taken += 1;
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.loss.len() >= self.target()
    }

    /// The trial's end: its tail so far, and the bytes to go on from when there is more.
    pub fn end(&mut self) -> TrialEnd {
        let diverged = self.trainer.diverged_at.is_some();
        let tail = if diverged { f64::INFINITY } else { tail_loss(&self.loss) };
        let mut resume = Vec::new();
        if self.is_done() && !diverged && self.until < self.steps {
            let mut w =
                Writer(Vec::with_capacity(self.trainer.checkpoint_bytes() + 8 * self.loss.len() + 64));
            w.f64s(&self.loss);
            let mut checkpoint = None;
            self.trainer.checkpoint(&mut checkpoint);
            checkpoint.expect("just kept").write(&mut w);
            resume = w.0;
        }
        TrialEnd { tail, resume }
    }
}
