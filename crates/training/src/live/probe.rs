//! A linear probe: can a token be read from the stream `x_ℓ` by a linear map? Two targets: the
//! current input token, which the embedding writes at `x₀`, and the one before it, which no
//! part of `x₀` holds (the embedding sees one token and its position) and only attention can
//! write, so that reading it at `x₂₀` tests lesson 000's "a feature written into the stream at
//! layer 1 can still be read at layer 20, because nothing replaced it" with a feature a layer
//! wrote rather than the input. Run with its writer knocked out (`skip`), the probe says
//! whether the feature comes from that layer, and the held-out loss whether the stack uses it.
//!
//! The probe is fitted in closed form, so it has no rate or budget to tune: ridge regression of
//! the token's one-hot code on `[x_ℓ, 1]`, `W = (XᵀX + λI)⁻¹ XᵀY` in f64, on `PROBE_BATCHES`
//! training batches of a stream of its own (`Stream::LinearProbe`), then read on the held-out
//! set: the share of tokens whose largest score is the right one. A stream that carries nothing
//! gives the most frequent token's share, the bias alone.

use crate::step::train::Trainer;
use crate::tasks::task::Batches;
use ablation_core::config::{Config, Role};
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

/// What a probe reads at each position of a batch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// The input token, which the embedding writes.
    Current,
    /// The token one position before in the same sequence (none at a sequence's first
    /// position, which the probe skips), which only attention can bring to a position.
    Previous,
}

impl Target {
    /// The token `self` names at each position of `tokens` (sequences of `context`), or `None`.
    pub fn of(self, tokens: &Tokens, context: usize) -> Vec<Option<u32>> {
        match self {
            Target::Current => tokens.ids.iter().map(|&i| Some(i)).collect(),
            Target::Previous => {
                (0..tokens.ids.len()).map(|r| (r % context.max(1) != 0).then(|| tokens.ids[r - 1])).collect()
            }
        }
    }
}

/// (right, counted) of the positions with a target whose row of `[x, 1] W` is largest there.
fn accuracy(xb: &DMatrix<f64>, w: &DMatrix<f64>, targets: &[Option<u32>]) -> (usize, usize) {
    let scores = xb * w;
    let mut counted = 0;
    let right = (0..scores.nrows())
        .filter(|&r| {
            let Some(want) = targets[r] else { return false };
            counted += 1;
            let best =
                (0..scores.ncols()).fold(0, |b, c| if scores[(r, c)] > scores[(r, b)] { c } else { b });
            best == want as usize
        })
        .count();
    (right, counted)
}

/// What the probe found: each target's held-out accuracy at every depth ℓ = 0..=L, and the
/// held-out loss of the stack as probed (with its knocked-out layers, if any).
pub struct Probe {
    pub current: Vec<f64>,
    pub previous: Vec<f64>,
    pub held_out_loss: f64,
}

/// Fits the ridge probe `W = (XᵀX + λI)⁻¹ XᵀY`, `Y` one-hot, from the sums `XᵀX` and `XᵀY`.
fn fit(xtx: &DMatrix<f64>, xty: &DMatrix<f64>) -> DMatrix<f64> {
    let mut a = xtx.clone();
    let n = a.nrows();
    let ridge = RIDGE * (a.trace() / n as f64).max(1e-300);
    for i in 0..n {
        a[(i, i)] += ridge;
    }
    a.cholesky().map(|c| c.solve(xty)).unwrap_or_else(|| DMatrix::zeros(n, xty.ncols()))
}

/// The first self-attention sublayer of a stack of `kinds` (the writer of `Target::Previous`).
pub fn first_attention(config: &Config) -> Option<usize> {
    (0..config.depth).find(|&l| matches!(config.role(l), Role::SelfAttention { .. }))
}

/// The probe's held-out accuracy for each target at every depth ℓ = 0..=L of `trainer`'s
/// stack (a sequence task's) with the layers `skip` knocked out, each depth's probe fitted on
/// the same `PROBE_BATCHES` batches of that stack. The stream is left holding the probe
/// batch's pass, as the panels read it.
pub fn probe_accuracies<F: Real>(trainer: &mut Trainer<F>, skip: &[usize]) -> Result<Probe, String> {
    let config = trainer.config.clone();
    let Some(vocab) = trainer.stack.embedding.as_ref().map(|e| e.tokens.value.nrows()) else {
        return Err("the probe reads a sequence task's tokens; the regression has none".into());
    };
    let (depth, d, context) = (config.depth, config.width, config.sequence());
    let targets = [Target::Current, Target::Previous];
    // XᵀX of every depth, and XᵀY of every depth and target, summed over the fitting batches
    let mut xtx = vec![DMatrix::<f64>::zeros(d + 1, d + 1); depth + 1];
    let mut xty = vec![vec![DMatrix::<f64>::zeros(d + 1, vocab); depth + 1]; targets.len()];
    let mut data = Batches::<F>::from_stream(&config, Stream::LinearProbe);
    let mut batch = Batches::empty(&config);
    for _ in 0..PROBE_BATCHES {
        data.next(&mut batch);
        let Batch::Tokens(tokens) = &batch else { unreachable!("a sequence task's batch") };
        trainer.stack.forward_skipping(&batch, skip);
        let wanted: Vec<_> = targets.iter().map(|t| t.of(tokens, context)).collect();
        for l in 0..=depth {
            let xb = with_bias(&trainer.stack.stream[l]);
            xtx[l] += xb.transpose() * &xb;
            for (t, want) in wanted.iter().enumerate() {
                for (r, id) in want.iter().enumerate() {
                    let Some(id) = *id else { continue };
                    for c in 0..=d {
                        xty[t][l][(c, id as usize)] += xb[(r, c)];
                    }
                }
            }
        }
    }
    let weights: Vec<Vec<DMatrix<f64>>> =
        xty.iter().map(|per| (0..=depth).map(|l| fit(&xtx[l], &per[l])).collect()).collect();
    let mut hits = vec![vec![(0, 0); depth + 1]; targets.len()];
    let mut loss = 0.0;
    let held_out = trainer.held_out().len();
    for b in 0..held_out {
        let (stack, batch) = trainer.stack_and_held_out(b);
        let Batch::Tokens(tokens) = batch else { unreachable!("a sequence task's batch") };
        loss += stack.forward_skipping(batch, skip);
        for (t, target) in targets.iter().enumerate() {
            let want = target.of(tokens, context);
            for (l, hit) in hits[t].iter_mut().enumerate() {
                let (right, n) = accuracy(&with_bias(&stack.stream[l]), &weights[t][l], &want);
                *hit = (hit.0 + right, hit.1 + n);
            }
        }
    }
    trainer.probe_forward_skipping(&[]);
    let share =
        |h: &Vec<(usize, usize)>| h.iter().map(|&(right, n)| right as f64 / n.max(1) as f64).collect();
    Ok(Probe {
        current: share(&hits[0]),
        previous: share(&hits[1]),
        held_out_loss: loss / held_out.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_token_is_the_one_before_in_the_same_sequence() {
        let tokens = Tokens { ids: vec![5, 6, 7, 8, 9, 10], ..Tokens::default() };
        assert_eq!(Target::Previous.of(&tokens, 3), vec![None, Some(5), Some(6), None, Some(8), Some(9)]);
        assert_eq!(Target::Current.of(&tokens, 3), (5..=10).map(Some).collect::<Vec<_>>());
    }

    #[test]
    fn accuracy_counts_only_positions_with_a_target() {
        // two positions, scores [1, 0] and [0, 1]: the first names 0, the second 1
        let xb = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 1.0]);
        let w = DMatrix::identity(2, 2);
        assert_eq!(accuracy(&xb, &w, &[Some(0), Some(0)]), (1, 2));
        assert_eq!(accuracy(&xb, &w, &[None, Some(1)]), (1, 1));
    }

    #[test]
    fn the_ridge_probe_recovers_a_linear_code() {
        // x one-hot in 3 classes: [x, 1] W must name each class
        let x = DMatrix::from_row_slice(3, 4, &[1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0]);
        let y = DMatrix::<f64>::identity(3, 3);
        let w = fit(&(x.transpose() * &x), &(x.transpose() * &y));
        let ids = [Some(0), Some(1), Some(2)];
        assert_eq!(accuracy(&x, &w, &ids), (3, 3));
    }
}
