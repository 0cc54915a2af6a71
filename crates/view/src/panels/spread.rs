//! The words every comparison uses for an arm over seeds and rates: "2.31 [2.20–2.45]", "3
//! of 5 below the bigram line", "over seeds 1–5", "lr 0.003", "round 2 of 3, 14 of 40 runs",
//! "post-norm's best rate is the lowest allowed, 1e-5", "plateaued 3 of 5".

use crate::charts::number;
use crate::words::float_words;
use ablation_core::config::{tuning, Config, TaskKind, TuneGrid, Until};
use ablation_training::runs::arm::Arm;
use ablation_training::runs::spread::{choosing_seeds, learned_words, Spread};
use ablation_training::runs::tuned::Limit;
use ablation_words::say;

/// A spread as a table cell: the median and, over several runs, the lowest and highest run
/// ("2.31 [2.20–2.45]"); a run that diverged counts as ∞.
pub fn spread_text(s: &Spread) -> String {
    if s.single() {
        number(s.median)
    } else {
        say!("spread", median = number(s.median), min = number(s.min), max = number(s.max))
    }
}

/// The spread of `value` over the arm's finished runs at its chosen rate.
pub fn arm_spread<T>(arm: &Arm<T>, value: &dyn Fn(&T) -> f64) -> Spread {
    Spread::of(&arm.shown_done().map(|(_, r)| value(r)).collect::<Vec<_>>())
}

/// "over seeds 3–7" ("at seed 3" for one).
pub fn seeds_words(config: &Config) -> String {
    let seeds = ablation_training::runs::spread::seeds(config);
    say!("seeds-over", n = seeds.len(), range = seed_range(&seeds))
}

/// How many of the arm's finished runs learned the task: "3 of 5 below the bigram line"
/// (`None` on the regression, or before any run is in).
pub fn learned_count<T>(arm: &Arm<T>, task: TaskKind, learned: fn(&T) -> Option<bool>) -> Option<String> {
    learned_words(task)?;
    let task = if task == TaskKind::Text { "text" } else { "sequence" };
    let said: Vec<bool> = arm.shown_done().filter_map(|(_, r)| learned(r)).collect();
    if said.is_empty() {
        return None;
    }
    let k = said.iter().filter(|&&l| l).count();
    Some(say!("learned-count", k = k, n = said.len(), task = task))
}

/// How many of the arm's finished runs diverged, when some did and there are several:
/// "diverged on 2 of 5".
pub fn diverged_count<T>(arm: &Arm<T>, diverged: fn(&T) -> bool) -> Option<String> {
    let n = arm.shown_done().count();
    let k = arm.shown_done().filter(|(_, r)| diverged(r)).count();
    (n > 1 && k > 0).then(|| say!("diverged-count", k = k, n = n))
}

/// The arm's setting when it was tuned: "lr 0.003", with a recipe "lr 0.003, warmup 300,
/// β₂ 0.98" ("lr: choosing" while its search goes on).
pub fn rate_words<T>(arm: &Arm<T>) -> Option<String> {
    let t = arm.tuning.as_ref()?;
    Some(match t.chosen {
        None => say!("rate-choosing"),
        Some((lr, warmup, beta2)) if t.recipe => {
            say!("rate-recipe", lr = number(lr), warmup = warmup, beta2 = float_words(beta2))
        }
        Some((lr, _, _)) => say!("rate-lr", lr = number(lr)),
    })
}

/// The tuned setting's column, naming the seeds that chose it: "learning rate (chosen on seeds
/// 6–8)", or "lr · warmup · β₂ (chosen on seeds 6–8)" for a recipe, when some arm was tuned.
pub fn rate_column<'a, T: 'a>(arms: impl IntoIterator<Item = &'a Arm<T>>) -> Option<String> {
    let t = arms.into_iter().find_map(|a| a.tuning.as_ref())?;
    let what = if t.recipe { "recipe" } else { "lr" };
    Some(say!("rate-column", what = what, seeds = seed_range(&t.choosing_seeds)))
}

/// "seeds 6–8", or "seed 6" for one.
fn seed_range(seeds: &[u64]) -> String {
    match (seeds.first(), seeds.last()) {
        // (as text: a seed is a u64, more than a Fluent number holds exactly)
        (Some(a), Some(b)) if seeds.len() > 1 => {
            say!("seeds-range", first = a.to_string(), last = b.to_string())
        }
        (Some(a), _) => say!("seed-one", seed = a.to_string()),
        _ => String::new(),
    }
}

/// The tuned setting's cell: "0.0033", "0.00002 (lowest allowed)" at a limit, with a recipe
/// "0.0033 · 300 · 0.98"; "choosing" while its search goes on, nothing if untuned.
pub fn rate_cell<T>(arm: &Arm<T>) -> String {
    let Some(t) = &arm.tuning else { return String::new() };
    let Some((lr, warmup, beta2)) = t.chosen else { return say!("rate-cell-choosing") };
    let cell = if t.recipe {
        say!("rate-cell-recipe", lr = number(lr), warmup = warmup, beta2 = float_words(beta2))
    } else {
        number(lr)
    };
    match t.limit {
        Some(limit) => say!("rate-cell-limit", cell = cell, limit = limit_word(limit)),
        None => cell,
    }
}

/// A tuned arm still choosing its setting: "choosing: round 2 of 3, 5 candidates".
pub fn choosing_words<T>(arm: &Arm<T>) -> Option<String> {
    let t = arm.tuning.as_ref().filter(|t| t.chosen.is_none())?;
    let r = t.rounds.last()?;
    Some(say!("choosing", round = t.rounds.len(), rounds = t.planned_rounds, candidates = r.candidates))
}

/// How a tuned comparison chose, for its sentence: ", each arm's learning rate chosen on seeds
/// 6–8 (not shown) by successive halving over rates half a decade apart, widened until the
/// best is inside" (nothing when untuned).
pub fn tuning_words(config: &Config) -> String {
    if !config.tune {
        return String::new();
    }
    let what = match config.tune_grid {
        TuneGrid::Lr => "lr",
        TuneGrid::Recipe => "recipe",
    };
    say!(
        "tuning-words",
        what = what,
        seeds = seed_range(&choosing_seeds(config)),
        how = if config.halving { "halving" } else { "full" },
        step = tuning(config.task).lr_steps_per_decade
    )
}

/// The arms whose chosen rate is at a limit of the table, for the sentence: "post-norm's best
/// rate is the lowest allowed, 1e-5" (`name` names an arm).
pub fn limit_words<'a, T: 'a>(arms: impl IntoIterator<Item = (String, &'a Arm<T>)>) -> Vec<String> {
    arms.into_iter()
        .filter_map(|(name, arm)| {
            let t = arm.tuning.as_ref()?;
            Some(say!("limit-words", name = name, limit = limit_word(t.limit?), lr = number(t.chosen?.0)))
        })
        .collect()
}

/// A comparison's progress: "14 of 40 runs", while tuning "round 2 of 3, 14 of 40 runs".
pub fn progress_words(finished: usize, total: usize, round: Option<(usize, usize)>) -> String {
    match round {
        Some((r, of)) => say!("progress-round", round = r, rounds = of, finished = finished, total = total),
        None => say!("progress", finished = finished, total = total),
    }
}

/// How many of the arm's finished runs had plateaued by their end (`spread::plateaued`), of
/// how many said.
fn plateau_count<T>(arm: &Arm<T>, converged: fn(&T) -> Option<bool>) -> (usize, usize) {
    let said: Vec<bool> = arm.shown_done().filter_map(|(_, r)| converged(r)).collect();
    (said.iter().filter(|&&c| c).count(), said.len())
}

/// Whether the arm's finished runs had plateaued, as a cell of its own: "yes" or "no" for one
/// run, "3 of 5" for several, "…" before any is in.
pub fn plateau_cell<T>(arm: &Arm<T>, converged: fn(&T) -> Option<bool>) -> String {
    match plateau_count(arm, converged) {
        (_, 0) => "…".into(),
        (k, n) => say!("plateau-cell", k = k, n = n),
    }
}

/// The same within another cell: "plateaued", "not plateaued", "plateaued 3 of 5" (none
/// before any run is in).
pub fn plateau_words<T>(arm: &Arm<T>, converged: fn(&T) -> Option<bool>) -> Option<String> {
    match plateau_count(arm, converged) {
        (_, 0) => None,
        (k, n) => Some(say!("plateau-words", k = k, n = n)),
    }
}

/// Whether the seeds disagree on the arm: some of its runs learned and some did not.
pub fn disagree<T>(arm: &Arm<T>, learned: fn(&T) -> Option<bool>) -> bool {
    let said: Vec<bool> = arm.shown_done().filter_map(|(_, r)| learned(r)).collect();
    said.iter().any(|&l| l) && said.iter().any(|&l| !l)
}

/// A tuned rate's limit as its messages select it: `lowest` or `highest`.
pub fn limit_word(limit: Limit) -> &'static str {
    match limit {
        Limit::Lowest => "lowest",
        Limit::Highest => "highest",
    }
}

/// How long a comparison's runs train, as its messages select it: `steps` or `plateau`.
pub fn until_word(until: Until) -> &'static str {
    match until {
        Until::Steps => "steps",
        Until::Plateau => "plateau",
    }
}

/// A comparison's sentence: what it ran (`head`), then each arm's end ("both off: loss 2.31")
/// and the arms whose best rate is at a limit, each list where it has any.
pub fn summary_sentence(head: String, ends: &[String], limits: &[String]) -> String {
    let join = say!("end-join");
    let mut s = head;
    if !ends.is_empty() {
        s = say!("summary-ends", summary = s, ends = ends.join(&join));
    }
    if !limits.is_empty() {
        s = say!("summary-not-bracketed", summary = s, limits = limits.join(&join));
    }
    say!("summary-end", summary = s)
}
