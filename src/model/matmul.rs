//! Matrix products on column-major slices (nalgebra's storage order).
//!
//! Why our own kernels and not nalgebra's `gemm`: natively nalgebra hands large products
//! to `matrixmultiply`, which picks an FMA kernel at run time, and a fused multiply-add
//! rounds differently from the multiply-then-add that wasm executes. These loops fix the
//! order of every sum in the source, so a product is bit-identical on every machine and in
//! every browser, and they still vectorise (over the contiguous column) natively and with
//! simd128. Tests check them against nalgebra's own products.
//!
//! Shapes follow BLAS: `c (m×n) = op(a) · op(b)` with inner dimension `k`.

use crate::model::real::Real;

/// `c = a · b` (or `c += a · b`), `a` is m×k, `b` is k×n.
pub fn gemm_nn<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == m * k && b.len() == k * n && c.len() == m * n);
    gemm_strided_b(m, k, n, a, b, (1, k), c, add);
}

/// `c = a · bᵀ` (or `c += a · bᵀ`), `a` is m×k, `b` is n×k.
pub fn gemm_nt<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == m * k && b.len() == n * k && c.len() == m * n);
    gemm_strided_b(m, k, n, a, b, (n, 1), c, add);
}

/// Rows of `c` per register block, and columns.
const MB: usize = 8;
const NB: usize = 4;

/// `c (+)= a · B` where `B[p, j] = b[p·stride.0 + j·stride.1]`.
/// Every `c[i, j]` is `(((c₀ + a[i,0]·B[0,j]) + a[i,1]·B[1,j]) + …)` with `c₀` = 0 or the old
/// value, in that order, whatever the blocking: the blocks only keep sums in registers.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_strided_b<F: Real>(
    m: usize,
    k: usize,
    n: usize,
    a: &[F],
    b: &[F],
    stride: (usize, usize),
    c: &mut [F],
    add: bool,
) {
    let b_at = |p: usize, j: usize| b[p * stride.0 + j * stride.1];
    let mut j = 0;
    while j + NB <= n {
        let mut i = 0;
        while i + MB <= m {
            // a 16×4 block of c, accumulated in registers
            let mut acc = [[F::zero(); MB]; NB];
            if add {
                for (jj, col) in acc.iter_mut().enumerate() {
                    col.copy_from_slice(&c[(j + jj) * m + i..(j + jj) * m + i + MB]);
                }
            }
            for p in 0..k {
                let ap: &[F; MB] = a[p * m + i..p * m + i + MB].try_into().unwrap();
                for (jj, col) in acc.iter_mut().enumerate() {
                    let bv = b_at(p, j + jj);
                    for r in 0..MB {
                        col[r] += ap[r] * bv;
                    }
                }
            }
            for (jj, col) in acc.iter().enumerate() {
                c[(j + jj) * m + i..(j + jj) * m + i + MB].copy_from_slice(col);
            }
            i += MB;
        }
        if i < m {
            edge(i..m, j..j + NB, m, k, a, &b_at, c, add);
        }
        j += NB;
    }
    if j < n {
        edge(0..m, j..n, m, k, a, &b_at, c, add);
    }
}

/// The same sums for the rows and columns left over by the blocks.
#[allow(clippy::too_many_arguments)]
fn edge<F: Real>(
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    m: usize,
    k: usize,
    a: &[F],
    b_at: &impl Fn(usize, usize) -> F,
    c: &mut [F],
    add: bool,
) {
    for j in cols {
        let cj = &mut c[j * m + rows.start..j * m + rows.end];
        if !add {
            cj.fill(F::zero());
        }
        for p in 0..k {
            axpy(b_at(p, j), &a[p * m + rows.start..p * m + rows.end], cj);
        }
    }
}

/// `c = aᵀ · b` (or `c += aᵀ · b`), `a` is k×m, `b` is k×n. `a` is first transposed into
/// `scratch` (sized on first use, then reused), so that the product runs in the same blocked
/// kernel, with each entry summed in order over k.
#[allow(clippy::too_many_arguments)]
pub fn gemm_tn<F: Real>(
    m: usize,
    k: usize,
    n: usize,
    a: &[F],
    b: &[F],
    c: &mut [F],
    add: bool,
    scratch: &mut Vec<F>,
) {
    debug_assert!(a.len() == k * m && b.len() == k * n && c.len() == m * n);
    scratch.resize(m * k, F::zero());
    for i in 0..m {
        for (p, &v) in a[i * k..(i + 1) * k].iter().enumerate() {
            scratch[i + p * m] = v;
        }
    }
    gemm_strided_b(m, k, n, scratch, b, (1, k), c, add);
}

/// `y += alpha · x`
#[inline(always)]
pub fn axpy<F: Real>(alpha: F, x: &[F], y: &mut [F]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::{Rng, Stream};
    use nalgebra::DMatrix;

    fn random(r: usize, c: usize, rng: &mut Rng) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| rng.normal())
    }

    #[test]
    fn products_match_nalgebra() {
        let mut rng = Rng::new(3, Stream::Data);
        for &(m, k, n) in &[(1, 1, 1), (5, 3, 7), (64, 32, 32), (9, 17, 4)] {
            let a = random(m, k, &mut rng);
            let b = random(k, n, &mut rng);
            let c0 = random(m, n, &mut rng);
            let close = |x: &DMatrix<f64>, y: &DMatrix<f64>| (x - y).amax() < 1e-12 * (1.0 + y.amax());

            let mut c = c0.clone();
            gemm_nn(m, k, n, a.as_slice(), b.as_slice(), c.as_mut_slice(), false);
            assert!(close(&c, &(&a * &b)));
            gemm_nn(m, k, n, a.as_slice(), b.as_slice(), c.as_mut_slice(), true);
            assert!(close(&c, &(&a * &b * 2.0)));

            let at = a.transpose(); // k×m
            let mut c = c0.clone();
            gemm_tn(m, k, n, at.as_slice(), b.as_slice(), c.as_mut_slice(), true, &mut Vec::new());
            assert!(close(&c, &(&c0 + &a * &b)));

            let bt = b.transpose(); // n×k
            let mut c = c0.clone();
            gemm_nt(m, k, n, a.as_slice(), bt.as_slice(), c.as_mut_slice(), false);
            assert!(close(&c, &(&a * &b)));
        }
    }
}
