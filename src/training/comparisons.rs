//! The comparisons a widget asked for, on the page's side: the pinned runs, All four, the depth
//! sweep and the layer knockout, each made of jobs (`job.rs`) that workers of a pool run. It
//! hands out the jobs still wanted, takes their reports and says what the page draws, as
//! plain data. Every job starts from the seed, so every number equals the single run with the
//! same configuration, whichever worker ran it.

use crate::config::{Config, Pin, TaskKind};
use crate::training::compare::four_combinations;
use crate::training::depth_width::{shapes, ShapeOutcome};
use crate::training::frame::Frame;
use crate::training::job::{Job, Report};
use crate::training::knockout::Knockout;
use crate::training::outcome::Outcome;
use crate::training::sweep::{SweepSeries, DEFAULT_SWEEP_DEPTHS};

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

struct Group {
    config: Config,
    slots: Vec<Slot>,
}

#[derive(Default)]
pub struct Comparisons {
    next_id: u32,
    pins: Vec<Slot>,
    compare: Option<Group>,
    /// The sweep's slots are depth by depth, the four combinations at each.
    sweep: Option<Group>,
    knockout: Option<(usize, Slot)>,
    /// Depth or width: one slot per shape, deepest first.
    depth_width: Option<Group>,
}

/// One pin: its run's frame at the pin's step, or as far as it got (none before it starts).
#[derive(Clone, Debug, PartialEq)]
pub struct PinState {
    pub pin: Pin,
    pub done: bool,
    pub frame: Option<Frame>,
    /// Why its run failed, if it did.
    pub failed: Option<String>,
}

/// One row of "All four": a finished run, the one in progress or one not started (then
/// `done` is false and the numbers the run has not reached yet are NaN).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub done: bool,
    pub run: Outcome,
    /// Why its run failed, if it did (then `done`, with what it had reached).
    pub failed: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompareState {
    pub config: Config,
    pub steps: usize,
    /// The four combinations in the order of `four_combinations`, as far as they got.
    pub rows: Vec<CompareRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    pub config: Config,
    pub steps: usize,
    pub depths: Vec<usize>,
    pub runs_finished: usize,
    /// Each combination over the depths from the shallowest up to the first not finished.
    pub series: Vec<SweepSeries>,
}

impl SweepState {
    pub fn runs_total(&self) -> usize {
        4 * self.depths.len()
    }
}

/// The knockout of the live run at `step`: each layer's measurements so far.
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutState {
    pub step: usize,
    pub done: bool,
    pub result: Knockout,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ComparisonsState {
    pub pins: Vec<PinState>,
    pub compare: Option<CompareState>,
    pub sweep: Option<SweepState>,
    pub knockout: Option<KnockoutState>,
    pub depth_width: Option<DepthWidthState>,
    /// Every job that failed, as "what: why" (`Comparisons::failures`).
    pub failures: Vec<String>,
}

/// Depth or width: each shape as far as it got (`done` once its run and its timing are).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthWidthState {
    pub config: Config,
    pub steps: usize,
    pub rows: Vec<(bool, ShapeOutcome)>,
}

fn outcome(slot: &Slot) -> Option<&Outcome> {
    match &slot.report {
        Some(Report::Run(o)) => Some(o),
        _ => None,
    }
}

impl Comparisons {
    fn slot(&mut self, job: Job) -> Slot {
        self.next_id += 1;
        Slot { id: self.next_id, job, done: false, report: None, failed: None }
    }

    /// Keeps exactly these pins: a pin that stays keeps its job and what it has given.
    pub fn set_pins(&mut self, pins: &[Pin]) {
        let mut old = std::mem::take(&mut self.pins);
        for pin in pins {
            let slot = match old.iter().position(|s| s.job == Job::Pin(pin.clone())) {
                Some(i) => old.remove(i),
                None => self.slot(Job::Pin(pin.clone())),
            };
            self.pins.push(slot);
        }
    }

    /// Starts "All four" for `config` (replacing one under way).
    pub fn start_compare(&mut self, config: &Config) {
        let slots = four_combinations(config)
            .into_iter()
            .map(|config| {
                let steps = comparison_steps(config.task);
                self.slot(Job::Run { config, steps, keep_loss: true })
            })
            .collect();
        self.compare = Some(Group { config: config.clone(), slots });
    }

    /// Starts the depth sweep of `config` over the default depths (replacing one under way).
    pub fn start_sweep(&mut self, config: &Config) {
        // a sweep keeps four numbers per run, not its curve
        let slots = DEFAULT_SWEEP_DEPTHS
            .iter()
            .flat_map(|&depth| four_combinations(&Config { depth, ..config.clone() }))
            .map(|config| {
                let steps = comparison_steps(config.task);
                self.slot(Job::Run { config, steps, keep_loss: false })
            })
            .collect();
        self.sweep = Some(Group { config: config.clone(), slots });
    }

    /// Starts "depth or width" at `config`: its shapes (`depth_width::shapes`), each trained for
    /// the configuration's own steps (replacing one under way).
    pub fn start_depth_width(&mut self, config: &Config) {
        let slots = shapes(config)
            .into_iter()
            .map(|shape| self.slot(Job::Shape { steps: shape.steps, config: shape }))
            .collect();
        self.depth_width = Some(Group { config: config.clone(), slots });
    }

    /// Starts the knockout of the live run's stack (a `Job::Knockout`), replacing any other.
    pub fn start_knockout(&mut self, job: Job) {
        let Job::Knockout { step, .. } = job else { return };
        let slot = self.slot(job);
        self.knockout = Some((step, slot));
    }

    /// Forgets the knockout: the live run it measured has been restarted.
    pub fn clear_knockout(&mut self) {
        self.knockout = None;
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        // the knockout is one quick measurement; the sweep's many runs come last
        let groups =
            [&self.compare, &self.depth_width, &self.sweep].into_iter().flatten().flat_map(|g| &g.slots);
        self.knockout.iter().map(|(_, s)| s).chain(&self.pins).chain(groups)
    }

    fn slot_mut(&mut self, id: u32) -> Option<&mut Slot> {
        let groups = [&mut self.compare, &mut self.depth_width, &mut self.sweep]
            .into_iter()
            .flatten()
            .flat_map(|g| &mut g.slots);
        self.knockout.iter_mut().map(|(_, s)| s).chain(&mut self.pins).chain(groups).find(|s| s.id == id)
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
        self.pins.iter().any(|s| s.id == id)
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
        );
        if !fits {
            return Err("a report of another kind than its job".into());
        }
        slot.report = Some(report);
        slot.done = done;
        if let (true, Job::Knockout { weights, .. }) = (done, &mut slot.job) {
            *weights = Vec::new(); // the result is all that is kept
        }
        Ok(true)
    }

    /// What the page draws now.
    pub fn state(&self) -> ComparisonsState {
        let pins = self
            .pins
            .iter()
            .map(|s| {
                let Job::Pin(pin) = &s.job else { unreachable!("pins hold pin jobs") };
                let frame = match &s.report {
                    Some(Report::Pin(f)) => Some((**f).clone()),
                    _ => None,
                };
                PinState { pin: pin.clone(), done: s.done, frame, failed: s.failed.clone() }
            })
            .collect();
        let compare = self.compare.as_ref().map(|g| {
            let rows = g
                .slots
                .iter()
                .map(|s| {
                    let Job::Run { config, .. } = &s.job else { unreachable!("runs") };
                    let run = outcome(s).cloned().unwrap_or_else(|| Outcome::pending(config));
                    CompareRow { done: s.done, run, failed: s.failed.clone() }
                })
                .collect();
            let both_on = &four_combinations(&g.config)[3];
            CompareState { config: both_on.clone(), steps: comparison_steps(g.config.task), rows }
        });
        let sweep = self.sweep.as_ref().map(|g| {
            let series = four_combinations(&g.config)
                .iter()
                .enumerate()
                .map(|(combination, first)| {
                    // the depths up to the first whose run of this combination is not done
                    let runs = g
                        .slots
                        .iter()
                        .skip(combination)
                        .step_by(4)
                        .map_while(|s| outcome(s).filter(|_| s.done));
                    SweepSeries::of(first, runs)
                })
                .collect();
            SweepState {
                config: g.config.clone(),
                steps: comparison_steps(g.config.task),
                depths: DEFAULT_SWEEP_DEPTHS.to_vec(),
                runs_finished: g.slots.iter().filter(|s| s.done).count(),
                series,
            }
        });
        let knockout = self.knockout.as_ref().map(|(step, s)| {
            let result = match &s.report {
                Some(Report::Knockout(k)) => k.clone(),
                _ => Knockout { intact_loss: f64::NAN, loss: Vec::new(), output_change: Vec::new() },
            };
            KnockoutState { step: *step, done: s.done, result }
        });
        let depth_width = self.depth_width.as_ref().map(|g| {
            let rows: Vec<(bool, ShapeOutcome)> = g
                .slots
                .iter()
                .map(|s| match (&s.report, &s.job) {
                    (Some(Report::Shape(o)), _) => (s.done, o.clone()),
                    (_, job) => (false, ShapeOutcome::pending(job.config())),
                })
                .collect();
            let steps = rows.first().map_or(g.config.steps, |(_, r)| r.config.steps);
            DepthWidthState { config: g.config.clone(), steps, rows }
        });
        ComparisonsState { pins, compare, sweep, knockout, depth_width, failures: self.failures() }
    }
}
