//! SGD and Adam with linear warmup. No gradient clipping: an explosion is real.

use ablation_core::config::{Config, OptimizerKind};
use ablation_core::model::param::{Param, Params};
use ablation_core::model::real::Real;
use ablation_core::wire::{Reader, Writer};
use nalgebra::DMatrix;

const BETA1: f64 = 0.9;
const ADAM_EPS: f64 = 1e-8;

pub struct Optimizer<F: Real> {
    kind: OptimizerKind,
    learning_rate: f64,
    warmup_steps: usize,
    /// Adam's β₂ (the table's `beta2`).
    beta2: f64,
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
    /// backward is done, while its gradients are still in cache.
    pub fn apply(&mut self, rule: &Rule<F>, first: usize, part: &mut (impl Params<F> + ?Sized)) {
        match *rule {
            Rule::Sgd { lr } => part.visit(&mut |p: &mut Param<F>| {
                for (w, &g) in p.value.as_mut_slice().iter_mut().zip(p.grad.as_slice()) {
                    *w -= lr * g;
                }
            }),
            Rule::Adam { step_size, v_scale, beta2 } => {
                // θ ← θ − lr · m̂ / (√v̂ + ε), with m̂ = m / (1 − β₁ᵗ), v̂ = v / (1 − β₂ᵗ)
                let (b1, b2, eps) = (F::of(BETA1), beta2, F::of(ADAM_EPS));
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

pub enum Rule<F: Real> {
    Sgd { lr: F },
    Adam { step_size: F, v_scale: F, beta2: F },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two small parameters, visited in a fixed order: a (2, 2) and a (1, 3).
    struct Two<F: Real>([Param<F>; 2]);

    impl<F: Real> Params<F> for Two<F> {
        fn visit(&mut self, f: &mut dyn FnMut(&mut Param<F>)) {
            self.0.iter_mut().for_each(f);
        }

        fn names(&self, prefix: &str, out: &mut Vec<String>) {
            out.extend(["a", "b"].map(|n| format!("{prefix}{n}")));
        }
    }

    /// The parameters' starting values, 4 + 3 entries in `as_slice` order.
    const START: [f64; 7] = [0.5, -1.25, 2.0, 0.0, 1.0, -0.5, 0.25];
    /// The gradient of each entry at updates 0..4: signs that flip, a zero gradient (Adam must
    /// leave that entry alone), and a tiny one (1e-6, where ε = 1e-8 is 1% of √v̂).
    const GRADS: [[f64; 7]; 4] = [
        [0.3, -2.0, 1e-6, 0.0, 1.5, -0.7, 4.0],
        [-0.1, -1.0, 2e-6, 0.0, 0.5, 0.7, -4.0],
        [0.2, 0.5, -1e-6, 0.0, 1.5, -0.7, 0.0],
        [0.05, 3.0, 1e-6, 0.0, -2.5, 0.1, 1.0],
    ];
    /// A peak learning rate whose warmup fractions 1/3, 2/3 are exact in binary in any order
    /// of operations: 0.375 · (t+1)/3 = 0.125, 0.25, 0.375.
    const PEAK: f64 = 0.375;
    const RAMP: [f64; 4] = [0.125, 0.25, 0.375, 0.375];

    fn config(optimizer: OptimizerKind) -> Config {
        Config { optimizer, learning_rate: PEAK, warmup_steps: 3, ..Config::default() }
    }

    /// Adam with the original Transformer's β₂ = 0.98.
    fn config_098() -> Config {
        Config { beta2: 0.98, ..config(OptimizerKind::Adam) }
    }

    fn two<F: Real>() -> Two<F> {
        let param = |values: &[f64], rows, cols| {
            let mut p = Param::constant(rows, cols, F::zero());
            p.value.as_mut_slice().iter_mut().zip(values).for_each(|(w, &v)| *w = F::of(v));
            p
        };
        Two([param(&START[..4], 2, 2), param(&START[4..], 1, 3)])
    }

    /// The library's parameter values after each of the four updates.
    fn trajectory<F: Real>(optimizer: OptimizerKind) -> Vec<[F; 7]> {
        trajectory_of(&config(optimizer))
    }

    fn trajectory_of<F: Real>(config: &Config) -> Vec<[F; 7]> {
        let mut model = two::<F>();
        let mut opt = Optimizer::new(config, &mut model);
        let mut out = Vec::new();
        for (step, g) in GRADS.iter().enumerate() {
            let (a, b) = g.split_at(4);
            model.0[0].grad.as_mut_slice().iter_mut().zip(a).for_each(|(d, &v)| *d = F::of(v));
            model.0[1].grad.as_mut_slice().iter_mut().zip(b).for_each(|(d, &v)| *d = F::of(v));
            opt.update(&mut model, step);
            let values: Vec<F> = model.0.iter().flat_map(|p| p.value.iter().copied()).collect();
            out.push(values.try_into().unwrap());
        }
        out
    }

    /// Adam (Kingma & Ba 2015, Algorithm 1) in plain f64: m ← β₁m + (1−β₁)g,
    /// v ← β₂v + (1−β₂)g², m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ), θ ← θ − η_t m̂/(√v̂ + ε), t = 1, 2, …
    fn adam_by_hand(beta2: f64) -> Vec<[f64; 7]> {
        let (beta1, eps) = (0.9f64, 1e-8f64);
        let (mut theta, mut m, mut v) = (START, [0.0; 7], [0.0; 7]);
        let mut out = Vec::new();
        for (step, g) in GRADS.iter().enumerate() {
            let t = step as i32 + 1;
            for i in 0..7 {
                m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
                v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
                let m_hat = m[i] / (1.0 - beta1.powi(t));
                let v_hat = v[i] / (1.0 - beta2.powi(t));
                theta[i] -= RAMP[step] * m_hat / (v_hat.sqrt() + eps);
            }
            out.push(theta);
        }
        out
    }

    #[test]
    fn the_warmup_ramps_linearly_to_the_peak_and_stays_there() {
        let mut model = two::<f32>();
        let opt = Optimizer::new(&config(OptimizerKind::Sgd), &mut model);
        let rates: Vec<f64> = (0..6).map(|t| opt.learning_rate_at(t)).collect();
        assert_eq!(rates, [0.125, 0.25, 0.375, 0.375, 0.375, 0.375]);
        let opt = Optimizer::new(&Config { warmup_steps: 0, ..config(OptimizerKind::Adam) }, &mut model);
        assert_eq!((opt.learning_rate_at(0), opt.learning_rate_at(7)), (PEAK, PEAK), "no warmup");
    }

    #[test]
    fn sgd_steps_against_the_gradient_by_the_warmed_up_rate() {
        // θ ← θ − η_t g: one product and one difference, rounded in f32 as written, so the
        // library must give these bits exactly (η_t is exact, see PEAK).
        let mut theta = START.map(|v| v as f32);
        for (step, got) in trajectory::<f32>(OptimizerKind::Sgd).iter().enumerate() {
            for i in 0..7 {
                theta[i] -= RAMP[step] as f32 * GRADS[step][i] as f32;
            }
            assert_eq!(got.map(f32::to_bits), theta.map(f32::to_bits), "update {step}");
        }
    }

    #[test]
    fn adam_follows_its_definition_with_bias_correction_and_warmup() {
        let want = adam_by_hand(0.999);
        // The first update by its closed form: m̂ = g and v̂ = g², so θ moves by η₀ g/(|g| + ε),
        // about η₀ = 1/8 against the gradient's sign, 1/8 · 1/1.01 for the tiny gradient, 0 for none.
        for (i, &g) in GRADS[0].iter().enumerate() {
            let moved = START[i] - want[0][i];
            let closed = 0.125 * g / (g.abs() + 1e-8);
            assert!((moved - closed).abs() < 1e-15, "entry {i}: {moved} vs {closed}");
        }
        // In f64 the library computes η_t/(1−β₁ᵗ) first and multiplies by m, and forms β₁ᵗ by
        // repeated products: a different rounding order from the definition's, so not the same
        // bits, but within a few ulps of values below 3. A wrong β, a missing bias correction or
        // ε under the root (1% of the tiny entry's step) is off by far more than 1e-14.
        for (step, (got, want)) in trajectory::<f64>(OptimizerKind::Adam).iter().zip(&want).enumerate() {
            for i in 0..7 {
                assert!(
                    (got[i] - want[i]).abs() < 1e-14,
                    "f64 update {step}, entry {i}: {} vs {}",
                    got[i],
                    want[i]
                );
            }
        }
        // In f32 every operation rounds to 24 bits, and the moments decay by β₁, β₂ rounded to
        // f32 while the bias correction uses the exact ones: 1 − 0.999f32 is 1.3e-5 too small,
        // so v̂ is, and every step is 6e-6 too long. Over these four updates (1.125 in all) that
        // comes to 4.8e-6, the rest is rounding; 1e-5 still catches a wrong β or correction.
        for (step, (got, want)) in trajectory::<f32>(OptimizerKind::Adam).iter().zip(&want).enumerate() {
            for i in 0..7 {
                let err = (got[i] as f64 - want[i]).abs();
                assert!(err < 1e-5, "f32 update {step}, entry {i}: {} vs {}", got[i], want[i]);
            }
        }
        // The zero-gradient entry never moves: 0/(0 + ε).
        assert!(want.iter().all(|theta| theta[3] == 0.0));
    }

    #[test]
    fn adam_takes_its_beta2_from_the_config() {
        // β₂ = 0.98 by the definition, within the f64 rounding bound above; the default's
        // trajectory differs by ten orders of magnitude more (v forgets 20 times faster).
        let want = adam_by_hand(0.98);
        let got = trajectory_of::<f64>(&config_098());
        for (step, (got, want)) in got.iter().zip(&want).enumerate() {
            for i in 0..7 {
                assert!(
                    (got[i] - want[i]).abs() < 1e-14,
                    "update {step}, entry {i}: {} vs {}",
                    got[i],
                    want[i]
                );
            }
        }
        let default = adam_by_hand(0.999);
        let apart = want.iter().zip(&default).flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()));
        assert!(apart.fold(0.0, f64::max) > 1e-4);
        // and reset takes a new config's β₂
        let mut model = two::<f64>();
        let mut opt = Optimizer::new(&config(OptimizerKind::Adam), &mut model);
        opt.reset(&config_098());
        assert_eq!(opt.beta2, 0.98);
    }

    #[test]
    fn reset_restarts_the_moments_and_the_bias_correction() {
        let fresh = trajectory::<f64>(OptimizerKind::Adam);
        let mut model = two::<f64>();
        let mut opt = Optimizer::new(&config(OptimizerKind::Adam), &mut model);
        for p in &mut model.0 {
            p.grad.fill(1.0);
        }
        for step in 0..3 {
            opt.update(&mut model, step);
        }
        opt.reset(&config(OptimizerKind::Adam));
        let mut again = two::<f64>();
        for (step, g) in GRADS.iter().enumerate() {
            let (a, b) = g.split_at(4);
            again.0[0].grad.as_mut_slice().copy_from_slice(a);
            again.0[1].grad.as_mut_slice().copy_from_slice(b);
            opt.update(&mut again, step);
            let values: Vec<f64> = again.0.iter().flat_map(|p| p.value.iter().copied()).collect();
            assert_eq!(values, fresh[step], "update {step} after reset");
        }
    }
}
