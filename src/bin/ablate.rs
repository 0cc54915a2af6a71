//! `ablate`: train one configuration natively and print a JSON report.
//! Run `ablate --help` for the flags; docs/reference.md lists them (generated from the table) and docs/cli.md the JSON.

use ablation_playground::comparisons::all_four::AllFour;
use ablation_playground::comparisons::depth_width::DepthOrWidth;
use ablation_playground::comparisons::knockout::LayerKnockout;
use ablation_playground::comparisons::page::svgs;
use ablation_playground::comparisons::sweep::DepthSweep;
use ablation_playground::comparisons::{
    compare_arms_here, compare_here, depth_width_here, knockout_here, sweep_here, Comparison,
    ComparisonsState,
};
use ablation_playground::config::{
    find_flag, preset_choices, LayerView, StackKind, TaskKind, MATRIX_BATCHES, PARAMS, PRESET, PRESETS,
};
use ablation_playground::language::{Language, LANGUAGES};
use ablation_playground::training::live::attention_view::{all_attention_maps, attention_maps};
use ablation_playground::training::live::frame::Frame;
use ablation_playground::training::live::probe::probe_accuracies;
use ablation_playground::training::live::writing::{write, Prompt, MAX_WRITE_CHARS, SAMPLE_CHARS};
use ablation_playground::training::measures::depth_width::depth_width_applies;
use ablation_playground::training::measures::knockout::heal;
use ablation_playground::training::measures::per_matrix::{
    gradient_norms, update_sizes, MatrixGradients, PerMatrix,
};
use ablation_playground::training::measures::similarity::adjacent_cosines;
use ablation_playground::training::measures::tuned_lens::{
    fit_tuned_lens, tuned_readout_losses, LensBudget, FIT_STEPS,
};
use ablation_playground::training::runs::compare::comparison_steps;
use ablation_playground::training::runs::sweep::{default_sweep_depths, parse_depths};
use ablation_playground::training::step::report::{probed, trained_from, trained_sharing};
use ablation_playground::training::tasks::corpus::{corpus, install_own, text_of};
use ablation_playground::view::figures::{frame_of, LastFinite};
use ablation_playground::view::json::{
    attention_json, matrices_json, writing_json, Json, RunFields, ToJsonFor,
};
use ablation_playground::view::reference::{
    cli_flags, cli_steps_allowed, cli_steps_help, CLI_MAX_STEPS as MAX_STEPS, CLI_MAX_THREADS as MAX_THREADS,
};
use ablation_playground::view::safetensors::{self, read};
use ablation_playground::view::words::status_line;
use ablation_playground::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

/// The cores this process may use: the default of `--threads`.
fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

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

struct Options {
    config: Config,
    /// The run's steps: `--steps`, or the preset's or task's own count.
    steps: usize,
    /// Each comparison's steps: `--steps`, or the page's count for the task (`comparison_steps`).
    compare_steps: usize,
    svg_dir: Option<PathBuf>,
    dark: bool,
    /// `--lang`: the language of the words that go with the SVGs.
    language: Rc<Language>,
    compare: bool,
    knockout: bool,
    depth_width: bool,
    attention: bool,
    tuned_lens: bool,
    /// `--tuned-lens-steps`: how long the tuned lens is fitted, if not the page's `FIT_STEPS`.
    lens_budget: Option<LensBudget>,
    /// `--similarity`: add the cosine between each layer's input and output.
    similarity: bool,
    /// `--probe`: add a linear probe's accuracy for the current token at every depth.
    probe: bool,
    /// `--compare-arms`: which of the four combinations `--compare` trains (all if None).
    compare_arms: Option<Vec<usize>>,
    /// `--grad-batches`: the batches the per-matrix gradient norms at initialisation average over.
    grad_batches: Option<usize>,
    /// `--update-steps`: the updates whose per-matrix size is reported.
    update_steps: Option<usize>,
    /// `--heal-steps`: the updates of the knockout's healing fine-tune (Gromov et al.).
    heal_steps: Option<usize>,
    /// The depths to sweep, if asked.
    sweep: Option<Vec<usize>>,
    threads: usize,
    /// What to continue after training, if asked (`--prompt`, `--write`).
    prompt: Option<Prompt>,
    save_weights: Option<PathBuf>,
    /// Where to write the batches the losses were measured on (`--save-eval-batch`).
    save_eval_batch: Option<PathBuf>,
    /// The weights to start from (`--load-weights`) and the updates they had (the file's step).
    start: Option<(Vec<f32>, usize)>,
}

/// The most updates `--tuned-lens-steps` fits a tuned lens for: 16 times the page's.
const LENS_MAX_STEPS: usize = 16 * FIT_STEPS;

/// The most updates `--heal-steps` heals each pruned stack for.
const MAX_HEAL_STEPS: usize = 10_000;

/// The words of `--compare-arms` in `four_combinations`' order.
const ARM_WORDS: [&str; 4] = ["both-off", "norm-alone", "residual-alone", "both-on"];

/// `--compare-arms`' list: some of `ARM_WORDS`, each once, comma-separated.
fn parse_arms(value: &str) -> Result<Vec<usize>, String> {
    let mut arms = Vec::new();
    for word in value.split(',').map(str::trim) {
        let i = ARM_WORDS
            .iter()
            .position(|w| *w == word)
            .ok_or_else(|| format!("--compare-arms: \"{word}\" is not one of {}", ARM_WORDS.join(", ")))?;
        if arms.contains(&i) {
            return Err(format!("--compare-arms: \"{word}\" is named twice"));
        }
        arms.push(i);
    }
    arms.sort_unstable();
    Ok(arms)
}

/// `value` as an integer from 1 to `max`, or an error naming the flag.
fn count(flag: &str, value: &str, max: usize) -> Result<usize, String> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("--{flag}: \"{value}\" is not an integer from 1 to {max}"))
}

/// A file's bytes, or an error naming the flag and the file.
fn read_file(flag: &str, path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("--{flag}: cannot read {path}: {e}"))
}

/// Parses `--flag value` and `--flag=value` pairs. A `--preset` applies first, wherever it
/// stands, and the other flags adjust it.
fn parse(args: &[String]) -> Result<Options, String> {
    let mut config = Config::default();
    let mut params: Vec<(&str, String)> = Vec::new();
    // None: the preset's or task's own count (`Config::steps`), as the page trains
    let mut steps = None;
    let mut task = None;
    let mut svg_dir = None;
    let mut dark = false;
    let mut language = Rc::new(Language::english());
    let (mut compare, mut knockout, mut attention, mut sweep) = (false, false, false, None);
    let (mut depth_width, mut tuned_lens) = (false, false);
    let (mut grad_batches, mut update_steps, mut compare_arms, mut heal_steps) = (None, None, None, None);
    let (mut lens_budget, mut similarity, mut probe) = (None, false, false);
    let mut threads = available_threads();
    let (mut text, mut prompt, mut write, mut save_weights, mut save_eval_batch, mut load_weights) =
        (None, None, None, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(body) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument \"{arg}\"; flags look like --depth 12"));
        };
        let switch = match body {
            "dark" => Some(&mut dark),
            f if f == AllFour::SPEC.flag => Some(&mut compare),
            f if f == LayerKnockout::SPEC.flag => Some(&mut knockout),
            "attention" => Some(&mut attention),
            f if f == DepthOrWidth::SPEC.flag => Some(&mut depth_width),
            "tuned-lens" => Some(&mut tuned_lens),
            "similarity" => Some(&mut similarity),
            "probe" => Some(&mut probe),
            _ => None,
        };
        if let Some(on) = switch {
            *on = true;
            i += 1;
            continue;
        }
        // `--sweep` alone (last, or before another flag) sweeps the default depths
        let alone = args.get(i + 1).is_none_or(|next| next.starts_with("--"));
        if body == DepthSweep::SPEC.flag && alone {
            sweep = Some(Vec::new()); // the configuration's default depths, once it is known
            i += 1;
            continue;
        }
        // `--tune` alone tunes (`--tune on` and `--tune off` as the table has them)
        if body == "tune" && alone {
            params.push(("tune", "on".into()));
            i += 1;
            continue;
        }
        // an unknown flag is named as such wherever it stands, even last, without a value
        let named = body.split_once('=').map_or(body, |(f, _)| f);
        let known = [
            DepthSweep::SPEC.flag,
            "svg",
            "lang",
            "steps",
            "threads",
            PRESET,
            "task",
            "text",
            "prompt",
            "write",
            "save-weights",
            "save-eval-batch",
            "load-weights",
            "grad-batches",
            "update-steps",
            "compare-arms",
            "tuned-lens-steps",
            "heal-steps",
        ]
        .contains(&named)
            || find_flag(named).is_some();
        if !known {
            return Err(format!("--{named}: unknown flag (see --help)"));
        }
        let (flag, value) = match body.split_once('=') {
            Some((f, v)) => (f, v.to_string()),
            None => {
                i += 1;
                let v = args.get(i).ok_or_else(|| format!("--{body}: missing value"))?;
                (body, v.clone())
            }
        };
        if flag == "text" {
            let corpus =
                install_own(&read_file(flag, &value)?).map_err(|e| format!("--text: {value}: {e}"))?;
            text = Some(corpus.id);
        } else if flag == "prompt" {
            prompt = Some(value);
        } else if flag == "write" {
            write = Some(count(flag, &value, MAX_WRITE_CHARS)?);
        } else if flag == "tuned-lens-steps" {
            lens_budget = Some(if value.trim() == "converged" {
                LensBudget::Converged { max_steps: LENS_MAX_STEPS }
            } else {
                LensBudget::Steps(
                    count(flag, &value, LENS_MAX_STEPS).map_err(|e| format!("{e}, or converged"))?,
                )
            });
            tuned_lens = true;
        } else if flag == "compare-arms" {
            compare_arms = Some(parse_arms(&value)?);
            compare = true;
        } else if flag == "grad-batches" {
            grad_batches = Some(count(flag, &value, 1000)?);
        } else if flag == "update-steps" {
            update_steps = Some(count(flag, &value, MAX_STEPS)?);
        } else if flag == "heal-steps" {
            heal_steps = Some(count(flag, &value, MAX_HEAL_STEPS)?);
            knockout = true;
        } else if flag == "save-weights" {
            save_weights = Some(PathBuf::from(value));
        } else if flag == "save-eval-batch" {
            save_eval_batch = Some(PathBuf::from(value));
        } else if flag == "load-weights" {
            let file =
                read(&read_file(flag, &value)?).map_err(|e| format!("--load-weights: {value}: {e}"))?;
            load_weights = Some(file);
        } else if flag == DepthSweep::SPEC.flag {
            sweep = Some(parse_depths(&value).map_err(|e| format!("--sweep: {}", e.message()))?);
        } else if flag == "lang" {
            let tags = LANGUAGES.iter().map(|l| l.tag).collect::<Vec<_>>().join(", ");
            language = Rc::new(
                Language::shipped(&value)
                    .map_err(|_| format!("--lang: no words in {value:?}; one of {tags}"))?,
            );
        } else if flag == "svg" {
            if value.is_empty() {
                return Err("--svg: missing directory".into());
            }
            svg_dir = Some(PathBuf::from(value));
        } else if flag == "steps" {
            steps = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|s| *s <= MAX_STEPS)
                    .ok_or_else(|| format!("--steps: \"{value}\" is not {}", cli_steps_allowed()))?,
            );
        } else if flag == "threads" {
            threads = count(flag, &value, MAX_THREADS)?;
        } else if flag == PRESET {
            config.set(PRESET, &value).map_err(|e| format!("--{flag}: {}", e.message()))?;
        } else if flag == "task" {
            config.with_task(&value).map_err(|e| format!("--{flag}: {}", e.message()))?;
            task = Some(value);
        } else {
            let spec = find_flag(flag).ok_or_else(|| format!("--{flag}: unknown flag (see --help)"))?;
            spec.check(&value).map_err(|e| format!("--{flag}: {}", e.message()))?;
            params.push((spec.name, value));
        }
        i += 1;
    }
    // a weights file's configuration is where the flags start from
    if let Some(file) = &load_weights {
        config = file.config.clone();
    }
    // as on the page: a task brings its defaults (after the preset), then the flags adjust them
    if let Some(task) = task {
        config = config.with_task(&task).expect("checked above");
    }
    // a text to train on brings the text task, if the flags chose another
    if text.is_some() && config.task != TaskKind::Text {
        config = config.with_task("text").expect("a task");
    }
    let chosen: Vec<&str> = params.iter().map(|(name, _)| *name).collect();
    for (name, value) in params {
        config.set(name, &value).expect("checked above");
    }
    // a default the flags did not choose fits the stack they did (an encoder-decoder's depth
    // of 5N, its block sublayers, an even context), as the page moves them; a value a flag or a
    // weights file chose is refused below if it does not fit
    if load_weights.is_none() {
        config.fit_stack_defaults(|name| chosen.contains(&name));
    }
    if let Some(id) = text {
        config.text = id;
    }
    if config.task == TaskKind::Text && corpus(config.text).is_none() {
        return Err(format!(
            "--text-id {}: the run names a reader's text; give it with --text FILE",
            config.text.text()
        ));
    }
    let prompt = match (prompt, write) {
        (None, None) => None,
        _ if config.task != TaskKind::Text => {
            return Err("--prompt: only a text stack continues a prompt (--task text or --text FILE)".into())
        }
        (text, chars) => {
            let text = text.unwrap_or_else(|| Prompt::default_for(&text_of(&config)).text);
            Some(Prompt::reader(&text, chars.unwrap_or(SAMPLE_CHARS)).map_err(|e| format!("--prompt: {e}"))?)
        }
    };
    let start = match load_weights {
        None => None,
        Some(file) => {
            if !safetensors::fits(&file.config, &config) {
                return Err(
                    "--load-weights: the other flags change the stack's tensors (their number or shapes); the file's \
                     stack cannot be loaded into it"
                        .into(),
                );
            }
            Some((file.weights, file.step))
        }
    };
    let compare_steps = steps.unwrap_or(comparison_steps(config.task));
    let steps = steps.unwrap_or(config.steps).min(MAX_STEPS);
    config.steps = steps;
    config.check_together().map_err(|e| format!("--{}: {}", find_flag_of(&e.name), e.message()))?;
    let sweep = sweep.map(|d| if d.is_empty() { default_sweep_depths(&config).to_vec() } else { d });
    if let Some(d) =
        sweep.iter().flatten().find(|&&d| config.stack == StackKind::EncoderDecoder && d % 5 != 0)
    {
        return Err(format!(
            "--sweep: an encoder-decoder has 5 sublayers per encoder and decoder layer (2 + 3): depth {d} is not a multiple of 5"
        ));
    }
    if depth_width {
        depth_width_applies(&config).map_err(|e| format!("--depth-width: {e}"))?;
    }
    if tuned_lens && config.task == TaskKind::Teacher {
        return Err("--tuned-lens: the tuned lens reads a sequence task's next-token predictions; the regression has none".into());
    }
    Ok(Options {
        config,
        steps,
        compare_steps,
        svg_dir,
        language,
        dark,
        compare,
        knockout,
        attention,
        tuned_lens,
        compare_arms,
        lens_budget,
        similarity,
        probe,
        grad_batches,
        update_steps,
        heal_steps,
        depth_width,
        sweep,
        threads,
        prompt,
        save_weights,
        save_eval_batch,
        start,
    })
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

/// The flag of a parameter named `name` (as the table spells it).
fn find_flag_of(name: &str) -> &'static str {
    PARAMS.iter().find(|p| p.name == name).map_or("?", |p| p.flag)
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
        let accuracies = probe_accuracies(&mut trainer).map_err(|e| format!("--probe: {e}"))?;
        layer_field(&mut fields, "probe_accuracy", Json::nums(&accuracies));
    }
    if options.similarity {
        layer_field(&mut fields, "adjacent_cosine", Json::nums(&adjacent_cosines(&mut trainer)));
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
    // a run that diverged is drawn at its last finite state, as the page shows it
    let last_finite = (draw && trainer.back_to_last_finite().is_some()).then(|| {
        let (probe, histogram) = probed(&mut trainer);
        LastFinite { step: trainer.step, probe, histogram }
    });
    drop(trainer); // the comparisons train their own stacks
    if options.compare {
        let state = match &options.compare_arms {
            Some(only) => compare_arms_here(config, options.compare_steps, options.threads, only)?,
            None => compare_here(config, options.compare_steps, options.threads)?,
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
    let options = match parse(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("ablate: {message}");
            return ExitCode::from(2);
        }
    };
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
