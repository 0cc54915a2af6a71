//! `cargo bench`: one training step (forward + backward + update) at depths 1, 12, 48, 96
//! for each sublayer kind, at the default width and tokens; then a full rebuild at depth 96
//! (`Trainer::new` and the initial snapshot: what follows a seed, gain, width or sublayer
//! change). A plain harness: after a warm-up it times batches and reports the median and the
//! fastest batch per step or rebuild. Record the figures in BENCHMARKS.md with the machine.

use ablation_playground::config::{Config, SublayerKind};
use ablation_playground::training::step::report::Snapshot;
use ablation_playground::Trainer;
use std::time::Instant;

/// Median and fastest of 15 batches, in ms per call of `f`, after 0.3 s of warm-up.
fn time(mut f: impl FnMut()) -> (f64, f64) {
    let warm = Instant::now();
    let mut n = 0;
    while warm.elapsed().as_secs_f64() < 0.3 || n < 3 {
        f();
        n += 1;
    }
    let per_batch = ((0.05 / (warm.elapsed().as_secs_f64() / n as f64)) as usize).max(1);
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            t0.elapsed().as_secs_f64() * 1e3 / per_batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0])
}

fn time_step(config: &Config) -> (f64, f64) {
    let mut trainer = Trainer::<f32>::new(config);
    // keep the run finite whatever the recipe does: re-create the trainer if it diverges
    let step = |t: &mut Trainer<f32>| {
        if t.diverged_at.is_some() {
            *t = Trainer::new(config);
        }
        t.one_step(true);
    };
    time(|| step(&mut trainer))
}

/// The text task's own work (embedding, the unembedding over 70 characters, the softmax
/// cross-entropy, and the held-out loss every 100 steps) against the same stack and tokens on
/// the teacher task: the two alternated `rounds` times, each round's ratio of medians, and
/// the median of those ratios (paired: a busy minute slows both sides of a round).
pub fn task_overhead(config: &Config, rounds: usize) -> (f64, f64, f64) {
    use ablation_playground::config::TaskKind;
    let teacher = Config { task: TaskKind::Teacher, ..config.clone() };
    let mut ratios = Vec::new();
    let (mut t_ms, mut x_ms) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = time_step(&teacher).0;
        let x = time_step(config).0;
        ratios.push(x / t);
        t_ms.push(t);
        x_ms.push(x);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(t_ms), median(x_ms), median(ratios))
}

/// The lens's share of a live worker's second, paired over `rounds`: the worker trains flat
/// out and the page draws 60 frames a second, or one a step when steps are slower (a frame
/// probes only weights it has not probed). Per frame it adds the update ratios and the
/// attention maps (the regression: its readouts on the probe batch); per held-out measurement
/// (every 100 steps) the readouts of each held-out batch (timed on the probe batch, of the same
/// shape). Returns the medians of (ms per frame, ms per measurement, ms per step, share).
pub fn lens_share(config: &Config, rounds: usize) -> [f64; 4] {
    use ablation_playground::config::TaskKind;
    use ablation_playground::training::live::attention_view::attention_maps;
    use ablation_playground::training::tasks::task::EVAL_POSITIONS;
    const FRAMES_PER_SECOND: f64 = 60.0;
    let held_out_batches =
        if config.task == TaskKind::Teacher { 0 } else { EVAL_POSITIONS.div_ceil(config.tokens) };
    let mut trainer = Trainer::<f32>::new(config);
    for _ in 0..20 {
        trainer.one_step(true);
    }
    let mut rows: Vec<[f64; 4]> = Vec::new();
    for _ in 0..rounds {
        let step = time_step(config).0;
        trainer.probe_forward_skipping(&[]);
        let readout = time(|| {
            std::hint::black_box(trainer.probe_readout_losses());
        })
        .0;
        let per_frame = time(|| {
            std::hint::black_box(trainer.stack.update_ratios());
            if config.task == TaskKind::Teacher {
                std::hint::black_box(trainer.probe_readout_losses()); // the regression's lens, on the probe
            } else {
                std::hint::black_box(attention_maps(&trainer, config.attention_layer));
            }
        })
        .0;
        let measurement = held_out_batches as f64 * readout;
        let steps_per_second = 1000.0 / step;
        let frames_per_second = FRAMES_PER_SECOND.min(steps_per_second);
        let share = (frames_per_second * per_frame + steps_per_second / 100.0 * measurement) / 1000.0;
        rows.push([per_frame, measurement, step, share]);
    }
    std::array::from_fn(|i| {
        let mut v: Vec<f64> = rows.iter().map(|r| r[i]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    })
}

/// What the page's thread says after each frame in each shipped language (issue 55): the
/// status line, the caption and every live panel's summary, each a Fluent message (or several)
/// with its numbers in the language's format; beside it, a training step of the same run.
pub fn words_of_a_frame(config: &Config) -> [f64; 4] {
    use ablation_playground::language::Language;
    use ablation_playground::training::live::session::Session;
    use ablation_playground::view::panels::{Panel, Scene};
    use ablation_playground::view::words::{caption, status_line};
    use std::rc::Rc;
    let mut session = Session::new(config);
    for _ in 0..20 {
        session.train_step();
    }
    let frame = session.frame();
    let scene = Scene { frame: Some(&frame), pins: &[], tuned_lens: None };
    let say = |tag: &str| {
        let language = Rc::new(Language::shipped(tag).unwrap());
        time(|| {
            language.with(|| {
                std::hint::black_box((status_line(&frame), caption(&frame)));
                for panel in Panel::ALL {
                    if panel.ready(&scene) {
                        std::hint::black_box(panel.words(&scene));
                    }
                }
            })
        })
        .0
    };
    let (en, es, zh) = (say("en"), say("es"), say("zh"));
    [
        en,
        es,
        zh,
        time(|| {
            session.train_step();
        })
        .0,
    ]
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
    let text = ablation_playground::config::text_defaults();
    for (label, config) in [
        ("text task, defaults (block depth 12, 128 tokens as 4 x 32)", text.clone()),
        ("text task, block depth 48", Config { depth: 48, ..text.clone() }),
        (
            "text task, block depth 96, width 128, 256 tokens as 4 x 64",
            Config { depth: 96, width: 128, tokens: 256, context: 64, ..text.clone() },
        ),
    ] {
        if !label.contains(&filter) {
            continue;
        }
        let (teacher, task, ratio) = task_overhead(&config, 5);
        println!("{label:<62} teacher {teacher:>8.3} ms  text {task:>8.3} ms  text / teacher {ratio:.3} (median of 5 paired rounds)");
    }
    for (label, config) in [
        ("lens, text defaults (block depth 12, 128 tokens as 4 x 32)", text.clone()),
        (
            "lens, text, block depth 96, width 128, 256 tokens as 4 x 64",
            Config { depth: 96, width: 128, tokens: 256, context: 64, ..text.clone() },
        ),
        ("lens, copy defaults", ablation_playground::config::copy_defaults()),
        ("lens, regression defaults (mlp depth 12)", defaults.clone()),
        ("lens, regression, mlp depth 96", Config { depth: 96, ..defaults.clone() }),
    ] {
        if !label.contains(&filter) {
            continue;
        }
        let [frame, measurement, step, share] = lens_share(&config, 5);
        println!(
            "{label:<62} per frame {frame:.4} ms  per held-out measurement {measurement:.3} ms  step {step:.3} ms  share of the worker {:.2}% (medians of 5 rounds)",
            100.0 * share
        );
    }
    for (label, config) in [
        ("words of a frame, text defaults", text.clone()),
        (
            "words of a frame, text, block depth 96, width 128, 256 tokens",
            Config { depth: 96, width: 128, tokens: 256, context: 64, ..text.clone() },
        ),
    ] {
        if !label.contains(&filter) {
            continue;
        }
        let [en, es, zh, step] = words_of_a_frame(&config);
        println!(
            "{label:<62} en {en:.4} ms  es {es:.4} ms  zh {zh:.4} ms  against a step's {step:.3} ms (medians)"
        );
    }
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        let label = format!("{sublayer:?} rebuild, depth 96").to_lowercase();
        if !label.contains(&filter) {
            continue;
        }
        let config = Config { depth: 96, sublayer, ..defaults.clone() };
        let (median, best) = time(|| {
            let mut trainer = Trainer::<f32>::new(&config);
            std::hint::black_box(Snapshot::take(&mut trainer));
        });
        println!("{label:<30} {median:>8.3} ms  {best:>8.3} ms");
    }
}
