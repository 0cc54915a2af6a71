//! The losses: mean squared error of the readout against the teacher's targets, and softmax
//! cross-entropy of next-token logits for the sequence tasks.

use crate::model::real::Real;
use nalgebra::DMatrix;

/// `L = mean((ŷ − y)²)` over every token and output; summed in f64 so the reported
/// loss is accurate even for f32 activations.
pub fn mse<F: Real>(pred: &DMatrix<F>, target: &DMatrix<F>) -> f64 {
    let n = pred.len() as f64;
    pred.as_slice()
        .iter()
        .zip(target.as_slice())
        .map(|(&p, &y)| {
            let e = p.f64() - y.f64();
            e * e
        })
        .sum::<f64>()
        / n
}

/// `∂L/∂ŷ = 2 (ŷ − y) / n`
pub fn mse_backward<F: Real>(pred: &DMatrix<F>, target: &DMatrix<F>, dpred: &mut DMatrix<F>) {
    let scale = F::of(2.0 / pred.len() as f64);
    for ((g, &p), &y) in dpred.as_mut_slice().iter_mut().zip(pred.as_slice()).zip(target.as_slice()) {
        *g = scale * (p - y);
    }
}

/// Mean softmax cross-entropy, in nats, of `logits` (T, V) against the next tokens `targets`
/// (T), over the positions `scored` marks (all of them if `scored` is empty):
/// `L = −mean_t log softmax(logits[t])[targets[t]]`, in f64 with the max subtracted.
pub fn cross_entropy<F: Real>(logits: &DMatrix<F>, targets: &[u32], scored: &[bool]) -> f64 {
    let (t, v) = logits.shape();
    let mut total = 0.0;
    let mut count = 0usize;
    for row in 0..t {
        if !scored.is_empty() && !scored[row] {
            continue;
        }
        let max = (0..v).map(|c| logits[(row, c)].f64()).fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = (0..v).map(|c| libm::exp(logits[(row, c)].f64() - max)).sum();
        total += max + libm::log(sum) - logits[(row, targets[row] as usize)].f64();
        count += 1;
    }
    total / count.max(1) as f64
}

/// `∂L/∂logits[t] = (softmax(logits[t]) − onehot(targets[t])) / n` at the scored positions,
/// zero elsewhere (n: how many are scored).
pub fn cross_entropy_backward<F: Real>(
    logits: &DMatrix<F>,
    targets: &[u32],
    scored: &[bool],
    dlogits: &mut DMatrix<F>,
) {
    let (t, v) = logits.shape();
    let count = if scored.is_empty() { t } else { scored.iter().filter(|&&s| s).count() };
    let scale = 1.0 / count.max(1) as f64;
    for row in 0..t {
        if !scored.is_empty() && !scored[row] {
            (0..v).for_each(|c| dlogits[(row, c)] = F::zero());
            continue;
        }
        let max = (0..v).map(|c| logits[(row, c)].f64()).fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = (0..v).map(|c| libm::exp(logits[(row, c)].f64() - max)).sum();
        for c in 0..v {
            let p = libm::exp(logits[(row, c)].f64() - max) / sum;
            let onehot = if c == targets[row] as usize { 1.0 } else { 0.0 };
            dlogits[(row, c)] = F::of(scale * (p - onehot));
        }
    }
}

/// The likeliest token at each position: the first of the largest logits.
pub fn argmax_row<F: Real>(logits: &DMatrix<F>, row: usize) -> u32 {
    let mut best = 0;
    for c in 1..logits.ncols() {
        if logits[(row, c)] > logits[(row, best)] {
            best = c;
        }
    }
    best as u32
}

/// The share of scored positions whose likeliest token is the next one (exact-token accuracy).
pub fn accuracy<F: Real>(logits: &DMatrix<F>, targets: &[u32], scored: &[bool]) -> f64 {
    let rows = (0..logits.nrows()).filter(|&t| scored.is_empty() || scored[t]);
    let (right, count) = rows
        .fold((0usize, 0usize), |(r, n), t| (r + usize::from(argmax_row(logits, t) == targets[t]), n + 1));
    right as f64 / count.max(1) as f64
}
