//! The causal softmax of attention's scores, and its backward, on column-major `(T, T)`
//! matrices (`S[q, k]` at `k·T + q`, a query down a column's entries).
//!
//! The bit-order contract: for each query q, its max is taken over the keys k = 0, 1, …, q in
//! order, its exponentials `exp_det(scale·s − max)` are summed in that order, and each
//! probability is one division by that sum; the backward's `Σ_k p·dp` runs over the same keys
//! in the same order, and `ds = scale · p · (dp − Σ)`. The future keys k > q become exact
//! zeros, whatever the scores held there. Every form below (blocks of queries natively, whole
//! key columns in wasm, an AVX2 path for f32's exponentials) keeps that order, so all give the
//! same bits; the tests compare them with each other and with the definition.

use crate::model::real::Real;

/// In place on the `(t, t)` scores `s[q, k]` (column-major): each query's row becomes
/// `softmax(scale · s[q, 0..=q])`, and the future keys k > q get 0. Per query the max and the
/// sum run over k = 0, 1, …, q in order. The work goes by blocks of `W` consecutive queries
/// (their entries of one key are contiguous, one vector): the block's maxima and sums stay in
/// registers while its keys go by, every key before the block's first query is wholly seen,
/// and only the block's diagonal keys need a mask. (Down whole key columns instead, a column's
/// `t − k` entries left a scalar tail of up to 7 in every column, and the sums went through
/// memory.) `max` and `sum` receive each query's max and sum. (A function of its own: inlined
/// into the attention forward, its exponentials stayed scalar natively.) In wasm the blocks are
/// slower, at any block size: there `softmax_causal_by_columns` computes the same.
#[inline(never)]
pub fn softmax_causal<F: Real>(s: &mut [F], t: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    if cfg!(target_arch = "wasm32") {
        return softmax_causal_by_columns(s, t, scale, max, sum);
    }
    const W: usize = 8;
    let whole = t / W * W;
    for q0 in (0..whole).step_by(W) {
        softmax_causal_block::<F, W>(s, t, scale, q0, &mut max[q0..q0 + W], &mut sum[q0..q0 + W]);
    }
    for q0 in whole..t {
        softmax_causal_block::<F, 1>(s, t, scale, q0, &mut max[q0..q0 + 1], &mut sum[q0..q0 + 1]);
    }
}

/// `softmax_causal` for the queries `q0..q0 + W`.
#[inline(always)]
fn softmax_causal_block<F: Real, const W: usize>(
    s: &mut [F],
    t: usize,
    scale: F,
    q0: usize,
    max: &mut [F],
    sum: &mut [F],
) {
    let last = q0 + W - 1; // keys 0..=q0 every query sees, q0 + 1..=last only some
    let seen = |key: usize, l: usize| key <= q0 + l;
    // the max over k ≤ q, in key order, by `max`: `if z > m { m = z }` vectorises as a masked
    // store (slow on AMD's cores). The two differ only once m is NaN (max moves on), and then
    // the query's first score was NaN, so its sum and every P of it are NaN either way.
    let larger = |m: F, z: F| m.max(z);
    let mut m: [F; W] = entries::<F, W>(s, q0).map(|v| v * scale);
    for key in 1..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            m[l] = larger(m[l], r[l] * scale);
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        let bigger: [F; W] = std::array::from_fn(|l| larger(m[l], r[l] * scale));
        for l in 0..W {
            m[l] = if seen(key, l) { bigger[l] } else { m[l] };
        }
    }
    // the exponentials and their sums, in key order
    let mut acc = [F::zero(); W];
    let first = exp_and_sum_by_fours::<F, W>(s, t, q0, scale, &m, &mut acc);
    for key in first..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            r[l] = (r[l] * scale - m[l]).exp_det();
            acc[l] += r[l];
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        // (each value computed, then kept or not: the compiler then keeps the lanes together)
        let e: [F; W] = std::array::from_fn(|l| (r[l] * scale - m[l]).exp_det());
        for l in 0..W {
            r[l] = if seen(key, l) { e[l] } else { F::zero() };
            acc[l] += r[l]; // + 0 past the query: acc ≥ +0, so it stays as it was
        }
    }
    for key in last + 1..t {
        entries::<F, W>(s, key * t + q0).fill(F::zero());
    }
    for key in 0..=q0 {
        let r = entries::<F, W>(s, key * t + q0);
        for l in 0..W {
            r[l] /= acc[l];
        }
    }
    for key in q0 + 1..=last {
        let r = entries::<F, W>(s, key * t + q0);
        let p: [F; W] = std::array::from_fn(|l| r[l] / acc[l]);
        for l in 0..W {
            r[l] = if seen(key, l) { p[l] } else { F::zero() };
        }
    }
    max.copy_from_slice(&m);
    sum.copy_from_slice(&acc);
}

/// The unmasked exponentials of `softmax_causal_block`, natively for `W` = 8 in f32: for keys
/// 0, 1, … up to the largest multiple of 4 not past `q0 + 1`, `r ← exp(r · scale − m)` and
/// `acc += r` in key order, four keys' exponentials side by side (`Many<F32x8, 4>`, as in GELU:
/// each is a chain of about 40 cycles, and one key at a time left the CPU waiting on them).
/// Returns the keys done (none elsewhere).
#[inline(always)]
fn exp_and_sum_by_fours<F: Real, const W: usize>(
    s: &mut [F],
    t: usize,
    q0: usize,
    scale: F,
    m: &[F; W],
    acc: &mut [F; W],
) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    if W == 8 && std::any::TypeId::of::<F>() == std::any::TypeId::of::<f32>() {
        use crate::model::kernels::lanes::{exp, F32x8, Lanes, Many};
        // SAFETY: F is f32 (checked just above) and W is 8: the same slice and arrays, retyped.
        let (s, m, acc) = unsafe {
            let s = std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<f32>(), s.len());
            (s, &*m.as_ptr().cast::<[f32; 8]>(), &mut *acc.as_mut_ptr().cast::<[f32; 8]>())
        };
        let (scale, m) = (F32x8::splat(scale.f64() as f32), F32x8::load(m));
        let mut sum = F32x8::load(acc);
        let done = (q0 + 1) / 4 * 4;
        for k0 in (0..done).step_by(4) {
            let z =
                Many::<F32x8, 4>(std::array::from_fn(|i| F32x8::load(&s[(k0 + i) * t + q0..]) * scale - m));
            for (i, e) in exp(z).0.iter().enumerate() {
                e.store(&mut s[(k0 + i) * t + q0..]);
                sum = sum + *e;
            }
        }
        sum.store(acc);
        return done;
    }
    let _ = (s, t, q0, scale, m, acc);
    0
}

/// The `W` entries of `s` from `at` on.
#[inline(always)]
fn entries<F, const W: usize>(s: &mut [F], at: usize) -> &mut [F; W] {
    (&mut s[at..at + W]).try_into().unwrap()
}

/// `entries`, to read.
#[inline(always)]
fn entries_of<F, const W: usize>(s: &[F], at: usize) -> &[F; W] {
    s[at..at + W].try_into().unwrap()
}

/// `softmax_causal` down whole key columns, each column's entries one by one: vectorised over
/// the queries, each query's max and sum (in `max` and `sum`) accumulated key by key, in order.
pub fn softmax_causal_by_columns<F: Real>(s: &mut [F], t: usize, scale: F, max: &mut [F], sum: &mut [F]) {
    for (m, &v) in max.iter_mut().zip(&s[..t]) {
        *m = v * scale;
    }
    for key in 1..t {
        for (m, &v) in max[key..].iter_mut().zip(&s[key * t + key..(key + 1) * t]) {
            let z = v * scale;
            if z > *m {
                *m = z;
            }
        }
    }
    sum.fill(F::zero());
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        col[..key].fill(F::zero());
        for ((v, &m), acc) in col[key..].iter_mut().zip(&max[key..]).zip(&mut sum[key..]) {
            *v = (*v * scale - m).exp_det();
            *acc += *v;
        }
    }
    for (key, col) in s.chunks_exact_mut(t).enumerate() {
        for (v, &acc) in col[key..].iter_mut().zip(&sum[key..]) {
            *v /= acc;
        }
    }
}

/// In place: `dp ← ∂L/∂s` for `p = softmax(scale · s)` row by row as above, given `dp = ∂L/∂p`
/// (whose entries above the diagonal are unspecified). `inner` receives each query's
/// `Σ_k p dp`, summed over k = 0, 1, …, q in order. By blocks of queries natively, as the
/// forward; by key columns in wasm, where blocks were slower.
pub fn softmax_causal_backward<F: Real>(p: &[F], dp: &mut [F], t: usize, scale: F, inner: &mut [F]) {
    if cfg!(target_arch = "wasm32") {
        return softmax_causal_backward_by_columns(p, dp, t, scale, inner);
    }
    const W: usize = 8;
    let whole = t / W * W;
    for q0 in (0..whole).step_by(W) {
        softmax_causal_backward_block::<F, W>(p, dp, t, scale, q0, &mut inner[q0..q0 + W]);
    }
    for q0 in whole..t {
        softmax_causal_backward_block::<F, 1>(p, dp, t, scale, q0, &mut inner[q0..q0 + 1]);
    }
}

/// `softmax_causal_backward` for the queries `q0..q0 + W`.
#[inline(always)]
fn softmax_causal_backward_block<F: Real, const W: usize>(
    p: &[F],
    dp: &mut [F],
    t: usize,
    scale: F,
    q0: usize,
    inner: &mut [F],
) {
    let last = q0 + W - 1;
    let seen = |key: usize, l: usize| key <= q0 + l;
    let at = |key: usize| key * t + q0;
    let mut acc = [F::zero(); W];
    for key in 0..=q0 {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        for l in 0..W {
            acc[l] += pk[l] * gk[l];
        }
    }
    for key in q0 + 1..=last {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        let term: [F; W] = std::array::from_fn(|l| pk[l] * gk[l]);
        for l in 0..W {
            acc[l] += if seen(key, l) { term[l] } else { F::zero() }; // acc is never −0: + 0 keeps it
        }
    }
    for key in 0..=q0 {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        for l in 0..W {
            gk[l] = scale * pk[l] * (gk[l] - acc[l]);
        }
    }
    for key in q0 + 1..=last {
        let (pk, gk) = (entries_of::<F, W>(p, at(key)), entries::<F, W>(dp, at(key)));
        let ds: [F; W] = std::array::from_fn(|l| scale * pk[l] * (gk[l] - acc[l]));
        for l in 0..W {
            gk[l] = if seen(key, l) { ds[l] } else { F::zero() };
        }
    }
    for key in last + 1..t {
        entries::<F, W>(dp, at(key)).fill(F::zero());
    }
    inner.copy_from_slice(&acc);
}

/// `softmax_causal_backward` down whole key columns (see `softmax_causal_by_columns`).
pub fn softmax_causal_backward_by_columns<F: Real>(
    p: &[F],
    dp: &mut [F],
    t: usize,
    scale: F,
    inner: &mut [F],
) {
    inner.fill(F::zero());
    for (key, (pc, gc)) in p.chunks_exact(t).zip(dp.chunks_exact(t)).enumerate() {
        for ((acc, &pi), &gi) in inner[key..].iter_mut().zip(&pc[key..]).zip(&gc[key..]) {
            *acc += pi * gi;
        }
    }
    for (key, (pc, gc)) in p.chunks_exact(t).zip(dp.chunks_exact_mut(t)).enumerate() {
        gc[..key].fill(F::zero());
        for ((g, &pi), &acc) in gc[key..].iter_mut().zip(&pc[key..]).zip(&inner[key..]) {
            *g = scale * pi * (*g - acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::{Rng, Stream};

    /// Scores with every kind of value, and junk above the diagonal (which the scores'
    /// product leaves unspecified).
    fn scores(t: usize, rng: &mut Rng) -> Vec<f32> {
        (0..t * t)
            .map(|e| {
                let (q, key) = (e % t, e / t);
                let junk = [f32::NAN, f32::INFINITY, -1e30, 7.0];
                if key > q {
                    junk[(rng.next_u64() % 4) as usize]
                } else if rng.next_u64().is_multiple_of(97) {
                    [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][(rng.next_u64() % 3) as usize]
                } else {
                    (3.0 * rng.normal()) as f32
                }
            })
            .collect()
    }

    #[test]
    fn both_forms_of_the_causal_softmax_backward_give_the_same_bits() {
        let mut rng = Rng::new(10, Stream::Data);
        for t in [1, 2, 7, 8, 9, 13, 16, 64, 70] {
            // P from a forward (zeros above the diagonal), ∂L/∂P with junk above it
            let mut p = scores(t, &mut rng);
            let (mut max, mut sum) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal_by_columns(&mut p, t, 0.35, &mut max, &mut sum);
            let dp0 = scores(t, &mut rng);
            let (mut by_blocks, mut by_columns) = (dp0.clone(), dp0.clone());
            let (mut inner_blocks, mut inner_columns) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal_backward(&p, &mut by_blocks, t, 0.35, &mut inner_blocks);
            softmax_causal_backward_by_columns(&p, &mut by_columns, t, 0.35, &mut inner_columns);
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan();
            for e in 0..t * t {
                let (q, key) = (e % t, e / t);
                assert!(same(by_blocks[e], by_columns[e]), "t {t}, query {q}, key {key}");
                assert!(key <= q || by_blocks[e].to_bits() == 0, "t {t}: 0 above the diagonal");
            }
            assert!(inner_blocks.iter().zip(&inner_columns).all(|(&a, &b)| same(a, b)), "t {t}: Σ p dp");
        }
    }

    #[test]
    fn causal_softmax_is_each_querys_softmax_in_key_order() {
        let mut rng = Rng::new(9, Stream::Data);
        for t in [1, 2, 7, 8, 9, 13, 16, 64, 70] {
            let s0 = scores(t, &mut rng);
            let scale = 0.35f32;
            let (mut by_blocks, mut by_columns) = (s0.clone(), s0.clone());
            let (mut max, mut sum) = (vec![0.0; t], vec![0.0; t]);
            softmax_causal(&mut by_blocks, t, scale, &mut max, &mut sum);
            softmax_causal_by_columns(&mut by_columns, t, scale, &mut max, &mut sum);
            for q in 0..t {
                // the definition, one query at a time, keys in order
                let mut m = s0[q] * scale;
                for key in 1..=q {
                    let z = s0[key * t + q] * scale;
                    if z > m {
                        m = z;
                    }
                }
                let e: Vec<f32> = (0..=q).map(|key| (s0[key * t + q] * scale - m).exp_det()).collect();
                let total = e.iter().fold(0.0f32, |acc, &v| acc + v);
                for key in 0..t {
                    let want = if key <= q { e[key] / total } else { 0.0 };
                    // (a NaN's sign and payload are the CPU's business, and vary between
                    // vector and scalar code; the value is NaN either way)
                    for (form, p) in [("blocks", &by_blocks), ("columns", &by_columns)] {
                        let got = p[key * t + q];
                        assert!(
                            got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan(),
                            "by {form}, t {t}, query {q}, key {key}: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
