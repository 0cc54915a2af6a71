//! The measurements on held-out batches: the held-out loss every `eval_every` steps, with its
//! binary form, and the fixed probe batch the panels and the knockout read.

use super::Trainer;
use crate::tasks::task::EVAL_POSITIONS;
use ablation_core::config::{Config, MaskKind, TaskKind};
use ablation_core::model::batch::Batch;
use ablation_core::model::loss::accuracy;
use ablation_core::model::real::Real;
use ablation_core::model::stack::Stack;
use ablation_core::wire::{Reader, Writer};

/// A sequence task measures the held-out loss every this many steps (and at the end), at
/// batches of 128 tokens or more: often enough for a curve, at about 5% of the training's time
/// (`EVAL_POSITIONS` positions forward against 100 steps' forward and backward).
pub const EVAL_EVERY: usize = 100;

/// Held-out batches a measurement may take per `EVAL_EVERY` steps: 16, the text's default
/// (2048 positions in batches of 128).
const EVAL_BATCHES_PER_INTERVAL: usize = 16;

/// The steps between held-out measurements at `config`'s batch size: `EVAL_EVERY`, times as
/// many as the held-out set's batches exceed `EVAL_BATCHES_PER_INTERVAL`, so that the
/// measurement's share of the time stays about 5% at any `tokens` (at 8 tokens a step the
/// 256 batches of every 100 steps took about half of it): 100 steps at 128 tokens or more,
/// 200 at 64, 1600 at 8.
pub fn eval_every(config: &Config) -> usize {
    EVAL_EVERY * EVAL_POSITIONS.div_ceil(config.tokens.max(1)).div_ceil(EVAL_BATCHES_PER_INTERVAL)
}

/// The held-out measurement at one step: the probe batch's loss and, for the copy task, the
/// share of its copied symbols that the stack gets right (NaN for the others).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    pub step: usize,
    pub loss: f64,
    pub accuracy: f64,
    /// A stack trained without the mask, measured with it (the future hidden, as when it
    /// writes): the held-out loss of the same weights. None for a masked stack.
    pub future_hidden: Option<f64>,
}

/// Held-out measurements as frames and a put-aside run carry them (`future_hidden` None as NaN).
pub fn write_evals(w: &mut Writer, evals: &[Eval]) {
    w.u64(evals.len() as u64);
    for e in evals {
        w.u64(e.step as u64);
        w.f64(e.loss);
        w.f64(e.accuracy);
        w.f64(e.future_hidden.unwrap_or(f64::NAN));
    }
}

pub fn read_evals(r: &mut Reader) -> Result<Vec<Eval>, String> {
    let n = r.len(32)?;
    (0..n)
        .map(|_| {
            Ok(Eval {
                step: r.usize()?,
                loss: r.f64()?,
                accuracy: r.f64()?,
                future_hidden: Some(r.f64()?).filter(|x| !x.is_nan()),
            })
        })
        .collect()
}

impl<F: Real> Trainer<F> {
    /// Measures the held-out loss (and the copy task's accuracy) now, once per step (a
    /// sequence task's; nothing on the teacher, or after a divergence).
    pub fn evaluate(&mut self) {
        if self.config.task == TaskKind::Teacher
            || self.diverged_at.is_some()
            || self.evals.last().is_some_and(|e| e.step == self.step)
        {
            return;
        }
        let mut future_hidden = None;
        if self.config.mask == MaskKind::None {
            self.stack.set_causal(true);
            let sum = self.held_out.iter().map(|b| self.stack.forward_batch(b)).sum::<f64>();
            future_hidden = Some(sum / self.held_out.len().max(1) as f64);
            self.stack.set_causal(false);
        }
        let (mut loss, mut right) = (0.0, 0.0);
        let depths = self.config.depth + 1;
        self.readout_loss.clear();
        self.readout_loss.resize(depths, 0.0);
        self.readout_batch.resize(depths, 0.0);
        for batch in &self.held_out {
            loss += self.stack.forward_batch(batch);
            right += match (batch, self.config.task) {
                (Batch::Tokens(t), task) if task.copies() => {
                    accuracy(self.stack.prediction(), &t.next, &t.scored)
                }
                _ => f64::NAN,
            };
            // what each depth would predict, summed as the loss is: at L, the same numbers in
            // the same order
            self.stack.readout_losses(batch, &mut self.readout_batch);
            for (sum, x) in self.readout_loss.iter_mut().zip(&self.readout_batch) {
                *sum += x;
            }
        }
        // every batch has as many scored positions: the mean of their means is the mean
        let n = self.held_out.len().max(1) as f64;
        self.readout_loss.iter_mut().for_each(|x| *x /= n);
        self.evals.push(Eval { step: self.step, loss: loss / n, accuracy: right / n, future_hidden });
    }

    /// A sequence task's fixed held-out set (empty for the teacher).
    pub fn held_out(&self) -> &[Batch<F>] {
        &self.held_out
    }

    /// The mean held-out loss of the stack with the layers `skip` knocked out (a sequence
    /// task's; 0 for the teacher, which has no held-out set). The stream is left holding the
    /// last batch's pass.
    pub fn held_out_loss_skipping(&mut self, skip: &[usize]) -> f64 {
        let sum: f64 = self.held_out.iter().map(|batch| self.stack.forward_skipping(batch, skip)).sum();
        sum / self.held_out.len().max(1) as f64
    }

    /// The stack and held-out batch `b`, to run one through the other.
    pub fn stack_and_held_out(&mut self, b: usize) -> (&mut Stack<F>, &Batch<F>) {
        (&mut self.stack, &self.held_out[b])
    }

    /// The fixed probe batch.
    pub fn probe_batch(&self) -> &Batch<F> {
        &self.probe
    }

    /// Forward only on the fixed probe batch, with the layers `skip` replaced by the
    /// identity: the layer knockout's measurement. Returns the probe loss; the stack's stream
    /// holds the pass's activations.
    pub fn probe_forward_skipping(&mut self, skip: &[usize]) -> f64 {
        self.stack.forward_skipping(&self.probe, skip)
    }

    /// The readout loss at every depth ℓ = 0..=L on the probe batch, whose forward must be the
    /// stack's last pass (`probe` leaves it so): the teacher's lens.
    pub fn probe_readout_losses(&mut self) -> Vec<f64> {
        let mut out = vec![0.0; self.config.depth + 1];
        self.stack.readout_losses(&self.probe, &mut out);
        out
    }

    /// Forward and backward on the fixed probe batch, without updating: fills the stack's
    /// activations and gradient norms for the panels. Returns the probe loss.
    pub fn probe(&mut self) -> f64 {
        let loss = self.stack.forward_batch(&self.probe);
        self.stack.backward_batch(&self.probe);
        loss
    }
}
