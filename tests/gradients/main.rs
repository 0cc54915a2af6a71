//! Every backward pass against central finite differences, in f64: op by op, and whole
//! stacks under every combination of residual × norm placement × norm kind × sublayer. One
//! test binary, by feature: `ops.rs` each op alone, `stacks.rs` whole stacks under every switch,
//! `norms.rs` the reported gradient norms per depth; the helpers they share are here.

mod norms;
mod ops;
mod stacks;

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
use ablation_playground::training::step::report::Snapshot;
use ablation_playground::training::step::train::Trainer;
use ablation_playground::training::tasks::data::DataStream;
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
