//! The softmax of attention's scores without a mask, and its backward, on column-major `(m, n)`
//! matrices (`S[q, k]` at `k·m + q`, a query down a column's entries): the encoder's
//! self-attention, a decoder's with the mask off, and cross-attention (m target queries, n
//! source keys).
//!
//! The bit-order contract, the causal softmax's (`softmax.rs`) over every key: for each query q,
//! its max is taken over the keys k = 0, 1, …, n − 1 in order, its exponentials
//! `exp_det(scale·s − max)` are summed in that order, and each probability is one division by
//! that sum; the backward's `Σ_k p·dp` runs over the same keys in the same order, and
//! `ds = scale · p · (dp − Σ)`. One form on every target, down whole key columns (vectorised
//! across the queries), so native and wasm give the same bits.

use crate::model::real::Real;

/// In place on the `(m, n)` scores: each query's row becomes `softmax(scale · s[q, 0..n])`.
/// `max` and `sum` (m each) receive each query's max and sum.
pub fn softmax_rows<F: Real>(s: &mut [F], m: usize, n: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    debug_assert!(s.len() == m * n && max.len() == m && sum.len() == m);
    for (mx, &v) in max.iter_mut().zip(&s[..m]) {
        *mx = v * scale;
    }
    for col in s.chunks_exact(m).skip(1) {
        for (mx, &v) in max.iter_mut().zip(col) {
            let z = v * scale;
            if z > *mx {
                *mx = z;
            }
        }
    }
    sum.fill(F::zero());
    for col in s.chunks_exact_mut(m) {
        for ((v, &mx), acc) in col.iter_mut().zip(max.iter()).zip(sum.iter_mut()) {
            *v = (*v * scale - mx).exp_det();
            *acc += *v;
        }
    }
    for col in s.chunks_exact_mut(m) {
        for (v, &acc) in col.iter_mut().zip(sum.iter()) {
            *v /= acc;
        }
    }
}

/// In place: `dp ← ∂L/∂s` for `p = softmax_rows(scale · s)`, given `dp = ∂L/∂p`. `inner` (m)
/// receives each query's `Σ_k p dp`, summed over k = 0, 1, …, n − 1 in order.
pub fn softmax_rows_backward<F: Real>(p: &[F], dp: &mut [F], m: usize, n: usize, scale: F, inner: &mut [F]) {
    debug_assert!(p.len() == m * n && dp.len() == m * n && inner.len() == m);
    inner.fill(F::zero());
    for (pc, gc) in p.chunks_exact(m).zip(dp.chunks_exact(m)) {
        for ((acc, &pv), &gv) in inner.iter_mut().zip(pc).zip(gc) {
            *acc += pv * gv;
        }
    }
    for (pc, gc) in p.chunks_exact(m).zip(dp.chunks_exact_mut(m)) {
        for ((g, &pv), &acc) in gc.iter_mut().zip(pc).zip(inner.iter()) {
            *g = scale * pv * (*g - acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::{Rng, Stream};

    /// Against the definition in f64: every row sums to 1 and is `exp(z − max) / Σ`, for
    /// square and rectangular scores.
    #[test]
    fn rows_are_the_softmax_of_every_key() {
        let mut rng = Rng::new(3, Stream::Data);
        for (m, n) in [(1, 1), (3, 5), (8, 8), (9, 4), (16, 16)] {
            let s: Vec<f32> = (0..m * n).map(|_| (3.0 * rng.normal()) as f32).collect();
            let mut p = s.clone();
            let (mut max, mut sum) = (vec![0.0; m], vec![0.0; m]);
            softmax_rows(&mut p, m, n, 0.5, &mut max, &mut sum);
            for q in 0..m {
                let z: Vec<f64> = (0..n).map(|k| 0.5 * f64::from(s[k * m + q])).collect();
                let top = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = z.iter().map(|v| (v - top).exp()).sum();
                let row: f64 = (0..n).map(|k| f64::from(p[k * m + q])).sum();
                assert!((row - 1.0).abs() < 1e-5, "({m}, {n}) row {q} sums to {row}");
                for k in 0..n {
                    let want = (z[k] - top).exp() / total;
                    let got = f64::from(p[k * m + q]);
                    assert!(
                        (got - want).abs() < 1e-6,
                        "({m}, {n}) P[{q}, {k}] = {got}, the definition {want}"
                    );
                }
            }
        }
    }

    /// The backward against central differences of `Σ p·w` for a fixed weighting `w`.
    #[test]
    fn backward_matches_finite_differences() {
        let mut rng = Rng::new(4, Stream::Data);
        let (m, n, scale) = (5, 7, 0.7);
        let s: Vec<f64> = (0..m * n).map(|_| rng.normal()).collect();
        let w: Vec<f64> = (0..m * n).map(|_| rng.normal()).collect();
        let loss = |s: &[f64]| {
            let mut p = s.to_vec();
            let (mut max, mut sum) = (vec![0.0; m], vec![0.0; m]);
            softmax_rows(&mut p, m, n, scale, &mut max, &mut sum);
            p.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>()
        };
        let mut p = s.clone();
        let (mut max, mut sum) = (vec![0.0; m], vec![0.0; m]);
        softmax_rows(&mut p, m, n, scale, &mut max, &mut sum);
        let mut ds = w.clone();
        softmax_rows_backward(&p, &mut ds, m, n, scale, &mut max);
        for e in 0..m * n {
            let (mut up, mut down) = (s.clone(), s.clone());
            up[e] += 1e-6;
            down[e] -= 1e-6;
            let numeric = (loss(&up) - loss(&down)) / 2e-6;
            assert!((ds[e] - numeric).abs() < 1e-7, "entry {e}: analytic {}, numeric {numeric}", ds[e]);
        }
    }
}
