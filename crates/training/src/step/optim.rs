//! SGD and Adam with linear warmup, then a constant rate or its inverse square root decay. No
//! gradient clipping: an explosion is real.

use ablation_core::config::{Config, OptimizerKind, Schedule};
use ablation_core::model::param::Params;
use ablation_core::model::real::Real;
pub use ablation_core::model::update::Rule;
use ablation_core::model::update::{Moments, BETA1};
use ablation_core::wire::{Reader, Writer};
use nalgebra::DMatrix;

pub struct Optimizer<F: Real> {
    kind: OptimizerKind,
    learning_rate: f64,
    warmup_steps: usize,
    schedule: Schedule,
    /// The run's last step, where the cosine schedule reaches its floor (`Config::steps`).
    horizon: usize,
    /// Adam's β₂ (the table's `beta2`).
    beta2: f64,
    /// Adam's first and second moments, one pair per parameter in visiting order.
    moments: Moments<F>,
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
            schedule: config.schedule,
            horizon: config.steps,
            beta2: config.beta2,
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
        self.schedule = config.schedule;
        self.horizon = config.steps;
        self.beta2 = config.beta2;
        for (m, v) in &mut self.moments {
            // (slices: nalgebra's own fill goes entry by entry, slow in wasm)
            m.as_mut_slice().fill(F::zero());
            v.as_mut_slice().fill(F::zero());
        }
        self.beta_powers = (1.0, 1.0);
    }

    /// Copies Adam's moments and bias corrections into `into` (a checkpoint's), reusing its
    /// buffers when it has them.
    pub fn save(&self, into: &mut OptimizerState<F>) {
        if into.moments.len() == self.moments.len() {
            for ((m, v), (cm, cv)) in self.moments.iter().zip(&mut into.moments) {
                cm.as_mut_slice().copy_from_slice(m.as_slice());
                cv.as_mut_slice().copy_from_slice(v.as_slice());
            }
        } else {
            into.moments = self.moments.clone();
        }
        into.beta_powers = self.beta_powers;
    }

    /// Whether `state` is one of this optimizer's: as many moments, each of its parameter's shape.
    pub fn fits(&self, state: &OptimizerState<F>) -> bool {
        state.moments.len() == self.moments.len()
            && self
                .moments
                .iter()
                .zip(&state.moments)
                .all(|((m, _), (sm, sv))| sm.shape() == m.shape() && sv.shape() == m.shape())
    }

    /// Back to a state `save` copied from an optimizer of the same configuration.
    pub fn load(&mut self, from: &OptimizerState<F>) {
        for ((m, v), (cm, cv)) in self.moments.iter_mut().zip(&from.moments) {
            m.as_mut_slice().copy_from_slice(cm.as_slice());
            v.as_mut_slice().copy_from_slice(cv.as_slice());
        }
        self.beta_powers = from.beta_powers;
    }

    /// The learning rate of update `step` (0-based): ramps linearly over the warmup to the
    /// peak, then stays there, or with the inverse square root schedule falls as
    /// `peak · √(w / t)` at update `t = step + 1` (`w` the warmup, at least 1), which meets the
    /// ramp at its top: Vaswani et al.'s `min(t^-0.5, t · w^-1.5)` scaled to the peak (IEEE's
    /// square root is exact, so the rate has the same bits natively and in wasm), or with the
    /// cosine schedule falls as `floor + (peak − floor) · (1 + cos(π·d)) / 2`, `d` the share of
    /// the updates from the warmup's end to the run's last (`steps` − 1) done, `floor` a tenth
    /// of the peak, where it stays.
    pub fn learning_rate_at(&self, step: usize) -> f64 {
        if step < self.warmup_steps {
            return self.learning_rate * (step + 1) as f64 / self.warmup_steps as f64;
        }
        match self.schedule {
            Schedule::Constant => self.learning_rate,
            Schedule::InverseSqrt => {
                self.learning_rate * (self.warmup_steps.max(1) as f64 / (step + 1) as f64).sqrt()
            }
            Schedule::Cosine => {
                // from the peak at the warmup's end to a tenth of it at the run's last update
                // (`steps` − 1), a tenth after it
                let span = self.horizon.saturating_sub(1).saturating_sub(self.warmup_steps).max(1);
                let done = ((step - self.warmup_steps) as f64 / span as f64).min(1.0);
                let floor = 0.1 * self.learning_rate;
                floor + (self.learning_rate - floor) * half_cosine(done)
            }
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
                self.beta_powers.1 *= self.beta2;
                Rule::Adam {
                    step_size: F::of(lr / (1.0 - self.beta_powers.0)),
                    v_scale: F::of(1.0 / (1.0 - self.beta_powers.1)),
                    beta2: F::of(self.beta2),
                }
            }
        }
    }

    /// Updates the parameters `part` visits by `rule`, from the gradients they hold; `first` is
    /// the position of `part`'s first parameter in the whole model's visiting order (which
    /// pairs each parameter with its moments). A step can so update each layer as soon as its
    /// backward is done, while its gradients are still in cache (`Stack::backward_updating`,
    /// which takes the rule and `moments`).
    pub fn apply(&mut self, rule: &Rule<F>, first: usize, part: &mut (impl Params<F> + ?Sized)) {
        let moments = self.moments.get_mut(first..).unwrap_or_default();
        ablation_core::model::update::apply(rule, moments, part);
    }

    /// Adam's moments, one pair per parameter in visiting order (none for SGD).
    pub fn moments(&mut self) -> &mut Moments<F> {
        &mut self.moments
    }
}

/// `(1 + cos(π·d)) / 2` for `d` in [0, 1], as `cos²(π·d / 2)`, its cosine by its Taylor series
/// to the 28th power (for an angle up to π/2 the first term left out is below 10⁻²⁰): additions
/// and products only, in a fixed order, so the same bits on every target. (`libm::cos` gives
/// them too, but its general argument reduction is 2.8 KB of the page's wasm, for one rate per
/// step.)
fn half_cosine(d: f64) -> f64 {
    let y = std::f64::consts::FRAC_PI_2 * d;
    let y2 = y * y;
    // Horner's form of Σₖ (−1)ᵏ y²ᵏ / (2k)!, k = 0..=14, from the last term
    let mut cos = 0.0;
    for k in (1..=14u32).rev() {
        cos = 1.0 - y2 / f64::from((2 * k - 1) * (2 * k)) * cos;
    }
    cos * cos
}

/// What an optimizer carries from update to update (Adam's moments and bias corrections), as a
/// checkpoint keeps it (`Optimizer::save`, `Optimizer::load`).
#[derive(Default)]
pub struct OptimizerState<F: Real> {
    moments: Vec<(DMatrix<F>, DMatrix<F>)>,
    beta_powers: (f64, f64),
}

/// (The page's runs are in f32, and only they are put aside.)
impl OptimizerState<f32> {
    pub fn write(&self, w: &mut Writer) {
        w.f64(self.beta_powers.0);
        w.f64(self.beta_powers.1);
        w.u64(self.moments.len() as u64);
        for (m, v) in &self.moments {
            w.u64(m.nrows() as u64);
            w.u64(m.ncols() as u64);
            w.f32s(m.as_slice());
            w.f32s(v.as_slice());
        }
    }

    /// What `write` wrote; `Optimizer::fits` says whether it is the optimizer's.
    pub fn read(r: &mut Reader) -> Result<Self, String> {
        let beta_powers = (r.f64()?, r.f64()?);
        let n = r.len(32)?;
        let moments = (0..n)
            .map(|_| {
                let (rows, cols) = (r.usize()?, r.usize()?);
                let mut matrix = || -> Result<DMatrix<f32>, String> {
                    let xs = r.f32s()?;
                    if rows.checked_mul(cols) != Some(xs.len()) {
                        return Err("a moment's values do not match its shape".into());
                    }
                    Ok(DMatrix::from_vec(rows, cols, xs))
                };
                Ok((matrix()?, matrix()?))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(OptimizerState { moments, beta_powers })
    }
}

#[cfg(test)]
mod tests;
