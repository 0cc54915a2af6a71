//! A step split into shards (`training::shards`): the shards' mean gradient is the whole
//! batch's gradient, and the run's bits depend on the shards, never on how many executors ran
//! them.

use ablation_playground::config::Config;
use ablation_playground::model::param::Params;
use ablation_playground::training::report::trained_sharing;
use ablation_playground::training::shards::Shards;
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
            let val = |r: &ablation_playground::training::report::Run| {
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
                refused = Some(e.message);
            }
        }
        let refused = refused.or_else(|| c.check_together().err().map(|e| e.message));
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
    let said = c.settle().expect("8 shards of 4 sequences is refused");
    assert_eq!(c.shards, 4, "{said}");
    assert!(said.contains("4 shards") && c.check_together().is_ok(), "{said}");
    let mut c = with("text", &[("tokens", "65"), ("context", "1")]);
    c.shards = 2; // 65 sequences: no power of two above 1 divides them
    let said = c.settle().expect("refused");
    assert_eq!((c.shards, c.tokens), (1, 65), "the tokens stay: {said}");
    assert!(!said.contains("tokens"), "only the shards changed: {said}");
}
