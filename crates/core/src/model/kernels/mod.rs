//! The kernels under the maths: matrix products, the causal and the unmasked softmax and the vector formulas
//! of `exp` and the normal cdf. Each file opens with its bit-order contract: the order of
//! every sum and operation, fixed in the source, so that a result is the same bits natively
//! and in wasm, whichever form (scalar, AVX2, simd128) runs. The ops in `model/` call these;
//! the timings behind each form's choice are in BENCHMARKS.md ("The kernels' forms").

pub mod lanes;
pub mod matmul;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "avx2"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod matmul_simd;
pub mod softmax;
pub mod softmax_dense;
