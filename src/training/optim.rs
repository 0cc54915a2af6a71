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
            m.fill(F::zero());
            v.fill(F::zero());
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
        let lr = self.learning_rate_at(step);
        match self.kind {
            OptimizerKind::Sgd => {
                let lr = F::of(lr);
                model.visit(&mut |p: &mut Param<F>| {
                    for (w, &g) in p.value.as_mut_slice().iter_mut().zip(p.grad.as_slice()) {
                        *w -= lr * g;
                    }
                });
            }
            OptimizerKind::Adam => {
                self.beta_powers.0 *= BETA1;
                self.beta_powers.1 *= BETA2;
                // θ ← θ − lr · m̂ / (√v̂ + ε), with m̂ = m / (1 − β₁ᵗ), v̂ = v / (1 − β₂ᵗ)
                let step_size = F::of(lr / (1.0 - self.beta_powers.0));
                let v_scale = F::of(1.0 / (1.0 - self.beta_powers.1));
                let (b1, b2, eps) = (F::of(BETA1), F::of(BETA2), F::of(ADAM_EPS));
                let mut i = 0;
                let moments = &mut self.moments;
                model.visit(&mut |p: &mut Param<F>| {
                    let (m, v) = &mut moments[i];
                    i += 1;
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
