//! The tuned lens (Belrose et al. 2023): what each layer would predict, read by a readout
//! fitted to that layer.
//!
//! The logit lens (`lens.rs`) reads `x_ℓ` through the readout the model learned for `x_L`. A
//! layer whose basis differs from the top's is then misread: a post-norm stack renormalises
//! every layer's output, and nothing makes `x_ℓ` line up with `x_L`. The tuned lens first maps
//! each `x_ℓ` by an affine translator `h_ℓ = x_ℓ A_ℓ + b_ℓ` (`A_ℓ = I`, `b_ℓ = 0` to begin
//! with, so it begins as the logit lens), fitted with the stack's weights held fixed so that
//! the readout of `h_ℓ` predicts what the model itself predicts: it minimises
//! `KL(p_L ‖ q_ℓ)`, the model's own next-token distribution `p_L = softmax(ŷ)` against the
//! lens's `q_ℓ = softmax(LN_f(h_ℓ) R)`, on training batches of their own stream (`Stream::Lens`).
//! It is then measured as the logit lens is: the cross-entropy of the true next token on the
//! held-out set. At ℓ = L the map is the identity, so its loss there is the model's own.
//!
//! A sequence task's lens only: the regression has no distribution to match.

use crate::step::optim::Optimizer;
use crate::step::train::Trainer;
use crate::tasks::task::Batches;
use ablation_core::config::{Config, OptimizerKind, TaskKind};
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::linear::Linear;
use ablation_core::model::loss::{kl_and_gradient, softmax_cross_entropy};
use ablation_core::model::norm::Norm;
use ablation_core::model::param::{Param, Params};
use ablation_core::model::real::Real;
use ablation_core::model::rng::Stream;
use ablation_core::model::stack::{Stack, Target};
use nalgebra::DMatrix;

/// Updates of the translators (Belrose et al. fit theirs in 250 steps of SGD with Nesterov
/// momentum; Adam at `FIT_RATE` lowers every layer's KL within them: `tests/tuned_lens.rs`).
pub const FIT_STEPS: usize = 250;
/// Adam's learning rate for the translators.
pub const FIT_RATE: f64 = 0.003;

/// One translator per layer below the top, `h_ℓ = x_ℓ A_ℓ + b_ℓ`.
pub struct Translators<F: Real>(pub Vec<Linear<F>>);

impl<F: Real> Params<F> for Translators<F> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
        for t in &mut self.0 {
            t.visit(f);
        }
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        for (i, t) in self.0.iter().enumerate() {
            t.names(&format!("{prefix}translators.{i}"), out);
        }
    }
}

/// The identity map of width `d`, with a zero bias: `x I + 0 = x` to the bit.
fn identity<F: Real>(d: usize) -> Linear<F> {
    let mut weight = Param::constant(d, d, F::zero());
    weight.value.fill_with_identity();
    Linear { weight, bias: Some(Param::constant(1, d, F::zero())) }
}

/// A tuned lens being fitted to one trained stack.
pub struct TunedLens<F: Real> {
    pub translators: Translators<F>,
    optimizer: Optimizer<F>,
    /// Copies of the stack's final norm and readout, whose backward passes the lens runs (the
    /// stack's own are left as they are).
    norm: Option<Norm<F>>,
    readout: Linear<F>,
    batches: Batches<F>,
    batch: Batch<F>,
    /// Updates so far.
    pub step: usize,
    /// `KL(p_L ‖ q_ℓ)` on the last update's batch, for ℓ = 0..L (the fit's progress).
    pub fit_loss: Vec<f64>,
    // buffers, kept from update to update
    h: DMatrix<F>,       // (T, d) x_ℓ A + b
    top: DMatrix<F>,     // (T, d) LN_f(h)
    logits: DMatrix<F>,  // (T, V)
    model: DMatrix<F>,   // (T, V) p_L, the model's own distribution
    dlogits: DMatrix<F>, // (T, V) q_ℓ, then ∂KL/∂logits
    dtop: DMatrix<F>,    // (T, d)
    dh: DMatrix<F>,      // (T, d)
    dx: DMatrix<F>,      // (T, d) unused: ∂KL/∂x_ℓ
    rows: (Vec<F>, Vec<F>),
}

/// The optimiser's settings for the translators.
fn fit_config(config: &Config) -> Config {
    Config {
        optimizer: OptimizerKind::Adam,
        learning_rate: FIT_RATE,
        warmup_steps: 0,
        beta2: 0.999,
        ..config.clone()
    }
}

impl<F: Real> TunedLens<F> {
    /// A lens for `stack` (trained on `config`, a sequence task), every translator the identity.
    pub fn new(config: &Config, stack: &Stack<F>) -> Result<TunedLens<F>, String> {
        if config.task == TaskKind::Teacher {
            return Err(
                "the tuned lens reads a sequence task's next-token predictions; the regression has none"
                    .into(),
            );
        }
        let (t, d, v) = (config.tokens, config.width, stack.readout.weight.value.ncols());
        let mut translators = Translators((0..stack.layers.len()).map(|_| identity(d)).collect());
        let optimizer = Optimizer::new(&fit_config(config), &mut translators);
        let batches = Batches::from_stream(config, Stream::Lens);
        Ok(TunedLens {
            translators,
            optimizer,
            norm: stack.final_norm.clone(),
            readout: stack.readout.clone(),
            batch: Batches::empty(config),
            batches,
            step: 0,
            fit_loss: Vec::new(),
            h: DMatrix::zeros(t, d),
            top: DMatrix::zeros(t, d),
            logits: DMatrix::zeros(t, v),
            model: DMatrix::zeros(t, v),
            dlogits: DMatrix::zeros(t, v),
            dtop: DMatrix::zeros(t, d),
            dh: DMatrix::zeros(t, d),
            dx: DMatrix::zeros(t, d),
            rows: (Vec::new(), Vec::new()),
        })
    }

    pub fn is_fitted(&self) -> bool {
        self.step >= FIT_STEPS
    }

    /// One update of every translator on the next batch of the lens's stream: a forward pass
    /// of `stack` (its stream is read), then each layer's KL and its gradient.
    pub fn fit_step(&mut self, stack: &mut Stack<F>) {
        self.batches.next(&mut self.batch);
        // the batch is held outside `self` meanwhile (an empty one costs no allocation)
        let batch = std::mem::replace(&mut self.batch, Batch::Tokens(Tokens::default()));
        self.fit_loss = self.gradients(stack, &batch);
        self.batch = batch;
        self.optimizer.update(&mut self.translators, self.step);
        self.step += 1;
    }

    /// `KL(p_L ‖ q_ℓ)` of every translator on `batch` (ℓ = 0..L−1), each translator's gradient
    /// left in its parameters: a forward pass of `stack` (its stream is read), then each layer's
    /// KL and its backward pass through the lens's copies of the final norm and readout.
    pub fn gradients(&mut self, stack: &mut Stack<F>, batch: &Batch<F>) -> Vec<f64> {
        let Batch::Tokens(tokens) = batch else { unreachable!("a sequence task's batch") };
        stack.forward_batch(batch);
        // p_L: the softmax of the model's logits (the cross-entropy it returns is not needed)
        let (model, rows) = (&mut self.model, &mut self.rows);
        softmax_cross_entropy(stack.prediction(), &tokens.next, &tokens.scored, model, rows);
        (0..stack.layers.len()).map(|l| self.layer_gradients(l, &stack.stream[l], tokens)).collect()
    }

    /// `KL(p_L ‖ q_ℓ)` of translator `l` on `x` (= `x_ℓ`), leaving its gradients in its params.
    fn layer_gradients(&mut self, l: usize, x: &DMatrix<F>, tokens: &Tokens) -> f64 {
        let map = &mut self.translators.0[l];
        map.forward(x, &mut self.h); // h = x A + b                     (T, d)
        let read = match &mut self.norm {
            Some(ln) => {
                ln.forward(&self.h, &mut self.top); // LN_f(h)          (T, d)
                &self.top
            }
            None => &self.h,
        };
        self.readout.forward(read, &mut self.logits); // z = LN_f(h) R   (T, V)
        let kl =
            kl_and_gradient(&self.logits, &self.model, &tokens.scored, &mut self.dlogits, &mut self.rows);
        self.readout.backward(read, &self.dlogits, &mut self.dtop, false); // ∂/∂LN_f(h)
        let dh = match &mut self.norm {
            Some(ln) => {
                ln.backward(&self.dtop, &mut self.dh); // ∂/∂h
                &self.dh
            }
            None => &self.dtop,
        };
        map.backward(x, dh, &mut self.dx, false); // ∂/∂A = xᵀ dh, ∂/∂b = Σ_t dh
        kl
    }

    /// The loss of the true next token read through each translator, ℓ = 0..L (L + 1 numbers;
    /// the identity at L), on `trainer`'s held-out set, averaged over its batches as the
    /// held-out loss is: at L, the trainer's held-out loss to the bit.
    pub fn held_out_losses(&mut self, trainer: &mut Trainer<F>) -> Vec<f64> {
        let depth = trainer.stack.layers.len();
        let mut sums = vec![0.0; depth + 1];
        let batches = trainer.held_out().len();
        for b in 0..batches {
            let (stack, batch) = trainer.stack_and_held_out(b);
            stack.forward_batch(batch);
            self.read_every_depth(stack, batch, &mut sums);
        }
        let n = batches.max(1) as f64;
        sums.iter_mut().for_each(|x| *x /= n);
        sums
    }

    /// Adds the loss each translator's reading of the last pass gets on `batch` into `sums`.
    /// The mapped `h_ℓ` stands in the stream in place of `x_ℓ` while the stack's own readout
    /// reads it (`Stack::read_out`, the logit lens's path), then goes back.
    fn read_every_depth(&mut self, stack: &mut Stack<F>, batch: &Batch<F>, sums: &mut [f64]) {
        let depth = stack.layers.len();
        for l in 0..depth {
            self.translators.0[l].forward(&stack.stream[l], &mut self.h);
            std::mem::swap(&mut stack.stream[l], &mut self.h);
            sums[l] += stack.read_out(l, Target::of(batch));
            std::mem::swap(&mut stack.stream[l], &mut self.h);
        }
        sums[depth] += stack.read_out(depth, Target::of(batch));
    }
}

/// The tuned lens of `trainer`'s stack, fitted in full: the held-out loss read through each
/// fitted translator, ℓ = 0..=L (what `ablate --tuned-lens` reports).
pub fn tuned_readout_losses(trainer: &mut Trainer<f32>) -> Result<Vec<f64>, String> {
    let mut lens = TunedLens::new(&trainer.config.clone(), &trainer.stack)?;
    while !lens.is_fitted() {
        lens.fit_step(&mut trainer.stack);
    }
    Ok(lens.held_out_losses(trainer))
}

/// The convergence rule's thresholds: the fit has converged once a stretch of `FIT_STEPS`
/// updates lowers its held-out KL by less than this share of it, or by less than
/// `CONVERGED_NATS`, whichever is larger (a KL near zero keeps falling by a share of itself
/// long after its readout's loss has stopped moving in the third decimal).
pub const CONVERGED: f64 = 0.01;
pub const CONVERGED_NATS: f64 = 0.001;

/// How long a tuned lens is fitted: a number of updates, or until the convergence rule holds
/// (`lens_converged`), with at most this many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LensBudget {
    Steps(usize),
    Converged { max_steps: usize },
}

/// A fit and how it went: its updates, whether the rule held by then (`None` for a fixed
/// budget that never asked), its held-out KL every `FIT_STEPS` updates from the start, and the
/// held-out loss read through each translator (ℓ = 0..=L).
#[derive(Clone, Debug, PartialEq)]
pub struct LensFit {
    pub steps: usize,
    pub converged: Option<bool>,
    pub kl: Vec<(usize, f64)>,
    pub losses: Vec<f64>,
}

/// The rule: the last stretch of the fit lowered its held-out KL (`kl`, the mean over layers
/// in nats, measured every `FIT_STEPS` updates) by less than `CONVERGED` of what it was or
/// less than `CONVERGED_NATS`, or raised it.
pub fn lens_converged(kl: &[(usize, f64)]) -> bool {
    match kl {
        [.., (_, before), (_, now)] => before - now < (CONVERGED * before).max(CONVERGED_NATS),
        _ => false,
    }
}

impl<F: Real> TunedLens<F> {
    /// `KL(p_L ‖ q_ℓ)` on `trainer`'s held-out set, averaged over its batches and the layers
    /// ℓ = 0..L−1: what the fit lowers, measured on batches it never trains on.
    pub fn held_out_kl(&mut self, trainer: &mut Trainer<F>) -> f64 {
        let batches = trainer.held_out().len();
        let mut sum = 0.0;
        for b in 0..batches {
            let (stack, batch) = trainer.stack_and_held_out(b);
            let kl = self.gradients(stack, batch);
            sum += kl.iter().sum::<f64>() / kl.len().max(1) as f64;
        }
        sum / batches.max(1) as f64
    }
}

/// The tuned lens of `trainer`'s stack fitted for `budget`, with its held-out KL every
/// `FIT_STEPS` updates (`ablate --tuned-lens-steps`). A fixed budget of `FIT_STEPS` updates
/// gives `tuned_readout_losses`' numbers.
pub fn fit_tuned_lens(trainer: &mut Trainer<f32>, budget: LensBudget) -> Result<LensFit, String> {
    let mut lens = TunedLens::new(&trainer.config.clone(), &trainer.stack)?;
    let max_steps = match budget {
        LensBudget::Steps(n) => n,
        LensBudget::Converged { max_steps } => max_steps,
    };
    let mut kl = vec![(0, lens.held_out_kl(trainer))];
    let mut converged = None;
    while lens.step < max_steps {
        lens.fit_step(&mut trainer.stack);
        if lens.step % FIT_STEPS == 0 || lens.step == max_steps {
            kl.push((lens.step, lens.held_out_kl(trainer)));
            if let LensBudget::Converged { .. } = budget {
                if lens_converged(&kl) {
                    converged = Some(true);
                    break;
                }
                converged = Some(false);
            }
        }
    }
    let losses = lens.held_out_losses(trainer);
    Ok(LensFit { steps: lens.step, converged, kl, losses })
}

/// The tuned lens of the live run's stack at `step`: its updates so far, and once fitted the
/// held-out loss read through each layer (ℓ = 0..=L; empty before).
#[derive(Clone, Debug, PartialEq)]
pub struct TunedLensState {
    pub step: usize,
    pub done: bool,
    pub fit_steps: usize,
    pub losses: Vec<f64>,
    /// Why its job failed, if it did.
    pub failed: Option<String>,
}
