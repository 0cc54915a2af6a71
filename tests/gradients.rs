//! Every backward pass against central finite differences, in f64: op by op, and whole
//! stacks under every combination of residual × norm placement × norm kind × sublayer.

use ablation_playground::config::*;
use ablation_playground::model::attention::Attention;
use ablation_playground::model::batch::{Batch, Tokens};
use ablation_playground::model::ffn::Ffn;
use ablation_playground::model::linear::Linear;
use ablation_playground::model::loss::{mse, mse_backward};
use ablation_playground::model::mlp::Mlp;
use ablation_playground::model::norm::Norm;
use ablation_playground::model::param::InitGain;
use ablation_playground::model::param::{Draw, Param, Params};
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::scratch::Scratch;
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::training::data::DataStream;
use ablation_playground::training::report::Snapshot;
use ablation_playground::training::train::Trainer;
use nalgebra::DMatrix;

const EPS: f64 = 1e-6;

fn random(r: usize, c: usize, rng: &mut Rng) -> DMatrix<f64> {
    DMatrix::from_fn(r, c, |_, _| rng.normal())
}

/// `loss` is the loss's size: a central difference of it cannot resolve slopes below
/// ε_machine·|loss|/δ (its two values round apart by that much), whatever the gradient's scale.
/// This matters only where the gradient itself is that small (DeepNorm without residual at
/// depth 6: ∂L/∂x ≈ 3e-7, a hundred-thousandth of the weights').
fn assert_close(analytic: f64, numeric: f64, scale: f64, loss: f64, what: &str) {
    let rounding = f64::EPSILON * loss.abs() / EPS;
    let tol = 1e-6 * (analytic.abs() + numeric.abs()) + 1e-7 * scale + rounding;
    assert!(
        (analytic - numeric).abs() <= tol,
        "{what}: analytic {analytic:e} vs finite difference {numeric:e} (scale {scale:e})"
    );
}

/// Nudges entry `e` of the `i`-th visited parameter by `delta`.
fn nudge<M: Params<f64>>(model: &mut M, i: usize, e: usize, delta: f64) {
    let mut k = 0;
    model.visit(&mut |p: &mut Param<f64>| {
        if k == i {
            p.value.as_mut_slice()[e] += delta;
        }
        k += 1;
    });
}

/// Checks the analytic parameter gradients stored in `model` against finite differences of
/// `loss`, on up to `per_param` entries of every parameter.
fn check_params<M: Params<f64>>(
    model: &mut M,
    per_param: usize,
    what: &str,
    mut loss: impl FnMut(&mut M) -> f64,
) {
    let mut grads = Vec::new();
    model.visit(&mut |p| grads.push(p.grad.clone()));
    let scale = grads.iter().map(|g| g.amax()).fold(0.0, f64::max);
    for (i, g) in grads.iter().enumerate() {
        let n = g.len();
        let stride = (n / per_param).max(1);
        for e in (0..n).step_by(stride).take(per_param) {
            nudge(model, i, e, EPS);
            let up = loss(model);
            nudge(model, i, e, -2.0 * EPS);
            let down = loss(model);
            nudge(model, i, e, EPS);
            assert_close(
                g.as_slice()[e],
                (up - down) / (2.0 * EPS),
                scale,
                up.abs().max(down.abs()),
                &format!("{what} param {i}[{e}]"),
            );
        }
    }
}

fn check_input(
    x: &mut DMatrix<f64>,
    dx: &DMatrix<f64>,
    what: &str,
    mut loss: impl FnMut(&DMatrix<f64>) -> f64,
) {
    let scale = dx.amax();
    for e in 0..x.len() {
        x.as_mut_slice()[e] += EPS;
        let up = loss(x);
        x.as_mut_slice()[e] -= 2.0 * EPS;
        let down = loss(x);
        x.as_mut_slice()[e] += EPS;
        let size = up.abs().max(down.abs());
        assert_close(dx.as_slice()[e], (up - down) / (2.0 * EPS), scale, size, &format!("{what} input[{e}]"));
    }
}

/// `L = Σ r ⊙ y`, so that `∂L/∂y = r`.
fn weighted(y: &DMatrix<f64>, r: &DMatrix<f64>) -> f64 {
    y.component_mul(r).sum()
}

/// An op with weights: `forward(x) → y`, `backward(x, dy) → dx`.
trait Op: Params<f64> {
    fn fwd(&mut self, x: &DMatrix<f64>, y: &mut DMatrix<f64>);
    fn bwd(&mut self, x: &DMatrix<f64>, dy: &DMatrix<f64>, dx: &mut DMatrix<f64>);
}
impl Op for Linear<f64> {
    fn fwd(&mut self, x: &DMatrix<f64>, y: &mut DMatrix<f64>) {
        self.forward(x, y)
    }
    fn bwd(&mut self, x: &DMatrix<f64>, dy: &DMatrix<f64>, dx: &mut DMatrix<f64>) {
        self.backward(x, dy, dx, false)
    }
}
impl Op for Norm<f64> {
    fn fwd(&mut self, x: &DMatrix<f64>, y: &mut DMatrix<f64>) {
        self.forward(x, y)
    }
    fn bwd(&mut self, _: &DMatrix<f64>, dy: &DMatrix<f64>, dx: &mut DMatrix<f64>) {
        self.backward(dy, dx)
    }
}
macro_rules! sublayer_op {
    ($t:ty) => {
        impl Op for $t {
            fn fwd(&mut self, x: &DMatrix<f64>, y: &mut DMatrix<f64>) {
                self.forward(x, y)
            }
            fn bwd(&mut self, x: &DMatrix<f64>, dy: &DMatrix<f64>, dx: &mut DMatrix<f64>) {
                self.backward(x, dy, dx, &mut Scratch::default())
            }
        }
    };
}
sublayer_op!(Mlp<f64>);
sublayer_op!(Ffn<f64>);
sublayer_op!(Attention<f64>);

fn check_op<O: Op>(mut op: O, t: usize, d_in: usize, d_out: usize, what: &str) {
    let mut rng = Rng::new(11, Stream::Data);
    let mut x = random(t, d_in, &mut rng);
    let r = random(t, d_out, &mut rng);
    // give the parameters non-trivial values (γ = 1, β = 0 and zero biases hide mistakes)
    op.visit(&mut |p| p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal()));
    let mut y = DMatrix::zeros(t, d_out);
    let mut dx = DMatrix::zeros(t, d_in);
    op.fwd(&x, &mut y);
    op.bwd(&x, &r, &mut dx);
    let xc = x.clone();
    check_params(&mut op, 12, what, |op| {
        let mut y = DMatrix::zeros(t, d_out);
        op.fwd(&xc, &mut y);
        weighted(&y, &r)
    });
    check_input(&mut x, &dx, what, |x| {
        let mut y = DMatrix::zeros(t, d_out);
        op.fwd(x, &mut y);
        weighted(&y, &r)
    });
}

#[test]
fn linear_gradients() {
    let mut rng = Draw::fresh(Rng::new(1, Stream::Layer(0)));
    check_op(Linear::<f64>::new(5, 3, 1.0, true, &mut rng), 4, 5, 3, "linear");
    check_op(Linear::<f64>::new(3, 6, 1.0, false, &mut rng), 4, 3, 6, "linear (no bias)");
}

#[test]
fn norm_gradients() {
    check_op(Norm::<f64>::new(NormKind::LayerNorm, 5, 8), 5, 8, 8, "layernorm");
    check_op(Norm::<f64>::new(NormKind::RmsNorm, 5, 8), 5, 8, 8, "rmsnorm");
}

#[test]
fn sublayer_gradients() {
    let mut rng = Draw::fresh(Rng::new(2, Stream::Layer(0)));
    check_op(Mlp::<f64>::new(6, 8, 1.0, &mut rng), 6, 8, 8, "mlp (relu)");
    check_op(Ffn::<f64>::new(6, 8, 1.0, &mut rng), 6, 8, 8, "ffn (gelu)");
    let one = InitGain { gain: 1.0, branch: 1.0 };
    check_op(Attention::<f64>::new(7, 7, 8, 4, one, &mut rng), 7, 8, 8, "attention");
    // other numbers of heads: one head of all 8 features, two of 4
    check_op(Attention::<f64>::new(7, 7, 8, 1, one, &mut rng), 7, 8, 8, "attention, 1 head");
    check_op(
        Attention::<f64>::new(8, 4, 8, 2, one, &mut rng),
        8,
        8,
        8,
        "attention, 2 heads, 2 sequences of 4",
    );
    // batches of several sequences: a token sees only its own sequence's earlier tokens
    check_op(Attention::<f64>::new(8, 4, 8, 4, one, &mut rng), 8, 8, 8, "attention, 2 sequences of 4");
    check_op(Attention::<f64>::new(9, 3, 8, 4, one, &mut rng), 9, 8, 8, "attention, 3 sequences of 3");
    // DeepNorm's smaller values and output
    let deep = InitGain { gain: 1.0, branch: 0.4 };
    check_op(Attention::<f64>::new(7, 7, 8, 4, deep, &mut rng), 7, 8, 8, "attention, DeepNorm's gains");
    // without the mask: every query sees every key of its sequence
    for (t, c, heads) in [(7, 7, 4), (8, 4, 2), (9, 3, 1)] {
        let mut a = Attention::<f64>::new(t, c, 8, heads, one, &mut rng);
        a.set_masked(false);
        check_op(a, t, 8, 8, &format!("attention without the mask, {heads} heads, sequences of {c}"));
    }
}

/// Cross-attention: queries from the input, keys and values from a fixed memory of another
/// length; the input's gradient and the memory's, against central differences.
#[test]
fn cross_attention_gradients() {
    let mut draw = Draw::fresh(Rng::new(5, Stream::Layer(0)));
    let one = InitGain { gain: 1.0, branch: 1.0 };
    for ((t, c), (tm, cm), heads) in [((4, 4), (6, 6), 2), ((6, 3), (8, 4), 4), ((8, 4), (8, 4), 1)] {
        let what =
            format!("cross-attention, {t} queries in sequences of {c}, {tm} keys in {cm}, {heads} heads");
        let mut a = Attention::<f64>::cross((t, c), (tm, cm), 8, heads, one, &mut draw);
        let mut rng = Rng::new(12, Stream::Data);
        a.visit(&mut |p| p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal()));
        let memory = random(tm, 8, &mut rng);
        a.memory.as_mut().unwrap().x.copy_from(&memory);
        let mut x = random(t, 8, &mut rng);
        let r = random(t, 8, &mut rng);
        let (mut y, mut dx) = (DMatrix::zeros(t, 8), DMatrix::zeros(t, 8));
        a.forward(&x, &mut y);
        a.backward(&x, &r, &mut dx, &mut Scratch::default());
        let d_memory = a.memory.as_ref().unwrap().grad.clone();
        let xc = x.clone();
        check_params(&mut a, 12, &what, |a| {
            let mut y = DMatrix::zeros(t, 8);
            a.forward(&xc, &mut y);
            weighted(&y, &r)
        });
        check_input(&mut x, &dx, &format!("{what}, queries"), |x| {
            let mut y = DMatrix::zeros(t, 8);
            a.forward(x, &mut y);
            weighted(&y, &r)
        });
        let mut m = memory.clone();
        check_input(&mut m, &d_memory, &format!("{what}, memory"), |m| {
            a.memory.as_mut().unwrap().x.copy_from(m);
            let mut y = DMatrix::zeros(t, 8);
            a.forward(&xc, &mut y);
            weighted(&y, &r)
        });
    }
}

/// The encoder–decoder and the decoder without the mask, the whole model (ids →
/// embeddings → encoder → memory → decoder with cross-attention → unembedding → cross-entropy
/// on the target), against finite differences of every parameter, under every placement with
/// the residual on and off.
#[test]
fn encoder_decoder_and_unmasked_gradients_under_every_placement() {
    for norm in NormPlacement::OPTIONS.variants() {
        for residual in [true, false] {
            for (task, stack, mask) in [
                (TaskKind::Reverse, StackKind::EncoderDecoder, MaskKind::Causal),
                (TaskKind::Reverse, StackKind::EncoderDecoder, MaskKind::None),
                (TaskKind::Text, StackKind::Decoder, MaskKind::None),
            ] {
                let depth = if stack == StackKind::EncoderDecoder { 5 } else { 2 };
                let config = Config {
                    task,
                    stack,
                    mask,
                    norm,
                    residual,
                    sublayer: SublayerKind::Block,
                    depth,
                    width: 8,
                    heads: 2,
                    tokens: 8,
                    context: 4,
                    ..Config::default()
                };
                config.validate().unwrap();
                let what = format!("{task:?} {stack:?} mask {mask:?} {norm:?} residual {residual}");
                let mut stack = Stack::<f64>::new(&config);
                let mut rng = Rng::new(6, Stream::Data);
                let ids: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
                let next: Vec<u32> =
                    (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
                let scored =
                    if task == TaskKind::Reverse { (0..8).map(|t| t % 4 >= 2).collect() } else { vec![] };
                let batch = Batch::Tokens(Tokens { ids, next, scored });
                // give the norms' γ, β non-trivial values too
                stack.visit(&mut |p| p.value.iter_mut().for_each(|v| *v += 0.2 * rng.normal()));
                stack.forward_batch(&batch);
                stack.backward_batch(&batch);
                check_params(&mut stack, 3, &what, |s| s.forward_batch(&batch));
            }
        }
    }
}

/// The sequence tasks' whole model, ids → embeddings → stack → unembedding → cross-entropy
/// (over the scored positions only, for the copy task), against finite differences of every
/// parameter, the embeddings' included.
#[test]
fn whole_stack_gradients_on_the_sequence_tasks() {
    for (task, sublayer, residual, norm) in [
        (TaskKind::Copy, SublayerKind::Block, true, NormPlacement::Pre),
        (TaskKind::Copy, SublayerKind::Attention, false, NormPlacement::Post),
        (TaskKind::Text, SublayerKind::Block, true, NormPlacement::Pre),
        (TaskKind::Text, SublayerKind::Mlp, true, NormPlacement::Off),
        (TaskKind::Text, SublayerKind::Block, true, NormPlacement::Sandwich),
        (TaskKind::Copy, SublayerKind::Block, true, NormPlacement::DeepNorm),
    ] {
        let config = Config {
            task,
            sublayer,
            residual,
            norm,
            depth: 2,
            width: 8,
            tokens: 8,
            context: 4,
            ..Config::default()
        };
        let what = format!("{config:?}");
        let mut stack = Stack::<f64>::new(&config);
        let mut rng = Rng::new(4, Stream::Data);
        let ids: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
        let next: Vec<u32> = (0..8).map(|_| (rng.next_u64() % config.vocab() as u64) as u32).collect();
        let scored = if task == TaskKind::Copy { (0..8).map(|t| t % 4 >= 2).collect() } else { vec![] };
        let batch = Batch::Tokens(Tokens { ids, next, scored });
        stack.forward_batch(&batch);
        stack.backward_batch(&batch);
        assert!(stack.embedding.is_some(), "{what}");
        check_params(&mut stack, 3, &what, |s| s.forward_batch(&batch));
    }
}

#[test]
fn mse_gradient() {
    let mut rng = Rng::new(3, Stream::Data);
    let mut pred = random(4, 3, &mut rng);
    let target = random(4, 3, &mut rng);
    let mut dpred = DMatrix::zeros(4, 3);
    mse_backward(&pred, &target, &mut dpred);
    check_input(&mut pred, &dpred, "mse", |p| mse(p, &target));
}

fn all_configs() -> Vec<Config> {
    let mut out = Vec::new();
    for depth in [1, 2, 6] {
        for residual in [true, false] {
            for norm in NormPlacement::OPTIONS.variants() {
                for norm_kind in [NormKind::LayerNorm, NormKind::RmsNorm] {
                    if norm == NormPlacement::Off && norm_kind == NormKind::RmsNorm {
                        continue;
                    }
                    // only a pre-norm or sandwich stack has a final norm to switch off
                    let finals: &[bool] = if matches!(norm, NormPlacement::Pre | NormPlacement::Sandwich) {
                        &[true, false]
                    } else {
                        &[true]
                    };
                    for &final_norm in finals {
                        for sublayer in [
                            SublayerKind::Mlp,
                            SublayerKind::Ffn,
                            SublayerKind::Attention,
                            SublayerKind::Block,
                        ] {
                            out.push(Config {
                                depth,
                                residual,
                                norm,
                                final_norm,
                                norm_kind,
                                sublayer,
                                width: 8,
                                tokens: 5,
                                init_gain: 1.0,
                                seed: 5 + depth as u64,
                                ..Config::default()
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn whole_stack_gradients_under_every_switch_combination() {
    let configs = all_configs();
    // per depth and residual: norm off, pre and sandwich (2 kinds × final norm on/off each),
    // post and deepnorm (2 kinds each)
    assert_eq!(configs.len(), 3 * 2 * (1 + 4 + 2 + 4 + 2) * 4);
    // DeepNorm's α and β differ from 1 at depth 2 and 6 (at depth 1, α = 1)
    assert!(configs.iter().any(|c| c.residual_scale() > 1.5 && c.branch_gain() < 0.5));
    assert!(configs.iter().any(|c| c.has_final_norm()) && configs.iter().any(|c| !c.has_final_norm()));
    for config in configs {
        let what = format!("{config:?}");
        let mut stack = Stack::<f64>::new(&config);
        let mut rng = Rng::new(config.seed, Stream::Probe);
        let mut x = random(config.tokens, config.width, &mut rng);
        let y = random(config.tokens, outputs(&config), &mut rng);
        // perturb γ, β and biases away from their initial values so that they matter
        stack.visit(&mut |p| {
            if p.value.nrows() == 1 {
                p.value.iter_mut().for_each(|v| *v += 0.3 * rng.normal())
            }
        });
        assert_eq!(stack.final_norm.is_some(), config.has_final_norm(), "{what}");
        stack.forward(&x, &y);
        stack.backward(&y);
        let dx = stack.input_grad().clone();
        assert!((stack.stream_grad_norm[0] - dx.norm()).abs() <= 1e-12 * dx.norm(), "{what}");
        let xc = x.clone();
        check_params(&mut stack, 3, &what, |s| s.forward(&xc, &y));
        check_input(&mut x, &dx, &what, |x| stack.forward(x, &y));
    }
}

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
