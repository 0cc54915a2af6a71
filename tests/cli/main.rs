//! The `ablate` command line: its flags, its JSON, its errors. One test binary, its tests by
//! feature: `flags.rs` (the flags, the report's fields, the errors, the help and the docs),
//! `outputs.rs` (the SVGs and the comparisons' fields), `tasks.rs` (presets, tasks, the lens) and
//! `stacks.rs` (the two stacks and the mask); the helpers they share are here.

mod flags;
mod outputs;
mod stacks;
mod tasks;

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

fn numbers(v: &Value) -> Vec<Option<f64>> {
    v.as_array().expect("a list").iter().map(Value::as_f64).collect()
}

fn std_of(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}
