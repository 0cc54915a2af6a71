//! The numbers of a comparison's arm over seeds (its runs themselves: `arm.rs`). Every comparison (All four, the sweep, depth or width, the
//! knockout, a pin) trains each of its arms at the seeds `seed, seed + 1, …` (`Config::seeds`
//! of them) and shows the median with the lowest and highest run. With `Config::tune` the
//! arm's setting is first chosen on other seeds (`choosing_seeds`) by `ablation_comparisons::tuner`, on the
//! training loss alone; the seeds shown then train at it. Whether a run has plateaued is
//! `plateaued`'s one rule.
//!
//! Each run is the single run of its configuration: the same bits as `ablate` with that seed
//! and setting, whichever worker or thread trains it.

use crate::tasks::task::{floors, TaskFloors};
use ablation_core::config::{Config, TaskKind};

/// The share of held-out symbols a copy or induction run must copy to have learned the task.
pub const COPIED: f64 = 0.95;

/// Whether a sequence task's run learned it by its end: on the text, a held-out loss below
/// the bigram line; on copy and induction, 95% of the held-out symbols copied. `None` on the
/// regression, which has no line. (Reads the text's floors: call it where the text is.)
pub fn learned(config: &Config, held_out_loss: f64, accuracy: f64) -> Option<bool> {
    match (config.task, floors(config)?) {
        (TaskKind::Text, TaskFloors::Text(f)) => Some(held_out_loss < f.bigram),
        _ => Some(accuracy >= COPIED),
    }
}

/// What "learned" means on `task`, for a sentence: "below the bigram line", "at 95%".
pub fn learned_words(task: TaskKind) -> Option<&'static str> {
    match task {
        TaskKind::Teacher => None,
        TaskKind::Text => Some("below the bigram line"),
        TaskKind::Copy | TaskKind::Induction | TaskKind::Reverse => Some("at 95%"),
    }
}

/// The seeds of `config`'s comparisons: `seed, seed + 1, …` (wrapping past the largest seed).
pub fn seeds(config: &Config) -> Vec<u64> {
    (0..config.seeds.max(1) as u64).map(|k| config.seed.wrapping_add(k)).collect()
}

/// The seeds a tuned comparison chooses its settings on: the `choose_seeds` after the ones it
/// shows (`seed + seeds, …`), so that no run shown took part in choosing its setting.
pub fn choosing_seeds(config: &Config) -> Vec<u64> {
    let from = config.seed.wrapping_add(config.seeds.max(1) as u64);
    (0..config.choose_seeds.max(1) as u64).map(|k| from.wrapping_add(k)).collect()
}

/// The plateau rule: a run has plateaued once the best of the last third of its held-out
/// measurements is less than 1% below the best before them, or less than 0.001 nats below
/// it (the tuned lens's rule: a loss near zero keeps falling by 1% of itself long after it
/// stopped mattering); at least 20 measurements; a run that diverged has not. A shorter window stopped text runs at their early stall near the
/// bigram line (at step 700, 2 of 10 seeds of the Liu study, whose loss then fell 0.8 nats on
/// the other seeds). `curve` is the held-out loss at each measurement, or on the
/// regression the mean training loss of each stretch between them (`training_curve`).
pub fn plateaued(curve: &[f64]) -> bool {
    if curve.len() < PLATEAU_MIN || curve.iter().any(|x| !x.is_finite()) {
        return false;
    }
    let recent = curve.len().div_ceil(3);
    let best = |xs: &[f64]| xs.iter().copied().fold(f64::INFINITY, f64::min);
    let (before, last) = curve.split_at(curve.len() - recent);
    let before = best(before);
    best(last) > before - (before * PLATEAU_GAIN).max(PLATEAU_NATS)
}

/// The plateau rule's smallest improvement worth going on for: 1% of the loss…
pub const PLATEAU_GAIN: f64 = 0.01;
/// …or, for a loss near zero, 0.001 nats.
pub const PLATEAU_NATS: f64 = 0.001;
/// Measurements the plateau rule needs before it says a run has plateaued.
pub const PLATEAU_MIN: usize = 20;

/// The regression's curve for `plateaued`: the mean training loss over each stretch of `every`
/// steps (its data is fresh at every step, so its training loss is a held-out one).
pub fn training_curve(loss: &[f64], every: usize) -> Vec<f64> {
    loss.chunks(every.max(1)).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect()
}

/// The mean training loss over the last tenth of a run's steps (at least the last one): what
/// the rate is chosen by. A run that diverged, or has no loss yet, scores infinity.
pub fn tail_loss(loss: &[f64]) -> f64 {
    if loss.is_empty() {
        return f64::INFINITY;
    }
    let n = loss.len().div_ceil(10);
    let tail = &loss[loss.len() - n..];
    if tail.iter().any(|x| !x.is_finite()) {
        return f64::INFINITY;
    }
    tail.iter().sum::<f64>() / n as f64
}

/// The median of `xs`, a non-finite value (a run that diverged) counted as the largest: the
/// middle one, or the mean of the middle two. NaN for none.
pub fn median(xs: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = xs.iter().map(|&x| if x.is_nan() { f64::INFINITY } else { x }).collect();
    ablation_core::order::sort_by(&mut sorted, f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The median of a set of runs' numbers and the lowest and highest of them: a diverged run's
/// NaN counts as infinity, so that the median says "diverged" once most runs did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// How many numbers it is of.
    pub runs: usize,
}

impl Spread {
    pub fn of(xs: &[f64]) -> Spread {
        let inf = |x: f64| if x.is_nan() { f64::INFINITY } else { x };
        Spread {
            median: median(xs),
            min: xs.iter().copied().map(inf).fold(f64::INFINITY, f64::min),
            max: xs.iter().copied().map(inf).fold(f64::NEG_INFINITY, f64::max),
            runs: xs.len(),
        }
    }

    /// One run's numbers all say the same.
    pub fn single(&self) -> bool {
        self.runs <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_count_up_from_the_seed_and_wrap() {
        let c = Config { seed: u64::MAX, seeds: 3, ..Config::default() };
        assert_eq!(seeds(&c), [u64::MAX, 0, 1]);
        assert_eq!(seeds(&Config::default()), [1]);
    }

    #[test]
    fn the_choosing_seeds_follow_the_shown_ones() {
        let c = Config { seed: 4, seeds: 5, choose_seeds: 3, ..Config::default() };
        assert_eq!(seeds(&c), [4, 5, 6, 7, 8]);
        assert_eq!(choosing_seeds(&c), [9, 10, 11]);
    }

    #[test]
    fn a_plateau_is_under_one_percent_over_the_last_third_of_twenty_measurements() {
        // 21 measurements: the last 7 against the 14 before them
        let flat: Vec<f64> = (0..21).map(|i| 2.0 + 1.0 / f64::from(i + 1)).collect();
        // best before = 2 + 1/14 = 2.0714, best of the last seven = 2 + 1/21 = 2.0476: 1.1% lower
        assert!(!plateaued(&flat), "still 1.1% lower");
        let mut settled = flat.clone();
        settled.extend([2.048, 2.0478, 2.0479, 2.048, 2.0477, 2.0478, 2.0479, 2.048, 2.0481]);
        // 30: the last 10 against 2.0476
        assert!(plateaued(&settled));
        // an early stall, flat over 8 measurements, is too few to tell: the rule waits for 20
        let stall = [3.3, 2.9, 2.6, 2.5, 2.49, 2.49, 2.49, 2.49, 2.49, 2.49];
        assert!(!plateaued(&stall), "too few measurements to tell");
        assert!(!plateaued(&settled[..19]), "too few measurements to tell");
        let mut diverged = settled.clone();
        diverged.push(f64::NAN);
        assert!(!plateaued(&diverged));
        let falling: Vec<f64> = (0..40).map(|i| 3.0 * 0.97f64.powi(i)).collect();
        assert!(!plateaued(&falling), "3% a measurement is no plateau");
        // a loss falling toward zero by 3% a measurement: still falling by more than 1% of
        // itself, but by less than 0.001 nats once it is small
        let vanishing: Vec<f64> = (0..40).map(|i| 1e-3 * 0.97f64.powi(i)).collect();
        let (b, l) = (vanishing[25], vanishing[39]);
        assert!(l < b * 0.99 && b - l < PLATEAU_NATS, "{b} {l}");
        assert!(plateaued(&vanishing), "under 0.001 nats is a plateau");
        let big: Vec<f64> = vanishing.iter().map(|x| x * 100.0).collect();
        assert!(!plateaued(&big), "0.1 falling 3% a measurement is no plateau");
        assert_eq!(training_curve(&[1.0, 3.0, 5.0, 7.0, 9.0], 2), [2.0, 6.0, 9.0]);
    }

    #[test]
    fn the_median_counts_a_divergence_as_the_largest() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[1.0, f64::NAN, f64::NAN]), f64::INFINITY);
        assert!(median(&[]).is_nan());
        let s = Spread::of(&[2.0, f64::NAN, 1.0]);
        assert_eq!((s.median, s.min, s.max, s.runs), (2.0, 1.0, f64::INFINITY, 3));
    }

    #[test]
    fn the_tail_is_the_last_tenth_and_a_divergence_scores_worst() {
        let loss: Vec<f64> = (0..=20).map(f64::from).collect(); // 21 values: the last 3
        assert_eq!(tail_loss(&loss), 19.0);
        assert_eq!(tail_loss(&[5.0]), 5.0);
        assert_eq!(tail_loss(&[1.0, f64::NAN]), f64::INFINITY);
        assert_eq!(tail_loss(&[]), f64::INFINITY);
    }
}
