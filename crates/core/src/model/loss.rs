//! The losses: mean squared error of the readout against the teacher's targets, and softmax
//! cross-entropy of next-token logits for the sequence tasks.

use crate::model::compiled::{same, same_mut};
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
/// `L = −mean_t log softmax(logits[t])[targets[t]]`; and each position's softmax into `probs`
/// (T, V), which `cross_entropy_backward_from_probs` turns into the gradient. The logits are
/// column-major, so each step goes down a whole column at once: the rows' maxima, then
/// `exp(l − max)` in `F` (`exp_det`, the same bits natively and in wasm) and the rows' sums, in
/// column order; the loss itself is summed in f64 (`max + ln Σ − l_target` per scored row).
/// (In f64 with `libm::exp`, three exponentials per logit between the loss and its backward
/// took a fifth of a depth-12 text step.)
///
/// `rows` holds two per-row buffers (the maxima, then the sums and their inverses) that are
/// reused from call to call, so that a step allocates nothing. (Compiled in this crate for
/// f32: `compiled.rs`.)
pub fn softmax_cross_entropy<F: Real>(
    logits: &DMatrix<F>,
    targets: &[u32],
    scored: &[bool],
    probs: &mut DMatrix<F>,
    rows: &mut (Vec<F>, Vec<F>),
) -> f64 {
    if let (Some(l), Some(p), Some(r)) = (same(logits), same_mut(probs), same_mut(rows)) {
        return softmax_cross_entropy_f32(l, targets, scored, p, r);
    }
    softmax_cross_entropy_here(logits, targets, scored, probs, rows)
}

#[inline(never)]
fn softmax_cross_entropy_f32(
    logits: &DMatrix<f32>,
    targets: &[u32],
    scored: &[bool],
    probs: &mut DMatrix<f32>,
    rows: &mut (Vec<f32>, Vec<f32>),
) -> f64 {
    softmax_cross_entropy_here(logits, targets, scored, probs, rows)
}

fn softmax_cross_entropy_here<F: Real>(
    logits: &DMatrix<F>,
    targets: &[u32],
    scored: &[bool],
    probs: &mut DMatrix<F>,
    rows: &mut (Vec<F>, Vec<F>),
) -> f64 {
    let (t, v) = logits.shape();
    let (l, p) = (logits.as_slice(), probs.as_mut_slice());
    let (max, sum) = rows;
    max.clear();
    max.extend_from_slice(&l[..t]);
    for c in 1..v {
        for (m, &x) in max.iter_mut().zip(&l[c * t..(c + 1) * t]) {
            *m = m.max(x);
        }
    }
    sum.clear();
    sum.resize(t, F::zero());
    for c in 0..v {
        let (col, out) = (&l[c * t..(c + 1) * t], &mut p[c * t..(c + 1) * t]);
        for (((e, &x), &m), acc) in out.iter_mut().zip(col).zip(max.iter()).zip(sum.iter_mut()) {
            *e = (x - m).exp_det();
            *acc += *e;
        }
    }
    let mut total = 0.0;
    let mut count = 0usize;
    for row in 0..t {
        if scored.is_empty() || scored[row] {
            let target = l[targets[row] as usize * t + row];
            total += max[row].f64() + libm::log(sum[row].f64()) - target.f64();
            count += 1;
        }
    }
    let inverse = sum;
    inverse.iter_mut().for_each(|s| *s = F::one() / *s);
    for c in 0..v {
        for (e, &r) in p[c * t..(c + 1) * t].iter_mut().zip(inverse.iter()) {
            *e *= r;
        }
    }
    total / count.max(1) as f64
}

/// `KL(p ‖ q)` averaged over the scored rows, with `q = softmax(logits)`, and its gradient
/// `∂KL/∂logits = (q − p) / n` (zero on the rows not scored) into `grad`. `log q` comes from
/// the logits and their row's log-sum-exp, so it is finite where `q` underflows. (What the
/// tuned lens fits each translator by; compiled in this crate for f32: `compiled.rs`.)
pub fn kl_and_gradient<F: Real>(
    logits: &DMatrix<F>,
    p: &DMatrix<F>,
    scored: &[bool],
    grad: &mut DMatrix<F>,
    rows: &mut (Vec<F>, Vec<F>),
) -> f64 {
    if let (Some(z), Some(p), Some(g), Some(r)) = (same(logits), same(p), same_mut(grad), same_mut(rows)) {
        return kl_and_gradient_f32(z, p, scored, g, r);
    }
    kl_and_gradient_here(logits, p, scored, grad, rows)
}

#[inline(never)]
fn kl_and_gradient_f32(
    logits: &DMatrix<f32>,
    p: &DMatrix<f32>,
    scored: &[bool],
    grad: &mut DMatrix<f32>,
    rows: &mut (Vec<f32>, Vec<f32>),
) -> f64 {
    kl_and_gradient_here(logits, p, scored, grad, rows)
}

fn kl_and_gradient_here<F: Real>(
    logits: &DMatrix<F>,
    p: &DMatrix<F>,
    scored: &[bool],
    grad: &mut DMatrix<F>,
    rows: &mut (Vec<F>, Vec<F>),
) -> f64 {
    let (t, v) = logits.shape();
    let no_targets = vec![0u32; t];
    // q into grad; rows.0 the rows' maxima, rows.1 the inverses of their sums of exp(z − max)
    softmax_cross_entropy(logits, &no_targets, scored, grad, rows);
    let is_scored = |row: usize| scored.is_empty() || scored[row];
    let n = (0..t).filter(|&row| is_scored(row)).count().max(1);
    let (z, p, g) = (logits.as_slice(), p.as_slice(), grad.as_mut_slice());
    let mut total = 0.0;
    for row in (0..t).filter(|&row| is_scored(row)) {
        let log_sum = rows.0[row].f64() - libm::log(rows.1[row].f64()); // max + ln Σ exp(z − max)
        for c in 0..v {
            let pc = p[c * t + row].f64();
            if pc > 0.0 {
                total += pc * (libm::log(pc) - (z[c * t + row].f64() - log_sum));
            }
        }
    }
    let scale = F::of(1.0 / n as f64);
    for c in 0..v {
        for row in 0..t {
            let at = c * t + row;
            g[at] = if is_scored(row) { (g[at] - p[at]) * scale } else { F::zero() };
        }
    }
    total / n as f64
}

/// In place: `probs` (from `softmax_cross_entropy`) becomes `∂L/∂logits`:
/// `(softmax − onehot(target)) / n` at the scored positions, zero elsewhere (n: how many).
pub fn cross_entropy_backward_from_probs<F: Real>(probs: &mut DMatrix<F>, targets: &[u32], scored: &[bool]) {
    let (t, v) = probs.shape();
    let count = if scored.is_empty() { t } else { scored.iter().filter(|&&s| s).count() };
    let scale = F::of(1.0 / count.max(1) as f64);
    let p = probs.as_mut_slice();
    for row in 0..t {
        p[targets[row] as usize * t + row] -= F::one();
    }
    for c in 0..v {
        for (row, g) in p[c * t..(c + 1) * t].iter_mut().enumerate() {
            *g = if scored.is_empty() || scored[row] { *g * scale } else { F::zero() };
        }
    }
}

/// `softmax_cross_entropy`'s loss alone.
pub fn cross_entropy<F: Real>(logits: &DMatrix<F>, targets: &[u32], scored: &[bool]) -> f64 {
    let mut probs = DMatrix::zeros(logits.nrows(), logits.ncols());
    softmax_cross_entropy(logits, targets, scored, &mut probs, &mut (Vec::new(), Vec::new()))
}

/// `∂L/∂logits` of `cross_entropy` into `dlogits`.
pub fn cross_entropy_backward<F: Real>(
    logits: &DMatrix<F>,
    targets: &[u32],
    scored: &[bool],
    dlogits: &mut DMatrix<F>,
) {
    softmax_cross_entropy(logits, targets, scored, dlogits, &mut (Vec::new(), Vec::new()));
    cross_entropy_backward_from_probs(dlogits, targets, scored);
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
