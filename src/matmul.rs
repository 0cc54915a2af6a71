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
    for j in 0..n {
        let cj = &mut c[j * m..(j + 1) * m];
        if !add {
            cj.fill(F::zero());
        }
        for p in 0..k {
            axpy(b[p + j * k], &a[p * m..(p + 1) * m], cj);
        }
    }
}

/// `c = aᵀ · b` (or `c += aᵀ · b`), `a` is k×m, `b` is k×n.
pub fn gemm_tn<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == k * m && b.len() == k * n && c.len() == m * n);
    for j in 0..n {
        let bj = &b[j * k..(j + 1) * k];
        for i in 0..m {
            let d = dot(&a[i * k..(i + 1) * k], bj);
            let cij = &mut c[i + j * m];
            *cij = if add { *cij + d } else { d };
        }
    }
}

/// `c = a · bᵀ` (or `c += a · bᵀ`), `a` is m×k, `b` is n×k.
pub fn gemm_nt<F: Real>(m: usize, k: usize, n: usize, a: &[F], b: &[F], c: &mut [F], add: bool) {
    debug_assert!(a.len() == m * k && b.len() == n * k && c.len() == m * n);
    for j in 0..n {
        let cj = &mut c[j * m..(j + 1) * m];
        if !add {
            cj.fill(F::zero());
        }
        for p in 0..k {
            axpy(b[j + p * n], &a[p * m..(p + 1) * m], cj);
        }
    }
}

/// `y += alpha · x`
#[inline(always)]
pub fn axpy<F: Real>(alpha: F, x: &[F], y: &mut [F]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// Dot product with eight fixed partial sums: vectorisable, and the order is in the source.
#[inline(always)]
pub fn dot<F: Real>(x: &[F], y: &[F]) -> F {
    debug_assert_eq!(x.len(), y.len());
    let mut acc = [F::zero(); 8];
    let chunks = x.len() / 8;
    for c in 0..chunks {
        let xs = &x[c * 8..c * 8 + 8];
        let ys = &y[c * 8..c * 8 + 8];
        for l in 0..8 {
            acc[l] += xs[l] * ys[l];
        }
    }
    let mut tail = F::zero();
    for i in chunks * 8..x.len() {
        tail += x[i] * y[i];
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail
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
        for &(m, k, n) in &[(1, 1, 1), (5, 3, 7), (64, 32, 32), (9, 17, 4)] {
            let a = random(m, k, &mut rng);
            let b = random(k, n, &mut rng);
            let c0 = random(m, n, &mut rng);
            let close =
                |x: &DMatrix<f64>, y: &DMatrix<f64>| (x - y).amax() < 1e-12 * (1.0 + y.amax());

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
            gemm_nt(
                m,
                k,
                n,
                a.as_slice(),
                bt.as_slice(),
                c.as_mut_slice(),
                false,
            );
            assert!(close(&c, &(&a * &b)));
        }
    }
}
