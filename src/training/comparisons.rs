//! The comparisons a widget asked for, on the page's side: the pinned runs, All four, the depth
//! sweep and the layer knockout, each made of jobs (`job.rs`) that workers of a pool run. It
//! hands out the jobs still wanted, takes their reports and says what the page draws, as
//! plain data. Every job starts from the seed, so every number equals the single run with the
//! same configuration, whichever worker ran it.

use crate::config::{Config, Pin, TaskKind};
use crate::training::compare::four_combinations;
use crate::training::depth_width::{depth_width_applies, shapes, Clock, ShapeOutcome};
use crate::training::frame::Frame;
use crate::training::job::{run_job, Job, JobRunner, LensFit, Report};
use crate::training::knockout::Knockout;
use crate::training::outcome::Outcome;
use crate::training::spread::{arm_runs, run_order, seeds, Arm};
use crate::training::sweep::{check_depths, default_sweep_depths, SweepSeries};
use crate::training::train::Trainer;

/// Steps of each run of "All four" and of the depth sweep on the page (and of `ablate
/// --compare`, `--sweep` without `--steps`), by task: as long as the task needs for both
/// switches on to show its point, about 1.5 times the step at which it did on seeds 1-3, and
/// at least 500 (`scripts/warmup_study.py comparisons`, docs/using.md, "Comparing"):
/// - the regression: 500, the recipe table's count, long enough for the combinations to part
///   ways, short enough for a sweep up to depth 96 to finish in under a minute on a laptop;
/// - text: 1500; both on crosses the bigram line at step 600-1000, the others never do;
/// - copy: 500; both on copies 95% of the held-out symbols by step 100, the others stay at chance;
/// - induction: 2500; both on copies 95% at step 1400-1700, residual alone at 1300-2000.
pub fn comparison_steps(task: TaskKind) -> usize {
    match task {
        TaskKind::Teacher => 500,
        TaskKind::Text => 1500,
        TaskKind::Copy => 500,
        TaskKind::Induction => 2500,
        TaskKind::Reverse => 1000,
    }
}

/// One job of the comparisons: what it asks and what it has given so far.
struct Slot {
    id: u32,
    job: Job,
    /// Finished, or failed: no longer wanted either way.
    done: bool,
    report: Option<Report>,
    /// Why the job failed (its worker's error), if it did.
    failed: Option<String>,
}

/// A comparison's jobs: each arm's runs over its seeds and rates (`spread::arm_runs`), in the
/// order they are best trained (`schedule`); `places[i]` is slot `i`'s arm and run.
struct Group {
    config: Config,
    steps: usize,
    arms: Vec<Config>,
    slots: Vec<Slot>,
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
trait FromReport: Sized + Clone {
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
    fn new(
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
    fn arm_slots(&self, arm: usize) -> Vec<&Slot> {
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
    fn arm<T: FromReport>(&self, arm: usize) -> (Arm<T>, &Slot, Option<String>) {
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
    fn progress(&self) -> (usize, usize) {
        (self.slots.iter().filter(|s| s.done).count(), self.slots.len())
    }
}

#[derive(Default)]
pub struct Comparisons {
    next_id: u32,
    /// Each pin and its runs, one per seed.
    pins: Vec<(Pin, Vec<Slot>)>,
    compare: Option<Group>,
    /// The sweep's arms are depth by depth, the four combinations at each.
    sweep: Option<Group>,
    /// The step the knockout measures, and its runs: one per seed, the first the live run's
    /// own stack.
    knockout: Option<(usize, Group)>,
    /// A tuned lens fitted to the live run's stack (one job, of that stack alone).
    tuned_lens: Option<(usize, Slot)>,
    /// Depth or width: one arm per shape, deepest first.
    depth_width: Option<Group>,
}

/// One pin: its run's frame at the pin's step, or as far as it got (none before it starts).
#[derive(Clone, Debug, PartialEq)]
pub struct PinState {
    pub pin: Pin,
    /// Every seed's run is done.
    pub done: bool,
    /// The first seed's frame.
    pub frame: Option<Frame>,
    /// Why one of its runs failed, if one did.
    pub failed: Option<String>,
    /// Each seed and its frame so far (the first is `frame`'s).
    pub seeds: Vec<(u64, Option<Frame>)>,
}

/// One row of "All four": an arm's runs (finished, in progress or not started; then `done` is
/// false and the numbers the run has not reached yet are NaN).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// Every run of the arm is done.
    pub done: bool,
    /// The first seed's run at the arm's chosen rate, as far as it got.
    pub run: Outcome,
    /// Every seed's run at every rate.
    pub arm: Arm<Outcome>,
    /// Why one of its runs failed, if one did (then `done`, with what it had reached).
    pub failed: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompareState {
    pub config: Config,
    pub steps: usize,
    /// The four combinations in the order of `four_combinations`, as far as they got.
    pub rows: Vec<CompareRow>,
    pub runs_finished: usize,
    pub runs_total: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    pub config: Config,
    pub steps: usize,
    pub depths: Vec<usize>,
    pub runs_finished: usize,
    pub runs_total: usize,
    /// Each combination over the depths from the shallowest up to the first not finished.
    pub series: Vec<SweepSeries>,
}

/// The knockout of the live run at `step`: each layer's measurements so far.
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutState {
    pub step: usize,
    /// The task its stack was trained on (what its removals measured).
    pub task: TaskKind,
    /// Every seed's stack is measured.
    pub done: bool,
    /// The first seed's (the live run's stack).
    pub result: Knockout,
    /// Each seed's stack, trained to the same step, once measured (the first is `result`).
    pub seeds: Vec<(u64, Knockout)>,
    pub runs_total: usize,
}

/// The tuned lens of the live run's stack at `step`: its updates so far, and once fitted the
/// held-out loss read through each layer (ℓ = 0..=L; empty before).
#[derive(Clone, Debug, PartialEq)]
pub struct TunedLensState {
    pub step: usize,
    pub done: bool,
    pub fit_steps: usize,
    pub losses: Vec<f64>,
    /// Why its job failed, if it did.
    pub failed: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ComparisonsState {
    pub pins: Vec<PinState>,
    pub compare: Option<CompareState>,
    pub sweep: Option<SweepState>,
    pub knockout: Option<KnockoutState>,
    pub tuned_lens: Option<TunedLensState>,
    pub depth_width: Option<DepthWidthState>,
    /// Every job that failed, as "what: why" (`Comparisons::failures`).
    pub failures: Vec<String>,
}

/// Depth or width: each shape as far as it got (`done` once its runs and their timing are).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthWidthState {
    pub config: Config,
    pub steps: usize,
    /// Each shape's first seed at its chosen rate, as far as it got.
    pub rows: Vec<(bool, ShapeOutcome)>,
    /// Each shape's runs over its seeds and rates.
    pub arms: Vec<Arm<ShapeOutcome>>,
    pub runs_finished: usize,
    pub runs_total: usize,
}

impl Comparisons {
    fn slot(&mut self, job: Job) -> Slot {
        self.next_id += 1;
        Slot { id: self.next_id, job, done: false, report: None, failed: None }
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

    /// Starts "All four" for `config`, each run trained for the page's steps for its task
    /// (replacing one under way).
    pub fn start_compare(&mut self, config: &Config) {
        self.start_compare_for(config, comparison_steps(config.task));
    }

    /// `start_compare` with each run trained for `steps` (the CLI's `--steps`).
    pub fn start_compare_for(&mut self, config: &Config, steps: usize) {
        let arms = four_combinations(config).to_vec();
        let job = |config, steps| Job::Run { config, steps, keep_loss: true };
        self.compare = Some(Group::new(self, config, steps, arms, job));
    }

    /// Starts the depth sweep of `config` over the default depths (replacing one under way).
    pub fn start_sweep(&mut self, config: &Config) {
        self.start_sweep_over(config, default_sweep_depths(config), comparison_steps(config.task));
    }

    /// `start_sweep` over `depths`, each run trained for `steps` (the CLI's `--sweep`, `--steps`).
    pub fn start_sweep_over(&mut self, config: &Config, depths: &[usize], steps: usize) {
        let arms =
            depths.iter().flat_map(|&depth| four_combinations(&Config { depth, ..config.clone() })).collect();
        // a sweep keeps four numbers per run, not its curve
        let job = |config, steps| Job::Run { config, steps, keep_loss: false };
        self.sweep = Some(Group::new(self, config, steps, arms, job));
    }

    /// Starts "depth or width" at `config`: its shapes (`depth_width::shapes`), each trained for
    /// the configuration's own steps (replacing one under way).
    pub fn start_depth_width(&mut self, config: &Config) {
        if depth_width_applies(config).is_err() {
            return;
        }
        let arms = shapes(config);
        let steps = arms.first().map_or(config.steps, |a| a.steps);
        let job = |config, steps| Job::Shape { config, steps };
        self.depth_width = Some(Group::new(self, config, steps, arms, job));
    }

    /// Starts the knockout of the live run's stack (a `Job::Knockout` with its weights),
    /// replacing any other; with more seeds, each other seed's stack is trained to the same
    /// step and knocked out too. The knockout measures the run as trained, at its own rate.
    pub fn start_knockout(&mut self, job: Job) {
        let Job::Knockout { step, config, .. } = &job else { return };
        let (step, config) = (*step, Config { tune: false, ..config.clone() });
        let live = std::cell::Cell::new(Some(job));
        let trained = |run: Config, step| match live.take() {
            Some(job) => job,
            None => Job::Knockout { config: Config { steps: step, ..run }, step, weights: Vec::new() },
        };
        let group = Group::new(self, &config, step, vec![config.clone()], trained);
        self.knockout = Some((step, group));
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
        self.knockout = None;
        self.tuned_lens = None;
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        // the knockout is quick measurements; the sweep's many runs come last
        let knockout = self.knockout.iter().flat_map(|(_, g)| &g.slots);
        let lens = self.tuned_lens.iter().map(|(_, s)| s);
        let pins = self.pins.iter().flat_map(|(_, slots)| slots);
        let groups =
            [&self.compare, &self.depth_width, &self.sweep].into_iter().flatten().flat_map(|g| &g.slots);
        knockout.chain(lens).chain(pins).chain(groups)
    }

    fn slot_mut(&mut self, id: u32) -> Option<&mut Slot> {
        let groups = [&mut self.compare, &mut self.depth_width, &mut self.sweep]
            .into_iter()
            .flatten()
            .chain(self.knockout.iter_mut().map(|(_, g)| g))
            .flat_map(|g| &mut g.slots);
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
        let compare = self.compare.as_ref().map(|g| {
            let rows = (0..g.arms.len())
                .map(|a| {
                    let (arm, shown, failed) = g.arm::<Outcome>(a);
                    let run =
                        reported::<Outcome>(shown).unwrap_or_else(|| Outcome::pending(shown.job.config()));
                    CompareRow { done: arm.done || failed.is_some(), run, arm, failed }
                })
                .collect();
            let both_on = &four_combinations(&g.config)[3];
            let (runs_finished, runs_total) = g.progress();
            CompareState { config: both_on.clone(), steps: g.steps, rows, runs_finished, runs_total }
        });
        let sweep = self.sweep.as_ref().map(|g| {
            let depths: Vec<usize> = g.arms.iter().step_by(4).map(|c| c.depth).collect();
            let series = (0..4)
                .map(|combination| {
                    // the depths up to the first whose runs of this combination are not all done
                    let arms = (combination..g.arms.len())
                        .step_by(4)
                        .map(|a| g.arm::<Outcome>(a).0)
                        .take_while(|arm| arm.done);
                    SweepSeries::of(&g.arms[combination], arms)
                })
                .collect();
            let (runs_finished, runs_total) = g.progress();
            SweepState { config: g.config.clone(), steps: g.steps, depths, runs_finished, runs_total, series }
        });
        let knockout = self.knockout.as_ref().map(|(step, g)| {
            let slots = g.arm_slots(0);
            let result_of = |s: &Slot| match &s.report {
                Some(Report::Knockout(k)) => Some(k.clone()),
                _ => None,
            };
            let result = slots.first().and_then(|s| result_of(s)).unwrap_or_else(Knockout::empty);
            let seeds = slots
                .iter()
                .filter(|s| s.done)
                .filter_map(|s| Some((s.job.config().seed, result_of(s)?)))
                .collect();
            let (runs_finished, runs_total) = g.progress();
            KnockoutState {
                step: *step,
                task: g.config.task,
                done: runs_finished == runs_total,
                result,
                seeds,
                runs_total,
            }
        });
        let depth_width = self.depth_width.as_ref().map(|g| {
            let (mut rows, mut arms) = (Vec::new(), Vec::new());
            for a in 0..g.arms.len() {
                let (arm, shown, failed) = g.arm::<ShapeOutcome>(a);
                let run = reported::<ShapeOutcome>(shown)
                    .unwrap_or_else(|| ShapeOutcome::pending(shown.job.config()));
                rows.push((arm.done || failed.is_some(), run));
                arms.push(arm);
            }
            let (runs_finished, runs_total) = g.progress();
            DepthWidthState {
                config: g.config.clone(),
                steps: g.steps,
                rows,
                arms,
                runs_finished,
                runs_total,
            }
        });
        let tuned_lens = self.tuned_lens.as_ref().map(|(step, s)| {
            let fit = match &s.report {
                Some(Report::TunedLens(fit)) => fit.clone(),
                _ => LensFit { fit_steps: 0, losses: Vec::new() },
            };
            let done = s.done;
            TunedLensState {
                step: *step,
                done,
                fit_steps: fit.fit_steps,
                losses: fit.losses,
                failed: s.failed.clone(),
            }
        });
        ComparisonsState {
            pins,
            compare,
            sweep,
            knockout,
            tuned_lens,
            depth_width,
            failures: self.failures(),
        }
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

/// What slot `s` has reported so far (a run in progress partial).
fn reported<T: FromReport>(s: &Slot) -> Option<T> {
    s.report.as_ref().and_then(T::from_report).cloned()
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

/// "All four" of `config`, each run trained for `steps`, here on up to `threads` threads.
pub fn compare_here(config: &Config, steps: usize, threads: usize) -> Result<CompareState, String> {
    let mut c = Comparisons::default();
    c.start_compare_for(config, steps);
    c.run_here(threads, no_clock)?;
    Ok(c.state().compare.expect("started"))
}

/// The depth sweep of `config` over `depths`, each run trained for `steps`, here.
pub fn sweep_here(
    config: &Config,
    depths: &[usize],
    steps: usize,
    threads: usize,
) -> Result<SweepState, String> {
    check_depths(depths).map_err(|e| e.message)?;
    let mut c = Comparisons::default();
    c.start_sweep_over(config, depths, steps);
    c.run_here(threads, no_clock)?;
    Ok(c.state().sweep.expect("started"))
}

/// Depth or width of `config`, here: every shape timed by `clock`, one after another.
pub fn depth_width_here(config: &Config, clock: Clock) -> Result<DepthWidthState, String> {
    let mut c = Comparisons::default();
    c.start_depth_width(config);
    c.run_here(1, clock)?;
    Ok(c.state().depth_width.expect("started"))
}

/// The knockout of `trainer`'s stack (trained from `config`'s seed to `step`), and of each
/// other seed's stack trained alike, here.
pub fn knockout_here(
    trainer: &mut Trainer<f32>,
    config: &Config,
    step: usize,
    threads: usize,
) -> Result<KnockoutState, String> {
    let weights = trainer.weights();
    let mut c = Comparisons::default();
    c.start_knockout(Job::Knockout { config: Config { steps: step, ..config.clone() }, step, weights });
    c.run_here(threads, no_clock)?;
    Ok(c.state().knockout.expect("started"))
}

/// The clock of comparisons that time nothing.
fn no_clock() -> f64 {
    f64::NAN
}
