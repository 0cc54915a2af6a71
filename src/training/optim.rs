//! SGD and Adam with linear warmup. No gradient clipping: an explosion is real.

use crate::config::{Config, OptimizerKind};
use crate::model::param::{Param, Params};
use crate::model::real::Real;
use nalgebra::DMatrix;

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const ADAM_EPS: f64 = 1e-8;

pub struct Optimizer<F: Real> {
    kind: OptimizerKind,
    learning_rate: f64,
    warmup_steps: usize,
    /// Adam's first and second moments, one pair per parameter in visiting order.
    moments: Vec<(DMatrix<F>, DMatrix<F>)>,
    /// β₁ᵗ and β₂ᵗ for the bias correction.
    beta_powers: (f64, f64),
}

impl<F: Real> Optimizer<F> {
    pub fn new(config: &Config, model: &mut impl Params<F>) -> Self {
        let mut moments = Vec::new();
        if config.optimizer == OptimizerKind::Adam {
            model.visit(&mut |p| {
                let zeros = || DMatrix::zeros(p.value.nrows(), p.value.ncols());
                moments.push((zeros(), zeros()))
            });
        }
        Optimizer {
            kind: config.optimizer,
            learning_rate: config.learning_rate,
            warmup_steps: config.warmup_steps,
            moments,
            beta_powers: (1.0, 1.0),
        }
    }

    /// Back to `new(config, model)`'s state in place, for the same optimiser kind and model
    /// shapes: zero moments, no update yet.
    pub fn reset(&mut self, config: &Config) {
        debug_assert_eq!(self.kind, config.optimizer);
        self.learning_rate = config.learning_rate;
        self.warmup_steps = config.warmup_steps;
        for (m, v) in &mut self.moments {
            // (slices: nalgebra's own fill goes entry by entry, 0.35 ms at depth 96 in wasm)
            m.as_mut_slice().fill(F::zero());
            v.as_mut_slice().fill(F::zero());
        }
        self.beta_powers = (1.0, 1.0);
    }

    /// The learning rate of update `step` (0-based): ramps linearly over the warmup.
    pub fn learning_rate_at(&self, step: usize) -> f64 {
        if step < self.warmup_steps {
            self.learning_rate * (step + 1) as f64 / self.warmup_steps as f64
        } else {
            self.learning_rate
        }
    }

    /// Applies one update, using the gradients the last backward pass left in `model`.
    pub fn update(&mut self, model: &mut impl Params<F>, step: usize) {
        let rule = self.begin(step);
        self.apply(&rule, 0, model);
    }

    /// The coefficients of update `step` (Adam's bias corrections advance here, once per
    /// update): apply them to every parameter exactly once with `apply`, in any order.
    pub fn begin(&mut self, step: usize) -> Rule<F> {
        let lr = self.learning_rate_at(step);
        match self.kind {
            OptimizerKind::Sgd => Rule::Sgd { lr: F::of(lr) },
            OptimizerKind::Adam => {
                self.beta_powers.0 *= BETA1;
                self.beta_powers.1 *= BETA2;
                Rule::Adam {
                    step_size: F::of(lr / (1.0 - self.beta_powers.0)),
                    v_scale: F::of(1.0 / (1.0 - self.beta_powers.1)),
                }
            }
        }
    }

    /// Updates the parameters `part` visits by `rule`, from the gradients they hold; `first` is
    /// the position of `part`'s first parameter in the whole model's visiting order (which
    /// pairs each parameter with its moments). A step can so update each layer as soon as its
    /// backward is done, while its gradients are still in cache.
    pub fn apply(&mut self, rule: &Rule<F>, first: usize, part: &mut (impl Params<F> + ?Sized)) {
        match *rule {
            Rule::Sgd { lr } => part.visit(&mut |p: &mut Param<F>| {
                for (w, &g) in p.value.as_mut_slice().iter_mut().zip(p.grad.as_slice()) {
                    *w -= lr * g;
                }
            }),
            Rule::Adam { step_size, v_scale } => {
                // θ ← θ − lr · m̂ / (√v̂ + ε), with m̂ = m / (1 − β₁ᵗ), v̂ = v / (1 − β₂ᵗ)
                let (b1, b2, eps) = (F::of(BETA1), F::of(BETA2), F::of(ADAM_EPS));
                let mut moments = self.moments[first..].iter_mut();
                part.visit(&mut |p: &mut Param<F>| {
                    let (m, v) = moments.next().expect("a moment pair for every parameter");
                    let it = p.value.as_mut_slice().iter_mut().zip(p.grad.as_slice());
                    for ((w, &g), (mi, vi)) in it.zip(m.as_mut_slice().iter_mut().zip(v.as_mut_slice())) {
                        *mi = b1 * *mi + (F::one() - b1) * g;
                        *vi = b2 * *vi + (F::one() - b2) * g * g;
                        *w -= step_size * *mi / ((*vi * v_scale).sqrt() + eps);
                    }
                });
            }
        }
    }
}

/// One update's coefficients, from `Optimizer::begin`.
pub enum Rule<F: Real> {
    Sgd { lr: F },
    Adam { step_size: F, v_scale: F },
}
