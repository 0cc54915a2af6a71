//! Training: forward, backward, update, record — like TensorFlow Playground's `oneStep()`.

use crate::measures::initial_layers::{same_shapes, InitialLayers};
use crate::step::optim::{Optimizer, OptimizerState};
use crate::step::shards::Shards;
use crate::tasks::task::Batches;
use ablation_core::config::{Config, TaskKind};
use ablation_core::model::batch::Batch;
use ablation_core::model::param::Params;
use ablation_core::model::real::Real;
use ablation_core::model::stack::Stack;

mod checkpoint;
mod held_out;
pub use checkpoint::Checkpoint;
pub use held_out::{eval_every, read_evals, write_evals, Eval, EVAL_EVERY};

/// A run's stack, its optimiser and its data: one step at a time (`one_step`), with its
/// checkpoints (`checkpoint.rs`) and its held-out measurements (`held_out.rs`).
pub struct Trainer<F: Real> {
    pub config: Config,
    pub stack: Stack<F>,
    optimizer: Optimizer<F>,
    data: Batches<F>,
    /// The current training batch.
    batch: Batch<F>,
    /// The fixed probe batch, which is held out (the panels read it).
    probe: Batch<F>,
    /// A sequence task's fixed held-out set, which the held-out loss is measured on.
    held_out: Vec<Batch<F>>,
    /// A sequence task's held-out measurements, every `eval_every` steps from step 0.
    pub evals: Vec<Eval>,
    /// A sequence task's readout loss at every depth ℓ = 0..=L (the lens, `Stack::readout_losses`)
    /// on the held-out set, at the last held-out measurement (empty before the first).
    pub readout_loss: Vec<f64>,
    /// One held-out batch's readout losses, summed into `readout_loss` (kept to allocate once).
    readout_batch: Vec<f64>,
    /// Updates applied so far.
    pub step: usize,
    /// The updates the weights had before this run began: a weights file's `step` for a run
    /// started from one (`ablate --load-weights`, the page's Load), else 0. A file saved
    /// later says `earlier_updates + step` (`updates`).
    pub earlier_updates: usize,
    /// The step at which a loss or an activation stopped being finite; training stops there.
    pub diverged_at: Option<usize>,
    /// With `keeping_last_finite`, the parameters before the last update (`Params::visit`
    /// order): after a divergence, the last state whose loss was finite, so that the run need
    /// not be trained again to show it (`back_to_last_finite`). The copy costs 2 to 7% of a
    /// step (BENCHMARKS.md), so only a run that will be drawn keeps it: the CLI's with `--svg`.
    /// The page's session replays from its last checkpoint instead, at no cost per step.
    before_update: Option<Vec<F>>,
    /// With `config.step_shards()` above 1, the shards' stacks and buffers (`training::step::shards`).
    shards: Option<Box<Shards<F>>>,
}

impl<F: Real> Trainer<F> {
    pub fn new(config: &Config) -> Self {
        Self::with_stack(config, Stack::new(config))
    }

    /// A trainer for `config` that starts from `stack`, which must be `Stack::new(config)`'s twin.
    pub fn with_stack(config: &Config, mut stack: Stack<F>) -> Self {
        let optimizer = Optimizer::new(config, &mut stack);
        let data = Batches::new(config);
        Trainer {
            config: config.clone(),
            stack,
            optimizer,
            probe: data.probe(config),
            held_out: data.held_out(config),
            batch: Batches::empty(config),
            data,
            evals: Vec::new(),
            readout_loss: Vec::new(),
            readout_batch: Vec::new(),
            step: 0,
            earlier_updates: 0,
            diverged_at: None,
            before_update: None,
            shards: (config.step_shards() > 1).then(|| Box::new(Shards::new(config, 1))),
        }
    }

    /// Runs a sharded step's shards on `executors` stacks at once (threads, natively): the
    /// same bits as one. Nothing changes for a step that is not split.
    pub fn set_shard_executors(&mut self, executors: usize) {
        if self
            .shards
            .as_ref()
            .is_some_and(|s| s.executors() != executors.clamp(1, self.config.step_shards()))
        {
            self.shards = Some(Box::new(Shards::new(&self.config, executors)));
        }
    }

    /// Every update the stack's weights have had: this run's and, for a run started from a
    /// weights file, the file's (what a weights file saved now says as its `step`).
    pub fn updates(&self) -> usize {
        self.earlier_updates + self.step
    }

    /// From now on, keeps the parameters before each update (`back_to_last_finite`).
    pub fn keep_last_finite(&mut self) {
        self.before_update.get_or_insert_with(Vec::new);
    }

    /// After a divergence at step `at`, the run as it was one step before: the stack back to
    /// its weights after `at - 1` updates, the last whose loss was finite (a divergence at step
    /// 0 keeps the initial weights), the step with them, a sequence task's held-out
    /// measurements ending there as a run stopped there ends them, and no longer marked
    /// diverged: bit for bit the run stopped one step earlier. Returns where it diverged;
    /// `None`, changing nothing, if it did not or if the trainer kept nothing to go back to.
    pub fn back_to_last_finite(&mut self) -> Option<usize> {
        let at = self.diverged_at?;
        if at > 0 {
            let kept = self.before_update.as_ref()?;
            self.stack.load_weights(kept).expect("the weights of this run");
            self.step = at - 1;
        }
        self.diverged_at = None;
        self.end_measurements_here();
        Some(at)
    }

    /// A sequence task's held-out measurements as a run stopped at this step ends them: none
    /// from this step on, then one at this step.
    pub fn end_measurements_here(&mut self) {
        if self.config.task != TaskKind::Teacher {
            let step = self.step;
            self.evals.retain(|e| e.step < step);
            self.evaluate();
        }
    }

    /// Becomes `Trainer::with_stack(config, initial.stack(config))` in place, reusing every
    /// buffer: for a `config` with the same shapes (`same_shapes`).
    pub fn restart(&mut self, config: &Config, initial: &mut InitialLayers<F>) {
        debug_assert!(same_shapes(&self.config, config));
        initial.init_stack(config, &mut self.stack);
        self.optimizer.reset(config);
        self.data = Batches::new(config);
        if config.step_shards() != self.config.step_shards() {
            let executors = self.shards.as_ref().map_or(1, |s| s.executors());
            self.shards = (config.step_shards() > 1).then(|| Box::new(Shards::new(config, executors)));
        }
        self.probe = self.data.probe(config);
        self.held_out = self.data.held_out(config);
        self.evals.clear();
        self.readout_loss.clear();
        self.config = config.clone();
        self.step = 0;
        self.earlier_updates = 0;
        self.diverged_at = None;
    }

    /// The stack's parameters, in `Params::visit` order (what a knockout job carries).
    pub fn weights(&mut self) -> Vec<F> {
        self.stack.weights()
    }

    /// Sets the stack's parameters to `weights` (from `weights` on a trainer of the same
    /// configuration); an error, changing nothing of use, if they do not fit.
    pub fn load_weights(&mut self, weights: &[F]) -> Result<(), String> {
        self.stack.load_weights(weights)
    }

    /// Keeps in `into` what the run needs to go on from here (the parameters, Adam's state, the
    /// data stream and the step), reusing its buffers when it has them: `resume` from it gives
    /// the same bits as this run going on.
    pub fn checkpoint(&mut self, into: &mut Option<Checkpoint<F>>) {
        let c = into.get_or_insert_with(|| Checkpoint {
            step: 0,
            earlier_updates: 0,
            weights: Vec::new(),
            optimizer: OptimizerState::default(),
            data: self.data.clone(),
        });
        c.step = self.step;
        c.earlier_updates = self.earlier_updates;
        c.weights.clear();
        self.stack.visit(&mut |p| c.weights.extend_from_slice(p.value.as_slice()));
        self.optimizer.save(&mut c.optimizer);
        c.data.clone_from(&self.data);
    }

    /// Back to the state `checkpoint` kept of this run (the same configuration), with no
    /// held-out measurements yet: for the replay after a divergence.
    pub fn resume(&mut self, from: &Checkpoint<F>) {
        self.resume_from(from).expect("a checkpoint of this run");
    }

    /// `resume` from a checkpoint read from bytes: an error, changing nothing, if its weights
    /// (`Stack::load_weights` checks them) or Adam's moments are not this run's shapes.
    pub fn resume_from(&mut self, from: &Checkpoint<F>) -> Result<(), String> {
        if !self.optimizer.fits(&from.optimizer) {
            return Err("the run's optimiser state does not fit its configuration".into());
        }
        self.stack.load_weights(&from.weights)?;
        self.optimizer.load(&from.optimizer);
        self.data.clone_from(&from.data);
        self.step = from.step;
        self.earlier_updates = from.earlier_updates;
        self.diverged_at = None;
        self.evals.clear();
        self.readout_loss.clear();
        Ok(())
    }

    /// The memory a checkpoint of this run takes: the parameters and Adam's two moments.
    pub fn checkpoint_bytes(&mut self) -> usize {
        let mut n = 0;
        self.stack.visit(&mut |p| n += p.value.len());
        3 * n * std::mem::size_of::<F>()
    }

    /// Frees the big buffers (layers, activations, Adam's moments) of a trainer about to be
    /// replaced; it must not be used afterwards.
    pub fn release(&mut self) {
        self.stack.layers = Vec::new();
        self.stack.stream = Vec::new();
        self.before_update = None;
        self.optimizer = Optimizer::new(&self.config, &mut self.stack);
    }

    /// One training step on the next batch; `update: false` only measures the loss.
    /// Returns the loss before the update (NaN once diverged). The caller records it: a run
    /// on the page keeps a bounded history, the CLI every loss.
    pub fn one_step(&mut self, update: bool) -> f64 {
        if self.diverged_at.is_some() {
            return f64::NAN;
        }
        if self.config.task != TaskKind::Teacher
            && (self.step.is_multiple_of(eval_every(&self.config)) || !update)
        {
            self.evaluate();
        }
        self.step_on_next_batch(update)
    }

    /// One step again as it went the first time, from a restarted trainer: the same batch
    /// and update as `one_step(true)`, without the held-out measurements (which the first
    /// pass kept). Returns the loss.
    pub fn replay_step(&mut self) -> f64 {
        self.step_on_next_batch(true)
    }

    /// Draws the next training batch (the stream moves on, no step is taken): for measuring a
    /// step's pieces apart (tests/shards.rs).
    pub fn draw_batch(&mut self) -> &Batch<F> {
        self.data.next(&mut self.batch);
        &self.batch
    }

    /// The next training batch's forward and backward without an update: every gradient
    /// filled as a step would see it (`per_matrix`). Returns the loss.
    #[inline(never)]
    pub fn gradients_on_next_batch(&mut self) -> f64 {
        self.data.next(&mut self.batch);
        let loss = self.stack.forward_batch(&self.batch);
        self.stack.backward_batch(&self.batch);
        loss
    }

    fn step_on_next_batch(&mut self, update: bool) -> f64 {
        self.data.next(&mut self.batch);
        // a split step: each shard's forward and backward apart, their mean gradient set on
        // the stack; else the whole batch's forward
        let (loss, finite) = match &mut self.shards {
            Some(shards) => shards.step(&mut self.stack, &self.batch, update),
            None => {
                let loss = self.stack.forward_batch(&self.batch);
                (loss, loss.is_finite() && self.stack.all_finite())
            }
        };
        self.after_pass(loss, finite, update)
    }

    /// A split step whose shards other workers share (the page's helpers), its first piece:
    /// what `one_step(true)` does before the shards' passes (a held-out measurement when one is
    /// due, the next batch drawn and split). Then `shards()` runs shards here or takes their
    /// results from elsewhere, and `finish_split_step` sums them and updates: the bits of
    /// `one_step(true)`. False, doing nothing, once diverged or for a step that is not split.
    pub fn begin_split_step(&mut self) -> bool {
        if self.diverged_at.is_some() || self.shards.is_none() {
            return false;
        }
        if self.config.task != TaskKind::Teacher && self.step.is_multiple_of(eval_every(&self.config)) {
            self.evaluate();
        }
        self.data.next(&mut self.batch);
        self.shards.as_mut().expect("checked above").prepare(&mut self.stack, &self.batch);
        true
    }

    /// The split step's shards (`begin_split_step`); `None` for a step that is not split.
    pub fn shards(&mut self) -> Option<&mut Shards<F>> {
        self.shards.as_deref_mut()
    }

    /// The split step's last piece, once every shard's result is in: the shards' mean
    /// gradient, the update, and the loss before it (as `one_step(true)` returns it).
    pub fn finish_split_step(&mut self) -> f64 {
        let shards = self.shards.as_mut().expect("a split step");
        let (loss, finite) = shards.finish(&mut self.stack, true);
        self.after_pass(loss, finite, true)
    }

    /// After a step's pass: a divergence marked, or the update applied (the fused backward
    /// and update for a step that is not split, the shards' mean gradient for one that is).
    fn after_pass(&mut self, loss: f64, finite: bool, update: bool) -> f64 {
        if !finite {
            self.diverged_at = Some(self.step);
            return loss;
        }
        if update {
            if let Some(kept) = &mut self.before_update {
                kept.clear();
                self.stack.visit(&mut |p| kept.extend_from_slice(p.value.as_slice()));
            }
            let rule = self.optimizer.begin(self.step);
            let optimizer = &mut self.optimizer;
            if self.shards.is_some() {
                // the gradients are the shards'
                optimizer.apply(&rule, 0, &mut self.stack as &mut dyn Params<F>);
            } else {
                // each layer updated as soon as its backward is done (the norms are the probe's business)
                self.stack.backward_updating(&self.batch, &rule, optimizer.moments());
            }
            self.step += 1;
        }
        loss
    }
}
