//! Properties of the model that the lesson relies on, checked against their definitions.

use ablation_playground::config::*;
use ablation_playground::model::norm::Norm;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::model::sublayer::Sublayer;
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
    use ablation_playground::training::data::DataStream;
    use ablation_playground::training::optim::Optimizer;
    use NormPlacement::*;
    let cases = [
        (SublayerKind::Mlp, Pre, true, OptimizerKind::Adam),
        (SublayerKind::Block, Pre, false, OptimizerKind::Adam),
        (SublayerKind::Ffn, Post, false, OptimizerKind::Sgd),
        (SublayerKind::Attention, Off, false, OptimizerKind::Adam),
    ];
    for (sublayer, norm, final_norm, optimizer) in cases {
        let config = Config {
            depth: 5,
            sublayer,
            norm,
            final_norm,
            optimizer,
            tokens: 9,
            width: 8,
            ..Config::default()
        };
        let (mut after, mut during) = (Stack::<f32>::new(&config), Stack::<f32>::new(&config));
        let mut opt_after = Optimizer::new(&config, &mut after);
        let mut opt_during = Optimizer::new(&config, &mut during);
        let mut data = DataStream::<f32>::new(config.seed, config.width, outputs(&config));
        let mut x = DMatrix::zeros(config.tokens, config.width);
        let mut y = DMatrix::zeros(config.tokens, outputs(&config));
        for step in 0..4 {
            data.next_batch(&mut x, &mut y);
            after.forward(&x, &y);
            after.backward_gradients(&y);
            opt_after.update(&mut after, step);
            during.forward(&x, &y);
            let rule = opt_during.begin(step);
            during.backward_updating(&y, &mut |part, first| opt_during.apply(&rule, first, part));
        }
        let bits = |stack: &mut Stack<f32>| {
            let mut v = Vec::new();
            stack.visit(&mut |p| v.extend(p.value.iter().map(|w| w.to_bits())));
            v
        };
        let (a, d) = (bits(&mut after), bits(&mut during));
        assert!(a.len() > 100 && a == d, "{sublayer:?}, norm {norm:?}, {optimizer:?}");
    }
}
