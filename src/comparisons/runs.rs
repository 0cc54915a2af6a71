//! The comparisons' jobs, on the page's side: each comparison's arms as jobs (`job.rs`) that
//! workers of a pool run, the pins' runs and the tuned lens's fit. It hands out the jobs still
//! wanted, takes their reports and says what the page draws, as plain data. Every job starts
//! from the seed, so every number equals the single run with the same configuration, whichever
//! worker ran it. `ablate` runs the same jobs here, on threads (`run_here`).

use super::{Comparison, ComparisonsState, Groups, Kind};
use crate::config::{Config, Pin};
use crate::training::depth_width::{Clock, ShapeOutcome};
use crate::training::frame::Frame;
use crate::training::job::{run_job, Job, JobRunner, LensFit, Report};
use crate::training::outcome::Outcome;
use crate::training::pinned::PinState;
use crate::training::spread::{arm_runs, run_order, seeds, Arm};
use crate::training::tuned_lens::TunedLensState;

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

/// A comparison's jobs: each arm's runs over its seeds and rates (`spread::arm_runs`), in the
/// order they are best trained (`schedule`); `places[i]` is slot `i`'s arm and run.
pub struct Group {
    pub(super) config: Config,
    /// Each run's steps (the knockout's: the step it measures).
    pub(super) steps: usize,
    pub(super) arms: Vec<Config>,
    pub(super) slots: Vec<Slot>,
    places: Vec<(usize, usize)>,
}

/// The order a comparison's runs are handed out: every arm's first run (its own rate, the
/// first seed) before any arm's second, so that the first seed of every arm shows first and
/// the spread fills in after.
fn schedule(arms: &[Config]) -> Vec<(usize, usize)> {
    let orders: Vec<Vec<usize>> = arms.iter().map(run_order).collect();
    let longest = orders.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|k| orders.iter().enumerate().filter_map(move |(arm, order)| Some((arm, *order.get(k)?))))
        .collect()
}

/// One job of the comparisons' `Report`s, as the kind of run its arm keeps.
pub(super) trait FromReport: Sized + Clone {
    fn from_report(report: &Report) -> Option<&Self>;
    fn score(&self) -> f64;
}

impl FromReport for Outcome {
    fn from_report(report: &Report) -> Option<&Self> {
        match report {
            Report::Run(o) => Some(o),
            _ => None,
        }
    }
    fn score(&self) -> f64 {
        self.tail
    }
}

impl FromReport for ShapeOutcome {
    fn from_report(report: &Report) -> Option<&Self> {
        match report {
            Report::Shape(o) => Some(o),
            _ => None,
        }
    }
    fn score(&self) -> f64 {
        self.tail()
    }
}

impl Group {
    /// The runs of `arms`, each made a job by `job(run's config, steps)`.
    pub(super) fn new(
        comparisons: &mut Comparisons,
        config: &Config,
        steps: usize,
        arms: Vec<Config>,
        job: impl Fn(Config, usize) -> Job,
    ) -> Group {
        let places = schedule(&arms);
        let runs: Vec<Vec<Config>> = arms.iter().map(arm_runs).collect();
        let slots =
            places.iter().map(|&(arm, run)| comparisons.slot(job(runs[arm][run].clone(), steps))).collect();
        Group { config: config.clone(), steps, arms, slots, places }
    }

    /// Arm `arm`'s slots, in `arm_runs` order.
    pub(super) fn arm_slots(&self, arm: usize) -> Vec<&Slot> {
        let mut slots: Vec<(usize, &Slot)> = self
            .places
            .iter()
            .zip(&self.slots)
            .filter(|((a, _), _)| *a == arm)
            .map(|(&(_, run), s)| (run, s))
            .collect();
        crate::order::sort_by_key(&mut slots, |(run, _)| *run);
        slots.into_iter().map(|(_, s)| s).collect()
    }

    /// Arm `arm` as far as its runs got, the slot of the run it shows (the first seed at its
    /// chosen rate), and why one of its runs failed, if one did.
    pub(super) fn arm<T: FromReport>(&self, arm: usize) -> (Arm<T>, &Slot, Option<String>) {
        let slots = self.arm_slots(arm);
        let runs = slots
            .iter()
            .map(|s| s.report.as_ref().filter(|_| s.done).and_then(T::from_report).cloned())
            .collect();
        let arm_of = Arm::of(&self.arms[arm], runs, T::score);
        let shown = slots[arm_of.chosen * arm_of.seeds.len()];
        let failed = slots.iter().find_map(|s| s.failed.clone());
        (arm_of, shown, failed)
    }

    /// Runs done, and runs in all.
    pub(super) fn progress(&self) -> (usize, usize) {
        (self.slots.iter().filter(|s| s.done).count(), self.slots.len())
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
    pins: Vec<(Pin, Vec<Slot>)>,
    /// A tuned lens fitted to the live run's stack (one job, of that stack alone).
    tuned_lens: Option<(usize, Slot)>,
    groups: Groups,
}

impl Comparisons {
    fn slot(&mut self, job: Job) -> Slot {
        self.next_id += 1;
        Slot { id: self.next_id, job, done: false, report: None, failed: None }
    }

    /// Starts comparison `C` with `arms`, each run made a job by `job` and trained for `steps`
    /// (replacing one under way).
    pub(super) fn start<C: Comparison>(
        &mut self,
        config: &Config,
        steps: usize,
        arms: Vec<Config>,
        job: impl Fn(Config, usize) -> Job,
    ) {
        let group = Group::new(self, config, steps, arms, job);
        *self.groups.get_mut(C::KIND) = Some(group);
    }

    /// Forgets comparison `kind` (its jobs are no longer wanted).
    pub(super) fn forget(&mut self, kind: Kind) {
        *self.groups.get_mut(kind) = None;
    }

    /// Keeps exactly these pins: a pin that stays keeps its jobs and what they have given. A
    /// pin runs at each of its seeds.
    pub fn set_pins(&mut self, pins: &[Pin]) {
        let mut old = std::mem::take(&mut self.pins);
        for pin in pins {
            let kept = match old.iter().position(|(p, _)| p == pin) {
                Some(i) => old.remove(i),
                None => {
                    let slots = seeds(&pin.config)
                        .into_iter()
                        .map(|seed| {
                            self.slot(Job::Pin(Pin { config: Config { seed, ..pin.config.clone() } }))
                        })
                        .collect();
                    (pin.clone(), slots)
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
        self.forget(Kind::LayerKnockout);
        self.tuned_lens = None;
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        // quick measurements (the knockout) first, then the tuned lens and the pins, then the
        // comparisons' runs (the sweep's many runs last)
        let quick = self.groups.in_queue(true).flat_map(|g| &g.slots);
        let lens = self.tuned_lens.iter().map(|(_, s)| s);
        let pins = self.pins.iter().flat_map(|(_, slots)| slots);
        let rest = self.groups.in_queue(false).flat_map(|g| &g.slots);
        quick.chain(lens).chain(pins).chain(rest)
    }

    fn slot_mut(&mut self, id: u32) -> Option<&mut Slot> {
        let groups = self.groups.all_mut().into_iter().flatten().flat_map(|g| &mut g.slots);
        let lens = self.tuned_lens.iter_mut().map(|(_, s)| s);
        self.pins.iter_mut().flat_map(|(_, slots)| slots).chain(groups).chain(lens).find(|s| s.id == id)
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
        true
    }

    /// The comparisons' jobs that failed, as "what: why", in the order of `wanted`.
    pub fn failures(&self) -> Vec<String> {
        self.slots().filter_map(|s| s.failed.as_ref().map(|why| format!("{}: {why}", s.job.what()))).collect()
    }

    /// Whether job `id` is a pin's (drawn in the live run's panels).
    pub fn is_pin(&self, id: u32) -> bool {
        self.pins.iter().flat_map(|(_, slots)| slots).any(|s| s.id == id)
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
        Ok(true)
    }

    /// Runs every job still wanted here, to the end, on up to `threads` threads (the CLI's
    /// comparisons): the same jobs and the same bits as the page's pool. Depth or width's
    /// shapes run one after another, each timed by `clock` with the machine to itself.
    pub fn run_here(&mut self, threads: usize, clock: Clock) -> Result<(), String> {
        let wanted: Vec<(u32, Job)> =
            self.slots().filter(|s| !s.done).map(|s| (s.id, s.job.clone())).collect();
        let (timed, untimed): (Vec<_>, Vec<_>) =
            wanted.into_iter().partition(|(_, j)| matches!(j, Job::Shape { .. }));
        for (id, report) in in_parallel(untimed, threads, run_job) {
            self.take_report(id, true, report?)?;
        }
        for (id, job) in timed {
            let mut runner = JobRunner::with_clock(job, clock)?;
            while !runner.advance(usize::MAX) {}
            self.take_report(id, true, runner.report())?;
        }
        Ok(())
    }

    /// What the page draws now.
    pub fn state(&self) -> ComparisonsState {
        let pins = self.pins.iter().map(|(pin, slots)| pin_state(pin, slots)).collect();
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

/// A pin and its runs: each seed's frame so far.
fn pin_state(pin: &Pin, slots: &[Slot]) -> PinState {
    let frame_of = |s: &Slot| match &s.report {
        Some(Report::Pin(f)) => Some((**f).clone()),
        _ => None,
    };
    let seeds: Vec<(u64, Option<Frame>)> = slots.iter().map(|s| (s.job.config().seed, frame_of(s))).collect();
    PinState {
        pin: pin.clone(),
        done: slots.iter().all(|s| s.done),
        frame: seeds.first().and_then(|(_, f)| f.clone()),
        failed: slots.iter().find_map(|s| s.failed.clone()),
        seeds,
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
