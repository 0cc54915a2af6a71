//! Properties of the model that the lesson relies on, checked against their definitions.

use ablation_playground::config::*;
use ablation_playground::model::norm::Norm;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::model::sublayer::Sublayer;
use ablation_playground::training::tasks::data::DataStream;
use ablation_playground::training::tasks::task::Batches;
use ablation_playground::Trainer;
use nalgebra::DMatrix;

fn random(r: usize, c: usize, scale: f64, shift: f64, rng: &mut Rng) -> DMatrix<f32> {
    DMatrix::from_fn(r, c, |_, _| (shift + scale * rng.normal()) as f32)
}

fn token(y: &DMatrix<f32>, t: usize) -> Vec<f64> {
    y.row(t).iter().map(|&v| v as f64).collect()
}

#[test]
fn layernorm_gives_each_token_mean_zero_and_variance_one() {
    let mut rng = Rng::new(4, Stream::Data);
    let x = random(16, 32, 7.0, 3.0, &mut rng);
    let mut norm = Norm::<f32>::new(NormKind::LayerNorm, 16, 32);
    let mut y = DMatrix::zeros(16, 32);
    norm.forward(&x, &mut y);
    for t in 0..16 {
        let v = token(&y, t);
        let mean = v.iter().sum::<f64>() / 32.0;
        let var = v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / 32.0;
        assert!(mean.abs() < 1e-5, "token {t}: mean {mean}");
        assert!((var - 1.0).abs() < 1e-4, "token {t}: variance {var}");
    }
}

#[test]
fn rmsnorm_gives_each_token_unit_rms() {
    let mut rng = Rng::new(5, Stream::Data);
    let x = random(16, 32, 7.0, 3.0, &mut rng);
    let mut norm = Norm::<f32>::new(NormKind::RmsNorm, 16, 32);
    let mut y = DMatrix::zeros(16, 32);
    norm.forward(&x, &mut y);
    for t in 0..16 {
        let v = token(&y, t);
        let rms = (v.iter().map(|a| a * a).sum::<f64>() / 32.0).sqrt();
        assert!((rms - 1.0).abs() < 1e-4, "token {t}: rms {rms}");
        // RMSNorm does not centre: the mean survives (scaled)
        assert!(v.iter().sum::<f64>().abs() > 1.0);
    }
}

/// Zeroes the matrix that produces the sublayer's output, so that F(x) = 0.
fn silence(sublayer: &mut Sublayer<f32>) {
    match sublayer {
        Sublayer::Mlp(m) => m.linear.weight.value.fill(0.0),
        Sublayer::Ffn(f) => {
            f.down.weight.value.fill(0.0);
            f.down.bias.as_mut().unwrap().value.fill(0.0);
        }
        Sublayer::Attention(a) => a.wo.weight.value.fill(0.0),
    }
}

#[test]
fn a_residual_sublayer_with_zero_output_weights_is_the_identity() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for norm in [NormPlacement::Off, NormPlacement::Pre] {
            let config = Config { depth: 4, sublayer, norm, ..Config::default() };
            let mut stack = Stack::<f32>::new(&config);
            stack.layers.iter_mut().for_each(|l| silence(&mut l.sublayer));
            let mut rng = Rng::new(1, Stream::Probe);
            let x = random(config.tokens, config.width, 1.0, 0.0, &mut rng);
            let y = DMatrix::zeros(config.tokens, outputs(&config));
            stack.forward(&x, &y);
            assert_eq!(stack.output(), &x, "{sublayer:?} {norm:?}");
        }
    }
}

/// ‖∂L/∂x₀‖ / ‖∂L/∂x_L‖ at initialisation.
fn gradient_ratio(config: &Config) -> f64 {
    let mut trainer = Trainer::<f32>::new(config);
    trainer.probe();
    let g = &trainer.stack.stream_grad_norm;
    g[0] / g[config.depth]
}

#[test]
fn without_residual_the_gradient_vanishes_towards_the_input() {
    // The lesson's seed experiment: relu(xW) at gain 0.5 (= 0.5·relu(xW) at gain 1).
    for seed in 1..=3 {
        let plain = Config {
            depth: 12,
            residual: false,
            norm: NormPlacement::Off,
            sublayer: SublayerKind::Mlp,
            init_gain: 0.5,
            seed,
            ..Config::default()
        };
        let with_residual = Config { residual: true, ..plain.clone() };
        let (r_plain, r_res) = (gradient_ratio(&plain), gradient_ratio(&with_residual));
        assert!(r_plain < 1e-4, "seed {seed}: without residual ‖∂L/∂x₀‖/‖∂L/∂x_L‖ = {r_plain:e}");
        assert!(r_res > 0.5, "seed {seed}: with residual the ratio is {r_res}");
    }
}

#[test]
fn one_seed_gives_bit_identical_runs() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Block] {
        let config = Config { depth: 6, sublayer, seed: 42, ..Config::default() };
        let run = || {
            let mut t = Trainer::<f32>::new(&config);
            (0..20).map(|_| t.one_step(true).to_bits()).collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
        let other = Config { seed: 43, ..config.clone() };
        let mut t = Trainer::<f32>::new(&other);
        let first: Vec<u64> = (0..20).map(|_| t.one_step(true).to_bits()).collect();
        assert_ne!(run(), first, "a different seed must give a different run");
    }
}

#[test]
fn deeper_stacks_share_the_first_layers_weights() {
    let shallow = Stack::<f32>::new(&Config { depth: 3, ..Config::default() });
    let deep = Stack::<f32>::new(&Config { depth: 9, ..Config::default() });
    for (a, b) in shallow.layers.iter().zip(&deep.layers) {
        match (&a.sublayer, &b.sublayer) {
            (Sublayer::Mlp(a), Sublayer::Mlp(b)) => {
                assert_eq!(a.linear.weight.value, b.linear.weight.value)
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn training_reduces_the_loss_with_both_switches_on() {
    let config = Config { depth: 4, init_gain: 1.0, learning_rate: 0.01, ..Config::default() };
    let mut t = Trainer::<f32>::new(&config);
    let first = t.one_step(true);
    for _ in 0..200 {
        t.one_step(true);
    }
    let last = t.one_step(false);
    assert!(last < 0.2 * first, "loss went from {first} to {last}");
    assert_eq!(t.diverged_at, None);
}

#[test]
fn an_exploding_run_is_detected_and_stops() {
    // plain SGD with a huge step and a large init: a real explosion, no clipping
    let config = Config {
        depth: 12,
        residual: true,
        norm: NormPlacement::Off,
        init_gain: 3.0,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 5.0,
        ..Config::default()
    };
    let mut t = Trainer::<f32>::new(&config);
    let losses: Vec<f64> = (0..50).map(|_| t.one_step(true)).collect();
    let at = t.diverged_at.expect("this run diverges");
    assert!(losses[..at].iter().all(|l| l.is_finite()), "finite until the divergent step");
    assert!(losses[at + 1..].iter().all(|l| l.is_nan()), "training stops at the divergent step");
    assert!(!losses[at].is_finite() || !t.stack.all_finite());
    assert!(t.one_step(true).is_nan());
    assert_eq!(t.step, at);
}

#[test]
fn gradients_reach_every_parameter() {
    let config =
        Config { depth: 3, sublayer: SublayerKind::Block, norm: NormPlacement::Post, ..Config::default() };
    let mut t = Trainer::<f32>::new(&config);
    t.probe();
    let mut zero = 0;
    t.stack.visit(&mut |p| zero += usize::from(p.grad.iter().all(|&g| g == 0.0)));
    assert_eq!(zero, 0);
}

/// `Stack::all_finite` looks only at the last depth when the residual is on: a non-finite
/// activation anywhere must still show there, whatever the norm, its kind and the sublayer.
#[test]
fn a_non_finite_activation_reaches_the_top_of_a_residual_stack() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for norm in [NormPlacement::Off, NormPlacement::Pre, NormPlacement::Post] {
            for norm_kind in [NormKind::LayerNorm, NormKind::RmsNorm] {
                for bad in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
                    let config = Config { depth: 4, sublayer, norm, norm_kind, ..Config::default() };
                    let mut stack = Stack::<f32>::new(&config);
                    let mut rng = Rng::new(1, Stream::Probe);
                    let (t, d) = (config.tokens, config.width);
                    let mut x = DMatrix::from_fn(t, d, |_, _| rng.normal() as f32);
                    let y = DMatrix::zeros(t, outputs(&config));
                    stack.forward(&x, &y);
                    assert!(stack.all_finite());
                    // a bad value entering at depth 0, or appearing at depth 2 (then the
                    // layers above it are run again)
                    x[(3, 5)] = bad;
                    stack.forward(&x, &y);
                    assert!(!stack.all_finite(), "{config:?}, {bad} in x_0");
                    x[(3, 5)] = 0.5;
                    stack.forward(&x, &y);
                    stack.stream[2][(7, 1)] = bad;
                    for l in 2..config.depth {
                        let (below, above) = stack.stream.split_at_mut(l + 1);
                        stack.layers[l].forward(&below[l], &mut above[0]);
                    }
                    assert!(!stack.all_finite(), "{config:?}, {bad} in x_2");
                }
            }
        }
    }
}

#[test]
fn updating_each_layer_during_backward_gives_the_bits_of_updating_after() {
    use ablation_playground::training::step::optim::Optimizer;
    use NormPlacement::*;
    let cases = [
        (SublayerKind::Mlp, Pre, true, OptimizerKind::Adam),
        (SublayerKind::Block, Pre, false, OptimizerKind::Adam),
        (SublayerKind::Ffn, Post, false, OptimizerKind::Sgd),
        (SublayerKind::Attention, Off, false, OptimizerKind::Adam),
    ];
    let tasks = [TaskKind::Teacher, TaskKind::Teacher, TaskKind::Copy, TaskKind::Text];
    for ((sublayer, norm, final_norm, optimizer), task) in cases.into_iter().zip(tasks) {
        let config = Config {
            depth: 5,
            sublayer,
            norm,
            final_norm,
            optimizer,
            task,
            tokens: if task == TaskKind::Teacher { 9 } else { 12 },
            context: if task == TaskKind::Teacher { 0 } else { 6 },
            width: 8,
            ..Config::default()
        };
        let (mut after, mut during) = (Stack::<f32>::new(&config), Stack::<f32>::new(&config));
        let mut opt_after = Optimizer::new(&config, &mut after);
        let mut opt_during = Optimizer::new(&config, &mut during);
        let mut data = Batches::<f32>::new(&config);
        let mut batch = Batches::empty(&config);
        for step in 0..4 {
            data.next(&mut batch);
            after.forward_batch(&batch);
            after.backward_batch(&batch);
            opt_after.update(&mut after, step);
            during.forward_batch(&batch);
            let rule = opt_during.begin(step);
            during.backward_updating(&batch, &mut |part, first| opt_during.apply(&rule, first, part));
        }
        let bits = |stack: &mut Stack<f32>| {
            let mut v = Vec::new();
            stack.visit(&mut |p| v.extend(p.value.iter().map(|w| w.to_bits())));
            v
        };
        let (a, d) = (bits(&mut after), bits(&mut during));
        assert!(a.len() > 100 && a == d, "{sublayer:?}, norm {norm:?}, {optimizer:?}, {task:?}");
    }
}

/// Sample mean and population std of `xs`, two passes in f64.
fn mean_and_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (mean, (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt())
}

/// `xs` look like n independent draws of N(0, σ²): the sample mean within 4 standard errors
/// (σ/√n) of 0, the sample std within 4 of its own (σ/√(2n)) of σ, and the share within ±σ
/// within 4 of its own of the normal's 68.27%.
fn assert_normal(xs: &[f64], sigma: f64, what: &str) {
    let n = xs.len() as f64;
    let (mean, std) = mean_and_std(xs);
    assert!(mean.abs() < 4.0 * sigma / n.sqrt(), "{what}: mean {mean}, σ {sigma}, n {n}");
    assert!((std - sigma).abs() < 4.0 * sigma / (2.0 * n).sqrt(), "{what}: std {std}, σ {sigma}, n {n}");
    let (p, inside) = (0.682_689_5, xs.iter().filter(|x| x.abs() < sigma).count() as f64 / n);
    assert!((inside - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(), "{what}: {inside} within ±σ");
}

#[test]
fn initial_weights_are_normal_with_variance_gain_squared_over_fan_in() {
    let values = |m: &DMatrix<f32>| m.iter().map(|&w| w as f64).collect::<Vec<f64>>();
    for gain in [0.5, 2.0] {
        for sublayer in [SublayerKind::Mlp, SublayerKind::Block] {
            // a block stack alternates attention (four d → d maps) and FFN (d → 4d, then 4d → d)
            let config = Config { depth: 4, width: 64, sublayer, init_gain: gain, ..Config::default() };
            let stack = Stack::<f32>::new(&config);
            let d = config.width;
            let (mut fan_in_d, mut fan_in_4d) = (Vec::new(), Vec::new());
            for layer in &stack.layers {
                match &layer.sublayer {
                    Sublayer::Mlp(m) => fan_in_d.extend(values(&m.linear.weight.value)),
                    Sublayer::Attention(a) => {
                        for w in [&a.wq, &a.wk, &a.wv, &a.wo] {
                            fan_in_d.extend(values(&w.weight.value));
                        }
                    }
                    Sublayer::Ffn(f) => {
                        assert_eq!(f.down.weight.value.nrows(), 4 * d);
                        fan_in_d.extend(values(&f.up.weight.value));
                        fan_in_4d.extend(values(&f.down.weight.value));
                        for b in [&f.up.bias, &f.down.bias] {
                            assert!(b.as_ref().unwrap().value.iter().all(|&v| v == 0.0), "biases start at 0");
                        }
                    }
                }
            }
            let what = format!("{sublayer:?} gain {gain}");
            assert_normal(&fan_in_d, gain / (d as f64).sqrt(), &format!("{what}, fan-in d"));
            if sublayer == SublayerKind::Block {
                assert_normal(&fan_in_4d, gain / (4.0 * d as f64).sqrt(), &format!("{what}, fan-in 4d"));
            }
            // the readout keeps gain 1 whatever the stack's
            assert_normal(
                &values(&stack.readout.weight.value),
                1.0 / (d as f64).sqrt(),
                &format!("{what}, readout"),
            );
        }
    }
}

#[test]
fn tokens_are_standard_normal_and_the_teachers_targets_have_unit_variance() {
    let (d, tokens, batches) = (128, 256, 16);
    let mut data = DataStream::<f32>::new(5, d, d);
    let a: Vec<f64> = data.teacher.a.iter().map(|&v| v as f64).collect();
    assert_normal(&a, 1.0 / (d as f64).sqrt(), "teacher A ~ N(0, 1/d)");

    let (mut x, mut y) = (DMatrix::<f32>::zeros(tokens, d), DMatrix::<f32>::zeros(tokens, d));
    let (mut xs, mut ys, mut per_token) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..batches {
        data.next_batch(&mut x, &mut y);
        xs.extend(x.iter().map(|&v| v as f64));
        ys.extend(y.iter().map(|&v| v as f64));
        per_token
            .extend(y.row_iter().map(|row| row.iter().map(|&v| (v as f64).powi(2)).sum::<f64>() / d as f64));
    }
    assert_normal(&xs, 1.0, "tokens x ~ N(0, I)");

    // Given A, a target y_j = Σᵢ xᵢ Aᵢⱼ has variance Σᵢ Aᵢⱼ², so the targets' mean square is
    // ‖A‖²/d_out up to sampling noise; tokens are independent, so the noise's standard error is
    // that of the per-token mean squares. Over A, ‖A‖²/d_out is 1 ± √(2/(d·d_out)).
    let given_a = a.iter().map(|v| v * v).sum::<f64>() / d as f64;
    let (mean_square, token_spread) = mean_and_std(&per_token);
    let se = token_spread / (per_token.len() as f64).sqrt();
    assert!((mean_square - given_a).abs() < 4.0 * se, "mean square {mean_square} vs {given_a} ± {se}");
    assert!((given_a - 1.0).abs() < 4.0 * (2.0 / (d * d) as f64).sqrt(), "‖A‖²/d_out = {given_a}");
    let (mean, std) = mean_and_std(&ys);
    assert!(mean.abs() < 4.0 / (ys.len() as f64).sqrt(), "target mean {mean}");
    let spread = 4.0 * (se * se + 2.0 / (d * d) as f64).sqrt();
    assert!(
        (std * std - 1.0).abs() < spread,
        "the targets' variance {}: a zero prediction scores about 1",
        std * std
    );
}

/// The two placements lesson 000 names, layer by layer against their equations, built from
/// the layer's own norms and sublayer run one after another: the sandwich `x + LN₂(F(LN₁(x)))`
/// (without residual `LN₂(F(LN₁(x)))`) and DeepNorm `LN(α·x + F(x))` with α = L^¼ (without
/// residual `LN(F(x))`).
#[test]
fn sandwich_and_deepnorm_layers_follow_their_equations() {
    for norm in [NormPlacement::Sandwich, NormPlacement::DeepNorm] {
        for residual in [true, false] {
            for sublayer in [SublayerKind::Ffn, SublayerKind::Attention] {
                let config = Config { depth: 16, residual, norm, sublayer, ..Config::default() };
                let what = format!("{norm:?} residual {residual} {sublayer:?}");
                let mut stack = Stack::<f32>::new(&config);
                let layer = &mut stack.layers[3];
                let mut rng = Rng::new(2, Stream::Probe);
                let x = random(config.tokens, config.width, 3.0, 0.5, &mut rng);
                let mut y = DMatrix::zeros(config.tokens, config.width);
                let (mut f, mut ln) = (layer.sublayer.clone(), layer.norm.clone().expect("a norm"));
                let mut after = layer.norm_after.clone();
                assert_eq!(
                    after.is_some(),
                    norm == NormPlacement::Sandwich,
                    "{what}: a second norm only in a sandwich"
                );
                layer.forward(&x, &mut y);
                let m = || DMatrix::<f32>::zeros(config.tokens, config.width);
                let mut want = m();
                if norm == NormPlacement::Sandwich {
                    let (mut a, mut b) = (m(), m());
                    ln.forward(&x, &mut a);
                    f.forward(&a, &mut b);
                    after.as_mut().unwrap().forward(&b, &mut want);
                    if residual {
                        want += &x;
                    }
                } else {
                    let alpha = 16f32.powf(0.25);
                    assert_eq!(config.residual_scale(), 2.0, "α = 16^¼");
                    let mut s = m();
                    f.forward(&x, &mut s);
                    if residual {
                        s.iter_mut().zip(x.iter()).for_each(|(s, &x)| *s += alpha * x);
                    }
                    ln.forward(&s, &mut want);
                }
                assert_eq!(y, want, "{what}");
                // and the stream leaves the layer normalised exactly when the placement says so
                let top = token(&y, 0);
                let (_, std) = mean_and_std(&top);
                if norm == NormPlacement::DeepNorm || !residual {
                    assert!((std - 1.0).abs() < 1e-3, "{what}: std {std} after the layer's last norm");
                } else {
                    assert!(
                        (std - 1.0).abs() > 0.5,
                        "{what}: std {std}: the sandwich's stream is not normalised"
                    );
                }
            }
        }
    }
}

/// DeepNorm draws the weights that write a branch's output β = (4L)^-¼ times smaller (DeepNet's
/// (8N)^-¼ for N two-sublayer blocks): an FFN's both maps, attention's values and output, but
/// not its queries and keys. Every other placement draws the same bits as before.
#[test]
fn deepnorm_draws_the_branch_smaller_and_leaves_queries_and_keys() {
    let values = |m: &DMatrix<f32>| m.iter().map(|&w| w as f64).collect::<Vec<f64>>();
    let (depth, d) = (64, 64);
    let config = Config {
        depth,
        width: d,
        sublayer: SublayerKind::Block,
        norm: NormPlacement::DeepNorm,
        ..Config::default()
    };
    let beta = config.branch_gain();
    assert!((beta - 256f64.powf(-0.25)).abs() < 1e-15 && (beta - 0.25).abs() < 1e-15, "β = (4·64)^-¼ = 1/4");
    let stack = Stack::<f32>::new(&config);
    let (mut qk, mut vo, mut up, mut down) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for layer in &stack.layers {
        match &layer.sublayer {
            Sublayer::Attention(a) => {
                qk.extend(values(&a.wq.weight.value).into_iter().chain(values(&a.wk.weight.value)));
                vo.extend(values(&a.wv.weight.value).into_iter().chain(values(&a.wo.weight.value)));
            }
            Sublayer::Ffn(f) => {
                up.extend(values(&f.up.weight.value));
                down.extend(values(&f.down.weight.value));
            }
            Sublayer::Mlp(_) => unreachable!("a block stack"),
        }
    }
    let s = 1.0 / (d as f64).sqrt();
    assert_normal(&qk, s, "queries and keys: gain 1");
    assert_normal(&vo, beta * s, "values and output: β");
    assert_normal(&up, beta * s, "FFN up: β");
    assert_normal(&down, beta / (4.0 * d as f64).sqrt(), "FFN down: β");
    // pre-norm and sandwich stacks draw exactly the weights they drew before (β = 1)
    let pre = Stack::<f32>::new(&Config { norm: NormPlacement::Pre, ..config.clone() });
    let sandwich = Stack::<f32>::new(&Config { norm: NormPlacement::Sandwich, ..config.clone() });
    let weights = |s: &Stack<f32>| {
        let mut out = Vec::new();
        for l in &s.layers {
            let mut l = l.clone();
            l.sublayer.visit(&mut |p| out.extend(p.value.iter().map(|v| v.to_bits())));
        }
        out
    };
    assert_eq!(weights(&pre), weights(&sandwich));
}
