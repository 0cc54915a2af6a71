//! The core compiled to wasm32: it must reproduce the native run bit for bit.
//! `scripts/test.sh` runs the native `ablate` with `tests/reference-run.args` and hands its
//! JSON to this test through the `ABLATE_REFERENCE` environment variable at compile time.
#![cfg(target_arch = "wasm32")]

use ablation_playground::training::report::run;
use ablation_playground::Config;
use wasm_bindgen_test::*;

fn reference_config() -> (Config, usize) {
    let args: Vec<&str> = include_str!("reference-run.args").split_whitespace().collect();
    let mut config = Config::default();
    let mut steps = 0;
    for pair in args.chunks(2) {
        let flag = pair[0].trim_start_matches("--");
        if flag == "steps" {
            steps = pair[1].parse().unwrap();
            config.steps = steps; // as the CLI reports it
        } else {
            let spec = ablation_playground::config::find_flag(flag).unwrap();
            config.set(spec.name, pair[1]).unwrap();
        }
    }
    (config, steps)
}

#[wasm_bindgen_test]
fn wasm_run_equals_native_run_bit_for_bit() {
    let Some(native) = option_env!("ABLATE_REFERENCE") else {
        panic!("run through scripts/test.sh, which sets ABLATE_REFERENCE from the native CLI");
    };
    let (config, steps) = reference_config();
    let wasm = run(&config, steps).json().to_string();
    assert_eq!(wasm, native.trim());
}

#[wasm_bindgen_test]
fn runs_in_wasm_are_repeatable() {
    let (config, steps) = reference_config();
    assert_eq!(run(&config, steps).json().to_string(), run(&config, steps).json().to_string());
}
