//! How alike two streams are, token by token: the cosine between a token's vectors and
//! Gromov et al.'s angular distance, `arccos(cos)/π`. The knockout chooses Gromov's block by the
//! second; `adjacent_cosines` reads the first between every layer's input and output, the direct
//! test of lesson 000's "pre-norm's identity path makes adjacent layers' outputs more similar",
//! and `branch_ratios` the same question like for like at every placement: how large each
//! layer's branch is against the residual it is added to.

use crate::step::train::Trainer;
use ablation_core::model::layer::Layer;
use ablation_core::model::real::Real;
use ablation_core::model::stack::Stack;
use nalgebra::DMatrix;

/// Each row's cosine between `a` and `b` (NaN for a zero row, which has no direction).
fn row_cosines<'a, F: Real>(a: &'a DMatrix<F>, b: &'a DMatrix<F>) -> impl Iterator<Item = f64> + 'a {
    (0..a.nrows()).map(move |t| {
        let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
        for j in 0..a.ncols() {
            let (x, y) = (a[(t, j)].f64(), b[(t, j)].f64());
            ab += x * y;
            aa += x * x;
            bb += y * y;
        }
        let norms = (aa * bb).sqrt();
        if norms > 0.0 {
            (ab / norms).clamp(-1.0, 1.0)
        } else {
            f64::NAN
        }
    })
}

/// The angular distance between two streams, Gromov et al.'s `arccos(cos θ)/π` between a
/// token's vectors, averaged over the tokens (rows): 0 for the same direction, 1 for opposite.
/// A zero row has no direction and counts as ½ (orthogonal).
pub fn angular_distance<F: Real>(a: &DMatrix<F>, b: &DMatrix<F>) -> f64 {
    let sum: f64 =
        row_cosines(a, b).map(|c| if c.is_nan() { 0.5 } else { c.acos() / std::f64::consts::PI }).sum();
    sum / a.nrows().max(1) as f64
}

/// The mean over tokens of the cosine between two streams (a zero row left out).
pub fn mean_cosine<F: Real>(a: &DMatrix<F>, b: &DMatrix<F>) -> f64 {
    let (sum, n) = row_cosines(a, b).filter(|c| !c.is_nan()).fold((0.0, 0usize), |(s, n), c| (s + c, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        sum / n as f64
    }
}

/// The cosine between each layer's input and output, `x_ℓ` and `x_{ℓ+1}`, ℓ = 0..L, averaged
/// over the tokens of `trainer`'s held-out set (a sequence task's; the probe batch's on the
/// regression). The stream is left holding the probe's pass, as the panels read it.
pub fn adjacent_cosines<F: Real>(trainer: &mut Trainer<F>) -> Vec<f64> {
    per_layer(trainer, |_, x, y| [mean_cosine(x, y)]).into_iter().map(|[c]| c).collect()
}

/// Each layer's branch against its residual, `Layer::branch_ratio` (`‖F‖ / ‖r‖` at the
/// addition, the mean over the tokens), averaged over the same batches as `adjacent_cosines`.
pub fn branch_ratios<F: Real>(trainer: &mut Trainer<F>) -> Vec<f64> {
    per_layer(trainer, |layer, x, y| [layer.branch_ratio(x, y)]).into_iter().map(|[r]| r).collect()
}

/// `adjacent_cosines` and `branch_ratios` from one forward pass over each batch (`ablate
/// --similarity` reports both), with the same bits as each alone.
pub fn similarity<F: Real>(trainer: &mut Trainer<F>) -> (Vec<f64>, Vec<f64>) {
    let both = per_layer(trainer, |layer, x, y| [mean_cosine(x, y), layer.branch_ratio(x, y)]);
    both.into_iter().map(|[c, r]| (c, r)).unzip()
}

/// The `N` numbers of `measure(layer ℓ, x_ℓ, x_{ℓ+1})` after each forward pass over
/// `trainer`'s held-out set (the probe batch's on the regression), each averaged over the
/// batches. The stream is left holding the probe's pass, as the panels read it.
fn per_layer<F: Real, const N: usize>(
    trainer: &mut Trainer<F>,
    measure: impl Fn(&Layer<F>, &DMatrix<F>, &DMatrix<F>) -> [f64; N],
) -> Vec<[f64; N]> {
    let depth = trainer.stack.layers.len();
    let mut sums = vec![[0.0; N]; depth];
    let batches = trainer.held_out().len();
    let mut add = |stack: &Stack<F>| {
        for (l, sum) in sums.iter_mut().enumerate() {
            let got = measure(&stack.layers[l], &stack.stream[l], &stack.stream[l + 1]);
            for (s, g) in sum.iter_mut().zip(got) {
                *s += g;
            }
        }
    };
    for b in 0..batches {
        let (stack, batch) = trainer.stack_and_held_out(b);
        stack.forward_batch(batch);
        add(stack);
    }
    // the probe's pass, read on the regression (no held-out set) and left for the panels
    trainer.probe_forward_skipping(&[]);
    if batches == 0 {
        add(&trainer.stack);
    }
    sums.iter().map(|s| s.map(|x| x / batches.max(1) as f64)).collect()
}
