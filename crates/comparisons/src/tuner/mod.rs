//! Tuning one arm of a comparison: the search that chooses its setting (the learning rate, and
//! with `tune_grid=lr,warmup,beta2` the warmup and Adam's β₂) before it is shown.
//!
//! - **A grid that brackets.** The rates are the settings' rate times `lr_step` (half a
//!   decade) to a whole power (`config::tuning`), five around it at first. While the best candidate's rate has a
//!   neighbour on the grid (one step either side, within the table's limits) that has not been
//!   trained as far, that neighbour is trained too: so the grid widens on the side of the best
//!   until the best is inside it, and the chosen rate's neighbours were both trained to the full
//!   run and did no better, unless the best is at a limit (then the report says so). A score
//!   within `TIE` of the lowest is as good, and the search keeps the best it had among those
//!   (`Tuner::best`); when that kept a setting whose score is not the lowest, the record says
//!   so (`Tuned::tie`), with both scores.
//! - **Successive halving** (Jamieson & Talwalkar 2016; Li et al. 2018). Every candidate trains
//!   `1/eta^(R-1)` of the run, the best `1/eta` of them (and the best's neighbours) go on from
//!   their checkpoints to `eta` times as far, and so on; the last round is the full run. A run
//!   continued from its checkpoint is bit for bit the run trained straight through
//!   (`trial::TrialRun`). Small rates look worse early than they end: `halving=off`
//!   trains every candidate the full run.
//! - **No candidate judged mid-ramp.** A round judges only the candidates whose warmup ended
//!   before the stretch it scores (`judged`): one still warming up is carried to the next round
//!   unjudged, as far as the full run, and a recipe's grid holds only the warmups that end
//!   before the full run's tail. Each round's record says how many it carried.
//! - **Seeds that choose.** Every candidate trains on the choosing seeds
//!   (`spread::choosing_seeds`), which the comparison never shows; it is scored by the median
//!   over them of its training loss over the last tenth of its steps so far (`tail_loss`).
//!   The held-out loss plays no part.

use std::collections::BTreeMap;

pub mod grid;

use ablation_core::config::{tuning, Config, TuneGrid, Tuning};
use ablation_training::runs::spread::{choosing_seeds, median};
use ablation_training::runs::trial::TrialEnd;
use ablation_training::runs::tuned::{CandidateScores, Limit, Round, TieKept, Tuned};
use grid::{first_powers, judged, planned_rounds, rate_at};

/// A candidate setting: the rate `lr · lr_step^k`, and the warmup and β₂ at these places in
/// the arm's lists. Ordered by rate first (a tie goes to the lower rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Setting {
    pub k: i32,
    pub warmup: usize,
    pub beta2: usize,
}

/// A trial the tuner wants run: `config` (its seed and setting) trained to update `until` of
/// a run of `steps`, going on from `from` (a trial's bytes) or, if empty, from the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct TrialRequest {
    pub setting: Setting,
    /// Which choosing seed (an index into `Tuner::seeds`).
    pub seed: usize,
    pub round: usize,
    pub config: Config,
    pub steps: usize,
    pub until: usize,
    pub from: Vec<u8>,
}

#[derive(Clone, Debug, Default)]
struct Candidate {
    /// Each round's score of each seed (`None` until in).
    scores: Vec<Vec<Option<f64>>>,
    /// Each seed's bytes to go on from, after its last round.
    resume: Vec<Vec<u8>>,
    /// The last round it was asked to train to.
    round: Option<usize>,
}

/// The search for one arm (see the module's words). `requests` hands out the trials it wants,
/// `record` takes each one's end; `tuned` says where it stands.
#[derive(Clone, Debug)]
pub struct Tuner {
    base: Config,
    tuning: Tuning,
    steps: usize,
    pub seeds: Vec<u64>,
    /// Each round's steps, the last the full run.
    pub rungs: Vec<usize>,
    warmups: Vec<usize>,
    beta2s: Vec<f64>,
    k_range: (i32, i32),
    candidates: BTreeMap<Setting, Candidate>,
    round: usize,
    queue: Vec<TrialRequest>,
    /// Trials asked for and not yet in.
    waiting: usize,
    rounds: Vec<Round>,
    /// The best so far (`best` keeps it among candidates as good).
    incumbent: Option<Setting>,
    chosen: Option<Setting>,
}

/// Scores within this share of the lowest are as good as it (`Tuner::best`): half a percent,
/// about the spread of a text run's tail over seeds at these lengths.
pub const TIE: f64 = 0.005;

impl Tuner {
    /// The search for an arm of `base` whose runs train `steps` updates, with its first round
    /// asked for.
    pub fn new(base: &Config, steps: usize) -> Tuner {
        let tuning = tuning(base.task);
        let recipe = base.tune_grid == TuneGrid::Recipe;
        let warmups: Vec<usize> = if recipe {
            // (those that end before the full run's scored tail: `judged` at its end)
            tuning.warmups.iter().copied().filter(|&w| judged(w, steps, steps)).collect()
        } else {
            vec![base.warmup_steps]
        };
        let beta2s = if recipe { tuning.beta2s.to_vec() } else { vec![base.beta2] };
        let rate = |k: i32| rate_at(base.learning_rate, &tuning, k);
        // the powers whose rate is within the limits (a hair of rounding allowed)
        let inside =
            |k: i32| (tuning.lr_min * (1.0 - 1e-9)..=tuning.lr_max * (1.0 + 1e-9)).contains(&rate(k));
        let span = 200; // 10^±100 at half decades: far past any limit
        let ks: Vec<i32> = (-span..=span).filter(|&k| inside(k)).collect();
        let k_range = match (ks.first(), ks.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => (0, 0), // a settings' rate outside every limit: that rate alone
        };
        // the `lr_points` powers nearest the settings' rate, within the limits
        let first = first_powers(k_range, tuning.lr_points.max(1));
        let n0 = first.len() * warmups.len() * beta2s.len();
        let rounds = if base.halving { planned_rounds(n0, tuning.eta, tuning.max_rounds) } else { 1 };
        let mut rungs: Vec<usize> =
            (0..rounds).map(|r| steps.div_ceil(tuning.eta.pow((rounds - 1 - r) as u32)).max(1)).collect();
        rungs.dedup();
        let mut tuner = Tuner {
            base: base.clone(),
            tuning,
            steps,
            seeds: choosing_seeds(base),
            rungs,
            warmups,
            beta2s,
            k_range,
            candidates: BTreeMap::new(),
            round: 0,
            queue: Vec::new(),
            waiting: 0,
            rounds: Vec::new(),
            incumbent: None,
            chosen: None,
        };
        for k in first {
            for warmup in 0..tuner.warmups.len() {
                for beta2 in 0..tuner.beta2s.len() {
                    tuner.ask(Setting { k, warmup, beta2 }, 0);
                }
            }
        }
        tuner
    }

    /// The rate of power `k`.
    pub fn rate(&self, k: i32) -> f64 {
        rate_at(self.base.learning_rate, &self.tuning, k)
    }

    /// `base` at `setting` and `seed`.
    pub fn config_at(&self, setting: Setting, seed: u64) -> Config {
        Config {
            seed,
            learning_rate: self.rate(setting.k),
            warmup_steps: self.warmups[setting.warmup],
            beta2: self.beta2s[setting.beta2],
            ..self.base.clone()
        }
    }

    /// The trials asked for since the last call, to be run in any order.
    pub fn requests(&mut self) -> Vec<TrialRequest> {
        std::mem::take(&mut self.queue)
    }

    /// The search is over: `chosen` is set.
    pub fn done(&self) -> bool {
        self.chosen.is_some()
    }

    /// The arm's configuration at the chosen setting (the seed left as it was).
    pub fn chosen(&self) -> Option<Config> {
        self.chosen.map(|s| self.config_at(s, self.base.seed))
    }

    /// Asks for `setting` trained to round `round` on every choosing seed: from its bytes at an
    /// earlier round, or from the seed. A seed that diverged earlier scores ∞ at once.
    fn ask(&mut self, setting: Setting, round: usize) {
        let (rounds, seeds) = (self.rungs.len(), self.seeds.len());
        let configs: Vec<Config> = self.seeds.iter().map(|&seed| self.config_at(setting, seed)).collect();
        let c = self.candidates.entry(setting).or_insert_with(|| Candidate {
            scores: vec![vec![None; seeds]; rounds],
            resume: vec![Vec::new(); seeds],
            round: None,
        });
        let earlier = c.round;
        c.round = Some(round);
        for seed in 0..seeds {
            let diverged = earlier.is_some_and(|r| c.scores[r][seed] == Some(f64::INFINITY));
            if diverged {
                c.scores[round][seed] = Some(f64::INFINITY);
                continue;
            }
            let from = std::mem::take(&mut c.resume[seed]);
            let config = configs[seed].clone();
            let until = self.rungs[round];
            self.queue.push(TrialRequest { setting, seed, round, config, steps: self.steps, until, from });
            self.waiting += 1;
        }
    }

    /// Takes a trial's end; once a round's trials are all in, decides what comes next.
    pub fn record(&mut self, setting: Setting, seed: usize, round: usize, end: TrialEnd) {
        let Some(c) = self.candidates.get_mut(&setting) else { return };
        if c.round != Some(round) || c.scores[round][seed].is_some() {
            return; // a report of a trial no longer asked for
        }
        c.scores[round][seed] = Some(if end.tail.is_nan() { f64::INFINITY } else { end.tail });
        c.resume[seed] = end.resume;
        self.waiting -= 1;
        self.settle();
    }

    /// The best of `scored`: the lowest score, except that a score within `TIE` of the lowest
    /// is as good (seeds' noise, or a flat stretch of rates), and among those the one nearest
    /// the best the search had before (at first the settings' own) is kept. Without the
    /// margin a search on a flat stretch (a stack that learns nothing at any rate) walks along
    /// it, a full run per step, chasing the noise.
    fn best(&self, scored: &[(Setting, f64)]) -> Option<Setting> {
        let lowest = scored.iter().map(|(_, s)| *s).fold(f64::INFINITY, f64::min);
        let before = self.incumbent.unwrap_or(Setting { k: 0, warmup: 0, beta2: 0 });
        let distance = |s: &Setting| {
            ((s.k - before.k).abs(), s.warmup.abs_diff(before.warmup) + s.beta2.abs_diff(before.beta2), *s)
        };
        let tied = scored.iter().filter(|(_, s)| *s <= lowest + TIE * lowest.abs() || *s == lowest);
        tied.map(|(s, _)| *s).min_by_key(distance)
    }

    /// Whether round `round` judges `setting`: its warmup ended before the stretch the round
    /// scores, or the round is the last (a warmup the settings fix, not the grid, may be as
    /// long as the run).
    fn judged_at(&self, setting: &Setting, round: usize) -> bool {
        round + 1 == self.rungs.len() || judged(self.warmups[setting.warmup], self.rungs[round], self.steps)
    }

    /// The median score at `round` of a candidate trained that far on every seed.
    fn score(&self, setting: &Setting, round: usize) -> Option<f64> {
        let c = self.candidates.get(setting)?;
        let scores: Option<Vec<f64>> = c.scores.get(round)?.iter().copied().collect();
        scores.map(|s| median(&s))
    }

    fn settle(&mut self) {
        while self.waiting == 0 && self.chosen.is_none() {
            let r = self.round;
            let at_r: Vec<(Setting, f64)> =
                self.candidates.keys().filter_map(|s| Some((*s, self.score(s, r)?))).collect();
            // those still warming up at this round's tail go on unjudged (never at the last
            // round); if every one diverged while warming up, they are judged as they are
            let mut judged: Vec<(Setting, f64)> = Vec::new();
            let mut next: Vec<Setting> = Vec::new();
            for &(s, x) in &at_r {
                if self.judged_at(&s, r) {
                    judged.push((s, x));
                } else if x.is_finite() {
                    next.push(s);
                }
            }
            if judged.is_empty() && next.is_empty() {
                judged = at_r.clone();
            }
            let carried = next.len();
            let best = self.best(&judged);
            if let Some(best) = best {
                // the best's neighbours on the rates' grid, as far as the best
                let mut asked = false;
                for k in [best.k - 1, best.k + 1] {
                    let n = Setting { k, ..best };
                    if (self.k_range.0..=self.k_range.1).contains(&k) && self.score(&n, r).is_none() {
                        self.ask(n, r);
                        asked = true;
                    }
                }
                self.incumbent = Some(best);
                if asked {
                    continue; // settled again once they are in (at once if all diverged before)
                }
            } else if next.is_empty() {
                return; // (none scored: nothing asked for yet)
            }
            self.rounds.push(Round { candidates: at_r.len(), steps: self.rungs[r], carried });
            if r + 1 == self.rungs.len() {
                self.chosen = best;
                return;
            }
            // the best 1/eta of those judged go on, with the best's neighbours; never one that
            // diverged
            let mut ranked: Vec<(Setting, f64)> =
                judged.iter().copied().filter(|(_, s)| s.is_finite()).collect();
            ablation_core::order::sort_by(&mut ranked, |a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            let keep = judged.len().div_ceil(self.tuning.eta);
            next.extend(ranked.iter().take(keep).map(|(s, _)| *s));
            if let Some(best) = best {
                for k in [best.k - 1, best.k + 1] {
                    let n = Setting { k, ..best };
                    if ranked.iter().any(|(s, _)| *s == n) && !next.contains(&n) {
                        next.push(n);
                    }
                }
                if !next.contains(&best) {
                    next.push(best); // every candidate diverged: the least bad goes on
                }
            }
            // the checkpoints kept: the survivors' and their neighbours' on the rates' grid
            // (a neighbour asked for later goes on from its own); the others train from the
            // seed if ever asked for again
            let near = |s: &Setting| {
                next.iter().any(|n| n.warmup == s.warmup && n.beta2 == s.beta2 && (n.k - s.k).abs() <= 1)
            };
            for (s, c) in self.candidates.iter_mut() {
                if !near(s) {
                    c.resume.iter_mut().for_each(Vec::clear);
                    c.resume.iter_mut().for_each(Vec::shrink_to_fit);
                }
            }
            self.round = r + 1;
            for s in next {
                self.ask(s, r + 1);
            }
        }
    }

    /// Where the search stands.
    pub fn tuned(&self) -> Tuned {
        let mut lrs: Vec<(i32, f64)> = self.candidates.keys().map(|s| (s.k, self.rate(s.k))).collect();
        lrs.dedup_by_key(|(k, _)| *k);
        let chosen = self.chosen.map(|s| (self.rate(s.k), self.warmups[s.warmup], self.beta2s[s.beta2]));
        let limit = self.chosen.and_then(|s| {
            if s.k <= self.k_range.0 {
                Some(Limit::Lowest)
            } else if s.k >= self.k_range.1 {
                Some(Limit::Highest)
            } else {
                None
            }
        });
        let mut rounds = self.rounds.clone();
        if self.chosen.is_none() {
            let candidates = self.candidates.values().filter(|c| c.round == Some(self.round)).count();
            rounds.push(Round { candidates, steps: self.rungs[self.round], carried: 0 });
        }
        let mut t = Tuned {
            lrs: lrs.into_iter().map(|(_, r)| r).collect(),
            warmups: self.warmups.clone(),
            beta2s: self.beta2s.clone(),
            recipe: self.base.tune_grid == TuneGrid::Recipe,
            chosen,
            bracketed: self.chosen.is_some() && limit.is_none(),
            limit: self.chosen.and(limit),
            choosing_seeds: self.seeds.clone(),
            rounds,
            planned_rounds: self.rungs.len(),
            candidates: self
                .candidates
                .keys()
                .map(|s| CandidateScores {
                    lr: self.rate(s.k),
                    warmup: self.warmups[s.warmup],
                    beta2: self.beta2s[s.beta2],
                    scores: (0..self.rungs.len()).map(|r| self.score(s, r)).collect(),
                })
                .collect(),
            tie: None,
        };
        // a candidate the last round scored lower than the chosen one, kept out by the tie rule
        let last = |c: &CandidateScores| c.scores.last().copied().flatten();
        let kept = t.candidates.iter().find(|c| Some((c.lr, c.warmup, c.beta2)) == t.chosen).and_then(last);
        let lowest =
            t.candidates.iter().filter_map(|c| Some((c, last(c)?))).min_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(kept), Some((c, score))) = (kept, lowest) {
            if score < kept {
                t.tie =
                    Some(TieKept { lr: c.lr, warmup: c.warmup, beta2: c.beta2, score, chosen_score: kept });
            }
        }
        t
    }
}
