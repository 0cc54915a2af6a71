//! The SIMD forms of `gemm_tn`'s blocks (`matmul.rs`): AVX2 natively, simd128 in wasm.
//!
//! The bit-order contract: each dot product is the sum of 8 interleaved partial sums, term p
//! into partial sum p mod 8 in order, the last group padded with zeros, the 8 combined in
//! `add_lanes`' order ((l₀+l₄) + (l₂+l₆)) + ((l₁+l₅) + (l₃+l₇)), then added to `c` if asked.
//! Each multiply and add is a separate IEEE operation (no fused multiply-add). These
//! kernels change only which sums sit in which register, never what is added to what, so
//! they give the generic `dots`' bits (`matmul.rs`' tests compare them on every target).

/// The partial sums of each dot product: `matmul.rs`' `LANES`, which checks that the two agree
/// (so that this file needs nothing of `matmul.rs`, which calls it).
pub(super) const LANES: usize = 8;

/// Rows `0..rows` of `gemm_tn`'s strip at column j natively, by 4×2 blocks with AVX intrinsics
/// (`dots_4x2_avx`, then `finish_4x2_avx`), four blocks at a time: the four blocks' loops first,
/// keeping their lane sums, then their four reductions. A block's reduction is a chain of
/// shuffles and additions that waited on the end of its loop; after four loops the four chains
/// run side by side (four is the fastest group: BENCHMARKS.md, "The kernels' forms").
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[allow(clippy::too_many_arguments)]
pub(super) fn tn_blocks_avx(
    m: usize,
    k: usize,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    j: usize,
    rows: usize,
    add: bool,
    start: &impl Fn(usize) -> usize,
) {
    use std::arch::x86_64::_mm256_setzero_ps;
    const GROUP: usize = 4;
    let blocks = rows / 4;
    assert!(rows * k <= a.len() && (j + 2) * k <= b.len() && (j + 1) * m + rows <= c.len());
    // SAFETY: AVX2 is enabled for this build; the blocks' columns of `a` (4 of k values each,
    // below `rows`), columns j and j + 1 of `b`, and their entries of `c` are inside the slices
    // (asserted), and start(i) ≤ k.
    unsafe {
        let (a, b) = (a.as_ptr(), b.as_ptr().add(j * k));
        let mut sums = [[[_mm256_setzero_ps(); 2]; 4]; GROUP];
        for first in (0..blocks).step_by(GROUP) {
            let group = GROUP.min(blocks - first);
            for (g, acc) in sums[..group].iter_mut().enumerate() {
                let i = (first + g) * 4;
                *acc = dots_4x2_avx(k, a.add(i * k), b, start(i));
            }
            for (g, acc) in sums[..group].iter().enumerate() {
                finish_4x2_avx(*acc, c.as_mut_ptr(), m, (first + g) * 4, j, add);
            }
        }
    }
}

/// Rows `0..rows` of `gemm_tn`'s strip at column j in wasm, by 2×2 blocks with simd128
/// intrinsics: each entry's 8 lane sums as two vectors (lanes 0–3 and 4–7), reduced in
/// `add_lanes`' order. The whole groups of 8 terms go in a loop of plain loads, the padded last
/// group after it (with the padding's branch inside the loop V8 ran it much slower). For full
/// products the lane-by-lane form stays, which is about as fast.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(clippy::too_many_arguments)]
pub(super) fn tn_blocks_simd128(
    m: usize,
    k: usize,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    j: usize,
    rows: usize,
    add: bool,
    start: &impl Fn(usize) -> usize,
) {
    use std::arch::wasm32::*;
    let whole = k - k % LANES;
    // the 8 values of column `col` from term p < whole
    let load = |col: *const f32, p: usize| -> (v128, v128) {
        // SAFETY: the callers pass columns of k values and p + 8 ≤ whole ≤ k
        unsafe { (v128_load(col.add(p).cast()), v128_load(col.add(p + 4).cast())) }
    };
    // the last k − whole values of column `col`, padded with zeros as `dots` pads
    let tail = |col: &[f32]| -> (v128, v128) {
        let mut v = [0.0f32; LANES];
        v[..k - whole].copy_from_slice(&col[whole..]);
        // SAFETY: v holds 8 values
        unsafe { (v128_load(v.as_ptr().cast()), v128_load(v.as_ptr().add(4).cast())) }
    };
    let reduce = |(lo, hi): (v128, v128)| -> f32 {
        let h = f32x4_add(lo, hi); // [l0+l4, l1+l5, l2+l6, l3+l7]
        let q = f32x4_add(h, i32x4_shuffle::<2, 3, 0, 1>(h, h)); // [h0+h2, h1+h3, …]
        f32x4_extract_lane::<0>(q) + f32x4_extract_lane::<1>(q)
    };
    let bc = [&b[j * k..(j + 1) * k], &b[(j + 1) * k..(j + 2) * k]];
    let step = |acc: &mut [[(v128, v128); 2]; 2], av: [(v128, v128); 2], bv: [(v128, v128); 2]| {
        for (acc_i, ai) in acc.iter_mut().zip(&av) {
            for (acc_ij, bj) in acc_i.iter_mut().zip(&bv) {
                acc_ij.0 = f32x4_add(acc_ij.0, f32x4_mul(ai.0, bj.0));
                acc_ij.1 = f32x4_add(acc_ij.1, f32x4_mul(ai.1, bj.1));
            }
        }
    };
    for i in (0..rows).step_by(2) {
        let ac = [&a[i * k..(i + 1) * k], &a[(i + 1) * k..(i + 2) * k]];
        let (ap, bp) = (ac.map(|col| col.as_ptr()), bc.map(|col| col.as_ptr()));
        let zero = f32x4_splat(0.0);
        let mut acc = [[(zero, zero); 2]; 2];
        let mut p = start(i).min(whole);
        while p < whole {
            step(&mut acc, ap.map(|col| load(col, p)), bp.map(|col| load(col, p)));
            p += LANES;
        }
        if whole < k {
            step(&mut acc, ac.map(tail), bc.map(tail));
        }
        for (ii, acc_i) in acc.iter().enumerate() {
            for (jj, &l) in acc_i.iter().enumerate() {
                let dot = reduce(l);
                let cij = &mut c[(j + jj) * m + i + ii];
                *cij = if add { *cij + dot } else { dot };
            }
        }
    }
}

/// `dots::<f32, 4, 2>`'s lane sums with AVX intrinsics: the same products added in the same
/// order (lane l of `acc[ii][jj]` sums `a[p, i + ii] · b[p, j + jj]` for p ≡ l mod 8, from `from`
/// on, the last group padded with zeros), with the 8 accumulators and the 6 columns' pointers in
/// registers from start to finish. The generic form spends as long around its loop as in it
/// (slices, checks and spills per block), and for 64 tokens the loop runs only 8 times.
///
/// # Safety
/// `a` must point to 4 columns of `k` values each (`k` apart), `b` to 2; `from` ≤ `k`.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
unsafe fn dots_4x2_avx(
    k: usize,
    a: *const f32,
    b: *const f32,
    from: usize,
) -> [[std::arch::x86_64::__m256; 2]; 4] {
    use std::arch::x86_64::*;
    #[inline(always)]
    unsafe fn step(
        acc: &mut [[__m256; 2]; 4],
        (a, b, k, p): (*const f32, *const f32, usize, usize),
        load: impl Fn(*const f32) -> __m256,
    ) {
        let (b0, b1) = (load(b.add(p)), load(b.add(k + p)));
        for (ii, acc_i) in acc.iter_mut().enumerate() {
            let av = load(a.add(ii * k + p));
            acc_i[0] = _mm256_add_ps(acc_i[0], _mm256_mul_ps(av, b0));
            acc_i[1] = _mm256_add_ps(acc_i[1], _mm256_mul_ps(av, b1));
        }
    }
    let mut acc = [[_mm256_setzero_ps(); 2]; 4];
    let whole = k - k % LANES;
    let mut p = from.min(whole);
    while p < whole {
        step(&mut acc, (a, b, k, p), |at| _mm256_loadu_ps(at));
        p += LANES;
    }
    if whole < k {
        // lanes past the end read as zeros, as the generic form's padding
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((k - whole) as i32), lane);
        step(&mut acc, (a, b, k, whole), |at| _mm256_maskload_ps(at, mask));
    }
    acc
}

/// The 8 dot products of a 4×2 block of `gemm_tn` from their lane sums, into `c`: each is
/// `add_lanes` of its 8 partial sums, the same additions in the same order, but the 8 reductions
/// run side by side in vector registers, transposing as they add, instead of one horizontal
/// sum (with its shuffles and scalar stores) per entry: about a third of the instructions.
/// Only the lanes' positions change, never what is added to what, so the bits are the same.
///
/// # Safety
/// `c` must hold rows `i..i + 4` of columns `j` and `j + 1` of an `m`-row column-major matrix.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
unsafe fn finish_4x2_avx(
    acc: [[std::arch::x86_64::__m256; 2]; 4],
    c: *mut f32,
    m: usize,
    i: usize,
    j: usize,
    add: bool,
) {
    use std::arch::x86_64::*;
    // h: [l0+l4, l1+l5, l2+l6, l3+l7] of entry (ii, 0) in the low half, of (ii, 1) in the high
    let h = |ii: usize| {
        let [a, b] = acc[ii];
        _mm256_add_ps(_mm256_permute2f128_ps::<0x20>(a, b), _mm256_permute2f128_ps::<0x31>(a, b))
    };
    // q: [h0+h2, h1+h3] of two rows side by side: [q0(r), q1(r), q0(r+1), q1(r+1)] per half
    let q = |r: usize| {
        let (x, y) = (h(r), h(r + 1));
        _mm256_add_ps(_mm256_shuffle_ps::<0x44>(x, y), _mm256_shuffle_ps::<0xEE>(x, y))
    };
    let (q01, q23) = (q(0), q(2));
    // q0 + q1 for rows 0..4: column j's four dot products in the low half, column j+1's high
    let dots = _mm256_add_ps(_mm256_shuffle_ps::<0x88>(q01, q23), _mm256_shuffle_ps::<0xDD>(q01, q23));
    for (jj, v) in [(0, _mm256_castps256_ps128(dots)), (1, _mm256_extractf128_ps::<1>(dots))] {
        let at = c.add((j + jj) * m + i);
        _mm_storeu_ps(at, if add { _mm_add_ps(_mm_loadu_ps(at), v) } else { v });
    }
}
