//! `cargo bench`: one training step (forward + backward + update) at depths 1, 12, 48, 96
//! for each sublayer kind, at the default width and tokens. A plain harness: after a
//! warm-up it times batches of steps and reports the median and the fastest batch per step.
//! Record the figures in BENCHMARKS.md together with the machine.

use ablation_playground::config::{Config, SublayerKind};
use ablation_playground::Trainer;
use std::time::Instant;

fn time_step(config: &Config) -> (f64, f64) {
    let mut trainer = Trainer::<f32>::new(config);
    // keep the run finite whatever the recipe does: re-create the trainer if it diverges
    let step = |t: &mut Trainer<f32>| {
        if t.diverged_at.is_some() {
            *t = Trainer::new(config);
        }
        t.one_step(true);
    };
    let warm = Instant::now();
    let mut n = 0;
    while warm.elapsed().as_secs_f64() < 0.3 || n < 3 {
        step(&mut trainer);
        n += 1;
    }
    let per_batch = ((0.05 / (warm.elapsed().as_secs_f64() / n as f64)) as usize).max(1);
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..per_batch {
                step(&mut trainer);
            }
            t0.elapsed().as_secs_f64() * 1e3 / per_batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0])
}

fn main() {
    // `cargo bench -- <filter>` runs the rows whose label contains the filter
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    let defaults = Config::default();
    println!(
        "one training step, width {} tokens {}, {:?} lr {} — ms per step (median, fastest batch)",
        defaults.width, defaults.tokens, defaults.optimizer, defaults.learning_rate
    );
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for depth in [1, 12, 48, 96] {
            let label = format!("{sublayer:?} depth {depth}").to_lowercase();
            if !label.contains(&filter) {
                continue;
            }
            let (median, best) = time_step(&Config { depth, sublayer, ..defaults.clone() });
            println!(
                "{label:<22} {median:>8.3} ms  {best:>8.3} ms  ({:.4} ms per sublayer)",
                median / depth as f64
            );
        }
    }
}
