//! Training: forward, backward, update, record — like TensorFlow Playground's `oneStep()`.

use crate::config::Config;
use crate::model::param::Params;
use crate::model::real::Real;
use crate::model::stack::{outputs, Stack};
use crate::training::data::DataStream;
use crate::training::initial_layers::{same_shapes, InitialLayers};
use crate::training::optim::Optimizer;
use nalgebra::DMatrix;

pub struct Trainer<F: Real> {
    pub config: Config,
    pub stack: Stack<F>,
    optimizer: Optimizer<F>,
    data: DataStream<F>,
    x: DMatrix<F>, // (T, d) the current batch
    y: DMatrix<F>, // (T, d_out) its targets
    probe: (DMatrix<F>, DMatrix<F>),
    /// Updates applied so far.
    pub step: usize,
    /// The step at which a loss or an activation stopped being finite; training stops there.
    pub diverged_at: Option<usize>,
}

impl<F: Real> Trainer<F> {
    pub fn new(config: &Config) -> Self {
        Self::with_stack(config, Stack::new(config))
    }

    /// A trainer for `config` that starts from `stack`, which must be `Stack::new(config)`'s twin.
    pub fn with_stack(config: &Config, mut stack: Stack<F>) -> Self {
        let optimizer = Optimizer::new(config, &mut stack);
        let (t, d, k) = (config.tokens, config.width, outputs(config));
        let data = DataStream::new(config.seed, d, k);
        Trainer {
            config: config.clone(),
            stack,
            optimizer,
            probe: data.probe(t),
            data,
            x: DMatrix::zeros(t, d),
            y: DMatrix::zeros(t, k),
            step: 0,
            diverged_at: None,
        }
    }

    /// Becomes `Trainer::with_stack(config, initial.stack(config))` in place, reusing every
    /// buffer: for a `config` with the same shapes (`same_shapes`).
    pub fn restart(&mut self, config: &Config, initial: &mut InitialLayers<F>) {
        debug_assert!(same_shapes(&self.config, config));
        initial.init_stack(config, &mut self.stack);
        self.optimizer.reset(config);
        let (t, d, k) = (config.tokens, config.width, outputs(config));
        self.data = DataStream::new(config.seed, d, k);
        self.probe = self.data.probe(t);
        self.config = config.clone();
        self.step = 0;
        self.diverged_at = None;
    }

    /// The stack's parameters, in `Params::visit` order (what a knockout job carries).
    pub fn weights(&mut self) -> Vec<F> {
        let mut out = Vec::new();
        self.stack.visit(&mut |p| out.extend_from_slice(p.value.as_slice()));
        out
    }

    /// Sets the stack's parameters to `weights` (from `weights` on a trainer of the same
    /// configuration); an error, changing nothing of use, if they do not fit.
    pub fn load_weights(&mut self, weights: &[F]) -> Result<(), String> {
        let mut count = 0;
        self.stack.visit(&mut |p| count += p.value.len());
        if count != weights.len() {
            return Err(format!("{} weights for a stack of {count}", weights.len()));
        }
        let mut rest = weights;
        self.stack.visit(&mut |p| {
            let (these, others) = rest.split_at(p.value.len());
            p.value.as_mut_slice().copy_from_slice(these);
            rest = others;
        });
        Ok(())
    }

    /// Frees the big buffers (layers, activations, Adam's moments) of a trainer about to be
    /// replaced; it must not be used afterwards.
    pub fn release(&mut self) {
        self.stack.layers = Vec::new();
        self.stack.stream = Vec::new();
        self.optimizer = Optimizer::new(&self.config, &mut self.stack);
    }

    /// One training step on the next batch; `update: false` only measures the loss.
    /// Returns the loss before the update (NaN once diverged). The caller records it: a run
    /// on the page keeps a bounded history, the CLI every loss.
    pub fn one_step(&mut self, update: bool) -> f64 {
        if self.diverged_at.is_some() {
            return f64::NAN;
        }
        self.data.next_batch(&mut self.x, &mut self.y);
        let loss = self.stack.forward(&self.x, &self.y);
        if !loss.is_finite() || !self.stack.all_finite() {
            self.diverged_at = Some(self.step);
            return loss;
        }
        if update {
            // each layer updated as soon as its backward is done (the norms are the probe's business)
            let rule = self.optimizer.begin(self.step);
            let optimizer = &mut self.optimizer;
            self.stack.backward_updating(&self.y, &mut |part, first| optimizer.apply(&rule, first, part));
            self.step += 1;
        }
        loss
    }

    /// Forward only on the fixed probe batch, with layer `skip` (if any) replaced by the
    /// identity: the layer knockout's measurement. Returns the probe loss; the stack's stream
    /// holds the pass's activations.
    pub fn probe_forward_skipping(&mut self, skip: Option<usize>) -> f64 {
        let (x, y) = &self.probe;
        self.stack.forward_skipping(x, y, skip)
    }

    /// Forward and backward on the fixed probe batch, without updating: fills the stack's
    /// activations and gradient norms for the panels. Returns the probe loss.
    pub fn probe(&mut self) -> f64 {
        let (x, y) = &self.probe;
        let loss = self.stack.forward(x, y);
        self.stack.backward(y);
        loss
    }
}
