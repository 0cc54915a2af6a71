//! `ablate`'s flags: the usage text, and the command line read into `Options`.

use ablation_playground::comparisons::all_four::AllFour;
use ablation_playground::comparisons::depth_width::shapes::depth_width_applies;
use ablation_playground::comparisons::depth_width::DepthOrWidth;
use ablation_playground::comparisons::knockout::LayerKnockout;
use ablation_playground::comparisons::sweep::DepthSweep;
use ablation_playground::comparisons::Comparison;
use ablation_playground::config::{find_flag, StackKind, TaskKind, PARAMS, PRESET};
use ablation_playground::language::{Language, LANGUAGES};
use ablation_playground::training::live::writing::{Prompt, MAX_WRITE_CHARS, SAMPLE_CHARS};
use ablation_playground::training::measures::tuned_lens::{LensBudget, FIT_STEPS};
use ablation_playground::training::runs::all_four::comparison_steps;
use ablation_playground::training::runs::sweep::{default_sweep_depths, parse_depths};
use ablation_playground::training::tasks::corpus::{corpus, install_own, text_of};
use ablation_playground::view::reference::{
    cli_steps_allowed, CLI_MAX_STEPS as MAX_STEPS, CLI_MAX_THREADS as MAX_THREADS,
};
use ablation_playground::view::safetensors::{self, read};
use ablation_playground::Config;
use std::path::PathBuf;
use std::rc::Rc;

/// The cores this process may use: the default of `--threads`.
pub(crate) fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) struct Options {
    pub(crate) config: Config,
    /// The run's steps: `--steps`, or the preset's or task's own count.
    pub(crate) steps: usize,
    /// Each comparison's steps: `--steps`, or the page's count for the task (`comparison_steps`).
    pub(crate) compare_steps: usize,
    pub(crate) svg_dir: Option<PathBuf>,
    pub(crate) dark: bool,
    /// `--lang`: the language of the words that go with the SVGs.
    pub(crate) language: Rc<Language>,
    pub(crate) compare: bool,
    pub(crate) knockout: bool,
    pub(crate) depth_width: bool,
    pub(crate) attention: bool,
    pub(crate) tuned_lens: bool,
    /// `--tuned-lens-steps`: how long the tuned lens is fitted, if not the page's `FIT_STEPS`.
    pub(crate) lens_budget: Option<LensBudget>,
    /// `--similarity`: add the cosine between each layer's input and output.
    pub(crate) similarity: bool,
    /// `--probe`: add a linear probe's accuracy for the current token at every depth.
    pub(crate) probe: bool,
    /// `--compare-arms`: which of the four combinations `--compare` trains (all if None).
    pub(crate) compare_arms: Option<Vec<usize>>,
    /// `--grad-batches`: the batches the per-matrix gradient norms at initialisation average over.
    pub(crate) grad_batches: Option<usize>,
    /// `--update-steps`: the updates whose per-matrix size is reported.
    pub(crate) update_steps: Option<usize>,
    /// `--heal-steps`: the updates of the knockout's healing fine-tune (Gromov et al.).
    pub(crate) heal_steps: Option<usize>,
    /// `--jobs-elsewhere`: the comparisons' rounds of jobs handed out on standard output.
    pub(crate) jobs_elsewhere: bool,
    /// `--knockout-blocks`: Gromov's blocks removed, the distance averaged over this many batches.
    pub(crate) knockout_blocks: Option<usize>,
    /// The depths to sweep, if asked.
    pub(crate) sweep: Option<Vec<usize>>,
    pub(crate) threads: usize,
    /// What to continue after training, if asked (`--prompt`, `--write`).
    pub(crate) prompt: Option<Prompt>,
    pub(crate) save_weights: Option<PathBuf>,
    /// Where to write the batches the losses were measured on (`--save-eval-batch`).
    pub(crate) save_eval_batch: Option<PathBuf>,
    /// The weights to start from (`--load-weights`) and the updates they had (the file's step).
    pub(crate) start: Option<(Vec<f32>, usize)>,
}

/// The most updates `--tuned-lens-steps` fits a tuned lens for: 16 times the page's.
pub(crate) const LENS_MAX_STEPS: usize = 16 * FIT_STEPS;

/// The most updates `--heal-steps` heals each pruned stack for.
pub(crate) const MAX_HEAL_STEPS: usize = 10_000;

/// The words of `--compare-arms` in `four_combinations`' order.
pub(crate) const ARM_WORDS: [&str; 4] = ["both-off", "norm-alone", "residual-alone", "both-on"];

/// `--compare-arms`' list: some of `ARM_WORDS`, each once, comma-separated.
pub(crate) fn parse_arms(value: &str) -> Result<Vec<usize>, String> {
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
pub(crate) fn count(flag: &str, value: &str, max: usize) -> Result<usize, String> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("--{flag}: \"{value}\" is not an integer from 1 to {max}"))
}

/// A file's bytes, or an error naming the flag and the file.
pub(crate) fn read_file(flag: &str, path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("--{flag}: cannot read {path}: {e}"))
}

/// Parses `--flag value` and `--flag=value` pairs. A `--preset` applies first, wherever it
/// stands, and the other flags adjust it.
pub(crate) fn parse(args: &[String]) -> Result<Options, String> {
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
    let (mut lens_budget, mut similarity, mut probe, mut knockout_blocks) = (None, false, false, None);
    let mut jobs_elsewhere = false;
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
            "jobs-elsewhere" => Some(&mut jobs_elsewhere),
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
            "knockout-blocks",
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
        } else if flag == "knockout-blocks" {
            knockout_blocks = Some(count(flag, &value, 256)?);
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
        knockout_blocks,
        jobs_elsewhere,
        depth_width,
        sweep,
        threads,
        prompt,
        save_weights,
        save_eval_batch,
        start,
    })
}

/// The flag of a parameter named `name` (as the table spells it).
pub(crate) fn find_flag_of(name: &str) -> &'static str {
    PARAMS.iter().find(|p| p.name == name).map_or("?", |p| p.flag)
}
