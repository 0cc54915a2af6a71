//! The wasm counterpart of `cargo bench --bench step`: one training step and one rebuild at
//! depth 96 for each sublayer kind, timed in wasm (Node), for BENCHMARKS.md's "wasm within
//! 2.5× of native". Ignored in the test run; run it with
//!
//!     cargo test --release --target wasm32-unknown-unknown --test wasm_bench -- --include-ignored --nocapture
#![cfg(target_arch = "wasm32")]

use ablation_playground::training::live::session::Session;
use ablation_playground::{Config, SublayerKind};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
    #[wasm_bindgen(js_namespace = console)]
    fn log(s: &str);
}

/// Median over `batches` batches of `f` repeated until a batch takes at least 30 ms, per call.
fn median_ms(batches: usize, mut f: impl FnMut()) -> f64 {
    let t = now();
    f();
    let per = (30.0 / (now() - t).max(0.01)).ceil().max(1.0) as usize;
    let mut times: Vec<f64> = (0..batches)
        .map(|_| {
            let t = now();
            for _ in 0..per {
                f();
            }
            (now() - t) / per as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[batches / 2]
}

/// The text task's own work against the same stack and tokens on the teacher task, in wasm: the
/// two alternated in 5 rounds, the median of the rounds' ratios (`benches/step.rs`'s twin).
#[wasm_bindgen_test]
#[ignore]
fn text_task_against_the_teacher() {
    use ablation_playground::config::{text_defaults, TaskKind};
    use ablation_playground::Trainer;
    ablation_playground::training::tasks::corpus::install_text(include_bytes!("../www/data/shakespeare.txt"))
        .unwrap();
    log("wasm: one training step, the text task against the teacher on the same stack and tokens (ms, median)");
    let text = text_defaults();
    for (label, config) in [
        ("defaults (block depth 12, 128 tokens as 4 x 32)", text.clone()),
        (
            "block depth 96, width 128, 256 tokens as 4 x 64",
            Config { depth: 96, width: 128, tokens: 256, context: 64, ..text.clone() },
        ),
    ] {
        let teacher = Config { task: TaskKind::Teacher, ..config.clone() };
        let step_ms = |config: &Config| {
            let mut trainer = Trainer::<f32>::new(config);
            median_ms(7, || {
                trainer.one_step(true);
            })
        };
        let mut rounds: Vec<(f64, f64)> = (0..5).map(|_| (step_ms(&teacher), step_ms(&config))).collect();
        rounds.sort_by(|a, b| (a.1 / a.0).total_cmp(&(b.1 / b.0)));
        let (t, x) = rounds[2];
        log(&format!("{label:<50} teacher {t:>8.3}  text {x:>8.3}  text / teacher {:.3}", x / t));
    }
}

#[wasm_bindgen_test]
#[ignore]
fn step_and_rebuild_at_depth_96() {
    log("wasm, depth 96, defaults otherwise: ms per step / per rebuild (median)");
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        let config = Config { depth: 96, sublayer, ..Config::default() };
        let mut session = Session::new(&config);
        let step = median_ms(9, || {
            session.train_step();
        });
        // a rebuild as after a seed change: new layers, trainer, and the first probe
        let mut seed = 100;
        let rebuild = median_ms(5, || {
            seed += 1;
            session.restart(&Config { seed, ..config.clone() }, seed as u32);
        });
        log(&format!("{sublayer:?}: step {step:.3} ms, rebuild {rebuild:.2} ms"));
    }
}

/// A seed change at depth 96 by parts: the stack (its layers drawn), the trainer around it, and
/// the first probe.
#[wasm_bindgen_test]
#[ignore]
fn rebuild_by_parts() {
    use ablation_playground::training::measures::initial_layers::InitialLayers;
    use ablation_playground::training::step::report::Snapshot;
    use ablation_playground::Trainer;
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn] {
        let config = Config { depth: 96, sublayer, ..Config::default() };
        let mut initial = InitialLayers::<f32>::default();
        let mut seed = 100;
        let stack = median_ms(9, || {
            seed += 1;
            std::hint::black_box(initial.stack(&Config { seed, ..config.clone() }));
        });
        let depth_change = median_ms(9, || {
            std::hint::black_box(initial.stack(&config));
        });
        let mut trainer = Trainer::with_stack(&config, initial.stack(&config));
        let trainer_ms = median_ms(9, || {
            trainer = Trainer::with_stack(&config, initial.stack(&config));
        }) - depth_change;
        let probe = median_ms(9, || {
            std::hint::black_box(Snapshot::take(&mut trainer));
        });
        let probe_passes = median_ms(9, || {
            std::hint::black_box(trainer.probe());
        });
        let moments = median_ms(9, || {
            std::hint::black_box(trainer.stack.stream_moments());
        });
        let in_place = median_ms(9, || {
            seed += 1;
            trainer.restart(&Config { seed, ..config.clone() }, &mut initial);
        });
        log(&format!(
            "{sublayer:?}: a seed change in place (Trainer::restart, before the probe) {in_place:.2} ms"
        ));
        log(&format!(
            "{sublayer:?}: of the probe, forward + backward {probe_passes:.2} ms, moments {moments:.2} ms"
        ));
        log(&format!(
            "{sublayer:?}: stack after a seed change {stack:.2} ms, after a depth change {depth_change:.2} ms, trainer {trainer_ms:.2} ms, probe (warm) {probe:.2} ms"
        ));
    }
}
