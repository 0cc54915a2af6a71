//! The CLI's flags: its report and its fields, the same bytes on every run and thread count, the errors, the help, and the docs that describe them.

use super::*;

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
            | "--similarity" | "--probe" | "--jobs-elsewhere" => None,
            "--knockout-blocks" => Some("2"),
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
        if flag == "--knockout-blocks" {
            // Gromov's unit: a decoder-only stack of blocks, two of them at least
            args.extend(["--task", "copy", "--tokens", "16", "--sublayer", "block", "--depth", "4"]);
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
