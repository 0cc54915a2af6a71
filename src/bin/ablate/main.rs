//! `ablate`: train one configuration natively and print a JSON report.
//! Run `ablate --help` for the flags; docs/reference.md lists them (generated from the table) and docs/cli.md the JSON.
//! Its flags are read in `options.rs`; here the run and its report.

mod elsewhere;
mod options;

use options::*;

use ablation_playground::config::{preset_choices, PARAMS, PRESET, PRESETS};
use ablation_playground::view::reference::{cli_flags, cli_steps_allowed, cli_steps_help};

use ablation_playground::comparisons::all_four::AllFour;
use ablation_playground::comparisons::depth_width::DepthOrWidth;
use ablation_playground::comparisons::knockout::LayerKnockout;
use ablation_playground::comparisons::page::svgs;
use ablation_playground::comparisons::sweep::DepthSweep;
use ablation_playground::comparisons::{
    all_four_arms_here, all_four_here, depth_width_here, knockout_here, sweep_here, Comparison,
    ComparisonsState,
};
use ablation_playground::config::{LayerView, MATRIX_BATCHES};
use ablation_playground::training::live::attention_view::{all_attention_maps, attention_maps};
use ablation_playground::training::live::frame::Frame;
use ablation_playground::training::live::probe::{first_attention, probe_accuracies};
use ablation_playground::training::live::writing::write;
use ablation_playground::training::measures::blocks::block_knockout;
use ablation_playground::training::measures::knockout::heal;
use ablation_playground::training::measures::per_matrix::{
    gradient_norms, update_sizes, MatrixGradients, PerMatrix,
};
use ablation_playground::training::measures::similarity::similarity;
use ablation_playground::training::measures::tuned_lens::{fit_tuned_lens, tuned_readout_losses};
use ablation_playground::training::step::report::{probed, trained_from, trained_sharing};
use ablation_playground::view::figures::{frame_of, LastFinite};
use ablation_playground::view::json::{
    attention_json, matrices_json, writing_json, Json, RunFields, ToJsonFor,
};
use ablation_playground::view::safetensors::{self};
use ablation_playground::view::words::status_line;
use std::path::Path;
use std::process::ExitCode;

/// The flags from the table, then `ablate`'s own (`view::reference`, as the reference page has them).
fn usage() -> String {
    let mut s = String::from(
        "usage: ablate [--preset NAME] [--FLAG VALUE]... [--steps N]\n\nflags (default in brackets):\n",
    );
    s += &format!("  --{PRESET:<11} sets every flag at once, before the others; {}:\n", preset_choices());
    for p in PRESETS {
        s += &format!("                 {:<20} {}\n", p.name, p.help);
    }
    for p in PARAMS.iter().filter(|p| p.name != "steps") {
        s += &format!("  --{:<11} {} [{}]; {}\n", p.flag, p.help, p.default_text(), p.allowed());
    }
    s += &format!("  --steps      {}; {}\n", cli_steps_help(), cli_steps_allowed());
    s += "  (--task applies the task's defaults as the page's Task menu does, keeping the depth, switches, \
          norm kind and seed; after any --preset, and the other flags adjust them)\n";
    let flags = cli_flags();
    for comparison in [false, true] {
        if comparison {
            s += "\ncomparisons, each trained for --steps and added to the report:\n";
        }
        for f in flags.iter().filter(|f| f.comparison == comparison) {
            let name = format!("--{} {}", f.flag, f.value);
            s += &format!("  {name:<13} {}", f.help);
            if !f.value.is_empty() {
                s += &format!("; {}", f.allowed);
            }
            s += "\n";
        }
    }
    s
}

/// Adds `name` to the report's `layers`.
fn layer_field(fields: &mut [(&'static str, Json)], name: &'static str, value: Json) {
    let Some((_, Json::Obj(layers))) = fields.iter_mut().find(|(n, _)| *n == "layers") else {
        unreachable!("a report has its layers")
    };
    layers.push((name, value));
}

/// `{"<over>": n, "names": [["attention.q.weight", …], …], "values": [[x, …], …]}`: sublayer ℓ's
/// matrices' names and values.
fn per_matrix_json(m: &PerMatrix, over: &'static str, n: usize) -> Json {
    let names = m.layers.iter().map(|row| Json::Arr(row.iter().map(|(k, _)| Json::Str(k.clone())).collect()));
    let values = m.layers.iter().map(|row| Json::Arr(row.iter().map(|(_, v)| Json::Num(*v)).collect()));
    Json::Obj(vec![
        (over, Json::Int(n as i128)),
        ("names", Json::Arr(names.collect())),
        ("values", Json::Arr(values.collect())),
    ])
}

/// Milliseconds since the first call: the clock of depth or width's timings.
fn now() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1e3
}

fn write_svgs(dir: &Path, figures: &[(&str, String)]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--svg: cannot create {}: {e}", dir.display()))?;
    for (name, svg) in figures {
        let path = dir.join(format!("{name}.svg"));
        std::fs::write(&path, svg).map_err(|e| format!("--svg: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Trains the run and the comparisons asked for; returns the JSON report, having written the
/// figures if asked (every panel with something to draw, by the page's own panels).
fn report(options: &Options) -> Result<String, String> {
    let (config, steps, dark) = (&options.config, options.steps, options.dark);
    let draw = options.svg_dir.is_some();
    let (run, mut trainer) = match &options.start {
        Some((weights, earlier_updates)) => {
            trained_from(config, steps, weights, *earlier_updates, draw, options.threads)
                .map_err(|e| format!("--load-weights: {e}"))?
        }
        // a sharded step's shards on the --threads
        None => trained_sharing(config, steps, draw, options.threads),
    };
    let mut fields = run.json_fields();
    if let Some(path) = &options.save_weights {
        if let Some(at) = run.diverged_at {
            return Err(format!("--save-weights: the run diverged at step {at}; its weights are not finite"));
        }
        let bytes = safetensors::write(config, trainer.updates(), &mut trainer.stack);
        std::fs::write(path, bytes)
            .map_err(|e| format!("--save-weights: cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &options.save_eval_batch {
        let val_loss = run.task.as_ref().and_then(|t| t.evals.last()).map(|e| e.loss);
        let bytes = safetensors::eval_batches(&trainer, run.last.probe_loss, val_loss);
        std::fs::write(path, bytes)
            .map_err(|e| format!("--save-eval-batch: cannot write {}: {e}", path.display()))?;
    }
    if let Some(prompt) = &options.prompt {
        let w = write(&mut trainer, &mut None, Some(prompt)).expect("a text stack writes");
        let continuation: String = w.text.chars().skip(w.given).collect();
        fields.push(("writing", writing_json(prompt, &continuation, &w.outside)));
    }
    let mut shown = ComparisonsState::default();
    trainer.probe_forward_skipping(&[]); // the attention maps are read from the probe's pass
    let attention = attention_maps(&trainer, config.attention_layer).filter(|_| run.diverged_at.is_none());
    if options.attention {
        fields.push(("attention", attention_json(&all_attention_maps(&trainer), &trainer.config)));
    }
    if options.tuned_lens {
        match options.lens_budget {
            None => {
                let losses = tuned_readout_losses(&mut trainer).map_err(|e| format!("--tuned-lens: {e}"))?;
                layer_field(&mut fields, "tuned_readout_loss", Json::nums(&losses));
            }
            Some(budget) => {
                let fit = fit_tuned_lens(&mut trainer, budget).map_err(|e| format!("--tuned-lens: {e}"))?;
                layer_field(&mut fields, "tuned_readout_loss", Json::nums(&fit.losses));
                let kl =
                    fit.kl.iter().map(|&(step, kl)| Json::Arr(vec![Json::Int(step as i128), Json::Num(kl)]));
                let fit = Json::Obj(vec![
                    ("steps", Json::Int(fit.steps as i128)),
                    ("converged", fit.converged.map_or(Json::Null, Json::Bool)),
                    ("held_out_kl", Json::Arr(kl.collect())),
                ]);
                layer_field(&mut fields, "tuned_lens_fit", fit);
            }
        }
        trainer.probe_forward_skipping(&[]); // the figures read the probe's pass
    }
    if options.probe {
        let probe = probe_accuracies(&mut trainer, &[]).map_err(|e| format!("--probe: {e}"))?;
        layer_field(&mut fields, "probe_accuracy", Json::nums(&probe.current));
        layer_field(&mut fields, "probe_previous_accuracy", Json::nums(&probe.previous));
        // the previous token's writer, the first attention layer, knocked out: the probe fitted
        // again on that stack, and the held-out loss without the layer beside the intact one's
        if let Some(writer) = first_attention(&trainer.config) {
            let without = probe_accuracies(&mut trainer, &[writer]).map_err(|e| format!("--probe: {e}"))?;
            fields.push((
                "probe_without_first_attention",
                Json::Obj(vec![
                    ("layer", Json::Int(writer as i128)),
                    ("held_out_loss", Json::Num(without.held_out_loss)),
                    ("intact_held_out_loss", Json::Num(probe.held_out_loss)),
                    ("current", Json::nums(&without.current)),
                    ("previous", Json::nums(&without.previous)),
                ]),
            ));
        }
    }
    if options.similarity {
        let (cosines, ratios) = similarity(&mut trainer);
        layer_field(&mut fields, "adjacent_cosine", Json::nums(&cosines));
        layer_field(&mut fields, "branch_ratio", Json::nums(&ratios));
    }
    if let Some(batches) = options.grad_batches {
        let m = gradient_norms::<f32>(config, batches);
        layer_field(&mut fields, "matrix_grad_norm", per_matrix_json(&m, "batches", batches));
    }
    // the page's matrices' view, as its report has it and its figure draws it
    let matrices = (config.layer_view == LayerView::Matrices)
        .then(|| MatrixGradients::at_init(config, MATRIX_BATCHES))
        .flatten();
    if let Some(m) = &matrices {
        layer_field(&mut fields, "xiong_grad_norm", matrices_json(m));
    }
    if let Some(n) = options.update_steps {
        let m = update_sizes::<f32>(config, n);
        layer_field(&mut fields, "update_size", per_matrix_json(&m, "steps", n));
    }
    if options.knockout {
        let state = knockout_here(&mut trainer, config, steps, options.threads)?;
        let mut report = LayerKnockout::report(&state);
        if let (Some(n), Json::Obj(knockout)) = (options.heal_steps, &mut report) {
            let healing = heal(&mut trainer, n).map_err(|e| format!("--heal-steps: {e}"))?;
            knockout.push(("healed", healing.json(config.task)));
        }
        fields.push((LayerKnockout::SPEC.field, report));
        shown.knockout = Some(state);
    }
    if let Some(batches) = options.knockout_blocks {
        let b = block_knockout(&mut trainer, batches).map_err(|e| format!("--knockout-blocks: {e}"))?;
        let removed = b.removals.iter().map(|r| {
            Json::Obj(vec![
                ("n", Json::Int(r.n as i128)),
                ("start", Json::Int(r.start as i128)),
                ("distance", Json::Num(r.distance)),
                ("held_out_loss", Json::Num(r.held_out_loss)),
            ])
        });
        let chosen = b.choices.iter().map(|(counted, starts)| {
            Json::Arr(vec![
                Json::Int(*counted as i128),
                Json::Arr(starts.iter().map(|&s| Json::Int(s as i128)).collect()),
            ])
        });
        fields.push((
            "knockout_blocks",
            Json::Obj(vec![
                ("batches", Json::Int(b.batches as i128)),
                ("intact_held_out_loss", Json::Num(b.intact)),
                ("removed", Json::Arr(removed.collect())),
                ("chosen_after", Json::Arr(chosen.collect())),
            ]),
        ));
    }
    // a run that diverged is drawn at its last finite state, as the page shows it
    let last_finite = (draw && trainer.back_to_last_finite().is_some()).then(|| {
        let (probe, histogram) = probed(&mut trainer);
        LastFinite { step: trainer.step, probe, histogram }
    });
    drop(trainer); // the comparisons train their own stacks
    if options.compare {
        let state = match &options.compare_arms {
            Some(only) => all_four_arms_here(config, options.compare_steps, options.threads, only)?,
            None => all_four_here(config, options.compare_steps, options.threads)?,
        };
        fields.push((AllFour::SPEC.field, AllFour::report(&state)));
        shown.compare = Some(state);
    }
    if options.depth_width {
        let state = depth_width_here(config, now)?;
        fields.push((DepthOrWidth::SPEC.field, DepthOrWidth::report(&state)));
        shown.depth_width = Some(state);
    }
    if let Some(depths) = &options.sweep {
        let state = sweep_here(config, depths, options.compare_steps, options.threads)
            .map_err(|e| format!("--sweep: {e}"))?;
        fields.push((DepthSweep::SPEC.field, DepthSweep::report(&state)));
        shown.sweep = Some(state);
    }
    if let Some(dir) = &options.svg_dir {
        let frame = Frame { matrices, ..frame_of(&run, last_finite, attention) };
        let (figures, status_text) =
            options.language.with(|| (svgs(Some(&frame), &shown, dark), status_line(&frame)));
        let figures = figures.map_err(|e| format!("--svg: drawing failed: {e}"))?;
        write_svgs(dir, &figures)?;
        // the status line of the frame drawn, as the page says it (the notebook's static figure
        // puts it under the charts)
        let status = dir.join("status.txt");
        std::fs::write(&status, status_text + "\n")
            .map_err(|e| format!("--svg: cannot write {}: {e}", status.display()))?;
    }
    Ok(Json::Obj(fields).to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    if args.first().is_some_and(|a| a == "--run-job") {
        return match elsewhere::run_one_job() {
            Ok(hex) => {
                println!("{hex}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("ablate: {message}");
                ExitCode::from(1)
            }
        };
    }
    let options = match parse(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("ablate: {message}");
            return ExitCode::from(2);
        }
    };
    if options.jobs_elsewhere {
        elsewhere::hand_out_jobs();
    }
    match report(&options) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("ablate: {message}");
            ExitCode::from(1)
        }
    }
}
