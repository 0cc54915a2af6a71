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

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
use super::matmul_simd::tn_blocks_avx;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::matmul_simd::tn_blocks_simd128;
use crate::model::compiled::{f32s, f32s_mut};
use crate::model::real::Real;

/// `c = a · b` (or `c += a · b`), `a` is m×k, `b` is k×n.
/// (Compiled in this crate for f32: `compiled.rs`; the teacher's data calls it from above.)
pub fn gemm_nn<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    if let (Some(a), Some(b), Some(c)) = (f32s(a), f32s(b), f32s_mut(c)) {
        return gemm_nn_f32(m, k, n, a, b, c, add);
    }
    gemm_nn_here(m, k, n, a, b, c, add)
}

#[inline(never)]
fn gemm_nn_f32(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32], add: bool) {
    gemm_nn_here(m, k, n, a, b, c, add)
}

fn gemm_nn_here<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == m * k && b.len() == k * n && c.len() == m * n);
    gemm_strided_b(m, k, n, a, m, b, (1, k), c, add, Causal::No);
}

/// `c = a · bᵀ` (or `c += a · bᵀ`), `a` is m×k, `b` is n×k.
pub fn gemm_nt<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == m * k && b.len() == n * k && c.len() == m * n);
    gemm_strided_b(m, k, n, a, m, b, (n, 1), c, add, Causal::No);
}

/// What causal attention's products may leave out (the (T, T) matrices are lower triangular).
#[derive(Clone, Copy, PartialEq)]
enum Causal {
    No,
    /// `a` is lower triangular: for row i the terms past the end of i's granule of 16 rows are
    /// exact zeros and are skipped. The granule, not the register block, sets where the sum
    /// stops, so it stops at the same term on every target.
    LowerA,
    /// Only `c[i, j]` with j ≤ i is wanted: register blocks wholly above the diagonal are skipped
    /// and hold whatever they held.
    LowerC,
}
const GRANULE: usize = 16;

/// `c = a · b` for a lower-triangular `a` (m×m, zero above the diagonal), `b` m×n: `gemm_nn`'s
/// sums with the zero terms past each row's granule left out.
pub fn gemm_nn_lower_a<F: Real>(m: usize, n: usize, a: &[F], b: &[F], c: &mut [F]) {
    debug_assert!(a.len() == m * m && b.len() == m * n && c.len() == m * n);
    gemm_strided_b(m, m, n, a, m, b, (1, m), c, false, Causal::LowerA);
}

/// The lower triangle (j ≤ i) of `c = a · bᵀ`, `a` m×k, `b` m×k; above it `c` is left unspecified.
pub fn gemm_nt_lower_c<F: Real>(m: usize, k: usize, a: &[F], b: &[F], c: &mut [F]) {
    debug_assert!(a.len() == m * k && b.len() == m * k && c.len() == m * m);
    gemm_strided_b(m, k, m, a, m, b, (m, 1), c, false, Causal::LowerC);
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

/// `c (+)= a · B` where `B[p, j] = b[p·stride.0 + j·stride.1]` and column p of `a` starts at
/// `a[p·lda]` (`lda` = m for a whole matrix).
/// Every `c[i, j]` is `(((c₀ + a[i,0]·B[0,j]) + a[i,1]·B[1,j]) + …)` with `c₀` = 0 or the old
/// value, in that order, whatever the blocking: the blocks only keep sums in registers.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn gemm_strided_b<F: Real>(
    m: usize,
    k: usize,
    n: usize,
    a: &[F],
    lda: usize,
    b: &[F],
    stride: (usize, usize),
    c: &mut [F],
    add: bool,
    causal: Causal,
) {
    if k == 0 {
        if !add {
            c.fill(F::zero());
        }
        return;
    }
    let b_at = |p: usize, j: usize| b[p * stride.0 + j * stride.1];
    // the terms rows i..i+R sum over (R divides GRANULE, so a block never straddles two granules)
    let k_end = |i: usize| if causal == Causal::LowerA { k.min((i / GRANULE + 1) * GRANULE) } else { k };
    let wanted = |i: usize, j: usize, r: usize| causal != Causal::LowerC || j < i + r;
    let mut j = 0;
    while j + NR <= n {
        // MR×NR blocks down the column strip, then 8-row blocks, then single rows
        let mut i = 0;
        while i + MR <= m {
            if wanted(i, j, MR) {
                block::<F, MR>(m, k_end(i), a, lda, b, stride, i, j, c, add);
            }
            i += MR;
        }
        while MR > 8 && i + 8 <= m {
            if wanted(i, j, 8) {
                block::<F, 8>(m, k_end(i), a, lda, b, stride, i, j, c, add);
            }
            i += 8;
        }
        if i < m {
            edge(i..m, j..j + NR, m, k_end(i), a, lda, &b_at, c, add);
        }
        j += NR;
    }
    for rows in (0..m).step_by(GRANULE) {
        if j < n {
            edge(rows..(rows + GRANULE).min(m), j..n, m, k_end(rows), a, lda, &b_at, c, add);
        }
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
    lda: usize,
    b: &[F],
    (rs, cs): (usize, usize),
    i: usize,
    j: usize,
    c: &mut [F],
    add: bool,
) {
    // Every index the loop below reads, checked once here rather than k·(1 + NR) times inside.
    assert!(k > 0 && (k - 1) * lda + i + R <= a.len() && (k - 1) * rs + (j + NR - 1) * cs < b.len());
    let mut acc = [[F::zero(); R]; NR];
    if add {
        for (jj, col) in acc.iter_mut().enumerate() {
            col.copy_from_slice(&c[(j + jj) * m + i..(j + jj) * m + i + R]);
        }
    }
    for p in 0..k {
        // SAFETY: p·lda + i + R ≤ (k − 1)·lda + i + R ≤ a.len(), and
        // p·rs + (j + jj)·cs ≤ (k − 1)·rs + (j + NR − 1)·cs < b.len(), by the assert above.
        let ap: &[F; R] = unsafe { &*(a.as_ptr().add(p * lda + i) as *const [F; R]) };
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
    lda: usize,
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
            axpy(b_at(p, j), &a[p * lda + rows.start..p * lda + rows.end], cj);
        }
    }
}

/// `c = aᵀ · b` (or `c += aᵀ · b`), `a` is k×m, `b` is k×n. Entry (i, j) is the dot product of
/// column i of `a` with column j of `b`, both contiguous: no transpose is needed. Each dot
/// product runs as 8 interleaved partial sums (term p goes to sum p mod 8, in order; a last
/// partial group is padded with zeros), added by `add_lanes` and then to `c₀`. That order is
/// fixed in the source, so it is the same on every target; the 8 sums are one AVX2 vector or
/// two simd128 ones.
pub fn gemm_tn<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    if BY_LANES {
        gemm_tn_by_lanes(m, k, n, a, b, c, add);
    } else {
        gemm_tn_from(m, k, n, a, b, c, add, |_| 0);
    }
}

/// In wasm the full products go lane by lane: the generic dot products did not vectorise there
/// (many times slower than natively, where they are the faster way), and the simd128 ones of
/// `tn_blocks_simd128` are only about as fast. The causal `gemm_tn_lower_a` uses the dot
/// products on every target.
const BY_LANES: bool = cfg!(target_arch = "wasm32");

/// `gemm_tn`'s sums, computed lane by lane: partial sum l of every entry is itself a product,
/// `aᵀ[:, l::8] · b[l::8, :]`, which runs in the blocked kernel of `gemm_nn` (register blocks,
/// each row of aᵀ loaded once for 4 columns) on a transposed copy of `a`; the 8 partial-sum
/// matrices are then added entry by entry in `add_lanes`' order. The terms and their order are
/// exactly those of the dot products, so the bits are too (a test checks it).
pub fn gemm_tn_by_lanes<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == k * m && b.len() == k * n && c.len() == m * n);
    F::with_scratch(|scratch| {
        let size = m * n;
        scratch.resize(m * k + LANES * size, F::zero());
        let (at, sums) = scratch.split_at_mut(m * k);
        transpose(k, m, a, at); // (m, k): column p of aᵀ is row p of a
        for (l, sum) in sums.chunks_exact_mut(size).enumerate() {
            let terms = (k + LANES - 1 - l) / LANES; // p = l, l + 8, … < k
            if terms == 0 {
                sum.fill(F::zero());
            } else {
                gemm_strided_b(
                    m,
                    terms,
                    n,
                    &at[l * m..],
                    LANES * m,
                    &b[l..],
                    (LANES, k),
                    sum,
                    false,
                    Causal::No,
                );
            }
        }
        for (idx, cij) in c.iter_mut().enumerate() {
            let lanes: [F; LANES] = std::array::from_fn(|l| sums[l * size + idx]);
            let dot = add_lanes(&lanes);
            *cij = if add { *cij + dot } else { dot };
        }
    });
}

/// `out = aᵀ` for a column-major (rows × cols) `a`, so that `out` is (cols × rows), in 4×4
/// tiles (four columns' 4 values read, four rows' 4 values written): element by element,
/// every write went to another cache line.
pub fn transpose<F: Real>(rows: usize, cols: usize, a: &[F], out: &mut [F]) {
    assert!(a.len() == rows * cols && out.len() == rows * cols);
    const T: usize = 4;
    let (tile_rows, tile_cols) = (rows / T * T, cols / T * T);
    for c0 in (0..tile_cols).step_by(T) {
        for r0 in (0..tile_rows).step_by(T) {
            let tile: [[F; T]; T] = std::array::from_fn(|cc| {
                a[(c0 + cc) * rows + r0..(c0 + cc) * rows + r0 + T].try_into().unwrap()
            });
            for rr in 0..T {
                let row: [F; T] = std::array::from_fn(|cc| tile[cc][rr]);
                out[(r0 + rr) * cols + c0..(r0 + rr) * cols + c0 + T].copy_from_slice(&row);
            }
        }
    }
    for c in 0..cols {
        let first_row = if c < tile_cols { tile_rows } else { 0 };
        for r in first_row..rows {
            out[r * cols + c] = a[c * rows + r];
        }
    }
}

/// `c = aᵀ · b` for a lower-triangular `a` (m×m, `a[p, i] = 0` for p < i), `b` m×n: `gemm_tn`'s
/// sums without the leading groups of 8 terms that are exact zeros (their partial sums would
/// stay +0, so the result is the same). As dot products on every target: in wasm too, where
/// the lane-by-lane form of `gemm_tn` would transpose the whole (m, m) `a` and sum its zeros.
pub fn gemm_tn_lower_a<F: Real>(m: usize, n: usize, a: &[F], b: &[F], c: &mut [F]) {
    gemm_tn_from(m, m, n, a, b, c, false, |i| i / LANES * LANES);
}

/// `gemm_tn` where the sums for column i of `a` start at term `start(i)`, a multiple of `LANES`
/// that is the same for every column of a block.
#[allow(clippy::too_many_arguments)]
fn gemm_tn_from<F: Real>(
    m: usize,
    k: usize,
    n: usize,
    a: &[F],
    b: &[F],
    c: &mut [F],
    add: bool,
    start: impl Fn(usize) -> usize,
) {
    debug_assert!(a.len() == k * m && b.len() == k * n && c.len() == m * n);
    #[cfg(any(
        all(target_arch = "x86_64", target_feature = "avx2"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    if std::any::TypeId::of::<F>() == std::any::TypeId::of::<f32>() {
        // SAFETY: F is f32 (checked just above): the same slices, retyped.
        let retyped = |v: &[F]| unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len()) };
        let c32 = unsafe { std::slice::from_raw_parts_mut(c.as_mut_ptr().cast::<f32>(), c.len()) };
        let (a, b) = (retyped(a), retyped(b));
        #[cfg(target_arch = "x86_64")]
        let (rows, blocks) =
            (4, |c: &mut [f32], j: usize, rows: usize| tn_blocks_avx(m, k, a, b, c, j, rows, add, &start));
        #[cfg(target_arch = "wasm32")]
        let (rows, blocks) = (2, |c: &mut [f32], j: usize, rows: usize| {
            tn_blocks_simd128(m, k, a, b, c, j, rows, add, &start)
        });
        return tn_by_strips(m, k, n, a, b, c32, add, &start, rows, blocks);
    }
    let mut j = 0;
    while j < n {
        if j + TJ <= n {
            let mut i = 0;
            while i + TI <= m {
                dots::<F, TI, TJ>(m, k, a, b, i, j, c, add, start(i));
                i += TI;
            }
            while i < m {
                dots::<F, 1, TJ>(m, k, a, b, i, j, c, add, start(i));
                i += 1;
            }
            j += TJ;
        } else {
            for i in 0..m {
                dots::<F, 1, 1>(m, k, a, b, i, j, c, add, start(i));
            }
            j += 1;
        }
    }
}

/// Dot products per block of the generic `dots` (f64, and f32 where neither AVX2 nor simd128 is
/// enabled): columns of `a`, and of `b`; each column of `a` is loaded once for TJ products and
/// each of `b` once for TI.
#[cfg(not(target_arch = "wasm32"))]
const TI: usize = 4;
#[cfg(target_arch = "wasm32")]
const TI: usize = 2;
const TJ: usize = 2;
const LANES: usize = 8;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "avx2"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
const _: () = assert!(LANES == super::matmul_simd::LANES, "the SIMD blocks sum as many lanes");

/// The TI×TJ block of `c = aᵀ b` at row i, column j, as described at `gemm_tn`, from term
/// `from` (a multiple of `LANES`) on.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn dots<F: Real, const TI: usize, const TJ: usize>(
    m: usize,
    k: usize,
    a: &[F],
    b: &[F],
    i: usize,
    j: usize,
    c: &mut [F],
    add: bool,
    from: usize,
) {
    let a_cols: [&[F]; TI] = std::array::from_fn(|ii| &a[(i + ii) * k..(i + ii + 1) * k]);
    let b_cols: [&[F]; TJ] = std::array::from_fn(|jj| &b[(j + jj) * k..(j + jj + 1) * k]);
    let mut acc = [[[F::zero(); LANES]; TJ]; TI];
    let mut step = |av: [[F; LANES]; TI], bv: [[F; LANES]; TJ]| {
        for (acc_i, ai) in acc.iter_mut().zip(&av) {
            for (acc_ij, bj) in acc_i.iter_mut().zip(&bv) {
                for l in 0..LANES {
                    acc_ij[l] += ai[l] * bj[l];
                }
            }
        }
    };
    let whole = k - k % LANES;
    for p in (from.min(whole)..whole).step_by(LANES) {
        let lanes = |col: &[F]| -> [F; LANES] { col[p..p + LANES].try_into().unwrap() };
        step(a_cols.map(lanes), b_cols.map(lanes));
    }
    if whole < k {
        let padded = |col: &[F]| -> [F; LANES] {
            let mut v = [F::zero(); LANES];
            v[..k - whole].copy_from_slice(&col[whole..]);
            v
        };
        step(a_cols.map(padded), b_cols.map(padded));
    }
    for (ii, acc_i) in acc.iter().enumerate() {
        for (jj, l) in acc_i.iter().enumerate() {
            let dot = add_lanes(l);
            let cij = &mut c[(j + jj) * m + i + ii];
            *cij = if add { *cij + dot } else { dot };
        }
    }
}

/// `gemm_tn_from` in f32 by strips of 2 columns: `blocks(c, j, rows)` computes rows
/// `0..rows` of the strip at column j (`rows` the largest multiple of `block_rows` up to m), and
/// the rows left over, and an odd last column, go one entry at a time (`dots`).
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "avx2"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[allow(clippy::too_many_arguments)]
fn tn_by_strips(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    add: bool,
    start: &impl Fn(usize) -> usize,
    block_rows: usize,
    mut blocks: impl FnMut(&mut [f32], usize, usize),
) {
    let rows = m / block_rows * block_rows;
    let mut j = 0;
    while j + 2 <= n {
        blocks(c, j, rows);
        for i in rows..m {
            dots::<f32, 1, 2>(m, k, a, b, i, j, c, add, start(i));
        }
        j += 2;
    }
    while j < n {
        for i in 0..m {
            dots::<f32, 1, 1>(m, k, a, b, i, j, c, add, start(i));
        }
        j += 1;
    }
}

/// The sum of 8 partial sums in a fixed order, `((l₀+l₄) + (l₂+l₆)) + ((l₁+l₅) + (l₃+l₇))`: halves,
/// then quarters, then the last pair, which is how vector units add across their lanes.
#[inline(always)]
pub fn add_lanes<F: Real>(l: &[F; 8]) -> F {
    let h = [l[0] + l[4], l[1] + l[5], l[2] + l[6], l[3] + l[7]];
    (h[0] + h[2]) + (h[1] + h[3])
}

/// `out[j] = Σ_t f(x[t, j], y[t, j])` for column-major `(rows, out.len())` matrices `x` and `y`:
/// each column as 8 interleaved partial sums (row t goes to sum t mod 8, in order) combined by
/// `add_lanes`, so that the sums vectorise down the column.
pub fn column_sums<F: Real>(rows: usize, x: &[F], y: &[F], out: &mut [F], f: impl Fn(F, F) -> F) {
    for ((o, xc), yc) in out.iter_mut().zip(x.chunks_exact(rows)).zip(y.chunks_exact(rows)) {
        let mut acc = [F::zero(); 8];
        let (xs, ys) = (xc.chunks_exact(8), yc.chunks_exact(8));
        let (x_rest, y_rest) = (xs.remainder(), ys.remainder());
        for (xv, yv) in xs.zip(ys) {
            for l in 0..8 {
                acc[l] += f(xv[l], yv[l]);
            }
        }
        for ((a, &xv), &yv) in acc.iter_mut().zip(x_rest).zip(y_rest) {
            *a += f(xv, yv);
        }
        *o = add_lanes(&acc);
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
    use crate::model::rng::{Rng, Stream};
    use nalgebra::DMatrix;

    fn random(r: usize, c: usize, rng: &mut Rng) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| rng.normal())
    }

    #[test]
    fn both_forms_of_the_transposed_product_give_the_same_bits() {
        let mut rng = Rng::new(5, Stream::Data);
        for &(m, k, n) in
            &[(1, 1, 1), (5, 3, 7), (32, 64, 32), (9, 17, 4), (8, 12, 24), (64, 70, 8), (3, 7, 5)]
        {
            // with exact zeros of both signs, as ReLU and causal masks produce
            let mut draw = |len: usize| -> Vec<f32> {
                (0..len)
                    .map(|_| match rng.next_u64() % 5 {
                        0 => 0.0,
                        1 => -0.0,
                        _ => rng.normal() as f32,
                    })
                    .collect()
            };
            let (a, b, c0) = (draw(k * m), draw(k * n), draw(m * n));
            for add in [false, true] {
                let (mut by_dots, mut by_lanes) = (c0.clone(), c0.clone());
                gemm_tn_from(m, k, n, &a, &b, &mut by_dots, add, |_| 0);
                gemm_tn_by_lanes(m, k, n, &a, &b, &mut by_lanes, add);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&by_dots), bits(&by_lanes), "{m}×{k}×{n}, add {add}");
            }
            // the causal form: a lower-triangular (m, m) `l`, whose skipped terms are zeros
            let l: Vec<f32> = (0..m * m).map(|x| if x % m >= x / m { a[x % a.len()] } else { 0.0 }).collect();
            let bm = draw(m * n);
            let (mut skip, mut full) = (vec![0.0; m * n], vec![0.0; m * n]);
            gemm_tn_from(m, m, n, &l, &bm, &mut skip, false, |i| i / LANES * LANES);
            gemm_tn_by_lanes(m, m, n, &l, &bm, &mut full, false);
            assert_eq!(
                skip.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                full.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn transpose_matches_nalgebra() {
        let mut rng = Rng::new(4, Stream::Data);
        for &(r, c) in &[(1, 1), (4, 4), (5, 3), (8, 12), (64, 32), (9, 17), (3, 8)] {
            let a = random(r, c, &mut rng);
            let mut out = vec![0.0; r * c];
            transpose(r, c, a.as_slice(), &mut out);
            assert_eq!(out, a.transpose().as_slice(), "{r}×{c}");
        }
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
            gemm_tn(m, k, n, at.as_slice(), b.as_slice(), c.as_mut_slice(), true);
            assert!(close(&c, &(&c0 + &a * &b)));

            let bt = b.transpose(); // n×k
            let mut c = c0.clone();
            gemm_nt(m, k, n, a.as_slice(), bt.as_slice(), c.as_mut_slice(), false);
            assert!(close(&c, &(&a * &b)));

            // the causal variants, on a lower-triangular square `l`
            let l = DMatrix::from_fn(m, m, |i, p| if p <= i { a[(i, p % k)] } else { 0.0 });
            let bm = random(m, n, &mut rng);
            let mut c = c0.clone().resize(m, n, 0.0);
            gemm_nn_lower_a(m, n, l.as_slice(), bm.as_slice(), c.as_mut_slice());
            assert!(close(&c, &(&l * &bm)));
            gemm_tn_lower_a(m, n, l.as_slice(), bm.as_slice(), c.as_mut_slice());
            assert!(close(&c, &(l.transpose() * &bm)));
            let mut c = DMatrix::from_element(m, m, f64::NAN);
            gemm_nt_lower_c(m, k, a.as_slice(), a.as_slice(), c.as_mut_slice());
            let full = &a * a.transpose();
            assert!((0..m)
                .all(|i| (0..=i).all(|j| (c[(i, j)] - full[(i, j)]).abs() < 1e-12 * (1.0 + full.amax()))));

            let mut sums = vec![0.0; k];
            column_sums(m, a.as_slice(), a.as_slice(), &mut sums, |v, _| v);
            let expected = a.row_sum(); // (1, k)
            assert!(sums.iter().zip(expected.iter()).all(|(s, e)| (s - e).abs() < 1e-12 * (1.0 + e.abs())));
        }
    }
}
