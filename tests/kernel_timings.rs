//! Per-kernel timings at the default shapes (64 tokens, width 32), natively and in wasm (Node),
//! to see which kernel makes wasm slower than native. Ignored in the test run; run with
//!
//!     cargo test --release --test kernel_timings -- --include-ignored --nocapture
//!     cargo test --release --target wasm32-unknown-unknown --test kernel_timings -- --include-ignored --nocapture
use ablation_playground::model::kernels::matmul::{gemm_nn, gemm_nt, gemm_tn};
use ablation_playground::model::norm::Norm;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::training::tasks::data::DataStream;
use ablation_playground::NormKind;
use nalgebra::DMatrix;

#[cfg(target_arch = "wasm32")]
mod t {
    use wasm_bindgen::prelude::*;
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance)]
        pub fn now() -> f64;
        #[wasm_bindgen(js_namespace = console)]
        pub fn log(s: &str);
    }
}
#[cfg(not(target_arch = "wasm32"))]
mod t {
    pub fn now() -> f64 {
        use std::time::*;
        SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64() * 1e3
    }
    pub fn log(s: &str) {
        println!("{s}");
    }
}

/// The fastest of 5 batches of n/5 calls, in µs per call (the other core's load only slows).
fn time(name: &str, n: usize, mut f: impl FnMut()) {
    f();
    let batch = (n / 5).max(1);
    let best = (0..5)
        .map(|_| {
            let t0 = t::now();
            for _ in 0..batch {
                f();
            }
            (t::now() - t0) * 1e3 / batch as f64
        })
        .fold(f64::INFINITY, f64::min);
    t::log(&format!("{name}: {best:.2} us"));
}

fn run() {
    let mut rng = Rng::new(1, Stream::Data);
    let x: Vec<f32> = (0..64 * 32).map(|_| rng.normal() as f32).collect();
    let w: Vec<f32> = (0..32 * 32).map(|_| rng.normal() as f32).collect();
    let mut y = vec![0f32; 64 * 32];
    let mut dw = vec![0f32; 32 * 32];
    time("gemm_nn 64x32x32 (xW)", 20000, || gemm_nn(64, 32, 32, std::hint::black_box(&x), &w, &mut y, false));
    time("gemm_nt 64x32x32 (dy Wt)", 20000, || {
        gemm_nt(64, 32, 32, std::hint::black_box(&x), &w, &mut y, false)
    });
    time("gemm_tn 32x64x32 (xt dy)", 20000, || {
        gemm_tn(32, 64, 32, std::hint::black_box(&x), &x, &mut dw, false)
    });
    time("gemm_tn_by_lanes 32x64x32", 20000, || {
        ablation_playground::model::kernels::matmul::gemm_tn_by_lanes(
            32,
            64,
            32,
            std::hint::black_box(&x),
            &x,
            &mut dw,
            false,
        )
    });
    let mut dw4 = vec![0f32; 32 * 128];
    let xb: Vec<f32> = (0..64 * 128).map(|_| rng.normal() as f32).collect();
    let wb: Vec<f32> = (0..32 * 128).map(|_| rng.normal() as f32).collect();
    let mut yb = vec![0f32; 64 * 128];
    time("gemm_nn 64x32x128 (ffn up)", 5000, || {
        gemm_nn(64, 32, 128, std::hint::black_box(&x), &wb, &mut yb, false)
    });
    time("gemm_nn 64x128x32 (ffn down)", 5000, || {
        gemm_nn(64, 128, 32, std::hint::black_box(&xb), &wb, &mut y, false)
    });
    time("gemm_nt 64x128x32 (ffn up bwd)", 5000, || {
        gemm_nt(64, 128, 32, std::hint::black_box(&xb), &wb, &mut y, false)
    });
    time("gemm_nt 64x32x128 (ffn down bwd)", 5000, || {
        gemm_nt(64, 32, 128, std::hint::black_box(&x), &wb, &mut yb, false)
    });
    time("gemm_tn 128x64x32 (ffn down: ht dy)", 5000, || {
        gemm_tn(128, 64, 32, std::hint::black_box(&xb), &x, &mut dw4, false)
    });
    let mut z: Vec<f32> = xb.clone();
    let mut gh = vec![0f32; 64 * 128];
    time("gelu forward, 64x128", 5000, || {
        z.copy_from_slice(&xb);
        ablation_playground::model::activation::gelu_forward(std::hint::black_box(&mut z), &mut gh)
    });
    let h = vec![0.5f32; 64 * 128];
    time("gemm_tn 32x64x128 (ffn up: xt dz)", 5000, || {
        gemm_tn(32, 64, 128, std::hint::black_box(&x), &h, &mut dw4, false)
    });
    // one attention head at the defaults: T = 64, d_h = 8
    {
        use ablation_playground::model::kernels::matmul::{
            gemm_nn_lower_a, gemm_nt_lower_c, gemm_tn_lower_a,
        };
        use ablation_playground::model::kernels::softmax::{softmax_causal, softmax_causal_backward};
        let (qh, kh) = (&x[..64 * 8], &x[64 * 8..64 * 16]);
        let mut s = vec![0f32; 64 * 64];
        let (mut m, mut sum, mut ch) = (vec![0f32; 64], vec![0f32; 64], vec![0f32; 64 * 8]);
        time("attention head: scores Q Kt (gemm_nt_lower_c)", 20000, || {
            gemm_nt_lower_c(64, 8, std::hint::black_box(qh), kh, &mut s)
        });
        let scores = s.clone();
        time("attention head: softmax_causal", 20000, || {
            s.copy_from_slice(&scores);
            softmax_causal(std::hint::black_box(&mut s), 64, 0.35, &mut m, &mut sum)
        });
        let p = s.clone();
        time("attention head: P V (gemm_nn_lower_a)", 20000, || {
            gemm_nn_lower_a(64, 8, std::hint::black_box(&p), kh, &mut ch)
        });
        time("attention head: Pt dC (gemm_tn_lower_a)", 20000, || {
            gemm_tn_lower_a(64, 8, std::hint::black_box(&p), kh, &mut ch)
        });
        time("attention head: softmax_causal_backward", 20000, || {
            s.copy_from_slice(&scores);
            softmax_causal_backward(std::hint::black_box(&p), &mut s, 64, 0.35, &mut m)
        });
        let xm = DMatrix::from_vec(64, 32, x.clone());
        let (mut out, mut dx) = (DMatrix::zeros(64, 32), DMatrix::zeros(64, 32));
        let mut scratch = ablation_playground::model::scratch::Scratch::default();
        for sublayer in [ablation_playground::SublayerKind::Attention, ablation_playground::SublayerKind::Ffn]
        {
            let config = ablation_playground::Config { sublayer, ..ablation_playground::Config::default() };
            let mut layer = ablation_playground::model::layer::Layer::<f32>::new(&config, 1);
            let name = format!("{sublayer:?}").to_lowercase();
            time(&format!("layer forward (pre-norm {name})"), 2000, || {
                layer.forward(std::hint::black_box(&xm), &mut out)
            });
            time(&format!("layer backward (pre-norm {name})"), 2000, || {
                layer.backward(std::hint::black_box(&xm), &xm, &mut dx, &mut scratch)
            });
        }
    }
    let xm = DMatrix::from_vec(64, 32, x.clone());
    let mut ym = DMatrix::zeros(64, 32);
    let mut dxm = DMatrix::zeros(64, 32);
    let mut ln = Norm::<f32>::new(NormKind::LayerNorm, 64, 32);
    time("layernorm fwd", 20000, || ln.forward(std::hint::black_box(&xm), &mut ym));
    time("layernorm bwd", 20000, || ln.backward(std::hint::black_box(&xm), &mut dxm));
    let mut data = DataStream::<f32>::new(1, 32, 32);
    let (mut bx, mut by) = (DMatrix::zeros(64, 32), DMatrix::zeros(64, 32));
    let mut normals = vec![0f32; 1024];
    time("1024 normals (one mlp layer's weights)", 2000, || {
        normals.iter_mut().for_each(|v| *v = rng.normal() as f32)
    });
    time("1024 normals, fill_normal", 2000, || rng.fill_normal(&mut normals, 1.0));
    time("1024 normals, fill_normal_batched", 2000, || rng.fill_normal_batched(&mut normals, 1.0));
    let mut stack96 = ablation_playground::Stack::<f32>::new(&ablation_playground::Config {
        depth: 96,
        ..ablation_playground::Config::default()
    });
    time("stack forward, depth 96 (mlp)", 200, || {
        stack96.forward(std::hint::black_box(&xm), &xm);
    });
    time("stack backward with norms, depth 96 (mlp)", 200, || stack96.backward(std::hint::black_box(&xm)));
    time("stack backward, depth 96 (mlp)", 200, || stack96.backward_gradients(std::hint::black_box(&xm)));
    time("stack all_finite, depth 96 (residual: the top only)", 2000, || {
        std::hint::black_box(stack96.all_finite());
    });
    time("every depth's all_finite, depth 96", 2000, || {
        std::hint::black_box(
            stack96.stream.iter().all(|x| ablation_playground::model::stats::all_finite(x.as_slice())),
        );
    });
    time("data next_batch", 5000, || data.next_batch(&mut bx, &mut by));
    time("mean_std of 64x32 (one depth of the probe's stds)", 20000, || {
        std::hint::black_box(ablation_playground::model::stats::mean_std(std::hint::black_box(
            xm.as_slice(),
        )));
    });
    let config = ablation_playground::Config::default();
    let mut layer = ablation_playground::model::layer::Layer::<f32>::new(&config, 0);
    let (mut out, mut dx) = (DMatrix::zeros(64, 32), DMatrix::zeros(64, 32));
    time("layer forward (pre-norm mlp)", 5000, || layer.forward(std::hint::black_box(&xm), &mut out));
    let mut scratch = ablation_playground::model::scratch::Scratch::default();
    time("layer backward (pre-norm mlp)", 5000, || {
        layer.backward(std::hint::black_box(&xm), &xm, &mut dx, &mut scratch)
    });
    let mut stack =
        ablation_playground::Stack::<f32>::new(&ablation_playground::Config { depth: 1, ..config.clone() });
    let mut opt = ablation_playground::training::step::optim::Optimizer::new(&config, &mut stack);
    time("adam, one layer + readout", 5000, || opt.update(&mut stack, 0));
    std::hint::black_box((&y, &dw, &ym, &dxm, &out, &dx));
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test::wasm_bindgen_test]
#[ignore]
fn kernels() {
    run();
}
#[cfg(not(target_arch = "wasm32"))]
#[test]
#[ignore]
fn kernels() {
    run();
}
