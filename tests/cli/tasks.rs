//! Presets, tasks, the lens and the two stacks, as the CLI reports them.

use super::*;

#[test]
fn a_preset_applies_first_and_other_flags_adjust_it() {
    let alone = report(&["--preset", "explode", "--steps", "3"]);
    assert_eq!(alone["config"]["optimizer"], "sgd");
    assert_eq!(alone["config"]["residual"], "off");
    let after = report(&["--preset", "explode", "--depth", "4", "--steps", "3"]);
    let before = report(&["--depth", "4", "--preset", "explode", "--steps", "3"]);
    assert_eq!(after, before, "the preset comes first wherever it stands");
    assert_eq!(after["config"]["depth"], 4);
    assert_eq!(after["config"]["gain"], 2.0);
    let out = ablate(&["--preset", "boom"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("ablate: --preset:") && err.contains("explode") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn the_sequence_tasks_add_their_block_and_the_teacher_only_its_name() {
    let plain = ablate(&["--depth", "3", "--steps", "4"]);
    let teacher = ablate(&["--depth", "3", "--steps", "4", "--task", "teacher"]);
    assert_eq!(plain.stdout, teacher.stdout, "--task teacher changes nothing");
    let r: Value = serde_json::from_slice(&teacher.stdout).unwrap();
    assert_eq!(r["task"], serde_json::json!({ "name": "teacher" }));

    let steps = 205; // the held-out loss is measured at steps 0, 100, 200 and the last
    let text = report(&["--preset", "text", "--depth", "2", "--steps", &steps.to_string()]);
    let t = &text["task"];
    assert_eq!((t["name"].as_str(), t["vocab"].as_u64()), (Some("text"), Some(70)));
    let (uni, bi) = (t["floors"]["unigram"].as_f64().unwrap(), t["floors"]["bigram"].as_f64().unwrap());
    assert!(bi < uni && (uni - 3.30).abs() < 0.02 && (bi - 2.46).abs() < 0.02, "{uni} {bi}");
    let val = t["val_loss"].as_array().unwrap();
    let at: Vec<u64> = val.iter().map(|p| p[0].as_u64().unwrap()).collect();
    assert_eq!(at, [0, 100, 200, steps as u64]);
    assert!(val.iter().all(|p| p[1].as_f64().unwrap() > 0.0));
    assert!(val[3][1].as_f64() < val[0][1].as_f64(), "it learns: {val:?}");
    let sample = t["sample"].as_str().unwrap();
    assert!(
        sample.starts_with("OTHELLO.\n") && sample.chars().count() == "OTHELLO.\n".len() + 200,
        "{sample:?}"
    );
    assert!(t.get("accuracy").is_none(), "only the copy task has an accuracy");
    assert_eq!(text["config"]["task"], "text");
    assert_eq!(
        (text["config"]["tokens"].as_u64(), text["config"]["context"].as_u64()),
        (Some(128), Some(32))
    );

    let copy = report(&["--preset", "copy", "--depth", "2", "--steps", "30"]);
    let t = &copy["task"];
    assert_eq!((t["name"].as_str(), t["vocab"].as_u64()), (Some("copy"), Some(11)));
    assert!((t["floors"]["chance"].as_f64().unwrap() - 10f64.ln()).abs() < 1e-12);
    let accuracy = t["accuracy"].as_array().unwrap();
    assert_eq!(accuracy.len(), t["val_loss"].as_array().unwrap().len());
    assert!(accuracy.iter().all(|p| (0.0..=1.0).contains(&p[1].as_f64().unwrap())));
    // one held-out example: eight digits, the separator, and the stack's eight
    let sample = t["sample"].as_str().unwrap();
    let first = sample.lines().next().unwrap();
    assert!(first.len() == 17 && first.as_bytes()[8] == b'|', "{sample:?}");

    // All four on a task carries each combination's held-out loss and sample
    let four = report(&["--preset", "copy", "--depth", "2", "--steps", "3", "--compare"]);
    for row in four["compare"].as_array().unwrap() {
        assert!(
            row["val_loss"].as_f64().is_some() && row["sample"].as_str().is_some_and(|s| !s.is_empty()),
            "{row}"
        );
    }

    for bad in [["--task", "poetry"], ["--context", "48"]] {
        let out = ablate(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("ablate: {}", if bad[0] == "--task" { "--task" } else { "--tokens" })),
            "{err}"
        );
    }
}

#[test]
fn every_task_reports_its_layers_and_attention_on_request() {
    // the regression: readouts on the probe batch, the last the probe loss
    let r = report(&["--depth", "4", "--steps", "20"]);
    let layers = &r["layers"];
    for when in ["init", "final"] {
        assert_eq!(layers["readout_loss"][when].as_array().unwrap().len(), 5, "{when}: L + 1 readouts");
        assert_eq!(layers["update_ratio"][when].as_array().unwrap().len(), 4, "{when}: one ratio per layer");
    }
    assert_eq!(layers["readout_loss"]["final"][4], r["final"]["probe_loss"]);
    assert_eq!(layers["readout_loss"]["init"][4], r["init"]["probe_loss"]);
    assert!(r.get("attention").is_none(), "no attention block unless asked");
    // a sequence task: the readout at the top is the held-out loss at the same moment
    let args = ["--preset", "copy", "--depth", "4", "--steps", "30", "--attention"];
    let r = report(&args);
    let val = r["task"]["val_loss"].as_array().unwrap();
    assert_eq!(r["layers"]["readout_loss"]["init"][4], val[0][1]);
    assert_eq!(r["layers"]["readout_loss"]["final"][4], val[val.len() - 1][1]);
    let attention = &r["attention"];
    let tokens = attention["tokens"].as_str().unwrap();
    assert_eq!(tokens.chars().count(), 16, "one character per position of the copy context");
    assert!(tokens.contains('|'), "the copy example's separator: {tokens}");
    let maps = attention["maps"].as_array().unwrap();
    assert_eq!(
        maps.iter().map(|m| m["layer"].as_u64().unwrap()).collect::<Vec<_>>(),
        [0, 2],
        "one map per attention sublayer"
    );
    for m in maps {
        let heads = m["heads"].as_array().unwrap();
        assert_eq!(heads.len(), 4);
        for rows in heads {
            let rows = rows.as_array().unwrap();
            assert_eq!(rows.len(), 16);
            for (q, row) in rows.iter().enumerate() {
                let row: Vec<f64> = row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                assert_eq!(row.len(), 16);
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5);
                assert!(row[q + 1..].iter().all(|&x| x == 0.0));
            }
        }
    }
    // the text task, a stack without attention: an empty list of maps
    let r = report(&["--preset", "text", "--sublayer", "ffn", "--depth", "2", "--steps", "3", "--attention"]);
    assert_eq!(r["attention"]["maps"].as_array().unwrap().len(), 0);
    assert_eq!(r["layers"]["readout_loss"]["final"].as_array().unwrap().len(), 3);
    // a bad flag: the usual one line and exit code 2
    for bad in [&["--attention=yes"][..], &["--attention-layer", "96"], &["--attention-layer", "-1"]] {
        let out = ablate(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end().lines().count(), 1, "{bad:?}");
    }
}

#[test]
fn svg_export_draws_the_lens_panels() {
    let dir = std::env::temp_dir().join(format!("ablate-svg-{}-lens", std::process::id()));
    report(&[
        "--preset",
        "copy",
        "--depth",
        "4",
        "--steps",
        "10",
        "--attention-layer",
        "3",
        "--svg",
        dir.to_str().unwrap(),
    ]);
    for (name, expected) in
        [("readout", "loss read out at depth"), ("attention", "layer 2: where each position looks")]
    {
        let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(svg.contains(expected), "{name}: {expected}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `--steps` the CLI trains what the page trains: the preset's or the task's own count
/// (the regression 5000, text 3000, copy 1000, induction 3000), and its comparisons the page's
/// count for the task. `--steps` still sets both.
#[test]
fn steps_default_to_the_presets_count_as_on_the_page() {
    let loss_len = |r: &Value| r["loss"].as_array().unwrap().len() - 1; // the loss at 0..=steps
    for (preset, steps) in [("copy", 1000), ("induction", 3000)] {
        let r = report(&["--preset", preset, "--depth", "1", "--sublayer", "attention"]);
        assert_eq!(loss_len(&r), steps, "{preset}");
        let last = r["task"]["val_loss"].as_array().unwrap().last().unwrap()[0].as_u64().unwrap();
        assert_eq!(last as usize, steps, "{preset}: the last held-out measurement");
    }
    let r = report(&["--depth", "1", "--width", "8", "--tokens", "4"]);
    assert_eq!(loss_len(&r), 5000, "the regression, as the page's default");
    let r = report(&["--depth", "1", "--width", "8", "--tokens", "4", "--steps", "20"]);
    assert_eq!(loss_len(&r), 20, "an explicit --steps");
    // All four: the page's count for the task, unless --steps says
    let curve = |r: &Value| r["compare"][0]["loss"].as_array().unwrap().len() - 1;
    let r = report(&[
        "--preset",
        "copy",
        "--depth",
        "1",
        "--sublayer",
        "attention",
        "--steps",
        "10",
        "--compare",
    ]);
    assert_eq!(curve(&r), 10);
    let r = report(&["--preset", "copy", "--depth", "1", "--sublayer", "attention", "--compare"]);
    assert_eq!(curve(&r), 500, "copy's All four on the page trains 500 steps");
}

/// `--task` does what the page's Task menu does: the task's defaults, keeping the depth, the
/// switches, the norm's kind and the seed; the other flags adjust them, wherever they stand.
#[test]
fn task_applies_the_tasks_defaults_as_the_pages_menu() {
    let r = report(&["--task", "text", "--steps", "0"]);
    let c = &r["config"];
    assert_eq!(
        (c["sublayer"].as_str(), c["tokens"].as_u64(), c["context"].as_u64()),
        (Some("block"), Some(128), Some(32))
    );
    let r = report(&[
        "--depth",
        "3",
        "--residual",
        "off",
        "--norm",
        "post",
        "--seed",
        "7",
        "--task",
        "induction",
        "--steps",
        "0",
    ]);
    let c = &r["config"];
    assert_eq!(
        (c["depth"].as_u64(), c["residual"].as_str(), c["norm"].as_str(), c["seed"].as_u64()),
        (Some(3), Some("off"), Some("post"), Some(7))
    );
    assert_eq!(
        (c["sublayer"].as_str(), c["lr"].as_f64(), c["context"].as_u64()),
        (Some("attention"), Some(0.003), Some(24))
    );
    let before = report(&["--tokens", "48", "--task", "copy", "--steps", "2"]);
    let after = report(&["--task", "copy", "--tokens", "48", "--steps", "2"]);
    assert_eq!(before, after, "the flags adjust the task's defaults wherever they stand");
    assert_eq!(after["config"]["tokens"], 48);
    // after a preset: the preset's switches and depth, the task's defaults
    let r = report(&["--preset", "explode", "--task", "copy", "--steps", "0"]);
    let c = &r["config"];
    assert_eq!(
        (c["residual"].as_str(), c["gain"].as_f64(), c["sublayer"].as_str()),
        (Some("off"), Some(1.0), Some("block"))
    );
    let out = ablate(&["--task", "poetry"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("ablate: --task:"));
}

/// The lens's and the knockout's report: the layers' weight gradients are the snapshots' own, the tuned lens's
/// top reads the model's held-out loss, and the knockout and depth or width carry their new
/// fields, each of the right length.
#[test]
fn the_reviewers_fields_keep_their_contract() {
    let r = report(&[
        "--task",
        "copy",
        "--depth",
        "3",
        "--tokens",
        "32",
        "--steps",
        "20",
        "--tuned-lens",
        "--knockout",
    ]);
    let layers = &r["layers"];
    for (phase, key) in [("init", "init"), ("final", "final")] {
        assert_eq!(layers["weight_grad_norm"][key], r[phase]["weight_grad_norm"], "{phase}");
    }
    let tuned = layers["tuned_readout_loss"].as_array().unwrap();
    let val = r["task"]["val_loss"].as_array().unwrap();
    assert_eq!(tuned.len(), 4, "L + 1 readings");
    assert_eq!(tuned[3], val.last().unwrap()[1], "the top reads the model's own held-out loss");
    assert_eq!(tuned[3], layers["readout_loss"]["final"][3], "as the logit lens's top does");
    let k = &r["knockout"];
    let top_k = k["top_k"].as_array().unwrap();
    assert_eq!(top_k.iter().map(|t| t["k"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(top_k.iter().all(|t| t["val_loss"].is_f64() && t["accuracy"].is_f64()), "{k}");
    let random = k["random_k"].as_array().unwrap();
    assert_eq!(
        random.iter().map(|t| (t["k"].as_u64().unwrap(), t["draws"].as_u64().unwrap())).collect::<Vec<_>>(),
        [(1, 5), (2, 5)]
    );
    // the upper 1 removed is the last layer knocked out alone
    assert_eq!(top_k[0]["loss"], k["loss"][2]);
    assert_eq!(top_k[0]["val_loss"], k["val_loss"][2]);
    // the regression refuses a tuned lens, in one line, exit code 2
    let out = ablate(&["--steps", "1", "--tuned-lens"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().count() == 1 && stderr.contains("--tuned-lens") && stderr.contains("regression"),
        "{stderr}"
    );
}
