//! What the model writes, batches of sequences, and the held-out measurement.

use super::*;

#[test]
fn the_sampler_is_greedy_at_temperature_0_and_follows_the_softmax_otherwise() {
    use ablation_playground::training::live::writing::sample_token;
    let logits = DMatrix::from_row_slice(2, 4, &[0.5f32, 2.0, 2.0, -1.0, 0.0, 0.0, 0.0, 9.0]);
    // greedy: the first of the largest, whatever the stream
    assert_eq!(sample_token(&logits, 0, 0.0, &mut Rng::new(1, Stream::Sample)), 1);
    assert_eq!(sample_token(&logits, 1, 0.0, &mut Rng::new(2, Stream::Sample)), 3);
    // seeded: the same stream draws the same tokens
    let draws = |seed, temperature| {
        let mut rng = Rng::new(seed, Stream::Sample);
        (0..4000).map(|_| sample_token(&logits, 0, temperature, &mut rng)).collect::<Vec<_>>()
    };
    assert_eq!(draws(5, 1.0), draws(5, 1.0));
    assert_ne!(draws(5, 1.0), draws(6, 1.0));
    // the frequencies are the softmax's, at temperature 1 and 0.5
    for temperature in [1.0, 0.5] {
        let z: Vec<f64> = [0.5f64, 2.0, 2.0, -1.0].iter().map(|l| (l / temperature).exp()).collect();
        let total: f64 = z.iter().sum();
        let got = draws(7, temperature);
        for (token, p) in z.iter().map(|v| v / total).enumerate() {
            let share = got.iter().filter(|&&t| t as usize == token).count() as f64 / got.len() as f64;
            // four binomial standard deviations of 4000 draws
            assert!(
                (share - p).abs() < 4.0 * (p * (1.0 - p) / 4000.0).sqrt() + 1e-9,
                "T {temperature}, token {token}: {share} vs {p}"
            );
        }
    }
}

#[test]
fn what_the_model_writes_is_fixed_by_the_seed_and_its_weights() {
    use ablation_playground::config::{Config, TaskKind};
    use ablation_playground::training::live::writing::{write, PROMPT, SAMPLE_CHARS};
    use ablation_playground::training::step::train::Trainer;
    let config = Config { depth: 2, task: TaskKind::Text, tokens: 64, context: 32, ..Config::default() };
    let written = |config: &Config, steps: usize| {
        let mut trainer = Trainer::<f32>::new(config);
        (0..steps).for_each(|_| {
            trainer.one_step(true);
        });
        write(&mut trainer, &mut None, None).unwrap()
    };
    let w = written(&config, 3);
    assert_eq!(w, written(&config, 3), "the same seed and weights write the same");
    assert!(w.text.starts_with(PROMPT) && w.text.chars().count() == PROMPT.len() + SAMPLE_CHARS);
    assert_eq!((w.given, w.step), (PROMPT.len(), 3));
    assert_ne!(w.text, written(&config, 4).text, "other weights write otherwise");
    assert_ne!(w.text, written(&Config { temperature: 0.0, ..config.clone() }, 3).text);
    // the twin cached between calls writes what a fresh one does
    let mut trainer = Trainer::<f32>::new(&config);
    let mut twin = None;
    let first = write(&mut trainer, &mut twin, None).unwrap();
    trainer.one_step(true);
    assert_eq!(write(&mut trainer, &mut twin, None).unwrap(), write(&mut trainer, &mut None, None).unwrap());
    assert_ne!(first.text, write(&mut trainer, &mut twin, None).unwrap().text);
}

#[test]
fn a_batch_of_sequences_is_each_sequence_on_its_own() {
    use ablation_playground::config::{Config, SublayerKind, TaskKind};
    use ablation_playground::model::batch::{Batch, Tokens};
    use ablation_playground::model::stack::Stack;
    // two sequences of 5 in one batch give each position the logits it gets alone
    let both = Config {
        depth: 3,
        task: TaskKind::Copy,
        sublayer: SublayerKind::Block,
        tokens: 10,
        context: 5,
        width: 8,
        ..Config::default()
    };
    let one = Config { tokens: 5, ..both.clone() };
    let ids: Vec<u32> = vec![3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    let logits = |config: &Config, ids: &[u32]| {
        let mut stack = Stack::<f32>::new(config);
        stack.forward_batch(&Batch::Tokens(Tokens { ids: ids.to_vec(), next: ids.to_vec(), scored: vec![] }));
        stack.prediction().clone()
    };
    let together = logits(&both, &ids);
    for s in 0..2 {
        let alone = logits(&one, &ids[5 * s..5 * (s + 1)]);
        for t in 0..5 {
            for v in 0..both.vocab() {
                let (a, b) = (together[(5 * s + t, v)], alone[(t, v)]);
                assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "sequence {s}, position {t}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn a_sample_written_a_few_characters_at_a_time_is_the_sample_written_at_once() {
    use ablation_playground::config::{Config, TaskKind};
    use ablation_playground::training::live::frame::Frame;
    use ablation_playground::training::live::session::Session;
    let config =
        Config { depth: 2, task: TaskKind::Text, tokens: 64, context: 32, steps: 10, ..Config::default() };
    let trained = || {
        let mut s = Session::new(&config);
        while s.train_step() {}
        s
    };
    let (mut at_once, mut by_parts) = (trained(), trained());
    at_once.write();
    let mut calls = 0;
    while by_parts.write_some(7) {
        calls += 1;
    }
    assert_eq!(calls, 200 / 7, "a call per 7 characters until the 200th");
    let writing = |s: &mut Session| Frame::decode(&s.frame().encode()).unwrap().writing.unwrap();
    assert_eq!(writing(&mut at_once), writing(&mut by_parts));
    assert!(
        !by_parts.write_some(7) && !by_parts.writing_is_stale(),
        "nothing more to write for these weights"
    );
}

#[test]
fn a_run_on_the_page_measures_its_held_out_loss_where_it_stops() {
    use ablation_playground::config::{copy_defaults, Config};
    use ablation_playground::training::live::session::Session;
    let mut s = Session::new(&Config { depth: 2, steps: 30, ..copy_defaults() });
    while s.train_step() {}
    let f = s.frame();
    let steps: Vec<usize> = f.evals.iter().map(|e| e.step).collect();
    assert_eq!(steps, [0, 30], "step 0, then the step the run stopped at");
    assert!(f.evals[1].accuracy.is_finite());
}

/// The held-out measurement's share of the work is bounded at any batch size: at
/// most 16 held-out batches' forward passes per 100 training steps, the text's default, so
/// that at 8 tokens a step the 256 batches are measured every 1600 steps, not every 100.
#[test]
fn the_held_out_measurement_takes_a_bounded_share_at_any_batch_size() {
    use ablation_playground::config::{copy_defaults, Config};
    use ablation_playground::training::step::train::{eval_every, Trainer};
    for tokens in [8, 16, 24, 32, 64, 96, 128, 256] {
        let config = Config { tokens, context: 8, ..copy_defaults() };
        let every = eval_every(&config);
        let batches = ablation_playground::training::tasks::task::EVAL_POSITIONS.div_ceil(tokens);
        assert!(every.is_multiple_of(100), "{tokens}: every {every}");
        // forward positions measured per position trained (a step is a forward and a backward)
        let share = (batches * tokens) as f64 / (every * tokens) as f64;
        assert!(
            share <= 16.0 * 128.0 / (100.0 * 128.0) + 1e-12,
            "{tokens} tokens: {share} held-out positions per step"
        );
        assert!(tokens < 128 || every == 100, "at 128 tokens or more, every 100 steps as before: {every}");
    }
    // and the trainer measures at those steps: copy with one sequence of 16 a step
    let config = Config { tokens: 16, context: 16, ..copy_defaults() };
    let mut trainer = Trainer::<f32>::new(&config);
    for _ in 0..=1600 {
        trainer.one_step(true);
    }
    let steps: Vec<usize> = trainer.evals.iter().map(|e| e.step).collect();
    assert_eq!(steps, [0, 800, 1600], "measured every {} steps", eval_every(&config));
}
