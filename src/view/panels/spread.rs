//! The words every comparison uses for an arm over seeds and rates: "2.31 [2.20–2.45]", "3
//! of 5 below the bigram line", "over seeds 1–5", "lr 0.003", "learning rate (best of 0.001,
//! 0.003, 0.009)".

use crate::config::{Config, TaskKind};
use crate::training::spread::{learned_words, Arm, Spread};
use crate::view::charts::short;

/// A spread as a table cell: the median and, over several runs, the lowest and highest run
/// ("2.31 [2.20–2.45]"); a run that diverged counts as ∞.
pub fn spread_text(s: &Spread) -> String {
    if s.single() {
        short(s.median)
    } else {
        format!("{} [{}–{}]", short(s.median), short(s.min), short(s.max))
    }
}

/// The spread of `value` over the arm's finished runs at its chosen rate.
pub fn arm_spread<T>(arm: &Arm<T>, value: &dyn Fn(&T) -> f64) -> Spread {
    Spread::of(&arm.shown_done().map(|(_, r)| value(r)).collect::<Vec<_>>())
}

/// "over seeds 3–7" ("at seed 3" for one).
pub fn seeds_words(config: &Config) -> String {
    let seeds = crate::training::spread::seeds(config);
    match (seeds.first(), seeds.last()) {
        (Some(a), Some(b)) if seeds.len() > 1 => format!("over seeds {a}–{b}"),
        (Some(a), _) => format!("at seed {a}"),
        _ => String::new(),
    }
}

/// How many of the arm's finished runs learned the task: "3 of 5 below the bigram line"
/// (`None` on the regression, or before any run is in).
pub fn learned_count<T>(arm: &Arm<T>, task: TaskKind, learned: fn(&T) -> Option<bool>) -> Option<String> {
    let words = learned_words(task)?;
    let said: Vec<bool> = arm.shown_done().filter_map(|(_, r)| learned(r)).collect();
    if said.is_empty() {
        return None;
    }
    let k = said.iter().filter(|&&l| l).count();
    Some(format!("{k} of {} {words}", said.len()))
}

/// How many of the arm's finished runs diverged, when some did and there are several:
/// "diverged on 2 of 5".
pub fn diverged_count<T>(arm: &Arm<T>, diverged: fn(&T) -> bool) -> Option<String> {
    let n = arm.shown_done().count();
    let k = arm.shown_done().filter(|(_, r)| diverged(r)).count();
    (n > 1 && k > 0).then(|| format!("diverged on {k} of {n}"))
}

/// The arm's rate when it was tuned: "lr 0.003" ("lr: choosing" while its runs train).
pub fn rate_words<T>(arm: &Arm<T>) -> Option<String> {
    if !arm.tuned() {
        return None;
    }
    Some(if arm.done { format!("lr {}", short(arm.rate())) } else { "lr: choosing".to_string() })
}

/// The tuned rate's column: "learning rate (best of 0.0033, 0.010, 0.030)", from the first
/// tuned arm (every arm of a comparison has the same grid).
pub fn rate_column<'a, T: 'a>(arms: impl IntoIterator<Item = &'a Arm<T>>) -> Option<String> {
    let arm = arms.into_iter().find(|a| a.tuned())?;
    let grid = arm.rates.iter().map(|&r| short(r)).collect::<Vec<_>>().join(", ");
    Some(format!("learning rate (best of {grid})"))
}

/// The tuned rate's cell: "0.0033", "choosing" while its runs train, nothing if untuned.
pub fn rate_cell<T>(arm: &Arm<T>) -> String {
    match (arm.tuned(), arm.done) {
        (false, _) => String::new(),
        (true, true) => short(arm.rate()),
        (true, false) => "choosing".into(),
    }
}

/// Whether the seeds disagree on the arm: some of its runs learned and some did not.
pub fn disagree<T>(arm: &Arm<T>, learned: fn(&T) -> Option<bool>) -> bool {
    let said: Vec<bool> = arm.shown_done().filter_map(|(_, r)| learned(r)).collect();
    said.iter().any(|&l| l) && said.iter().any(|&l| !l)
}
