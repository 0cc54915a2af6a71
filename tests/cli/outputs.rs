//! What the CLI writes beside its report: the SVGs of every panel and comparison, and the comparisons' fields.

use super::*;

#[test]
fn svg_export_writes_three_well_formed_svgs_for_every_sublayer() {
    for sublayer in ["mlp", "ffn", "attention", "block"] {
        let dir = std::env::temp_dir().join(format!("ablate-svg-{}-{sublayer}", std::process::id()));
        let dir_s = dir.to_str().unwrap();
        report(&["--depth", "3", "--sublayer", sublayer, "--steps", "5", "--width", "16", "--svg", dir_s]);
        for (name, expected) in
            [("histogram", "final LayerNorm(x_L)"), ("loss", "training loss"), ("depth", "per layer")]
        {
            let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{sublayer} {name}: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert!(doc.descendants().count() > 50, "{sublayer} {name}: the chart has content");
            assert!(svg.contains(expected), "{sublayer} {name}: title");
        }
        // and the status line of the frame drawn, as the page says it
        let status = std::fs::read_to_string(dir.join("status.txt")).unwrap();
        assert!(
            status.starts_with("3 layers · Residual ON · LayerNorm ON (pre) · act. std = ")
                && status.ends_with(" · step 5 · finished\n"),
            "{sublayer}: status.txt {status:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // a diverged run still draws, with its marker
    let dir = std::env::temp_dir().join(format!("ablate-svg-{}-diverged", std::process::id()));
    report(&[&DIVERGING[..], &["--steps", "30", "--svg", dir.to_str().unwrap()]].concat());
    let svg = std::fs::read_to_string(dir.join("loss.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert!(svg.contains("diverged at step"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn comparisons_join_the_report_with_their_fields_and_lengths() {
    let base = ["--depth", "4", "--width", "16", "--tokens", "8", "--steps", "6", "--norm", "post"];
    let r = report(&[&base[..], &["--compare", "--knockout", "--sweep", "1,3,2"]].concat());
    let plain = report(&base);
    for field in ["config", "init", "final", "loss", "diverged_at", "histogram"] {
        assert_eq!(r[field], plain[field], "the comparisons leave the run's own report alone: {field}");
    }

    let k = &r["knockout"];
    assert!(k["intact_loss"].as_f64().unwrap() > 0.0);
    assert_eq!(numbers(&k["loss"]).len(), 4);
    assert_eq!(numbers(&k["output_change"]).len(), 4);
    assert!(numbers(&k["output_change"]).iter().all(|c| c.is_some_and(|c| c > 0.0)));

    let compare = r["compare"].as_array().unwrap();
    let switches: Vec<(&str, &str)> =
        compare.iter().map(|e| (e["residual"].as_str().unwrap(), e["norm"].as_str().unwrap())).collect();
    assert_eq!(switches, [("off", "off"), ("off", "post"), ("on", "off"), ("on", "post")]);
    for e in compare {
        for field in ["init_top_std", "grad_ratio", "final_loss"] {
            assert!(e[field].is_number(), "{field}: {e}");
        }
        assert!(e["diverged_at"].is_null());
        let loss = numbers(&e["loss"]);
        assert_eq!(loss.len(), 7);
        assert_eq!(loss[6], e["final_loss"].as_f64());
    }
    // the run's own switches (residual on, norm post) are the last entry: the same run
    assert_eq!(compare[3]["loss"], plain["loss"]);
    let top_std = &plain["init"]["act_std"][4];
    assert_eq!(&compare[3]["init_top_std"], top_std);
    let ratio =
        plain["init"]["grad_norm"][0].as_f64().unwrap() / plain["init"]["grad_norm"][4].as_f64().unwrap();
    assert_eq!(compare[3]["grad_ratio"].as_f64().unwrap().to_bits(), ratio.to_bits());

    let sweep = &r["sweep"];
    assert_eq!(sweep["depths"], serde_json::json!([1, 3, 2]));
    let runs = sweep["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    for (run, (residual, norm)) in runs.iter().zip(switches) {
        assert_eq!((run["residual"].as_str().unwrap(), run["norm"].as_str().unwrap()), (residual, norm));
        for field in ["final_loss", "grad_ratio", "diverged_at"] {
            assert_eq!(run[field].as_array().unwrap().len(), 3, "{field}");
        }
    }
    // the sweep's depth-3 entry is the depth-3 run
    let depth_3 = report(&[&base[..], &["--depth", "3", "--compare"]].concat());
    for (run, entry) in runs.iter().zip(depth_3["compare"].as_array().unwrap()) {
        assert_eq!(run["final_loss"][1], entry["final_loss"]);
        assert_eq!(run["grad_ratio"][1], entry["grad_ratio"]);
    }
}

#[test]
fn a_diverged_comparison_prints_nulls() {
    let r = report(&[&DIVERGING[..], &["--steps", "30", "--compare", "--knockout"]].concat());
    let at = r["diverged_at"].as_u64().expect("the run diverges");
    let compare = r["compare"].as_array().unwrap();
    let own = &compare[2]; // residual on, norm off: the run's own switches
    assert_eq!((own["residual"].as_str(), own["norm"].as_str()), (Some("on"), Some("off")));
    assert_eq!(own["diverged_at"].as_u64(), Some(at));
    assert!(own["final_loss"].is_null());
    assert!(r["knockout"]["intact_loss"].is_null(), "a diverged stack's probe loss is not a number");
    assert_eq!(r["knockout"]["loss"].as_array().unwrap().len(), 12);
}

#[test]
fn a_bare_sweep_flag_sweeps_the_default_depths() {
    let tiny = ["--width", "8", "--tokens", "2", "--steps", "1"];
    for args in [&["--sweep"][..], &["--sweep", "--dark"][..]] {
        let r = report(&[&tiny[..], args].concat());
        assert_eq!(r["sweep"]["depths"], serde_json::json!([1, 2, 4, 8, 12, 24, 48, 96]));
    }
}

#[test]
fn bad_sweep_lists_get_one_line_and_exit_2() {
    let seventeen: Vec<String> = (1..=17).map(|d| d.to_string()).collect();
    let seventeen = seventeen.join(",");
    let cases: &[(&[&str], &str)] = &[
        (&["--sweep", "0"], "from 1 to 96"),
        (&["--sweep", "1,97"], "from 1 to 96"),
        (&["--sweep", "1,x"], "from 1 to 96"),
        (&["--sweep", "2.5"], "from 1 to 96"),
        (&["--sweep", "1,,2"], "from 1 to 96"),
        (&["--sweep="], "no depths"),
        (&["--sweep", "4,2,4"], "listed twice"),
        (&["--sweep", &seventeen], "at most 16"),
    ];
    for (args, expected) in cases {
        let out = ablate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("ablate: --sweep: ") && err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn svg_export_draws_each_comparison_asked_for() {
    let dir = std::env::temp_dir().join(format!("ablate-svg-{}-comparisons", std::process::id()));
    let dir_s = dir.to_str().unwrap();
    let small = ["--depth", "3", "--width", "16", "--tokens", "8", "--steps", "5", "--svg", dir_s];
    report(&small);
    for name in ["compare", "sweep", "knockout"] {
        assert!(!dir.join(format!("{name}.svg")).exists(), "{name}.svg only when asked for");
    }
    for dark in [false, true] {
        let dark: &[&str] = if dark { &["--dark"] } else { &[] };
        report(&[&small[..], &["--compare", "--knockout", "--sweep", "1,2,4"], dark].concat());
        for (name, expected) in
            [("compare", "the four combinations"), ("sweep", "vs depth"), ("knockout", "knocked out")]
        {
            let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert!(doc.descendants().count() > 50, "{name}: the chart has content");
            assert!(svg.contains(expected), "{name}: title");
        }
    }
    // a diverged comparison still draws, and says so
    report(&[&DIVERGING[..], &["--steps", "30", "--compare", "--sweep", "2,12", "--svg", dir_s]].concat());
    let compare = std::fs::read_to_string(dir.join("compare.svg")).unwrap();
    assert!(compare.contains("diverged at step"));
    roxmltree::Document::parse(&std::fs::read_to_string(dir.join("sweep.svg")).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn readout_std_describes_what_the_readout_reads() {
    let on = report(&["--depth", "6", "--steps", "20"]);
    let off = report(&["--depth", "6", "--steps", "20", "--final-norm", "off"]);
    assert_eq!(
        (on["config"]["final_norm"].as_str(), off["config"]["final_norm"].as_str()),
        (Some("on"), Some("off"))
    );
    for phase in ["init", "final"] {
        let (r_on, r_off) =
            (on[phase]["readout_std"].as_f64().unwrap(), off[phase]["readout_std"].as_f64().unwrap());
        // without a final norm the readout reads x_L itself
        assert_eq!(r_off, off[phase]["act_std"][6].as_f64().unwrap(), "{phase}");
        // the final norm changes what the readout reads, not the stream below it
        assert!(on[phase]["act_std"][6].as_f64().unwrap() > 1.2, "{phase}: the pre-norm stream grows");
        assert!(r_on != r_off, "{phase}");
    }
    // at initialisation γ = 1, β = 0: every token of LN_f(x_L) has mean 0 and variance v/(v + ε)
    let r = on["init"]["readout_std"].as_f64().unwrap();
    assert!((r - 1.0).abs() < 1e-3, "{r}");
    // the histogram counts what the readout reads: std from its bins agrees roughly
    let h = &on["histogram"];
    let (lo, hi) = (h["lo"].as_f64().unwrap(), h["hi"].as_f64().unwrap());
    let counts: Vec<u64> = h["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    let w = (hi - lo) / counts.len() as f64;
    let centres: Vec<f64> = counts
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| std::iter::repeat_n(lo + (i as f64 + 0.5) * w, c as usize))
        .collect();
    let binned = std_of(&centres);
    let exact = on["final"]["readout_std"].as_f64().unwrap();
    assert!((binned - exact).abs() < 0.1 * exact, "binned {binned} vs {exact}");
    // post-norm and norm off have no final norm: the flag changes nothing there
    for norm in ["post", "off"] {
        let a = ablate(&["--depth", "4", "--steps", "5", "--norm", norm]).stdout;
        let b = ablate(&["--depth", "4", "--steps", "5", "--norm", norm, "--final-norm", "off"]).stdout;
        let strip = |s: Vec<u8>| {
            String::from_utf8(s).unwrap().replace("\"final_norm\":\"off\"", "\"final_norm\":\"on\"")
        };
        assert_eq!(strip(a), strip(b), "{norm}");
    }
}
