//! A linear probe: can the current input token be read from the stream `x_ℓ` by a linear map?
//! The direct test of lesson 000's "a feature written into the stream at layer 1 can still be
//! read at layer 20, because nothing replaced it": with the residual, the token's embedding is
//! carried up the stream; without it, each layer replaces the stream.
//!
//! The probe is fitted in closed form, so it has no rate or budget to tune: ridge regression of
//! the token's one-hot code on `[x_ℓ, 1]`, `W = (XᵀX + λI)⁻¹ XᵀY` in f64, on `PROBE_BATCHES`
//! training batches of a stream of its own (`Stream::LinearProbe`), then read on the held-out
//! set: the share of tokens whose largest score is the right one. A stream that carries nothing
//! gives the most frequent token's share, the bias alone.

use crate::step::train::Trainer;
use crate::tasks::task::Batches;
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::real::Real;
use ablation_core::model::rng::Stream;
use nalgebra::DMatrix;

/// Training batches the probe is fitted on (128 tokens each on the text: 4096 tokens).
pub const PROBE_BATCHES: usize = 32;
/// The ridge, relative to the mean of `XᵀX`'s diagonal: small enough not to blur a feature,
/// large enough to solve a stream whose directions collapse (`x_ℓ = 0`).
const RIDGE: f64 = 1e-6;

/// `[x, 1]` of every row of a stream, in f64.
fn with_bias<F: Real>(x: &DMatrix<F>) -> DMatrix<f64> {
    DMatrix::from_fn(x.nrows(), x.ncols() + 1, |r, c| if c < x.ncols() { x[(r, c)].f64() } else { 1.0 })
}

/// The share of `tokens`' inputs whose row of `[x, 1] W` is largest at the right token.
fn accuracy(xb: &DMatrix<f64>, w: &DMatrix<f64>, tokens: &Tokens) -> (usize, usize) {
    let scores = xb * w;
    let right = (0..scores.nrows())
        .filter(|&r| {
            let best =
                (0..scores.ncols()).fold(0, |b, c| if scores[(r, c)] > scores[(r, b)] { c } else { b });
            best == tokens.ids[r] as usize
        })
        .count();
    (right, scores.nrows())
}

/// The probe's held-out accuracy at every depth ℓ = 0..=L of `trainer`'s stack (a sequence
/// task's), each depth's probe fitted on the same `PROBE_BATCHES` batches. The stream is left
/// holding the probe batch's pass, as the panels read it.
pub fn probe_accuracies<F: Real>(trainer: &mut Trainer<F>) -> Result<Vec<f64>, String> {
    let config = trainer.config.clone();
    let Some(vocab) = trainer.stack.embedding.as_ref().map(|e| e.tokens.value.nrows()) else {
        return Err("the probe reads a sequence task's tokens; the regression has none".into());
    };
    let (depth, d) = (config.depth, config.width);
    // XᵀX and XᵀY of every depth, summed over the fitting batches
    let mut xtx = vec![DMatrix::<f64>::zeros(d + 1, d + 1); depth + 1];
    let mut xty = vec![DMatrix::<f64>::zeros(d + 1, vocab); depth + 1];
    let mut data = Batches::<F>::from_stream(&config, Stream::LinearProbe);
    let mut batch = Batches::empty(&config);
    for _ in 0..PROBE_BATCHES {
        data.next(&mut batch);
        let Batch::Tokens(tokens) = &batch else { unreachable!("a sequence task's batch") };
        trainer.stack.forward_batch(&batch);
        for l in 0..=depth {
            let xb = with_bias(&trainer.stack.stream[l]);
            xtx[l] += xb.transpose() * &xb;
            for (r, &id) in tokens.ids.iter().enumerate() {
                for c in 0..=d {
                    xty[l][(c, id as usize)] += xb[(r, c)];
                }
            }
        }
    }
    let weights: Vec<DMatrix<f64>> = (0..=depth)
        .map(|l| {
            let mut a = xtx[l].clone();
            let ridge = RIDGE * (a.trace() / (d + 1) as f64).max(1e-300);
            for i in 0..=d {
                a[(i, i)] += ridge;
            }
            a.cholesky().map(|c| c.solve(&xty[l])).unwrap_or_else(|| DMatrix::zeros(d + 1, vocab))
        })
        .collect();
    let mut hits = vec![(0, 0); depth + 1];
    for b in 0..trainer.held_out().len() {
        let (stack, batch) = trainer.stack_and_held_out(b);
        let Batch::Tokens(tokens) = batch else { unreachable!("a sequence task's batch") };
        stack.forward_batch(batch);
        for (l, hit) in hits.iter_mut().enumerate() {
            let (right, n) = accuracy(&with_bias(&stack.stream[l]), &weights[l], tokens);
            *hit = (hit.0 + right, hit.1 + n);
        }
    }
    trainer.probe_forward_skipping(&[]);
    Ok(hits.iter().map(|&(right, n)| right as f64 / n.max(1) as f64).collect())
}
