//! The `ablate` command line: its flags, its JSON, its errors.

use ablation_playground::config::PARAMS;
use serde_json::Value;
use std::process::{Command, Output};

fn ablate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ablate")).args(args).output().unwrap()
}

/// Plain SGD with a huge step on a large init without norms: a real explosion.
const DIVERGING: [&str; 10] =
    ["--depth", "12", "--norm", "off", "--init-gain", "3", "--optimizer", "sgd", "--lr", "5"];

fn report(args: &[&str]) -> Value {
    let out = ablate(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn prints_a_complete_report() {
    let r = report(&[
        "--depth",
        "5",
        "--residual",
        "off",
        "--norm",
        "post",
        "--norm-kind",
        "rmsnorm",
        "--sublayer",
        "ffn",
        "--width",
        "16",
        "--tokens",
        "8",
        "--init-gain",
        "1.5",
        "--optimizer",
        "sgd",
        "--lr",
        "0.05",
        "--warmup",
        "3",
        "--seed",
        "9",
        "--steps",
        "7",
    ]);
    let c = &r["config"];
    assert_eq!(c["depth"], 5);
    assert_eq!(c["residual"], "off");
    assert_eq!(c["norm"], "post");
    assert_eq!(c["norm_kind"], "rmsnorm");
    assert_eq!(c["sublayer"], "ffn");
    assert_eq!(c["width"], 16);
    assert_eq!(c["tokens"], 8);
    assert_eq!(c["gain"], 1.5);
    assert_eq!(c["optimizer"], "sgd");
    assert_eq!(c["lr"], 0.05);
    assert_eq!(c["warmup"], 3);
    assert_eq!(c["seed"], 9);
    for phase in ["init", "final"] {
        assert_eq!(r[phase]["act_std"].as_array().unwrap().len(), 6);
        assert_eq!(r[phase]["grad_norm"].as_array().unwrap().len(), 6);
        assert_eq!(r[phase]["weight_grad_norm"].as_array().unwrap().len(), 5);
    }
    // post-RMSNorm: every layer's output has RMS 1 at init (γ = 1), so its std is at most 1
    for s in &r["init"]["act_std"].as_array().unwrap()[1..] {
        let s = s.as_f64().unwrap();
        assert!(s > 0.5 && s <= 1.0 + 1e-4, "{s}");
    }
    assert_eq!(r["loss"].as_array().unwrap().len(), 8);
    assert!(r["diverged_at"].is_null());
    let h = &r["histogram"];
    let binned: u64 = h["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
    let all =
        binned + h["below"].as_u64().unwrap() + h["above"].as_u64().unwrap() + h["nan"].as_u64().unwrap();
    assert_eq!(all, 8 * 16, "every final activation is counted once");
    assert!(h["lo"].as_f64().unwrap() < h["hi"].as_f64().unwrap());
}

#[test]
fn same_flags_give_identical_output() {
    let args = ["--depth", "8", "--sublayer", "block", "--steps", "10", "--seed", "3"];
    assert_eq!(ablate(&args).stdout, ablate(&args).stdout);
    let eq_form = ["--depth=8", "--sublayer=block", "--steps=10", "--seed=3"];
    assert_eq!(ablate(&args).stdout, ablate(&eq_form).stdout);
}

#[test]
fn the_comparisons_give_the_same_bytes_on_any_number_of_threads() {
    let args =
        ["--depth", "3", "--width", "8", "--tokens", "4", "--steps", "20", "--compare", "--sweep", "1,2,5"];
    let on = |threads: &str| {
        let out = ablate(&[&args[..], &["--threads", threads]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let one = on("1");
    assert!(!one.is_empty());
    for threads in ["2", "3", "16"] {
        assert!(on(threads) == one, "--threads {threads} printed other bytes than --threads 1");
    }
    assert!(ablate(&args).stdout == one, "the default (every core) prints the same bytes");
}

#[test]
fn divergence_is_reported_with_nulls() {
    let r = report(&[&DIVERGING[..], &["--steps", "30"]].concat());
    let at = r["diverged_at"].as_u64().expect("diverges") as usize;
    let loss = r["loss"].as_array().unwrap();
    assert_eq!(loss.len(), 31);
    assert!(loss[at + 1..].iter().all(Value::is_null));
    assert!(loss[..at].iter().all(Value::is_number));
}

#[test]
fn bad_flags_get_one_line_naming_the_flag_and_its_range_and_exit_2() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["--depth", "0"], "--depth", "from 1 to 96"),
        (&["--depth", "97"], "--depth", "from 1 to 96"),
        (&["--depth", "twelve"], "--depth", "from 1 to 96"),
        (&["--residual", "yes"], "--residual", "on, off"),
        (&["--norm", "mid"], "--norm", "off, pre, post"),
        (&["--norm-kind", "batch"], "--norm-kind", "layernorm, rmsnorm"),
        (&["--sublayer", "conv"], "--sublayer", "mlp, ffn, attention, block"),
        (&["--width", "30"], "--width", "multiple of 4"),
        (&["--tokens", "1000"], "--tokens", "from 1 to 256"),
        (&["--init-gain", "-2"], "--init-gain", "from 0.01 to 10"),
        (&["--optimizer", "rmsprop"], "--optimizer", "sgd, adam"),
        (&["--lr", "nan"], "--lr", "from 0.000001 to 10"),
        (&["--warmup", "1.5"], "--warmup", "from 0 to 100000"),
        (&["--seed", "-3"], "--seed", "from 0 to"),
        (&["--steps", "100001"], "--steps", "from 0 to 100000"),
        (&["--colour", "red"], "--colour", "unknown flag"),
        // an unknown flag last, with no value after it, is still unknown
        (&["--depth", "3", "--colour"], "--colour", "unknown flag"),
        (&["--colour=red"], "--colour", "unknown flag"),
        (&["--depth"], "--depth", "missing value"),
        (&["--threads", "0"], "--threads", "from 1 to 256"),
        (&["--threads", "two"], "--threads", "from 1 to 256"),
        (&["depth", "3"], "depth", "flags look like"),
    ];
    for (args, flag, range) in cases {
        let out = ablate(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(flag) && err.contains(range), "{args:?}: {err}");
    }
}

#[test]
fn the_cli_caps_steps_at_100000_not_at_the_pages_million() {
    let out = ablate(&["--steps", "100001"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    // the last word is the upper bound: "from 0 to 100000" is also the start of "… to 1000000"
    let bound = err.trim_end().rsplit(' ').next().unwrap();
    assert_eq!(bound, "100000", "{err}");
    assert!(err.trim_end().ends_with("\"100001\" is not an integer from 0 to 100000"), "{err}");
}

/// The flags of the reference page's table under "The command line's flags" (generated from
/// the table, `docs/reference.md`), in its order: the first word in backticks of each row
/// (`--svg DIR` is the flag `--svg`).
fn reference_flags() -> Vec<String> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md")).unwrap();
    let section = page.split("\n## The command line's flags").nth(1).expect("the reference's CLI section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `--"))
        .map(|rest| format!("--{}", rest.split(['`', ' ']).next().unwrap()))
        .collect()
}

#[test]
fn help_lists_every_flag() {
    let out = ablate(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // whole tokens: `--norm` must be there on its own, not only inside `--norm-kind`
    let tokens: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || "[](),;:".contains(c)).filter(|t| !t.is_empty()).collect();
    let flags = reference_flags();
    for flag in ["--preset", "--norm", "--final-norm", "--norm-kind", "--dark", "--svg", "--sweep"] {
        assert!(flags.iter().any(|f| f == flag), "the reference's table names {flag}: {flags:?}");
    }
    assert!(flags.len() >= 20, "the whole table was read: {flags:?}");
    for flag in &flags {
        assert!(tokens.contains(&flag.as_str()), "--help lists {flag} as a word of its own");
    }
}

/// docs/cli.md's description of the report names every field the report has: its top-level
/// fields, each field of `config` and of `init`, and those the comparisons add.
#[test]
fn the_docs_describe_every_field_of_the_report() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let full =
        report(&["--depth", "2", "--steps", "2", "--compare", "--knockout", "--attention", "--sweep", "1,2"]);
    let text = report(&["--task", "copy", "--depth", "1", "--tokens", "16", "--steps", "2"]);
    let mut fields: Vec<String> = Vec::new();
    for (r, parts) in
        [(&full, &["", "config", "init", "layers", "knockout", "sweep"][..]), (&text, &["task"][..])]
    {
        for part in parts {
            let object = if part.is_empty() { r } else { &r[*part] };
            fields
                .extend(object.as_object().unwrap_or_else(|| panic!("{part} is an object")).keys().cloned());
        }
    }
    fields.extend(full["compare"][0].as_object().unwrap().keys().cloned());
    // the text task's text and a prompt's continuation
    let own = report(&[
        "--task",
        "text",
        "--depth",
        "1",
        "--tokens",
        "16",
        "--context",
        "8",
        "--steps",
        "1",
        "--prompt",
        "a",
        "--write",
        "2",
    ]);
    for object in [&own, &own["task"], &own["task"]["text"], &own["writing"]] {
        fields.extend(object.as_object().unwrap_or_else(|| panic!("{object} is an object")).keys().cloned());
    }
    // a sequence task's knockout (held-out numbers, several layers at once), its tuned lens, and
    // depth or width
    let copy = report(&[
        "--task",
        "copy",
        "--depth",
        "2",
        "--tokens",
        "16",
        "--steps",
        "2",
        "--knockout",
        "--tuned-lens",
        "--depth-width",
    ]);
    for object in [
        &copy["layers"],
        &copy["knockout"],
        &copy["knockout"]["top_k"][0],
        &copy["knockout"]["random_k"][0],
        &copy["depth_width"][0],
    ] {
        fields.extend(object.as_object().unwrap_or_else(|| panic!("{object} is an object")).keys().cloned());
    }
    assert!(fields.len() > 40, "the report's fields were read: {fields:?}");
    for field in &fields {
        assert!(
            docs.contains(&format!("\"{field}\"")),
            "docs/cli.md does not describe the report's field \"{field}\""
        );
    }
}

#[test]
fn ablate_takes_every_flag_the_reference_names() {
    let dir = std::env::temp_dir().join(format!("ablate-reference-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!("{dir}/text.txt");
    std::fs::write(&text, "a reader's own text, a line or two long, ".repeat(20)).unwrap();
    // written by --save-weights before --load-weights reads it (the reference lists them so)
    let weights = format!("{dir}/w.safetensors");
    let batches = format!("{dir}/batches.safetensors");
    // the smallest run, so that each flag (a comparison too) is only parsed and run at once
    let small = ["--depth", "1", "--width", "8", "--tokens", "4", "--steps", "0"];
    for flag in reference_flags() {
        let value: Option<&str> = match flag.as_str() {
            "--svg" => Some(&dir),
            "--lang" => Some("es"),
            "--sweep" => Some("1,2"),
            "--threads" => Some("1"),
            "--dark" | "--attention" | "--compare" | "--knockout" | "--depth-width" | "--tuned-lens"
            | "--similarity" | "--probe" => None,
            "--tuned-lens-steps" => Some("3"),
            "--grad-batches" | "--update-steps" | "--heal-steps" => Some("2"),
            "--compare-arms" => Some("both-off,both-on"),
            "--preset" => Some("default"),
            "--text" => Some(&text),
            "--prompt" => Some("the"),
            "--write" => Some("3"),
            "--save-weights" | "--load-weights" => Some(&weights),
            "--save-eval-batch" => Some(&batches),
            name => {
                let p = PARAMS.iter().find(|p| format!("--{}", p.flag) == name);
                let p = p.unwrap_or_else(|| panic!("the reference names {name}, which is not in the table"));
                Some(match p.name {
                    "depth" => "1",
                    "width" => "8",
                    "tokens" => "4",
                    "steps" => "0",
                    _ => Box::leak(p.default_text().into_boxed_str()),
                })
            }
        };
        let mut args: Vec<&str> = small.to_vec();
        if ["--tuned-lens", "--tuned-lens-steps", "--probe"].contains(&flag.as_str()) {
            args.extend(["--task", "copy", "--tokens", "16"]); // a sequence task's lens
        }
        if ["--text", "--prompt", "--write"].contains(&flag.as_str()) {
            args.extend(["--context", "4"]); // a text stack's sequences in the small batch
        }
        if ["--prompt", "--write"].contains(&flag.as_str()) {
            args.extend(["--text", &text]);
        }
        args.push(&flag);
        args.extend(value);
        let out = ablate(&args);
        assert!(out.status.success(), "ablate {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lang_words_the_svgs_status_in_that_language_and_leaves_the_report_as_it_is() {
    let dir = std::env::temp_dir().join(format!("ablate-lang-{}", std::process::id()));
    let dir_s = dir.to_str().unwrap();
    let run = ["--depth", "3", "--steps", "5", "--width", "16", "--svg", dir_s];
    let english = ablate(&run);
    let spanish = ablate(&[&run[..], &["--lang", "es-MX"]].concat());
    assert!(spanish.status.success(), "{}", String::from_utf8_lossy(&spanish.stderr));
    assert_eq!(english.stdout, spanish.stdout, "the JSON report is the same in any language");
    let status = std::fs::read_to_string(dir.join("status.txt")).unwrap();
    assert!(
        status.starts_with("3 capas · Residual SÍ · LayerNorm SÍ (pre) · desv. típ. act. = ")
            && status.ends_with(" · paso 5 · terminado\n")
            && status.contains(','),
        "status.txt {status:?}"
    );
    // the histogram's axis, −4…4, with a decimal comma
    let svg = std::fs::read_to_string(dir.join("histogram.svg")).unwrap();
    assert!(svg.contains("\n4,00\n") && !svg.contains("\n4.00\n"), "the Spanish histogram's ticks");
    std::fs::remove_dir_all(&dir).unwrap();
    let out = ablate(&["--depth", "1", "--steps", "0", "--lang", "tlh"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--lang") && stderr.contains("tlh") && stderr.contains("es"), "{stderr}");
}

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

fn numbers(v: &Value) -> Vec<Option<f64>> {
    v.as_array().expect("a list").iter().map(Value::as_f64).collect()
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

fn std_of(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
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
