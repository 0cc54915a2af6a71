//! A comparison's arm over seeds and learning rates. Every comparison (All four, the sweep,
//! depth or width, the knockout, a pin) trains each of its arms at the seeds `seed, seed + 1,
//! …` (`Config::seeds` of them) and, with `Config::tune`, at every rate of a small grid
//! around the configured one; it then reports the arm at the rate whose median training loss
//! over the last tenth of the run is lowest (never the held-out loss it is then shown with),
//! as the median of its seeds with the lowest and highest run beside it.
//!
//! Each run is the single run of its configuration: the same bits as `ablate` with that seed
//! and rate, whichever worker or thread trains it.

use crate::config::{find, Config, Kind, TaskKind};
use crate::training::task::{floors, TaskFloors};

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

/// The tuning grid's step: the configured learning rate ÷3, ×1 and ×3, a factor of 3 either side,
/// the half-decade steps of the usual learning-rate sweep (1e-3, 3e-3, 1e-2). The presets'
/// and the recipe table's best rates for one task lie within this factor of each other
/// (post-norm's 0.003 against pre-norm's 0.01 on the text), so one step either side reaches
/// each arm's own; a wider grid would triple the runs again for rates every arm loses at.
pub const RATE_STEP: f64 = 3.0;

/// The seeds of `config`'s comparisons: `seed, seed + 1, …` (wrapping past the largest seed).
pub fn seeds(config: &Config) -> Vec<u64> {
    (0..config.seeds.max(1) as u64).map(|k| config.seed.wrapping_add(k)).collect()
}

/// The learning rates an arm of `config` trains at, lowest first: the configured one alone,
/// or with `tune` the grid around it that the table allows.
pub fn rates(config: &Config) -> Vec<f64> {
    if !config.tune {
        return vec![config.learning_rate];
    }
    let Some(Kind::Float { min, max }) = find("lr").map(|p| p.kind) else { unreachable!("lr is a float") };
    let lr = config.learning_rate;
    let mut out: Vec<f64> =
        [lr / RATE_STEP, lr, lr * RATE_STEP].into_iter().filter(|r| (min..=max).contains(r)).collect();
    out.dedup();
    if out.is_empty() {
        out.push(config.learning_rate);
    }
    out
}

/// Where the configured rate stands in `rates(config)` (what is shown while the others train).
pub fn own_rate(config: &Config) -> usize {
    rates(config).iter().position(|&r| r == config.learning_rate).unwrap_or(0)
}

/// Every run of one arm, rate by rate and seed by seed (`at(rate, seed)`'s index is
/// `rate * seeds + seed`); each is `config` with only its seed and rate changed.
pub fn arm_runs(config: &Config) -> Vec<Config> {
    let seeds = seeds(config);
    rates(config)
        .into_iter()
        .flat_map(|learning_rate| {
            seeds.iter().map(move |&seed| Config { seed, learning_rate, ..config.clone() })
        })
        .collect()
}

/// The order an arm's runs are best trained in: the configured rate's seeds first (what is
/// shown while the others train), then the other rates'.
pub fn run_order(config: &Config) -> Vec<usize> {
    let (n, own) = (seeds(config).len(), own_rate(config));
    let all = 0..rates(config).len() * n;
    let mut order: Vec<usize> = (own * n..own * n + n).collect();
    order.extend(all.filter(|i| i / n != own));
    order
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
    crate::order::sort_by(&mut sorted, f64::total_cmp);
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

/// The rate to report an arm at: the one of `scores[rate][seed]` (each run's `tail_loss`)
/// whose median over the seeds is lowest; on a tie the lower rate. Only the training loss
/// takes part.
pub fn best_rate(scores: &[Vec<f64>]) -> usize {
    let medians: Vec<f64> = scores.iter().map(|s| median(s)).collect();
    (0..medians.len()).fold(0, |best, i| if medians[i] < medians[best] { i } else { best })
}

/// One arm once its runs are in: its runs (in `arm_runs` order, `None` while not done), the
/// grid they were trained on, and the rate chosen once every run is done (the configured one
/// until then).
#[derive(Clone, Debug, PartialEq)]
pub struct Arm<T> {
    pub rates: Vec<f64>,
    pub seeds: Vec<u64>,
    pub runs: Vec<Option<T>>,
    /// The index in `rates` of the rate shown.
    pub chosen: usize,
    /// Every run is in (and the rate, if tuned, chosen).
    pub done: bool,
}

impl<T> Arm<T> {
    /// The arm of `config` from its runs so far (`arm_runs` order), scored by `score` (the
    /// tail of each run's training loss).
    pub fn of(config: &Config, runs: Vec<Option<T>>, score: impl Fn(&T) -> f64) -> Arm<T> {
        let (rates, seeds) = (rates(config), seeds(config));
        assert_eq!(runs.len(), rates.len() * seeds.len(), "one run per rate and seed");
        let done = runs.iter().all(Option::is_some);
        let chosen = if done && rates.len() > 1 {
            let scores: Vec<Vec<f64>> = runs
                .chunks(seeds.len())
                .map(|rate| rate.iter().map(|r| r.as_ref().map_or(f64::INFINITY, &score)).collect())
                .collect();
            best_rate(&scores)
        } else {
            own_rate(config)
        };
        Arm { rates, seeds, runs, chosen, done }
    }

    /// The chosen rate.
    pub fn rate(&self) -> f64 {
        self.rates[self.chosen]
    }

    /// The runs at the chosen rate, seed by seed (`None` for one not done).
    pub fn shown(&self) -> &[Option<T>] {
        let n = self.seeds.len();
        &self.runs[self.chosen * n..(self.chosen + 1) * n]
    }

    /// The runs at the chosen rate that are done, with their seeds.
    pub fn shown_done(&self) -> impl Iterator<Item = (u64, &T)> {
        self.seeds.iter().zip(self.shown()).filter_map(|(&s, r)| r.as_ref().map(|r| (s, r)))
    }

    /// How many of the arm's runs are done.
    pub fn finished(&self) -> usize {
        self.runs.iter().filter(|r| r.is_some()).count()
    }

    /// Whether the arm was tuned (more than one rate).
    pub fn tuned(&self) -> bool {
        self.rates.len() > 1
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
    fn the_grid_is_a_factor_of_three_either_side_within_the_table() {
        let c = Config { learning_rate: 0.03, tune: true, ..Config::default() };
        assert_eq!(rates(&c), [0.03 / 3.0, 0.03, 0.03 * 3.0]);
        assert_eq!(own_rate(&c), 1);
        let top = Config { learning_rate: 10.0, ..c.clone() };
        assert_eq!(rates(&top), [10.0 / 3.0, 10.0], "×3 is past the table's largest");
        assert_eq!(rates(&Config { tune: false, ..c }), [0.03]);
    }

    #[test]
    fn an_arm_trains_its_own_rate_first() {
        let c = Config { seeds: 2, tune: true, ..Config::default() };
        let runs = arm_runs(&c);
        assert_eq!(runs.len(), 6);
        assert_eq!((runs[3].seed, runs[3].learning_rate), (2, 0.01));
        assert_eq!(run_order(&c), [2, 3, 0, 1, 4, 5]);
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

    #[test]
    fn the_rate_is_the_lowest_median_and_waits_for_every_run() {
        assert_eq!(best_rate(&[vec![3.0, 3.0, 9.0], vec![1.0, 5.0, 6.0], vec![f64::INFINITY; 3]]), 0);
        assert_eq!(best_rate(&[vec![2.0], vec![2.0]]), 0, "a tie: the lower rate");
        let c = Config { tune: true, ..Config::default() };
        let partial = Arm::of(&c, vec![Some(0.5), None, Some(2.0)], |&x| x);
        assert_eq!((partial.chosen, partial.done), (1, false), "the own rate until all are in");
        let arm = Arm::of(&c, vec![Some(0.5), Some(1.0), Some(2.0)], |&x| x);
        assert_eq!((arm.chosen, arm.rate(), arm.shown()), (0, 0.01 / RATE_STEP, &[Some(0.5)][..]));
    }
}
