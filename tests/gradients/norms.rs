//! The gradient norms the panels and the CLI report, per depth and per sublayer, against their definitions by central differences.

use super::stacks::all_configs;
use super::*;

/// The depth-3 twins of `all_configs`' stacks: every sublayer kind, residual on and off,
/// every norm placement and kind, with and without the final norm. Three layers give every
/// depth ℓ = 1..L − 1 a layer both below and above it.
fn depth_3_configs() -> Vec<Config> {
    all_configs().into_iter().filter(|c| c.depth == 2).map(|c| Config { depth: 3, ..c }).collect()
}

/// Sets entry `e` of the `i`-th visited parameter to `value`.
fn set_entry<M: Params<f64>>(model: &mut M, i: usize, e: usize, value: f64) {
    let mut k = 0;
    model.visit(&mut |p| {
        if k == i {
            p.value.as_mut_slice()[e] = value;
        }
        k += 1;
    });
}

/// `‖∇f‖` by central differences over `n` entries, where `loss(e, δ)` is the loss with entry
/// `e` moved by `δ` (and put back afterwards).
fn central_difference_norm(n: usize, mut loss: impl FnMut(usize, f64) -> f64) -> f64 {
    (0..n).map(|e| ((loss(e, EPS) - loss(e, -EPS)) / (2.0 * EPS)).powi(2)).sum::<f64>().sqrt()
}

/// The loss as a function of the stream at depth `l` alone, by the stack's definition:
/// `x_{k+1} = layer_k(x_k)` for k = l..L, then `ŷ = LN_f(x_L) R` (or `x_L R`) and the MSE.
/// The stack has no forward that starts at layer `l`, so this one runs its layers by hand.
fn loss_from(stack: &mut Stack<f64>, l: usize, x_l: &DMatrix<f64>, y: &DMatrix<f64>) -> f64 {
    let mut x = x_l.clone(); // (T, d)
    let mut next = x.clone(); // (T, d)
    for layer in &mut stack.layers[l..] {
        layer.forward(&x, &mut next);
        std::mem::swap(&mut x, &mut next);
    }
    if let Some(ln) = &mut stack.final_norm {
        ln.forward(&x, &mut next);
        std::mem::swap(&mut x, &mut next);
    }
    let mut pred = DMatrix::zeros(y.nrows(), y.ncols()); // (T, d_out)
    stack.readout.forward(&x, &mut pred);
    mse(&pred, y)
}

/// `‖∂L/∂x_ℓ‖` for ℓ = 0..=L by central differences, around the stream of the last forward.
fn stream_grad_norms_by_differences(stack: &mut Stack<f64>, y: &DMatrix<f64>) -> Vec<f64> {
    (0..=stack.layers.len())
        .map(|l| {
            let mut x = stack.stream[l].clone();
            central_difference_norm(x.len(), |e, delta| {
                let v = x.as_slice()[e];
                x.as_mut_slice()[e] = v + delta;
                let loss = loss_from(stack, l, &x, y);
                x.as_mut_slice()[e] = v;
                loss
            })
        })
        .collect()
}

/// `‖∂L/∂W_ℓ‖` for every sublayer by central differences, over every entry of every parameter
/// the sublayer owns (what `Layer::weight_grad_norm` sums; the layer's norm is not the sublayer).
fn weight_grad_norms_by_differences(stack: &mut Stack<f64>, x: &DMatrix<f64>, y: &DMatrix<f64>) -> Vec<f64> {
    (0..stack.layers.len())
        .map(|l| {
            let mut values = Vec::new();
            stack.layers[l].sublayer.visit(&mut |p| values.push(p.value.clone()));
            let entries: Vec<(usize, usize)> =
                values.iter().enumerate().flat_map(|(i, v)| (0..v.len()).map(move |e| (i, e))).collect();
            central_difference_norm(entries.len(), |k, delta| {
                let (i, e) = entries[k];
                let v = values[i].as_slice()[e];
                set_entry(&mut stack.layers[l].sublayer, i, e, v + delta);
                let loss = stack.forward(x, y);
                set_entry(&mut stack.layers[l].sublayer, i, e, v);
                loss
            })
        })
        .collect()
}

fn assert_norms_close(reported: &[f64], by_differences: &[f64], rel: f64, abs: f64, what: &str) {
    assert_eq!(reported.len(), by_differences.len(), "{what}");
    for (l, (&a, &b)) in reported.iter().zip(by_differences).enumerate() {
        assert!((a - b).abs() <= rel * b + abs, "{what}[{l}]: reported {a:e} vs finite differences {b:e}");
    }
}

/// The figures the panels and the CLI report, `‖∂L/∂x_ℓ‖` for ℓ = 0..=L (`stream_grad_norm`)
/// and `‖∂L/∂W_ℓ‖` per sublayer (`weight_grad_norm`), against their definitions by central
/// differences, on the f64 twin of the stack. `W_ℓ` is every parameter of sublayer ℓ, as
/// `Layer::weight_grad_norm` sums them: its weight matrices and, for the FFN, its biases b₁, b₂;
/// not the layer's norm γ, β (perturbed here so that including them would show: they move
/// these norms by 1e-3 relative or more, and a figure taken one depth off by 1e-2 or more).
///
/// Tolerance: each difference quotient errs by the loss's rounding over the step,
/// ≈ 10 ε |L| / EPS ≈ 2e-9 |L|, plus the truncation EPS² |f‴| ≈ 1e-12; over at most 552
/// entries (an FFN) the norm errs by at most √552 times that ≈ 5e-8 |L|, hence 1e-7 |L|, and
/// 1e-6 relative for slack (the worst seen is 3e-9 relative; every norm here is above 0.04).
#[test]
fn reported_gradient_norms_match_finite_differences_at_every_depth() {
    for config in depth_3_configs() {
        let what = format!("{config:?}");
        let mut stack = Stack::<f64>::new(&config);
        let mut rng = Rng::new(config.seed, Stream::Probe);
        let x = random(config.tokens, config.width, &mut rng);
        let y = random(config.tokens, outputs(&config), &mut rng);
        stack.visit(&mut |p| {
            if p.value.nrows() == 1 {
                p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal())
            }
        });
        let loss = stack.forward(&x, &y);
        stack.backward(&y);
        let (stream, weights) = (stack.stream_grad_norm.clone(), stack.weight_grad_norm.clone());
        // the hand-run forward from depth ℓ is the stack's own, to the bit
        for l in 0..=config.depth {
            let x_l = stack.stream[l].clone();
            assert_eq!(loss_from(&mut stack, l, &x_l, &y), loss, "{what}: forward from layer {l}");
        }
        let abs = 1e-7 * loss.abs();
        let stream_fd = stream_grad_norms_by_differences(&mut stack, &y);
        assert_norms_close(&stream, &stream_fd, 1e-6, abs, &format!("{what} stream_grad_norm"));
        let weights_fd = weight_grad_norms_by_differences(&mut stack, &x, &y);
        assert_norms_close(&weights, &weights_fd, 1e-6, abs, &format!("{what} weight_grad_norm"));
    }
}

/// What the report itself holds: `Snapshot::take` on the trainer's f32 stack at
/// initialisation, against central differences on the f64 stack with the same weights and
/// probe batch (the f32 ones are these rounded). Tolerance 1e-5 relative, ≈ 170 f32 units of
/// rounding: the inputs' rounding plus a forward and a backward through three layers of short
/// sums (≤ 4d = 32 terms) and norms; the worst seen is 8e-7, and a figure over the wrong
/// parameters or at the wrong depth is off by 1e-3 or more (see above).
#[test]
fn reported_f32_snapshot_matches_finite_differences() {
    for config in depth_3_configs() {
        let what = format!("{config:?}");
        let snapshot = Snapshot::take(&mut Trainer::<f32>::new(&config));
        let mut stack = Stack::<f64>::new(&config);
        let (x, y) = DataStream::<f64>::new(config.seed, config.width, outputs(&config)).probe(config.tokens);
        let loss = stack.forward(&x, &y);
        assert!((snapshot.probe_loss - loss).abs() <= 1e-5 * loss, "{what}: probe loss");
        let abs = 1e-7 * loss;
        let stream_fd = stream_grad_norms_by_differences(&mut stack, &y);
        assert_norms_close(&snapshot.grad_norm, &stream_fd, 1e-5, abs, &format!("{what} grad_norm"));
        let weights_fd = weight_grad_norms_by_differences(&mut stack, &x, &y);
        let name = format!("{what} weight_grad_norm");
        assert_norms_close(&snapshot.weight_grad_norm, &weights_fd, 1e-5, abs, &name);
    }
}
