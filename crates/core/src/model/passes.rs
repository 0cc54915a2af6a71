//! The stack's passes as the other crates call them: forward (with layers knocked out, or
//! without a loss), the readout of any `x_ℓ`, backward (with the norms the panels read, or
//! updating each part as soon as its gradients are complete) and the check for non-finite
//! activations. Each is compiled in this crate for f32 (`compiled.rs`); the bodies are in
//! `stack.rs`.

use crate::model::batch::Batch;
use crate::model::compiled::{is_f32, same, same_mut};
use crate::model::param::Params;
use crate::model::real::Real;
use crate::model::stack::{Stack, Target};
use crate::model::update::{apply, Moments, Rule};
use nalgebra::DMatrix;

impl<F: Real> Stack<F> {
    /// Runs the features `x` through the stack and returns the loss against `target` (the
    /// teacher task).
    pub fn forward(&mut self, x: &DMatrix<F>, target: &DMatrix<F>) -> f64 {
        if let (Some(s), Some(x), Some(y)) = (same_mut(self), same(x), same(target)) {
            return forward_f32(s, x, y);
        }
        self.forward_here(x, target)
    }

    fn forward_here(&mut self, x: &DMatrix<F>, target: &DMatrix<F>) -> f64 {
        self.stream[0].copy_from(x);
        self.forward_from_input(Target::Values(target), &[])
    }

    /// Runs `batch` through the stack and returns its loss.
    pub fn forward_batch(&mut self, batch: &Batch<F>) -> f64 {
        self.forward_skipping(batch, &[])
    }

    /// `forward_batch` with the layers `skip` knocked out, each one's branch zeroed
    /// (`Layer::forward_knocked_out`: `x_{ℓ+1} = x_ℓ`, or post-norm's `LN(x_ℓ)`): the layer
    /// knockout. Every other layer and the readout run as in `forward`, so knocking out layer ℓ
    /// gives the bits of the stack whose layer ℓ has a branch that outputs zeros.
    pub fn forward_skipping(&mut self, batch: &Batch<F>, skip: &[usize]) -> f64 {
        if let (Some(s), Some(b)) = (same_mut(self), same(batch)) {
            return forward_skipping_f32(s, b, skip);
        }
        self.forward_skipping_here(batch, skip)
    }

    /// Runs `ids` through a sequence task's stack without a loss: the logits are `prediction`.
    pub fn forward_ids(&mut self, ids: &[u32]) {
        if let Some(s) = same_mut(self) {
            return forward_ids_f32(s, ids);
        }
        self.forward_ids_here(ids)
    }

    /// The readout's pass from `x_ℓ` (ℓ = `layer`) to the loss: the final norm where the stack
    /// has one, then `R`, then the loss against `target`. Every pass ends with it at ℓ = L, so
    /// the readout of `x_L` (the lens at the top, `lens.rs`) is the model's own loss to the bit.
    pub fn read_out(&mut self, layer: usize, target: Target<F>) -> f64 {
        if let (Some(s), Some(t)) = (same_mut(self), target_f32(target)) {
            return read_out_f32(s, layer, t);
        }
        self.read_out_here(layer, target)
    }

    /// Back-propagates the loss of the last `forward`; fills every gradient and the norms.
    pub fn backward(&mut self, target: &DMatrix<F>) {
        self.backward_values(target, true)
    }

    /// `backward` without the norms, which only the panels read.
    pub fn backward_gradients(&mut self, target: &DMatrix<F>) {
        self.backward_values(target, false)
    }

    /// `backward` for the last `forward_batch` of `batch`.
    pub fn backward_batch(&mut self, batch: &Batch<F>) {
        self.backward_of(batch, true, None)
    }

    /// `backward_gradients` for the last `forward_batch` of `batch`: a shard's (`shards`).
    pub fn backward_gradients_batch(&mut self, batch: &Batch<F>) {
        self.backward_of(batch, false, None)
    }

    /// `backward_gradients`, updating each part of the model by `rule` (`update.rs`; `moments`
    /// Adam's, in `visit`'s order) as soon as its gradients are complete and its weights are no
    /// longer needed by the pass: the final norm and the readout first, then layers L − 1 down
    /// to 0 (the embedding last). What a training step does: the update finds the layer's
    /// gradients and weights still in cache, and gives the bits it gives after the whole pass
    /// (each parameter's update reads only its own gradient and state).
    pub fn backward_updating(&mut self, batch: &Batch<F>, rule: &Rule<F>, moments: &mut Moments<F>) {
        self.backward_of(batch, false, Some((rule, moments)))
    }

    /// True if no activation anywhere in the stack is ±∞ or NaN (`all_finite_here`).
    pub fn all_finite(&self) -> bool {
        if let Some(s) = same(self) {
            return all_finite_f32(s);
        }
        self.all_finite_here()
    }

    fn backward_values(&mut self, target: &DMatrix<F>, norms: bool) {
        if let (Some(s), Some(y)) = (same_mut(self), same(target)) {
            return backward_values_f32(s, y, norms);
        }
        self.back_propagate(Target::Values(target), norms, None)
    }

    fn backward_of(&mut self, batch: &Batch<F>, norms: bool, update: Option<(&Rule<F>, &mut Moments<F>)>) {
        if let (Some(s), Some(b)) = (same_mut(self), same(batch)) {
            let update =
                update.map(|(r, m)| (same(r).expect("f32's rule"), same_mut(m).expect("f32's moments")));
            return backward_of_f32(s, b, norms, update);
        }
        self.backward_of_here(batch, norms, update)
    }

    fn backward_of_here(
        &mut self,
        batch: &Batch<F>,
        norms: bool,
        update: Option<(&Rule<F>, &mut Moments<F>)>,
    ) {
        match update {
            Some((rule, moments)) => {
                let mut part = |p: &mut dyn Params<F>, first: usize| {
                    apply(rule, moments.get_mut(first..).unwrap_or_default(), p)
                };
                self.back_propagate(Target::of(batch), norms, Some(&mut part))
            }
            None => self.back_propagate(Target::of(batch), norms, None),
        }
    }
}

/// `target` as f32's, when `F` is f32.
fn target_f32<'a, F: Real>(target: Target<'a, F>) -> Option<Target<'a, f32>> {
    match target {
        Target::Values(y) => same(y).map(Target::Values),
        Target::Next(tokens) => is_f32::<F>().then_some(Target::Next(tokens)),
        Target::None => is_f32::<F>().then_some(Target::None),
    }
}

#[inline(never)]
fn forward_f32(s: &mut Stack<f32>, x: &DMatrix<f32>, target: &DMatrix<f32>) -> f64 {
    s.forward_here(x, target)
}

#[inline(never)]
fn forward_skipping_f32(s: &mut Stack<f32>, batch: &Batch<f32>, skip: &[usize]) -> f64 {
    s.forward_skipping_here(batch, skip)
}

#[inline(never)]
fn forward_ids_f32(s: &mut Stack<f32>, ids: &[u32]) {
    s.forward_ids_here(ids)
}

#[inline(never)]
fn read_out_f32(s: &mut Stack<f32>, layer: usize, target: Target<f32>) -> f64 {
    s.read_out_here(layer, target)
}

#[inline(never)]
fn all_finite_f32(s: &Stack<f32>) -> bool {
    s.all_finite_here()
}

#[inline(never)]
fn backward_values_f32(s: &mut Stack<f32>, target: &DMatrix<f32>, norms: bool) {
    s.back_propagate(Target::Values(target), norms, None)
}

#[inline(never)]
fn backward_of_f32(
    s: &mut Stack<f32>,
    batch: &Batch<f32>,
    norms: bool,
    update: Option<(&Rule<f32>, &mut Moments<f32>)>,
) {
    s.backward_of_here(batch, norms, update)
}
