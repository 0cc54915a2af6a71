//! A step split into shards (`training::step::shards`): the shards' mean gradient is the whole
//! batch's gradient, and the run's bits depend on the shards, never on how many executors ran
//! them.

use ablation_playground::config::Config;
use ablation_playground::model::param::Params;
use ablation_playground::training::step::report::trained_sharing;
use ablation_playground::training::step::shards::Shards;
use ablation_playground::Trainer;

fn with(task: &str, pairs: &[(&str, &str)]) -> Config {
    let mut c = Config::default().with_task(task).unwrap();
    for (k, v) in pairs {
        c.set(k, v).unwrap();
    }
    c
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_sharded_run_gives_the_same_bits_on_one_two_or_three_executors() {
    let configs = [
        with("teacher", &[("depth", "4"), ("shards", "4")]),
        with("text", &[("depth", "4"), ("width", "16"), ("heads", "2"), ("shards", "4")]),
        with("copy", &[("depth", "4"), ("sublayer", "block"), ("shards", "2")]),
    ];
    for config in configs {
        let (one, mut t1) = trained_sharing(&config, 30, false, 1);
        for executors in [2, 3] {
            let (many, mut tn) = trained_sharing(&config, 30, false, executors);
            let what = format!("{:?} shards {} on {executors} executors", config.task, config.shards);
            assert_eq!(bits(&one.loss), bits(&many.loss), "{what}: the losses");
            assert_eq!(t1.weights(), tn.weights(), "{what}: the weights");
            let val = |r: &ablation_playground::training::step::report::Run| {
                r.task
                    .as_ref()
                    .map(|t| t.evals.iter().map(|e| e.loss).collect::<Vec<_>>())
                    .unwrap_or_default()
            };
            assert_eq!(bits(&val(&one)), bits(&val(&many)), "{what}: the held-out losses");
        }
    }
}

#[test]
fn the_shards_mean_gradient_is_the_whole_batchs_gradient() {
    // in f64, one step's gradient from the shards against the whole batch's forward and
    // backward on the same weights and batch
    for (task, pairs) in [
        ("teacher", vec![("depth", "3"), ("tokens", "16")]),
        ("text", vec![("depth", "4"), ("width", "16"), ("heads", "2"), ("tokens", "64"), ("context", "16")]),
        ("copy", vec![("depth", "3"), ("sublayer", "block")]),
    ] {
        for shards in ["2", "4"] {
            let mut pairs = pairs.clone();
            pairs.push(("shards", shards));
            let config = with(task, &pairs);
            let mut whole = Trainer::<f64>::new(&Config { shards: 1, ..config.clone() });
            let batch = whole.draw_batch().clone();
            let loss = whole.stack.forward_batch(&batch);
            whole.stack.backward_batch(&batch);
            let mut want = Vec::new();
            whole.stack.visit(&mut |p| want.extend_from_slice(p.grad.as_slice()));

            let mut sharded = Trainer::<f64>::new(&config);
            let mut split = Shards::new(&config, 1);
            let (shard_loss, finite) = split.step(&mut sharded.stack, &batch, true);
            assert!(finite);
            let mut got = Vec::new();
            sharded.stack.visit(&mut |p| got.extend_from_slice(p.grad.as_slice()));
            assert_eq!(got.len(), want.len());
            let norm = want.iter().map(|x| x * x).sum::<f64>().sqrt();
            let diff = got.iter().zip(&want).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
            assert!(diff <= 1e-12 * norm, "{task}, {shards} shards: ‖Δ∇‖ = {diff:e} of ‖∇‖ = {norm}");
            assert!(
                (shard_loss - loss).abs() <= 1e-12 * loss.abs(),
                "{task}, {shards} shards: {shard_loss} against {loss}"
            );
        }
    }
}

#[test]
fn shards_the_batch_cannot_divide_are_refused_with_the_reason() {
    for (task, pairs, why) in [
        ("text", vec![("shards", "3")], "1, 2, 4 or 8"),
        (
            "text",
            vec![("context", "0"), ("tokens", "64"), ("shards", "2")],
            "do not divide the batch's 1 sequences",
        ),
        ("reverse", vec![("stack", "encoder-decoder"), ("depth", "5"), ("shards", "2")], "encoder-decoder"),
        ("teacher", vec![("tokens", "6"), ("shards", "4")], "do not divide the batch's 6 tokens"),
    ] {
        let mut c = Config::default().with_task(task).unwrap();
        let mut refused = None;
        for (k, v) in pairs {
            if let Err(e) = c.set(k, v) {
                refused = Some(e.message());
            }
        }
        let refused = refused.or_else(|| c.check_together().err().map(|e| e.message()));
        assert!(refused.as_deref().is_some_and(|m| m.contains(why)), "{task}: {refused:?}, not {why}");
    }
}

#[test]
fn a_comparisons_sharded_run_is_the_single_sharded_run_whatever_the_threads() {
    let report = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ablate")).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let run =
        ["--task", "text", "--depth", "2", "--width", "16", "--heads", "2", "--steps", "40", "--shards", "2"];
    let single = report(&[&run[..], &["--threads", "1"]].concat());
    let last = single["loss"].as_array().unwrap().last().unwrap().clone();
    for threads in ["1", "2"] {
        let on = report(&[&run[..], &["--threads", threads]].concat());
        assert_eq!(on["loss"], single["loss"], "{threads} threads");
        let compared = report(&[&run[..], &["--compare-arms", "both-on", "--threads", threads]].concat());
        assert_eq!(
            compared["compare"][0]["runs"][0]["final_loss"], last,
            "{threads} threads: {}",
            compared["compare"][0]
        );
    }
}

#[test]
fn settling_a_configuration_takes_the_most_shards_its_batch_splits_into() {
    let mut c = with("text", &[("tokens", "64"), ("context", "16")]);
    c.shards = 8; // 4 sequences
    let said = c.settle().expect("8 shards of 4 sequences is refused").to_string();
    assert_eq!(c.shards, 4, "{said}");
    assert!(said.contains("4 shards") && c.check_together().is_ok(), "{said}");
    let mut c = with("text", &[("tokens", "65"), ("context", "1")]);
    c.shards = 2; // 65 sequences: no power of two above 1 divides them
    let said = c.settle().expect("refused").to_string();
    assert_eq!((c.shards, c.tokens), (1, 65), "the tokens stay: {said}");
    assert!(!said.contains("tokens"), "only the shards changed: {said}");
}

/// A helper's answer and its gradients (shard after shard) put into `shards`.
fn put(
    shards: &mut ablation_playground::training::step::shards::Shards<f32>,
    split: u64,
    answer: &[u8],
    gradients: &[f32],
) -> Result<(), String> {
    shards.put_answer(split, answer, &mut |i, into| {
        let n = into.len();
        into.copy_from_slice(gradients.get(i * n..(i + 1) * n).ok_or("short gradients")?);
        Ok(())
    })
}

/// A session's run whose split steps send some shards to helpers (`ShardRunner`, as the page's
/// helper workers run them) and run the rest here, as the live worker does.
fn helped_run(config: &Config, steps: usize, helpers: usize) -> (Vec<u64>, Vec<f32>) {
    use ablation_playground::training::live::session::Session;
    use ablation_playground::training::step::shards::ShardRunner;
    let mut session = Session::new(config);
    let mut runners: Vec<ShardRunner> = (0..helpers).map(|_| ShardRunner::default()).collect();
    let executors = helpers + 1;
    for split in 1..=steps as u64 {
        assert!(session.begin_split_step(), "step {split} began");
        let count = config.shards;
        // executor e takes the shards e, e + E, …; the helpers are executors 1, 2, …
        let tasks: Vec<Vec<u8>> = (1..executors.min(count))
            .map(|e| {
                let mine: Vec<usize> = (e..count).step_by(executors).collect();
                session.trainer().shards().unwrap().task(config, split, &mine)
            })
            .collect();
        for k in (0..count).step_by(executors) {
            session.trainer().shards().unwrap().run_here(k);
        }
        // the answers arrive in any order
        let weights = session.trainer().shards().unwrap().weights().to_vec();
        for (task, runner) in tasks.iter().zip(&mut runners).rev() {
            let (answer, gradients) = runner.run_slices(task, &weights).unwrap();
            put(session.trainer().shards().unwrap(), split, &answer, &gradients).unwrap();
        }
        assert!(session.trainer().shards().unwrap().complete());
        session.finish_split_step();
    }
    let trainer = session.trainer();
    let losses = trainer.evals.iter().map(|e| e.loss.to_bits()).collect();
    (losses, trainer.weights())
}

/// A small split run of each task: the teacher's and the copy's in 4 shards, the text's in 2.
fn small_split_runs() -> [Config; 3] {
    [
        with("teacher", &[("depth", "3"), ("width", "16"), ("shards", "4")]),
        with("text", &[("depth", "3"), ("width", "16"), ("heads", "2"), ("shards", "2")]),
        with("copy", &[("depth", "2"), ("sublayer", "block"), ("width", "16"), ("shards", "4")]),
    ]
}

#[test]
fn a_step_whose_shards_helpers_answer_has_the_bits_of_the_step_taken_here() {
    use ablation_playground::training::live::session::Session;
    for config in small_split_runs() {
        let steps = 12;
        let mut here = Session::new(&config);
        for _ in 0..steps {
            assert!(here.train_step());
        }
        let want_losses: Vec<u64> = here.trainer().evals.iter().map(|e| e.loss.to_bits()).collect();
        let want = here.trainer().weights();
        for helpers in [0, 1, 2, 3] {
            let (losses, weights) = helped_run(&config, steps, helpers);
            let what = format!("{:?}, {} shards, {helpers} helpers", config.task, config.shards);
            assert!(weights == want, "{what}: other weights than the step taken here");
            assert_eq!(losses, want_losses, "{what}: the held-out losses");
        }
    }
}

/// The page's live worker, when a frame is due and its probe costs more than a shard, gives
/// every shard of the next split step to its helpers and probes the stack meanwhile
/// (`www/engine.js`, `beginSplit`): the frame must be the one it would have sent between the
/// two steps, and the run's bits those of the step taken here.
#[test]
fn a_frame_probed_while_the_helpers_run_a_whole_step_is_the_last_steps_and_changes_no_bit() {
    use ablation_playground::training::live::session::Session;
    use ablation_playground::training::step::shards::ShardRunner;
    for config in small_split_runs() {
        let steps = 12;
        for helpers in [1, 2] {
            let what = format!("{:?}, {} shards, {helpers} helpers", config.task, config.shards);
            let (mut here, mut helped) = (Session::new(&config), Session::new(&config));
            let mut runners: Vec<ShardRunner> = (0..helpers).map(|_| ShardRunner::default()).collect();
            for split in 1..=steps as u64 {
                // the frame between two steps, here; and in the helped run, once its step began
                let between = here.frame().encode();
                assert!(here.train_step());
                assert!(helped.begin_split_step(), "{what}: step {split} began");
                let count = config.shards;
                let tasks: Vec<Vec<u8>> = (0..helpers.min(count))
                    .map(|h| {
                        let theirs: Vec<usize> = (h..count).step_by(helpers).collect();
                        helped.trainer().shards().unwrap().task(&config, split, &theirs)
                    })
                    .collect();
                let weights = helped.trainer().shards().unwrap().weights().to_vec();
                let during = helped.frame().encode();
                // (a held-out measurement is made as a step begins: then the frame has it already)
                if config.task == ablation_playground::config::TaskKind::Teacher {
                    assert!(
                        during == between,
                        "{what}: step {split}'s frame differs from the one between the steps"
                    );
                }
                for (task, runner) in tasks.iter().zip(&mut runners) {
                    let (answer, gradients) = runner.run_slices(task, &weights).unwrap();
                    put(helped.trainer().shards().unwrap(), split, &answer, &gradients).unwrap();
                }
                assert!(helped.trainer().shards().unwrap().complete(), "{what}: every shard answered");
                helped.finish_split_step();
            }
            assert!(
                helped.trainer().weights() == here.trainer().weights(),
                "{what}: other weights than the step taken here"
            );
            // (and than a run that never probed: a probe between steps changes no bit either)
            let mut plain = Session::new(&config);
            for _ in 0..steps {
                assert!(plain.train_step());
            }
            assert!(
                helped.trainer().weights() == plain.trainer().weights(),
                "{what}: other weights than a run without frames"
            );
            let losses =
                |s: &mut Session| s.trainer().evals.iter().map(|e| e.loss.to_bits()).collect::<Vec<_>>();
            assert_eq!(losses(&mut helped), losses(&mut here), "{what}: the held-out losses");
            assert!(helped.frame().encode() == here.frame().encode(), "{what}: the last frame");
        }
    }
}

#[test]
fn a_helpers_damaged_or_stray_answer_is_refused_and_changes_nothing() {
    use ablation_playground::training::live::session::Session;
    use ablation_playground::training::step::shards::ShardRunner;
    let config = with("teacher", &[("depth", "2"), ("width", "8"), ("tokens", "8"), ("shards", "2")]);
    let mut session = Session::new(&config);
    assert!(session.begin_split_step());
    let task = session.trainer().shards().unwrap().task(&config, 7, &[1]);
    let weights = session.trainer().shards().unwrap().weights().to_vec();
    let (answer, gradients) = ShardRunner::default().run_slices(&task, &weights).unwrap();
    let shards = session.trainer().shards().unwrap();
    let refused = |r: Result<(), String>, what: &str| {
        let e = r.expect_err(what);
        assert!(!e.is_empty(), "{what}");
    };
    refused(put(shards, 8, &answer, &gradients), "an answer to another step");
    refused(put(shards, 7, &answer[..answer.len() - 3], &gradients), "a truncated answer");
    refused(put(shards, 7, b"APA1 nonsense", &gradients), "bytes that are not an answer");
    refused(put(shards, 7, &answer, &gradients[..gradients.len() - 1]), "gradients cut short");
    assert_eq!(shards.missing(), vec![0, 1], "nothing kept from the refused answers");
    put(shards, 7, &answer, &gradients).unwrap();
    refused(put(shards, 7, &answer, &gradients), "the same shard twice");
    assert_eq!(shards.missing(), vec![0]);
    // a helper refuses what is not a task, a task cut short, and a batch out of range
    let mut runner = ShardRunner::default();
    assert!(runner.run_slices(b"nonsense", &weights).is_err());
    assert!(runner.run_slices(&task[..task.len() / 2], &weights).is_err());
    let e = runner.run_slices(&task, &weights[1..]).expect_err("weights cut short");
    assert!(e.contains("length"), "{e}");
    let text = with("text", &[("depth", "2"), ("width", "8"), ("heads", "2"), ("shards", "2")]);
    let mut s = Session::new(&text);
    assert!(s.begin_split_step());
    let mut bad = s.trainer().shards().unwrap().task(&text, 1, &[1]);
    // the last token's id (little-endian u32) set past the vocabulary
    let tail = bad.len() - 8 - 4 * text.shard().tokens - 4;
    bad[tail..tail + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let w = s.trainer().shards().unwrap().weights().to_vec();
    let e = runner.run_slices(&bad, &w).expect_err("an id out of the vocabulary");
    assert!(e.contains("does not fit"), "{e}");
}

#[test]
fn shards_zero_splits_a_step_in_two_from_its_size_where_the_batch_allows() {
    assert_eq!(Config::default().shards, 0, "the default chooses");
    let heavy = [("depth", "96"), ("width", "128"), ("tokens", "256")];
    for (task, pairs, want) in [
        ("teacher", vec![], 1),
        ("teacher", heavy.to_vec(), 2),
        // 96 × 128² × 128 = 2.01·10⁸ multiply-adds: just above the line; 90 layers just below
        ("teacher", vec![("depth", "96"), ("width", "128"), ("tokens", "128")], 2),
        ("teacher", vec![("depth", "90"), ("width", "128"), ("tokens", "128")], 1),
        // 6·10⁸ over 64 tokens: a shard of 32 is too small to pay
        ("text", vec![("depth", "96"), ("width", "128"), ("tokens", "64")], 1),
        ("text", vec![], 1),
        ("text", heavy.to_vec(), 2),
        // one sequence of all 256 tokens cannot be split
        ("text", [&heavy[..], &[("context", "0")]].concat(), 1),
        // an encoder-decoder's step is never split
        (
            "reverse",
            vec![("stack", "encoder-decoder"), ("depth", "95"), ("width", "128"), ("tokens", "256")],
            1,
        ),
        // a number asked for is the number
        ("teacher", [&heavy[..], &[("shards", "1")]].concat(), 1),
        ("teacher", [&heavy[..], &[("shards", "4")]].concat(), 4),
        ("teacher", vec![("shards", "2")], 2),
    ] {
        let c = with(task, &pairs);
        assert_eq!(c.step_shards(), want, "{task} {pairs:?}: {} multiply-adds", c.step_multiply_adds());
    }
    // and the step chosen is the step asked for, bit for bit
    let chosen = with("teacher", &[("depth", "96"), ("width", "128"), ("tokens", "128"), ("steps", "3")]);
    let asked = Config { shards: 2, ..chosen.clone() };
    let whole = Config { shards: 1, ..chosen.clone() };
    let loss = |c: &Config| bits(&trained_sharing(c, 3, false, 1).0.loss);
    assert_eq!(loss(&chosen), loss(&asked));
    assert_ne!(loss(&chosen), loss(&whole), "two shards sum in another order than the whole batch");
}
