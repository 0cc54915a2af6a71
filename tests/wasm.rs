//! The core compiled to wasm32: it must reproduce the native run bit for bit.
//! `scripts/test.sh` runs the native `ablate` with `tests/reference-run.args` and hands its
//! JSON to this test through the `ABLATE_REFERENCE` environment variable at compile time.
#![cfg(target_arch = "wasm32")]

use ablation_playground::comparisons::all_four::AllFour;
use ablation_playground::comparisons::all_four_here;
use ablation_playground::comparisons::Comparison;
use ablation_playground::training::live::attention_view::all_attention_maps;
use ablation_playground::training::step::report::{run, trained};
use ablation_playground::view::json::{attention_json, Json, RunFields, ToJson};
use ablation_playground::Config;
use wasm_bindgen_test::*;

fn reference_config() -> (Config, usize) {
    config_of(include_str!("reference-run.args"))
}

/// The configuration and steps of `ablate` flags (`--preset` first, as the CLI applies it).
fn config_of(args: &str) -> (Config, usize) {
    // `--attention` and `--compare` are switches of the report, not of the configuration
    let args: Vec<&str> =
        args.split_whitespace().filter(|a| !["--attention", "--compare"].contains(a)).collect();
    let mut config = Config::default();
    let mut steps = 0;
    for pair in args.chunks(2) {
        let flag = pair[0].trim_start_matches("--");
        if flag == "preset" {
            config.set("preset", pair[1]).unwrap();
        } else if flag == "steps" {
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

/// The text task in wasm: the text installed from its bytes (the test's own copy; the shipped
/// wasm never holds it), then embeddings, attention within sequences, the cross-entropy, the
/// held-out loss and the sampled text all as the native CLI gives them.
#[wasm_bindgen_test]
fn the_text_task_in_wasm_equals_the_native_run_bit_for_bit() {
    let Some(native) = option_env!("ABLATE_TASK_REFERENCE") else {
        panic!("run through scripts/test.sh, which sets ABLATE_TASK_REFERENCE from the native CLI");
    };
    assert!(ablation_playground::training::tasks::corpus::text().is_none(), "no text until it is installed");
    ablation_playground::training::tasks::corpus::install_text(include_bytes!("../www/data/shakespeare.txt"))
        .unwrap();
    let (config, steps) = config_of(include_str!("reference-task.args"));
    // the report as `ablate --attention` writes it: the lens and every head's map as well
    let (run, mut trainer) = trained(&config, steps);
    trainer.probe_forward_skipping(&[]);
    let mut fields = run.json_fields();
    fields.push(("attention", attention_json(&all_attention_maps(&trainer), &trainer.config)));
    assert_eq!(Json::Obj(fields).to_string(), native.trim());
}

/// The encoder-decoder (cross-attention, the encoder's unmasked self-attention, the memory's
/// gradient) and a decoder without the mask on copy (its loss with the future hidden, its copies written with the mask on; its rate on the cosine schedule) in wasm, each
/// with every head's map, as the native CLI gives them.
#[wasm_bindgen_test]
fn the_encoder_decoder_and_the_unmasked_stack_in_wasm_equal_the_native_runs_bit_for_bit() {
    let references = [
        (option_env!("ABLATE_ENCODER_DECODER_REFERENCE"), include_str!("reference-encoder-decoder.args")),
        (option_env!("ABLATE_UNMASKED_REFERENCE"), include_str!("reference-unmasked.args")),
    ];
    for (native, args) in references {
        let Some(native) = native else {
            panic!("run through scripts/test.sh, which sets the references from the native CLI");
        };
        let (config, steps) = config_of(args);
        let (run, mut trainer) = trained(&config, steps);
        trainer.probe_forward_skipping(&[]);
        let mut fields = run.json_fields();
        fields.push(("attention", attention_json(&all_attention_maps(&trainer), &trainer.config)));
        assert_eq!(Json::Obj(fields).to_string(), native.trim(), "{args}");
    }
}

/// All four over three seeds at three rates in wasm: every run, the median and the chosen rate
/// as the native CLI gives them (its report ends with the comparison).
#[wasm_bindgen_test]
fn seeds_and_tuned_rates_in_wasm_equal_the_native_runs_bit_for_bit() {
    let Some(native) = option_env!("ABLATE_SEEDS_REFERENCE") else {
        panic!("run through scripts/test.sh, which sets ABLATE_SEEDS_REFERENCE from the native CLI");
    };
    let (config, steps) = config_of(include_str!("reference-seeds.args"));
    assert_eq!((config.seeds, config.tune), (3, true));
    let state = all_four_here(&config, steps, 1).unwrap();
    let wasm = format!("\"compare\":{}}}", AllFour::report(&state));
    assert!(native.trim().ends_with(&wasm), "wasm: {wasm}\nnative: {native}");
}

#[wasm_bindgen_test]
fn runs_in_wasm_are_repeatable() {
    let (config, steps) = reference_config();
    assert_eq!(run(&config, steps).json().to_string(), run(&config, steps).json().to_string());
}

/// In wasm `gemm_tn_lower_a` runs as simd128 dot products and `gemm_tn` lane by lane: two forms
/// of the same sums, which must agree bit for bit (with zeros of both signs, odd sizes and
/// lengths that leave a partial group of 8).
#[wasm_bindgen_test]
fn both_forms_of_the_transposed_product_agree_in_wasm() {
    use ablation_playground::model::kernels::matmul::{gemm_tn_by_lanes, gemm_tn_lower_a};
    use ablation_playground::model::rng::{Rng, Stream};
    let mut rng = Rng::new(5, Stream::Data);
    for &(m, n) in &[(1, 1), (5, 3), (8, 8), (16, 4), (17, 5), (64, 8), (70, 9), (37, 2)] {
        let mut draw = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| match rng.next_u64() % 5 {
                    0 => 0.0,
                    1 => -0.0,
                    _ => rng.normal() as f32,
                })
                .collect()
        };
        let full = draw(m * m);
        // lower triangular: a[p, i] = 0 for p < i (column-major, a[p + i m])
        let a: Vec<f32> = (0..m * m).map(|x| if x % m >= x / m { full[x] } else { 0.0 }).collect();
        let b = draw(m * n);
        let (mut dots, mut lanes) = (vec![f32::NAN; m * n], vec![f32::NAN; m * n]);
        gemm_tn_lower_a(m, n, &a, &b, &mut dots);
        gemm_tn_by_lanes(m, m, n, &a, &b, &mut lanes, false);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&dots), bits(&lanes), "{m}×{n}");
    }
}
