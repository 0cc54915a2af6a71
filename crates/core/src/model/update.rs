//! One optimiser update of the parameters from their gradients: SGD's `θ ← θ − lr · g` and
//! Adam's, and the mean gradient of a split step's shards. The rate's schedule and the moments' keeping between steps are the training crate's
//! `Optimizer`; the update itself, a loop over every weight, runs here, compiled for f32 in this
//! crate (`compiled.rs`).

use crate::model::compiled::{f32s, f32s_mut, same};
use crate::model::param::{Param, Params};
use crate::model::real::Real;
use nalgebra::DMatrix;

/// Adam's β₁.
pub const BETA1: f64 = 0.9;
/// Adam's ε.
pub const ADAM_EPS: f64 = 1e-8;

/// One update's coefficients (`Optimizer::begin` in the training crate).
pub enum Rule<F: Real> {
    Sgd {
        lr: F,
    },
    /// `step_size` = lr / (1 − β₁ᵗ), `v_scale` = 1 / (1 − β₂ᵗ).
    Adam {
        step_size: F,
        v_scale: F,
        beta2: F,
    },
}

/// Adam's first and second moments, one pair per parameter in visiting order (none for SGD).
pub type Moments<F> = Vec<(DMatrix<F>, DMatrix<F>)>;

/// Updates the parameters `part` visits by `rule`, from the gradients they hold; `moments` are
/// Adam's pairs from `part`'s first parameter on (empty for SGD).
pub fn apply<F: Real>(
    rule: &Rule<F>,
    moments: &mut [(DMatrix<F>, DMatrix<F>)],
    part: &mut (impl Params<F> + ?Sized),
) {
    let mut moments = moments.iter_mut();
    part.visit(&mut |p: &mut Param<F>| match rule {
        Rule::Sgd { .. } => step(rule, p.value.as_mut_slice(), p.grad.as_slice(), &mut [], &mut []),
        Rule::Adam { .. } => {
            let (m, v) = moments.next().expect("a moment pair for every parameter");
            step(rule, p.value.as_mut_slice(), p.grad.as_slice(), m.as_mut_slice(), v.as_mut_slice());
        }
    });
}

/// The shards' gradients summed in their order and scaled by `1 / shards`, into `sum`: what a
/// split step's update reads (`shards` in the training crate).
pub fn mean_of<F: Real>(shards: &[Vec<F>], sum: &mut Vec<F>) {
    sum.clear();
    sum.extend_from_slice(&shards[0]);
    for g in &shards[1..] {
        add_scaled(sum, g, None);
    }
    let scale = F::of(1.0 / shards.len() as f64);
    add_scaled(sum, &[], Some(scale));
}

/// `sum += g`, then (with `scale`) `sum *= scale`.
fn add_scaled<F: Real>(sum: &mut [F], g: &[F], scale: Option<F>) {
    if let (Some(s), Some(g), Some(c)) = (f32s_mut(sum), f32s(g), same(&scale)) {
        return add_scaled_f32(s, g, *c);
    }
    add_scaled_here(sum, g, scale)
}

#[inline(never)]
fn add_scaled_f32(sum: &mut [f32], g: &[f32], scale: Option<f32>) {
    add_scaled_here(sum, g, scale)
}

fn add_scaled_here<F: Real>(sum: &mut [F], g: &[F], scale: Option<F>) {
    for (s, &x) in sum.iter_mut().zip(g) {
        *s += x;
    }
    if let Some(c) = scale {
        sum.iter_mut().for_each(|s| *s *= c);
    }
}

/// One parameter's update (`m` and `v` its moments, empty for SGD).
fn step<F: Real>(rule: &Rule<F>, w: &mut [F], g: &[F], m: &mut [F], v: &mut [F]) {
    if let (Some(r), Some(w), Some(g), Some(m), Some(v)) =
        (same(rule), f32s_mut(w), f32s(g), f32s_mut(m), f32s_mut(v))
    {
        return step_f32(r, w, g, m, v);
    }
    step_here(rule, w, g, m, v)
}

#[inline(never)]
fn step_f32(rule: &Rule<f32>, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]) {
    step_here(rule, w, g, m, v)
}

fn step_here<F: Real>(rule: &Rule<F>, w: &mut [F], g: &[F], m: &mut [F], v: &mut [F]) {
    match *rule {
        Rule::Sgd { lr } => {
            for (w, &g) in w.iter_mut().zip(g) {
                *w -= lr * g;
            }
        }
        Rule::Adam { step_size, v_scale, beta2 } => {
            // θ ← θ − lr · m̂ / (√v̂ + ε), with m̂ = m / (1 − β₁ᵗ), v̂ = v / (1 − β₂ᵗ)
            let (b1, b2, eps) = (F::of(BETA1), beta2, F::of(ADAM_EPS));
            for ((w, &g), (mi, vi)) in w.iter_mut().zip(g).zip(m.iter_mut().zip(v)) {
                *mi = b1 * *mi + (F::one() - b1) * g;
                *vi = b2 * *vi + (F::one() - b2) * g * g;
                *w -= step_size * *mi / ((*vi * v_scale).sqrt() + eps);
            }
        }
    }
}
