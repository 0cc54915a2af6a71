use ablation_playground::matmul::*;
use std::time::Instant;
fn main() {
    let (m, k, n) = (64, 32, 32);
    let a: Vec<f32> = (0..m * k).map(|i| (i as f32).sin()).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i as f32).cos()).collect();
    let mut c = vec![0f32; m * n];
    for (name, f) in [
        ("nn", gemm_nn::<f32> as fn(usize, usize, usize, &[f32], &[f32], &mut [f32], bool)),
        ("nt", gemm_nt::<f32>),
    ] {
        let t = Instant::now();
        let reps = 20000;
        for _ in 0..reps {
            f(m, k, n, std::hint::black_box(&a), &b, std::hint::black_box(&mut c), false);
        }
        let s = t.elapsed().as_secs_f64() / reps as f64;
        println!("{name}: {:.2} us, {:.1} GFLOP/s", s * 1e6, 2.0 * (m * k * n) as f64 / s / 1e9);
    }
}
