//! Training: the loss falls, an explosion stops, every parameter gets its gradient, a fused update's bits.

use super::*;

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
            during.backward_updating(&batch, &rule, opt_during.moments());
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
