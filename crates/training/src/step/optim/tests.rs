//! The optimisers against hand-computed trajectories, and a checkpoint's bits.

use super::*;
use ablation_core::model::param::Param;

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

/// The half cosine the schedule follows against libm's cosine, over the whole range.
#[test]
fn the_half_cosine_is_the_cosines() {
    for i in 0..=10_000 {
        let d = f64::from(i) / 10_000.0;
        let expected = 0.5 * (1.0 + libm::cos(std::f64::consts::PI * d));
        let got = half_cosine(d);
        assert!((got - expected).abs() <= 4.5e-16, "d {d}: {got} against {expected}");
        // 2 ulps near 1
    }
    assert_eq!((half_cosine(0.0), half_cosine(1.0).abs() < 1e-30), (1.0, true));
}

/// The cosine schedule by its definition: the peak where the warmup ends, the midpoint of peak
/// and floor halfway to the run's last update, a tenth of the peak at it and after it, and never
/// rising in between (a continued run stays at the floor).
#[test]
fn the_cosine_schedule_falls_from_the_peak_to_a_tenth_at_the_last_step() {
    let mut model = two::<f32>();
    for (warmup, steps) in [(0usize, 101usize), (10, 111), (3, 4), (0, 1), (50, 20)] {
        let c =
            Config { warmup_steps: warmup, steps, schedule: Schedule::Cosine, ..config(OptimizerKind::Adam) };
        let opt = Optimizer::new(&c, &mut model);
        let floor = 0.1 * PEAK;
        let last = steps.saturating_sub(1).max(warmup + 1);
        if warmup + 1 < steps {
            assert_eq!(opt.learning_rate_at(warmup), PEAK, "warmup {warmup}, steps {steps}");
        }
        let got = opt.learning_rate_at(last);
        assert!((got - floor).abs() <= 1e-15, "warmup {warmup}, steps {steps}: {got} at the last update");
        if (last - warmup) % 2 == 0 && last > warmup {
            let mid = opt.learning_rate_at(warmup + (last - warmup) / 2);
            let expected = (PEAK + floor) / 2.0;
            assert!((mid - expected).abs() <= 1e-12 * PEAK, "warmup {warmup}, steps {steps}: {mid} halfway");
        }
        assert_eq!(opt.learning_rate_at(last + 1000), opt.learning_rate_at(last), "after the last update");
        let rates: Vec<f64> = (warmup..last + 5).map(|s| opt.learning_rate_at(s)).collect();
        assert!(rates.windows(2).all(|w| w[1] <= w[0]), "warmup {warmup}, steps {steps}: {rates:?}");
    }
}

/// The inverse square root schedule against Vaswani et al.'s formula, `min(t^-0.5, t · w^-1.5)`
/// at update `t` (1-based), scaled so that its top, `w^-0.5` at `t = w`, is the peak: the ramp
/// as before up to `w`, then the decay, meeting it there; without a warmup, `peak / √t`.
#[test]
fn the_inverse_square_root_schedule_is_vaswanis_scaled_to_the_peak() {
    let mut model = two::<f32>();
    for warmup in [0usize, 1, 3, 100, 4000] {
        let c =
            Config { warmup_steps: warmup, schedule: Schedule::InverseSqrt, ..config(OptimizerKind::Adam) };
        let opt = Optimizer::new(&c, &mut model);
        let w = warmup.max(1) as f64;
        for step in [
            0usize,
            1,
            2,
            warmup.saturating_sub(1),
            warmup,
            warmup + 1,
            2 * warmup + 7,
            4 * warmup + 3,
            99_999,
        ] {
            let t = (step + 1) as f64;
            let vaswani = PEAK * w.sqrt() * t.powf(-0.5).min(t * w.powf(-1.5));
            let got = opt.learning_rate_at(step);
            assert!(
                (got - vaswani).abs() <= 1e-15 * PEAK,
                "warmup {warmup}, update {step}: {got} against Vaswani's {vaswani}"
            );
        }
        // its top is the peak, at the warmup's last update
        let top = (0..2 * warmup + 10).map(|s| opt.learning_rate_at(s)).fold(0.0, f64::max);
        assert_eq!(top, PEAK, "warmup {warmup}");
    }
    // the constant schedule, the default, is the rate as it always was
    assert_eq!(Config::default().schedule, Schedule::Constant);
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
            assert!((got[i] - want[i]).abs() < 1e-14, "update {step}, entry {i}: {} vs {}", got[i], want[i]);
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
