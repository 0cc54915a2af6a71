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

use crate::real::Real;

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

/// Rows of `c` per register block: two vectors of f32, AVX2's 8 lanes natively, simd128's 4 in
/// wasm (V8 has 16 vector registers: 8 accumulators fit, 16 would spill). Blocking decides only
/// which sums stay in registers, never their order, so both targets give the same bits.
#[cfg(not(target_arch = "wasm32"))]
const MR: usize = 16;
#[cfg(target_arch = "wasm32")]
const MR: usize = 8;
/// Columns of `c` per register block.
const NR: usize = 4;

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
    if k == 0 {
        if !add {
            c.fill(F::zero());
        }
        return;
    }
    let b_at = |p: usize, j: usize| b[p * stride.0 + j * stride.1];
    let mut j = 0;
    while j + NR <= n {
        // MR×NR blocks down the column strip, then 8-row blocks, then single rows
        let mut i = 0;
        while i + MR <= m {
            block::<F, MR>(m, k, a, b, stride, i, j, c, add);
            i += MR;
        }
        while MR > 8 && i + 8 <= m {
            block::<F, 8>(m, k, a, b, stride, i, j, c, add);
            i += 8;
        }
        if i < m {
            edge(i..m, j..j + NR, m, k, a, &b_at, c, add);
        }
        j += NR;
    }
    if j < n {
        edge(0..m, j..n, m, k, a, &b_at, c, add);
    }
}

/// The R×NR block of `c` at row i, column j: `acc[jj][r] += a[i + r, p] · B[p, j + jj]` for
/// p = 0, 1, …, k − 1, with the R·NR sums held in registers (R/8 or R/4 vectors per column).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn block<F: Real, const R: usize>(
    m: usize,
    k: usize,
    a: &[F],
    b: &[F],
    (rs, cs): (usize, usize),
    i: usize,
    j: usize,
    c: &mut [F],
    add: bool,
) {
    // Every index the loop below reads, checked once here rather than k·(1 + NR) times inside.
    assert!(k > 0 && (k - 1) * m + i + R <= a.len() && (k - 1) * rs + (j + NR - 1) * cs < b.len());
    let mut acc = [[F::zero(); R]; NR];
    if add {
        for (jj, col) in acc.iter_mut().enumerate() {
            col.copy_from_slice(&c[(j + jj) * m + i..(j + jj) * m + i + R]);
        }
    }
    for p in 0..k {
        // SAFETY: p·m + i + R ≤ (k − 1)·m + i + R ≤ a.len(), and
        // p·rs + (j + jj)·cs ≤ (k − 1)·rs + (j + NR − 1)·cs < b.len(), by the assert above.
        let ap: &[F; R] = unsafe { &*(a.as_ptr().add(p * m + i) as *const [F; R]) };
        for (jj, col) in acc.iter_mut().enumerate() {
            let bv = unsafe { *b.get_unchecked(p * rs + (j + jj) * cs) };
            for r in 0..R {
                col[r] += ap[r] * bv;
            }
        }
    }
    for (jj, col) in acc.iter().enumerate() {
        c[(j + jj) * m + i..(j + jj) * m + i + R].copy_from_slice(col);
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
    transpose(k, m, a, scratch);
    gemm_strided_b(m, k, n, scratch, b, (1, k), c, add);
}

/// `dst (cols×rows) = srcᵀ` for a column-major `src (rows×cols)`, in 8×8 tiles read as 8
/// column pieces and written as 8 row pieces (contiguous in `dst`), so that neither side
/// strides across memory one entry at a time. Edge tiles go entry by entry.
fn transpose<F: Real>(rows: usize, cols: usize, src: &[F], dst: &mut [F]) {
    const T: usize = 8;
    for j0 in (0..cols).step_by(T) {
        for i0 in (0..rows).step_by(T) {
            if i0 + T <= rows && j0 + T <= cols {
                let mut tile = [[F::zero(); T]; T]; // tile[j][i] = src[i0 + i, j0 + j]
                for (j, col) in tile.iter_mut().enumerate() {
                    col.copy_from_slice(&src[(j0 + j) * rows + i0..(j0 + j) * rows + i0 + T]);
                }
                for i in 0..T {
                    let out: &mut [F; T] =
                        (&mut dst[(i0 + i) * cols + j0..(i0 + i) * cols + j0 + T]).try_into().unwrap();
                    for j in 0..T {
                        out[j] = tile[j][i];
                    }
                }
            } else {
                for j in j0..(j0 + T).min(cols) {
                    for i in i0..(i0 + T).min(rows) {
                        dst[i * cols + j] = src[j * rows + i];
                    }
                }
            }
        }
    }
}

/// `out[j] = Σ_t term(j·rows + t)` for t = 0, 1, …, rows − 1 in order: the column sums of a
/// column-major `(rows, out.len())` matrix whose entry at flat index e is `term(e)`. Eight
/// columns at a time, so that eight independent sums are in flight rather than one chain of
/// additions each waiting for the last.
pub fn column_sums<F: Real>(rows: usize, out: &mut [F], term: impl Fn(usize) -> F) {
    const LANES: usize = 8;
    let mut j = 0;
    while j < out.len() {
        let lanes = LANES.min(out.len() - j);
        let mut acc = [F::zero(); LANES];
        for t in 0..rows {
            for (l, a) in acc[..lanes].iter_mut().enumerate() {
                *a += term((j + l) * rows + t);
            }
        }
        out[j..j + lanes].copy_from_slice(&acc[..lanes]);
        j += lanes;
    }
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
    use crate::rng::{Rng, Stream};
    use nalgebra::DMatrix;

    fn random(r: usize, c: usize, rng: &mut Rng) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| rng.normal())
    }

    #[test]
    fn products_match_nalgebra() {
        let mut rng = Rng::new(3, Stream::Data);
        for &(m, k, n) in
            &[(1, 1, 1), (5, 3, 7), (64, 32, 32), (9, 17, 4), (8, 12, 24), (40, 9, 13), (24, 5, 4)]
        {
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

            let mut t = DMatrix::zeros(k, m);
            transpose(m, k, a.as_slice(), t.as_mut_slice());
            assert_eq!(t, a.transpose());

            let mut sums = vec![0.0; k];
            column_sums(m, &mut sums, |e| a.as_slice()[e]);
            let expected = a.row_sum(); // (1, k)
            assert!(sums.iter().zip(expected.iter()).all(|(s, e)| (s - e).abs() < 1e-12 * (1.0 + e.abs())));
        }
    }
}
