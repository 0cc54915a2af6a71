//! The comparisons' jobs, on the page's side: each comparison's arms as jobs (`job.rs`) that
//! workers of a pool run, the pins' runs and the tuned lens's fit. It hands out the jobs still
//! wanted, takes their reports and says what the page draws, as plain data. Every job starts
//! from the seed, so every number equals the single run with the same configuration, whichever
//! worker ran it. `ablate` runs the same jobs here, on threads (`run_here`).

use super::{Comparison, ComparisonKind, ComparisonsState, Groups};
use crate::elsewhere::handed_out;
use crate::tuner::{Setting, TrialRequest, Tuner};
use ablation_core::config::{Config, Pin};
use ablation_training::live::frame::Frame;
use ablation_training::measures::depth_width::{Clock, ShapeOutcome};
use ablation_training::measures::tuned_lens::TunedLensState;
use ablation_training::runs::arm::Arm;
use ablation_training::runs::job::{run_job, Job, JobRunner, LensFit, Report};
use ablation_training::runs::outcome::Outcome;
use ablation_training::runs::pinned::PinState;
use ablation_training::runs::spread::seeds;
use ablation_training::runs::trial::TrialEnd;
use ablation_training::runs::tuned::Tuned;

/// One job of the comparisons: what it asks and what it has given so far.
pub(super) struct Slot {
    id: u32,
    pub(super) job: Job,
    /// Finished, or failed: no longer wanted either way.
    pub(super) done: bool,
    pub(super) report: Option<Report>,
    /// Why the job failed (its worker's error), if it did.
    pub(super) failed: Option<String>,
}

/// Where a slot of a group stands.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// Arm `arm`'s run shown at its `seed`-th seed.
    Run { arm: usize, seed: usize },
    /// A trial of arm `arm`'s tuning.
    Trial { arm: usize, setting: Setting, seed: usize, round: usize },
}

/// A comparison's jobs: each arm's runs over its seeds, and for a tuned arm first the trials
/// its search asks for (`tuner::Tuner`), round by round; its runs shown are made once the
/// search has chosen. `places[i]` is slot `i`'s arm and part.
pub struct Group {
    pub(super) config: Config,
    /// Each run's steps (the knockout's: the step it measures).
    pub(super) steps: usize,
    pub(super) arms: Vec<Config>,
    pub(super) slots: Vec<Slot>,
    places: Vec<Place>,
    /// Each tuned arm's search.
    tuners: Vec<Option<Tuner>>,
    /// How a run shown becomes a job.
    job: fn(Config, usize) -> Job,
}

/// One job of the comparisons' `Report`s, as the kind of run its arm keeps.
pub(super) trait FromReport: Sized + Clone {
    fn from_report(report: &Report) -> Option<&Self>;
}

impl FromReport for Outcome {
    fn from_report(report: &Report) -> Option<&Self> {
        match report {
            Report::Run(o) => Some(o),
            _ => None,
        }
    }
}

impl FromReport for ShapeOutcome {
    fn from_report(report: &Report) -> Option<&Self> {
        match report {
            Report::Shape(o) => Some(o),
            _ => None,
        }
    }
}

/// A new slot for `job`, its id the next of `next_id`.
fn new_slot(next_id: &mut u32, job: Job) -> Slot {
    *next_id += 1;
    Slot { id: *next_id, job, done: false, report: None, failed: None }
}

impl Group {
    /// The runs of `arms`, each run shown made a job by `job(run's config, steps)`: an untuned
    /// arm's runs at once, a tuned arm's first round of trials (its runs once it has chosen). Every arm's first seed comes before any arm's second, so that the
    /// first seed of every arm shows first and the spread fills in after.
    pub(super) fn new(
        next_id: &mut u32,
        config: &Config,
        steps: usize,
        arms: Vec<Config>,
        job: fn(Config, usize) -> Job,
    ) -> Group {
        let tuners = arms.iter().map(|a| a.tune.then(|| Tuner::new(a, steps))).collect();
        let mut group =
            Group { config: config.clone(), steps, arms, slots: Vec::new(), places: Vec::new(), tuners, job };
        let untuned: Vec<usize> = (0..group.arms.len()).filter(|&a| group.tuners[a].is_none()).collect();
        group.add_runs(next_id, &untuned);
        group.add_trials(next_id);
        group
    }

    /// The runs shown of arms `arms`, seed by seed across them.
    fn add_runs(&mut self, next_id: &mut u32, arms: &[usize]) {
        let n = arms.iter().map(|&a| seeds(&self.arms[a]).len()).max().unwrap_or(0);
        for seed in 0..n {
            for &arm in arms {
                let config = self.run_config(arm);
                let Some(&s) = seeds(&config).get(seed) else { continue };
                let job = (self.job)(Config { seed: s, ..config }, self.steps);
                self.slots.push(new_slot(next_id, job));
                self.places.push(Place::Run { arm, seed });
            }
        }
    }

    /// The trials the arms' searches ask for now, arm by arm in turn.
    fn add_trials(&mut self, next_id: &mut u32) {
        let asked: Vec<Vec<TrialRequest>> =
            self.tuners.iter_mut().map(|t| t.as_mut().map_or_else(Vec::new, Tuner::requests)).collect();
        let longest = asked.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..longest {
            for (arm, requests) in asked.iter().enumerate() {
                let Some(t) = requests.get(k) else { continue };
                let job = Job::Trial {
                    config: t.config.clone(),
                    steps: t.steps,
                    until: t.until,
                    from: t.from.clone(),
                };
                self.slots.push(new_slot(next_id, job));
                self.places.push(Place::Trial { arm, setting: t.setting, seed: t.seed, round: t.round });
            }
        }
    }

    /// Arm `arm`'s configuration as its runs shown train it: the setting its search chose.
    fn run_config(&self, arm: usize) -> Config {
        self.tuners[arm].as_ref().and_then(Tuner::chosen).unwrap_or_else(|| self.arms[arm].clone())
    }

    /// Slot `index` is done: a trial's end goes to its search, which may ask for more trials or,
    /// having chosen, for the arm's runs shown. The search keeps the trial's bytes; the slot
    /// lets them go.
    fn take_done(&mut self, next_id: &mut u32, index: usize) {
        let Place::Trial { arm, setting, seed, round } = self.places[index] else { return };
        let slot = &mut self.slots[index];
        let end = match (slot.report.take(), &slot.failed) {
            (Some(Report::Trial(end)), None) => end,
            // a trial that failed in its worker counts as diverged: the search goes on
            _ => TrialEnd { tail: f64::INFINITY, resume: Vec::new() },
        };
        slot.report = Some(Report::Trial(TrialEnd { tail: end.tail, resume: Vec::new() }));
        if let Job::Trial { from, .. } = &mut slot.job {
            *from = Vec::new();
        }
        let Some(tuner) = self.tuners[arm].as_mut() else { return };
        let was_done = tuner.done();
        tuner.record(setting, seed, round, end);
        let chosen = !was_done && tuner.done();
        self.add_trials(next_id);
        if chosen {
            self.add_runs(next_id, &[arm]);
        }
    }

    /// Arm `arm`'s run slots shown, in seed order.
    pub(super) fn run_slots(&self, arm: usize) -> Vec<&Slot> {
        let mut slots: Vec<(usize, &Slot)> = self
            .places
            .iter()
            .zip(&self.slots)
            .filter_map(|(p, s)| match *p {
                Place::Run { arm: a, seed } if a == arm => Some((seed, s)),
                _ => None,
            })
            .collect();
        ablation_core::order::sort_by_key(&mut slots, |(seed, _)| *seed);
        slots.into_iter().map(|(_, s)| s).collect()
    }

    /// Arm `arm` as far as its runs got, its first seed's run as far as it got (none before
    /// its setting is chosen), and why one of its runs or trials failed, if one did.
    pub(super) fn arm<T: FromReport>(&self, arm: usize) -> (Arm<T>, Option<T>, Option<String>) {
        let slots = self.run_slots(arm);
        let (config, tuning, failed) = self.setting(arm);
        let seeds = seeds(&config);
        let mut runs: Vec<Option<T>> = slots
            .iter()
            .map(|s| s.report.as_ref().filter(|_| s.done).and_then(T::from_report).cloned())
            .collect();
        runs.resize(seeds.len(), None);
        let done = runs.iter().all(Option::is_some);
        let first = slots.first().and_then(|s| reported::<T>(s));
        (Arm { seeds, runs, config, tuning, done }, first, failed)
    }

    /// Arm `arm`'s configuration as its runs train it, its search when tuned, and why one of
    /// its runs or trials failed, if one did.
    pub(super) fn setting(&self, arm: usize) -> (Config, Option<Tuned>, Option<String>) {
        let failed = self
            .places
            .iter()
            .zip(&self.slots)
            .filter(
                |(p, _)| matches!(p, Place::Run { arm: a, .. } | Place::Trial { arm: a, .. } if *a == arm),
            )
            .find_map(|(_, s)| s.failed.clone());
        (self.run_config(arm), self.tuners[arm].as_ref().map(Tuner::tuned), failed)
    }

    /// Jobs done, and jobs asked for so far with the runs shown still to come (a tuned arm's
    /// search asks for more as it goes).
    pub(super) fn progress(&self) -> (usize, usize) {
        let to_come: usize = (0..self.arms.len())
            .filter(|&a| self.tuners[a].as_ref().is_some_and(|t| !t.done()))
            .map(|a| seeds(&self.arms[a]).len())
            .sum();
        (self.slots.iter().filter(|s| s.done).count(), self.slots.len() + to_come)
    }

    /// While an arm's search is still choosing: the round the furthest behind is in (from 1)
    /// and how many rounds it plans.
    pub(super) fn tuning_round(&self) -> Option<(usize, usize)> {
        self.tuners
            .iter()
            .flatten()
            .filter(|t| !t.done())
            .map(|t| {
                let tuned = t.tuned();
                (tuned.rounds.len(), tuned.planned_rounds)
            })
            .min()
    }

    /// Replaces the first slot's job (the knockout's first seed: the live run's stack itself).
    pub(super) fn replace_first(&mut self, job: Job) {
        if let Some(slot) = self.slots.first_mut() {
            slot.job = job;
        }
    }
}

/// What slot `s` has reported so far (a run in progress partial).
pub(super) fn reported<T: FromReport>(s: &Slot) -> Option<T> {
    s.report.as_ref().and_then(T::from_report).cloned()
}

/// Every comparison under way: the pins' runs, the tuned lens, and one group of jobs per
/// comparison of the registry.
#[derive(Default)]
pub struct Comparisons {
    next_id: u32,
    /// Each pin and its runs, one per seed.
    /// Each pin and its runs, one per seed (after its search's trials, when tuned): a group of
    /// one arm whose runs are pinned runs.
    pins: Vec<(Pin, Group)>,
    /// A tuned lens fitted to the live run's stack (one job, of that stack alone).
    tuned_lens: Option<(usize, Slot)>,
    groups: Groups,
}

impl Comparisons {
    fn slot(&mut self, job: Job) -> Slot {
        new_slot(&mut self.next_id, job)
    }

    /// Starts comparison `C` with `arms`, each run made a job by `job` and trained for `steps`
    /// (replacing one under way); returns its group.
    pub(super) fn start<C: Comparison>(
        &mut self,
        config: &Config,
        steps: usize,
        arms: Vec<Config>,
        job: fn(Config, usize) -> Job,
    ) -> &mut Group {
        let group = Group::new(&mut self.next_id, config, steps, arms, job);
        self.groups.get_mut(C::KIND).insert(group)
    }

    /// Forgets comparison `kind` (its jobs are no longer wanted).
    pub(super) fn forget(&mut self, kind: ComparisonKind) {
        *self.groups.get_mut(kind) = None;
    }

    /// Keeps exactly these pins: a pin that stays keeps its jobs and what they have given. A
    /// pin runs at each of its seeds, at its setting as its search chose it when tuned.
    pub fn set_pins(&mut self, pins: &[Pin]) {
        let mut old = std::mem::take(&mut self.pins);
        for pin in pins {
            let kept = match old.iter().position(|(p, _)| p == pin) {
                Some(i) => old.remove(i),
                None => {
                    let job = |config: Config, steps| Job::Pin(Pin::new(&config, steps));
                    let group = Group::new(
                        &mut self.next_id,
                        &pin.config,
                        pin.steps(),
                        vec![pin.config.clone()],
                        job,
                    );
                    (pin.clone(), group)
                }
            };
            self.pins.push(kept);
        }
    }

    /// Starts fitting a tuned lens to the live run's stack, from the same job a knockout starts
    /// from (`Job::Knockout` with the stack's weights), replacing any other.
    pub fn start_tuned_lens(&mut self, job: Job) {
        let Job::Knockout { step, config, weights } = job else { return };
        let slot = self.slot(Job::TunedLens { config, step, weights });
        self.tuned_lens = Some((step, slot));
    }

    /// Forgets the knockout and the tuned lens: the live run they measured has been restarted.
    pub fn clear_knockout(&mut self) {
        self.forget(ComparisonKind::LayerKnockout);
        self.tuned_lens = None;
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        // quick measurements (the knockout) first, then the tuned lens and the pins, then the
        // comparisons' runs (the sweep's many runs last)
        let quick = self.groups.in_queue(true).flat_map(|g| &g.slots);
        let lens = self.tuned_lens.iter().map(|(_, s)| s);
        let pins = self.pins.iter().flat_map(|(_, g)| &g.slots);
        let rest = self.groups.in_queue(false).flat_map(|g| &g.slots);
        quick.chain(lens).chain(pins).chain(rest)
    }

    fn slot_mut(&mut self, id: u32) -> Option<&mut Slot> {
        let groups = self.groups.all_mut().into_iter().flatten().flat_map(|g| &mut g.slots);
        let lens = self.tuned_lens.iter_mut().map(|(_, s)| s);
        self.pins.iter_mut().flat_map(|(_, g)| &mut g.slots).chain(groups).chain(lens).find(|s| s.id == id)
    }

    /// The jobs still wanted, in the order they should run.
    pub fn wanted(&self) -> Vec<u32> {
        self.slots().filter(|s| !s.done).map(|s| s.id).collect()
    }

    /// Something is left to compute.
    pub fn busy(&self) -> bool {
        self.slots().any(|s| !s.done)
    }

    /// Job `id`, encoded for a worker, if it is still wanted.
    pub fn job(&self, id: u32) -> Option<Vec<u8>> {
        self.slots().find(|s| s.id == id && !s.done).map(|s| s.job.encode(id))
    }

    /// Takes a job's report (`Report::encode`'s bytes); returns whether it was still wanted (a
    /// report of a replaced comparison is dropped). Damaged bytes are an error.
    pub fn report(&mut self, bytes: &[u8]) -> Result<bool, String> {
        let (id, done, report) = Report::decode(bytes)?;
        self.take_report(id, done, report)
    }

    /// Job `id` failed in its worker (an error, or the worker died): it is done, is not handed
    /// out again, and says why in the state. Returns whether it was still wanted (a failure is
    /// taken once; one of a replaced comparison is dropped).
    pub fn fail(&mut self, id: u32, reason: &str) -> bool {
        let Some(slot) = self.slot_mut(id).filter(|s| !s.done) else { return false };
        slot.done = true;
        slot.failed = Some(reason.to_string());
        self.group_takes(id);
        true
    }

    /// The comparisons' jobs that failed, as "what: why", in the order of `wanted`.
    pub fn failures(&self) -> Vec<String> {
        self.slots().filter_map(|s| s.failed.as_ref().map(|why| format!("{}: {why}", s.job.what()))).collect()
    }

    /// Whether job `id` is a pin's (drawn in the live run's panels).
    pub fn is_pin(&self, id: u32) -> bool {
        self.pins.iter().flat_map(|(_, g)| g.run_slots(0)).any(|s| s.id == id)
    }

    /// `report`, decoded.
    pub fn take_report(&mut self, id: u32, done: bool, report: Report) -> Result<bool, String> {
        let Some(slot) = self.slot_mut(id).filter(|s| !s.done) else { return Ok(false) };
        let fits = matches!(
            (&slot.job, &report),
            (Job::Run { .. }, Report::Run(_))
                | (Job::Pin(_), Report::Pin(_))
                | (Job::Knockout { .. }, Report::Knockout(_))
                | (Job::Shape { .. }, Report::Shape(_))
                | (Job::TunedLens { .. }, Report::TunedLens(_))
                | (Job::Trial { .. }, Report::Trial(_))
        );
        if !fits {
            return Err("a report of another kind than its job".into());
        }
        slot.report = Some(report);
        slot.done = done;
        if let (true, Job::Knockout { weights, .. } | Job::TunedLens { weights, .. }) = (done, &mut slot.job)
        {
            *weights = Vec::new(); // the result is all that is kept
        }
        if done {
            self.group_takes(id);
        }
        Ok(true)
    }

    /// The group that holds slot `id` takes it being done (a search's trial asks for more).
    fn group_takes(&mut self, id: u32) {
        let next_id = &mut self.next_id;
        let pins = self.pins.iter_mut().map(|(_, g)| g);
        for group in self.groups.all_mut().into_iter().flatten().chain(pins) {
            if let Some(index) = group.slots.iter().position(|s| s.id == id) {
                group.take_done(next_id, index);
                return;
            }
        }
    }

    /// Runs every job still wanted here, to the end, on up to `threads` threads (the CLI's
    /// comparisons): the same jobs and the same bits as the page's pool. Depth or width's
    /// shapes run one after another, each timed by `clock` with the machine to itself.
    pub fn run_here(&mut self, threads: usize, clock: Clock) -> Result<(), String> {
        // a tuned arm's search asks for its next round once a round is in: again until none is left
        loop {
            let wanted: Vec<(u32, Job)> =
                self.slots().filter(|s| !s.done).map(|s| (s.id, s.job.clone())).collect();
            if wanted.is_empty() {
                return Ok(());
            }
            let (timed, untimed): (Vec<_>, Vec<_>) =
                wanted.into_iter().partition(|(_, j)| matches!(j, Job::Shape { .. }));
            if let Some(reports) = handed_out(&untimed) {
                for (id, report) in reports? {
                    self.take_report(id, true, report)?;
                }
            } else {
                for (id, report) in in_parallel(untimed, threads, run_job) {
                    self.take_report(id, true, report?)?;
                }
            }
            for (id, job) in timed {
                let mut runner = JobRunner::with_clock(job, clock)?;
                while !runner.advance(usize::MAX) {}
                self.take_report(id, true, runner.report())?;
            }
        }
    }

    /// What the page draws now.
    pub fn state(&self) -> ComparisonsState {
        let pins = self.pins.iter().map(|(pin, group)| pin_state(pin, group)).collect();
        let tuned_lens = self.tuned_lens.as_ref().map(|(step, s)| {
            let fit = match &s.report {
                Some(Report::TunedLens(fit)) => fit.clone(),
                _ => LensFit { fit_steps: 0, losses: Vec::new() },
            };
            TunedLensState {
                step: *step,
                done: s.done,
                fit_steps: fit.fit_steps,
                losses: fit.losses,
                failed: s.failed.clone(),
            }
        });
        let mut state =
            ComparisonsState { pins, tuned_lens, failures: self.failures(), ..Default::default() };
        self.groups.fill(&mut state);
        state
    }
}

/// A pin and its runs: each seed's frame so far (at its setting as chosen, when tuned).
fn pin_state(pin: &Pin, group: &Group) -> PinState {
    let frame_of = |s: &Slot| match &s.report {
        Some(Report::Pin(f)) => Some((**f).clone()),
        _ => None,
    };
    let slots = group.run_slots(0);
    let (config, tuning, failed) = group.setting(0);
    let mut seeds: Vec<(u64, Option<Frame>)> =
        slots.iter().map(|s| (s.job.config().seed, frame_of(s))).collect();
    if seeds.is_empty() {
        seeds = ablation_training::runs::spread::seeds(&config).into_iter().map(|s| (s, None)).collect();
        // still choosing its setting
    }
    PinState {
        pin: pin.clone(),
        done: group.slots.iter().all(|s| s.done) && !slots.is_empty(),
        frame: seeds.first().and_then(|(_, f)| f.clone()),
        failed,
        seeds,
        tuning,
        config,
    }
}

/// `f` of every item on up to `threads` threads at once, each with its id, in the items' order.
fn in_parallel<T: Send, R: Send>(
    items: Vec<(u32, T)>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<(u32, R)> {
    let threads = threads.clamp(1, items.len().max(1));
    let ids: Vec<u32> = items.iter().map(|(id, _)| *id).collect();
    // the front of the queue first: the order they were wanted in
    let queue = std::sync::Mutex::new(items.into_iter().map(|(_, t)| t).enumerate().collect::<Vec<_>>());
    let done = std::sync::Mutex::new((0..ids.len()).map(|_| None).collect::<Vec<Option<R>>>());
    let work = || loop {
        let next = {
            let mut q = queue.lock().expect("no thread panics holding it");
            (!q.is_empty()).then(|| q.remove(0))
        };
        let Some((i, item)) = next else { break };
        let result = f(item);
        done.lock().expect("no thread panics holding it")[i] = Some(result);
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let done = done.into_inner().expect("no thread panicked");
    ids.into_iter().zip(done).map(|(id, r)| (id, r.expect("every item done"))).collect()
}

/// Comparison `C` alone, started by `start` and run here to the end on up to `threads`
/// threads (`clock` times depth or width's shapes): the CLI's comparisons.
pub(super) fn here<C: Comparison>(
    threads: usize,
    clock: Clock,
    start: impl FnOnce(&mut Comparisons),
) -> Result<C::State, String> {
    let mut c = Comparisons::default();
    start(&mut c);
    c.run_here(threads, clock)?;
    let group = c.groups.get_mut(C::KIND).as_ref().ok_or("the comparison did not start")?;
    Ok(C::state(group))
}

/// The clock of comparisons that time nothing.
pub(super) fn no_clock() -> f64 {
    f64::NAN
}
