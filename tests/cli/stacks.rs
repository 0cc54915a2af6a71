//! The two stacks, decoder-only and encoder–decoder, and the mask, as the CLI reports them.

use super::*;

/// The two stacks' report: `--stack`, `--mask`, `--task reverse`; the config names both, the
/// reverse task reports its accuracy, a stack without the mask its loss with the future hidden,
/// and `--attention` an encoder-decoder's maps, each a kind and a part, a cross map one row per
/// target position and one column per source position, every row summing to 1; a masked map is
/// exactly 0 above the diagonal, an unmasked one is not. Bad combinations: one line, exit 2.
#[test]
fn the_encoder_decoder_and_mask_contract() {
    let r = report(&[
        "--task",
        "reverse",
        "--stack",
        "encoder-decoder",
        "--depth",
        "5",
        "--tokens",
        "32",
        "--steps",
        "40",
        "--attention",
    ]);
    assert_eq!(
        (r["config"]["stack"].as_str(), r["config"]["mask"].as_str()),
        (Some("encoder-decoder"), Some("causal"))
    );
    assert_eq!(r["task"]["name"], "reverse");
    let accuracy = r["task"]["accuracy"].as_array().expect("the reverse task's accuracy");
    assert!(accuracy.iter().all(|p| (0.0..=1.0).contains(&p[1].as_f64().unwrap())), "{accuracy:?}");
    let a = &r["attention"];
    let (target, source) = (a["tokens"].as_str().unwrap(), a["source_tokens"].as_str().unwrap());
    assert_eq!((source.chars().count(), target.chars().count()), (8, 8), "{a}");
    assert!(target.starts_with('|'), "the decoder's rows begin at the separator: {target}");
    let maps = a["maps"].as_array().unwrap();
    let kinds: Vec<(i64, &str, &str)> = maps
        .iter()
        .map(|m| (m["layer"].as_i64().unwrap(), m["kind"].as_str().unwrap(), m["part"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [(0, "self", "encoder"), (2, "self", "decoder"), (3, "cross", "decoder")]);
    for m in maps {
        for head in m["heads"].as_array().unwrap() {
            let rows = head.as_array().unwrap();
            assert_eq!(rows.len(), 8, "{}", m["kind"]);
            for (q, row) in rows.iter().enumerate() {
                let row: Vec<f64> = row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                assert_eq!(row.len(), 8);
                let sum: f64 = row.iter().sum();
                assert!((sum - 1.0).abs() < 1e-5, "{} row {q} sums to {sum}", m["kind"]);
                let above: f64 = row[q + 1..].iter().sum();
                match (m["kind"].as_str(), m["part"].as_str()) {
                    (Some("self"), Some("decoder")) => assert_eq!(above, 0.0, "the decoder's mask, row {q}"),
                    _ if q < 7 => assert!(above > 0.0, "{} {} sees past row {q}", m["kind"], m["part"]),
                    _ => {}
                }
            }
        }
    }
    // the mask off on the text: the loss as trained beside the loss with the future hidden
    let text = report(&["--task", "text", "--mask", "none", "--depth", "2", "--steps", "30", "--attention"]);
    let (trained, hidden) = (&text["task"]["val_loss"], &text["task"]["loss_future_hidden"]);
    assert_eq!(trained.as_array().unwrap().len(), hidden.as_array().unwrap().len(), "{text}");
    let m = &text["attention"]["maps"][0];
    assert_eq!(m["masked"], false);
    let first = m["heads"][0][0].as_array().unwrap();
    assert!(first[1..].iter().any(|x| x.as_f64().unwrap() > 0.0), "row 0 sees the future without the mask");
    let masked = report(&["--task", "text", "--depth", "2", "--steps", "2"]);
    assert!(masked["task"].get("loss_future_hidden").is_none(), "only without the mask");
    // a comparison's run without the mask reports it too: the single run's last, bit for bit
    let unmasked = ["--task", "text", "--mask", "none", "--depth", "2", "--steps", "30"];
    let single = report(&unmasked);
    let compared = report(&[&unmasked[..], &["--compare-arms", "both-on"]].concat());
    let last = |r: &Value| r["task"]["loss_future_hidden"].as_array().unwrap().last().unwrap()[1].clone();
    let run = &compared["compare"][0]["runs"][0];
    assert_eq!(run["loss_future_hidden"], last(&single), "{run} against the single run's {}", last(&single));
    let masked = report(&["--task", "text", "--depth", "2", "--steps", "30", "--compare-arms", "both-on"]);
    assert!(masked["compare"][0]["runs"][0].get("loss_future_hidden").is_none(), "only without the mask");
    for bad in [
        &["--stack", "encoder-decoder"][..],
        &["--task", "text", "--stack", "encoder-decoder", "--depth", "5"],
        &["--task", "reverse", "--stack", "encoder-decoder", "--depth", "6"],
        &["--task", "reverse", "--stack", "encoder-decoder", "--depth", "5", "--sublayer", "ffn"],
        &[
            "--task",
            "reverse",
            "--stack",
            "encoder-decoder",
            "--depth",
            "5",
            "--context",
            "15",
            "--tokens",
            "30",
        ],
        &["--task", "reverse", "--stack", "encoder-decoder", "--depth", "5", "--depth-width"],
        &["--task", "reverse", "--stack", "encoder-decoder", "--depth", "5", "--sweep", "5,8"],
        &["--mask", "sideways"],
        &["--stack", "encoder"],
    ] {
        let out = ablate(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
    }
}

#[test]
fn an_encoder_decoder_fits_the_defaults_not_chosen_and_refuses_a_depth_chosen() {
    // the default depth 12 is no multiple of 5: the stack asked for moves it, as the page does
    let r = report(&["--stack", "encoder-decoder", "--task", "reverse", "--steps", "0"]);
    assert_eq!(
        (r["config"]["depth"].as_u64(), r["config"]["sublayer"].as_str()),
        (Some(10), Some("block")),
        "{}",
        r["config"]
    );
    // a depth the user chose that does not fit is refused: one line, exit code 2
    let out = ablate(&["--stack", "encoder-decoder", "--task", "reverse", "--depth", "12", "--steps", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.trim().lines().count() == 1 && stderr.contains("--depth") && stderr.contains("multiple of 5"),
        "{stderr}"
    );
}
