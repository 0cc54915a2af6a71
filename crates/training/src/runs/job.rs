//! A job: one piece of the comparisons, which any worker can run from start to end because
//! every run starts from the seed: one run of All four or of the sweep, a pinned run, or the
//! knockout of the live run's stack (from its weights). The same job gives the same bits in
//! every worker, on every thread and natively. `JobRunner` advances one in slices and reports
//! what it has so far; jobs and reports cross threads in the checked binary form below.

use crate::live::frame::Frame;
use crate::live::session::Session;
use crate::measures::depth_width::{Clock, ShapeOutcome, ShapeRun};
use crate::measures::knockout::{Knockout, KnockoutInProgress, Removal};
use crate::measures::tuned_lens::{TunedLens, FIT_STEPS};
use crate::runs::outcome::Outcome;
use crate::runs::trial::{TrialEnd, TrialRun};
use crate::step::report::{RunInProgress, TaskEnd};
use crate::step::train::Trainer;
use crate::step::train::{read_evals, write_evals};
use ablation_core::config::{read_pins, write_pins, Config, Pin};
use ablation_core::wire::{Reader, Writer};

#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// One run of All four or of the sweep: `config` trained for `steps` updates (its curve
    /// kept if `keep_loss`).
    Run { config: Config, steps: usize, keep_loss: bool },
    /// A pinned run, trained as the page's live run would be to the pin's step.
    Pin(Pin),
    /// Each layer of a stack at `step` knocked out in turn: `weights` are the live run's
    /// stack's parameters in `Params::visit` order, or none for a stack trained here from
    /// `config`'s seed to `step` first (another seed of the knockout), as the live run would.
    Knockout { config: Config, step: usize, weights: Vec<f32> },
    /// One shape of "depth or width": `config` trained for `steps` updates, timed.
    Shape { config: Config, steps: usize },
    /// A tuned lens fitted to the live run's stack at `step` (`weights` as a knockout's).
    TunedLens { config: Config, step: usize, weights: Vec<f32> },
    /// A tuning trial (`trial::TrialRun`): `config`'s run of `steps` updates trained to update
    /// `until`, from `from` (a trial's bytes) or from the seed.
    Trial { config: Config, steps: usize, until: usize, from: Vec<u8> },
}

/// The kinds of job, as their bytes name them (one number per kind, read and written here).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Run = 0,
    Pin = 1,
    Knockout = 2,
    Shape = 3,
    TunedLens = 4,
    Trial = 5,
}

impl JobKind {
    fn read(r: &mut Reader) -> Result<JobKind, String> {
        Ok(match r.u32()? {
            0 => JobKind::Run,
            1 => JobKind::Pin,
            2 => JobKind::Knockout,
            3 => JobKind::Shape,
            4 => JobKind::TunedLens,
            5 => JobKind::Trial,
            _ => return Err("an unknown kind of job".into()),
        })
    }
}

/// What a job has given so far: when `done`, its result.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    Run(Outcome),
    Pin(Box<Frame>),
    Knockout(Knockout),
    Shape(ShapeOutcome),
    TunedLens(LensFit),
    Trial(TrialEnd),
}

/// A tuned lens so far: its updates, and once fitted the held-out loss read through each
/// layer's translator, ℓ = 0..=L (empty until then).
#[derive(Clone, Debug, PartialEq)]
pub struct LensFit {
    pub fit_steps: usize,
    pub losses: Vec<f64>,
}

impl Job {
    /// The configuration the job trains or measures.
    pub fn config(&self) -> &Config {
        match self {
            Job::Run { config, .. }
            | Job::Knockout { config, .. }
            | Job::Shape { config, .. }
            | Job::TunedLens { config, .. }
            | Job::Trial { config, .. } => config,
            Job::Pin(pin) => &pin.config,
        }
    }

    /// The job in a few words, for a failure's notice: "the run at depth 12, residual off, norm pre".
    pub fn what(&self) -> String {
        let c = self.config();
        let word = |name: &str| ablation_core::config::find(name).map_or(String::new(), |p| p.text_of(c));
        let switches = format!("depth {}, residual {}, norm {}", c.depth, word("residual"), word("norm"));
        match self {
            Job::Run { .. } => format!("the run at {switches}"),
            Job::Pin(pin) => format!("the pinned run at {switches}, step {}", pin.config.steps),
            Job::Knockout { step, .. } => format!("the knockout at step {step}"),
            Job::Shape { config, .. } => format!("the shape {} × {}", config.depth, config.width),
            Job::TunedLens { step, .. } => format!("the tuned lens at step {step}"),
            Job::Trial { until, .. } => format!("the tuning trial at lr {} to step {until}", c.learning_rate),
        }
    }

    /// The knockout of `session`'s stack as trained so far: its weights, for a worker of the pool.
    pub fn knockout_of(session: &mut Session) -> Job {
        // the weights first: after a divergence they are the last finite state's
        let weights = session.trainer().weights();
        Job::Knockout { config: session.config().clone(), step: session.step(), weights }
    }
}

enum Progress {
    Run(Box<RunInProgress>, bool),
    Pin(Box<Session>),
    Knockout(Box<Trainer<f32>>, Box<KnockoutInProgress>),
    /// A knockout's stack in training, to its step.
    Training(Box<Session>),
    Shape(Box<ShapeRun>),
    /// A tuned lens being fitted to its stack; its losses once measured.
    Lens(Box<Trainer<f32>>, Box<TunedLens<f32>>, Vec<f64>),
    Trial(Box<TrialRun>),
}

/// A job under way.
pub struct JobRunner {
    progress: Progress,
}

/// The clock of a runner made without one: a shape's times are then NaN.
fn no_clock() -> f64 {
    f64::NAN
}

impl JobRunner {
    /// Starts `job`: builds its stack and measures it at initialisation (about a step's work).
    pub fn new(job: Job) -> Result<JobRunner, String> {
        Self::with_clock(job, no_clock)
    }

    /// `new`, with the clock a shape's times are read from.
    pub fn with_clock(job: Job, clock: Clock) -> Result<JobRunner, String> {
        let progress = match job {
            Job::Run { config, steps, keep_loss } => {
                // All four's runs keep their curve and write; the sweep's do neither
                let run = RunInProgress::new(&config, steps);
                Progress::Run(Box::new(if keep_loss { run } else { run.without_writing() }), keep_loss)
            }
            Job::Pin(pin) => Progress::Pin(Box::new(Session::new(&pin.config))),
            Job::Knockout { config, step, weights } if weights.is_empty() => {
                Progress::Training(Box::new(Session::new(&Config { steps: step, ..config })))
            }
            Job::Knockout { config, weights, .. } => {
                let mut trainer = Box::new(Trainer::<f32>::new(&config));
                trainer.load_weights(&weights)?;
                let knocking = Box::new(KnockoutInProgress::new(&mut trainer));
                Progress::Knockout(trainer, knocking)
            }
            Job::Shape { config, steps } => Progress::Shape(Box::new(ShapeRun::new(&config, steps, clock))),
            Job::TunedLens { config, weights, .. } => {
                let mut trainer = Box::new(Trainer::<f32>::new(&config));
                trainer.load_weights(&weights)?;
                let lens = Box::new(TunedLens::new(&config, &trainer.stack)?);
                Progress::Lens(trainer, lens, Vec::new())
            }
            Job::Trial { config, steps, until, from } => {
                Progress::Trial(Box::new(TrialRun::new(&config, steps, until, &from)?))
            }
        };
        Ok(JobRunner { progress })
    }

    /// Takes up to `max_steps` more steps (for a knockout: layers) and says whether it is done.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        match &mut self.progress {
            Progress::Run(run, _) => {
                run.advance(max_steps);
            }
            Progress::Pin(session) => {
                let mut taken = 0;
                while taken < max_steps && session.train_step() {
                    taken += 1;
                }
                // a pin of a diverged run shows its last finite state, as the live run does
                taken += session.recover(max_steps.saturating_sub(taken));
                // the matrices' view's measure, once trained (a batch costs about a step)
                if !session.running() && !session.recovering() && taken < max_steps {
                    session.measure_matrices(max_steps - taken);
                }
            }
            Progress::Knockout(trainer, knocking) => {
                knocking.advance(trainer, max_steps);
            }
            Progress::Training(session) => {
                let mut taken = 0;
                while taken < max_steps && session.train_step() {
                    taken += 1;
                }
                // a diverged stack is knocked out at its last finite state, as the live run's is
                session.recover(max_steps.saturating_sub(taken));
                if !session.running() && !session.recovering() {
                    let mut trainer = Box::new(Trainer::<f32>::new(session.config()));
                    trainer.load_weights(&session.trainer().weights()).expect("the same stack's weights");
                    let knocking = Box::new(KnockoutInProgress::new(&mut trainer));
                    self.progress = Progress::Knockout(trainer, knocking);
                    // what is left of the slice knocks out layers
                    return self.advance(max_steps.saturating_sub(taken));
                }
            }
            Progress::Shape(run) => {
                run.advance(max_steps);
            }
            Progress::Trial(run) => {
                run.advance(max_steps);
            }
            Progress::Lens(trainer, lens, losses) => {
                // a slice of updates; once fitted, the held-out measurement (about as many
                // forward passes as the held-out set has batches)
                for _ in 0..max_steps.min(FIT_STEPS) {
                    if lens.is_fitted() {
                        break;
                    }
                    lens.fit_step(&mut trainer.stack);
                }
                if lens.is_fitted() && losses.is_empty() {
                    *losses = lens.held_out_losses(trainer);
                }
            }
        }
        self.is_done()
    }

    /// Its reports part way show something: a run that keeps no curve (the sweep's) only
    /// gives its numbers at the end.
    pub fn progressive(&self) -> bool {
        !matches!(self.progress, Progress::Run(_, false) | Progress::Trial(_))
    }

    pub fn is_done(&self) -> bool {
        match &self.progress {
            Progress::Run(run, _) => run.is_done(),
            Progress::Pin(session) => !session.running() && !session.recovering() && !session.measuring(),
            Progress::Knockout(_, knocking) => knocking.is_done(),
            Progress::Training(_) => false,
            Progress::Shape(run) => run.is_done(),
            Progress::Lens(_, _, losses) => !losses.is_empty(),
            Progress::Trial(run) => run.is_done(),
        }
    }

    /// What the job has given so far (its result once done).
    pub fn report(&mut self) -> Report {
        match &mut self.progress {
            Progress::Run(run, keep_loss) => Report::Run(Outcome::of(run, *keep_loss)),
            Progress::Pin(session) => {
                // a pin keeps what its stack writes at the pin's step (written once, at the end)
                if !session.running() && !session.recovering() {
                    session.write();
                }
                Report::Pin(Box::new(session.frame()))
            }
            Progress::Knockout(_, knocking) => Report::Knockout(knocking.result().clone()),
            Progress::Training(_) => Report::Knockout(Knockout::empty()),
            Progress::Shape(run) => Report::Shape(run.outcome()),
            Progress::Lens(_, lens, losses) => {
                Report::TunedLens(LensFit { fit_steps: lens.step, losses: losses.clone() })
            }
            Progress::Trial(run) => Report::Trial(run.end()),
        }
    }

    /// `report`, encoded as `Report::decode` reads it, for job `id`.
    pub fn encoded_report(&mut self, id: u32) -> Vec<u8> {
        let done = self.is_done();
        self.report().encode(id, done)
    }
}

/// Runs `job` to the end at once.
pub fn run_job(job: Job) -> Result<Report, String> {
    let mut runner = JobRunner::new(job)?;
    while !runner.advance(usize::MAX) {}
    Ok(runner.report())
}

const JOB_MAGIC: u32 = 0x314A_5041; // "APJ1"
const REPORT_MAGIC: u32 = 0x3952_5041; // "APR9": a run's loss with the future hidden

pub fn write_outcome(w: &mut Writer, o: &Outcome) {
    o.config.write(w);
    for x in [o.init_top_std, o.grad_ratio, o.final_loss] {
        w.f64(x);
    }
    w.opt_usize(o.diverged_at);
    w.f64s(&o.loss);
    w.f64(o.held_out.loss);
    w.f64(o.held_out.accuracy);
    w.f64(o.held_out.future_hidden);
    w.str(&o.held_out.sample);
    w.f64s(&o.readout_loss);
    w.f64(o.tail);
    write_learned(w, o.learned);
    write_learned(w, o.converged);
    w.u64(o.steps as u64);
}

fn write_learned(w: &mut Writer, learned: Option<bool>) {
    w.u32(match learned {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    });
}

fn read_learned(r: &mut Reader) -> Result<Option<bool>, String> {
    Ok(match r.u32()? {
        0 => None,
        1 => Some(false),
        2 => Some(true),
        _ => return Err("a run's learned is not a yes, a no or none".into()),
    })
}

pub fn read_outcome(r: &mut Reader) -> Result<Outcome, String> {
    let config = Config::read(r)?;
    let (init_top_std, grad_ratio, final_loss) = (r.f64()?, r.f64()?, r.f64()?);
    let diverged_at = r.opt_usize()?;
    let loss = r.f64s()?;
    let held_out = TaskEnd { loss: r.f64()?, accuracy: r.f64()?, future_hidden: r.f64()?, sample: r.str()? };
    let readout_loss = r.f64s()?;
    if ![0, config.depth + 1].contains(&readout_loss.len()) {
        return Err("an outcome's readout does not match its depth".into());
    }
    let (tail, learned) = (r.f64()?, read_learned(r)?);
    let (converged, steps) = (read_learned(r)?, r.usize()?);
    Ok(Outcome {
        converged,
        steps,
        config,
        init_top_std,
        grad_ratio,
        final_loss,
        diverged_at,
        loss,
        held_out,
        readout_loss,
        tail,
        learned,
    })
}

fn write_removals(w: &mut Writer, removals: &[Removal]) {
    w.u64(removals.len() as u64);
    for r in removals {
        for x in [r.loss, r.val_loss, r.accuracy] {
            w.f64(x);
        }
    }
}

fn read_removals(r: &mut Reader) -> Result<Vec<Removal>, String> {
    let n = r.len(24)?;
    (0..n).map(|_| Ok(Removal { loss: r.f64()?, val_loss: r.f64()?, accuracy: r.f64()? })).collect()
}

fn write_knockout(w: &mut Writer, k: &Knockout) {
    w.f64s(&k.output_change);
    write_removals(w, &[k.intact]);
    write_removals(w, &k.each);
    write_removals(w, &k.top_k);
    w.u64(k.random_k.len() as u64);
    for (count, draws) in &k.random_k {
        w.u64(*count as u64);
        write_removals(w, draws);
    }
    write_removals(w, &k.below_top_k);
    w.u64(k.gromov.len() as u64);
    for (start, distance, removal) in &k.gromov {
        w.u64(*start as u64);
        w.f64(*distance);
        write_removals(w, &[*removal]);
    }
    w.f64(k.bigram.unwrap_or(f64::NAN));
}

/// What `write_knockout` wrote; `intact_loss` and `loss` are the removals' probe losses.
fn read_knockout(r: &mut Reader) -> Result<Knockout, String> {
    let output_change = r.f64s()?;
    let intact = *read_removals(r)?.first().ok_or("a knockout without its intact stack")?;
    let (each, top_k) = (read_removals(r)?, read_removals(r)?);
    let n = r.len(16)?;
    let random_k = (0..n).map(|_| Ok((r.usize()?, read_removals(r)?))).collect::<Result<Vec<_>, String>>()?;
    let below_top_k = read_removals(r)?;
    let n = r.len(48)?;
    let gromov = (0..n)
        .map(|_| {
            let (start, distance) = (r.usize()?, r.f64()?);
            let removal = *read_removals(r)?.first().ok_or("a Gromov block without its removal")?;
            Ok((start, distance, removal))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let bigram = Some(r.f64()?).filter(|b| !b.is_nan());
    if each.len() != output_change.len() {
        return Err("a knockout's lists differ in length".into());
    }
    let loss = each.iter().map(|e| e.loss).collect();
    Ok(Knockout {
        intact_loss: intact.loss,
        loss,
        output_change,
        intact,
        each,
        top_k,
        random_k,
        below_top_k,
        gromov,
        bigram,
    })
}

impl Job {
    pub fn encode(&self, id: u32) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(256));
        w.u32(JOB_MAGIC);
        w.u32(id);
        w.u32(self.kind() as u32);
        match self {
            Job::Run { config, steps, keep_loss } => {
                config.write(&mut w);
                w.u64(*steps as u64);
                w.u32(u32::from(*keep_loss));
            }
            Job::Pin(pin) => write_pins(&mut w, std::slice::from_ref(pin)),
            Job::Knockout { config, step, weights } | Job::TunedLens { config, step, weights } => {
                config.write(&mut w);
                w.u64(*step as u64);
                w.f32s(weights);
            }
            Job::Shape { config, steps } => {
                config.write(&mut w);
                w.u64(*steps as u64);
            }
            Job::Trial { config, steps, until, from } => {
                config.write(&mut w);
                w.u64(*steps as u64);
                w.u64(*until as u64);
                w.bytes(from);
            }
        }
        w.0
    }

    /// Reads what `encode` wrote: the job and its id. Anything else is an error, never a panic.
    /// The configuration of the job these bytes describe, read without the rest (a knockout
    /// job carries every weight of the stack): what a worker checks before it starts the job.
    pub fn config_in(bytes: &[u8]) -> Result<Config, String> {
        let mut r = Reader { bytes, at: 0 };
        let (_, kind) = header(&mut r)?;
        match kind {
            JobKind::Pin => Ok(read_pin(&mut r)?.config),
            // every other kind begins with its configuration (a knockout's weights follow)
            JobKind::Run | JobKind::Knockout | JobKind::Shape | JobKind::TunedLens | JobKind::Trial => {
                Config::read(&mut r)
            }
        }
    }

    fn kind(&self) -> JobKind {
        match self {
            Job::Run { .. } => JobKind::Run,
            Job::Pin(_) => JobKind::Pin,
            Job::Knockout { .. } => JobKind::Knockout,
            Job::Shape { .. } => JobKind::Shape,
            Job::TunedLens { .. } => JobKind::TunedLens,
            Job::Trial { .. } => JobKind::Trial,
        }
    }

    pub fn decode(bytes: &[u8]) -> Result<(u32, Job), String> {
        let mut r = Reader { bytes, at: 0 };
        let (id, kind) = header(&mut r)?;
        let job = match kind {
            JobKind::Run => {
                Job::Run { config: Config::read(&mut r)?, steps: r.usize()?, keep_loss: r.u32()? != 0 }
            }
            JobKind::Pin => Job::Pin(read_pin(&mut r)?),
            JobKind::Knockout => {
                Job::Knockout { config: Config::read(&mut r)?, step: r.usize()?, weights: r.f32s()? }
            }
            JobKind::Shape => Job::Shape { config: Config::read(&mut r)?, steps: r.usize()? },
            JobKind::TunedLens => {
                Job::TunedLens { config: Config::read(&mut r)?, step: r.usize()?, weights: r.f32s()? }
            }
            JobKind::Trial => Job::Trial {
                config: Config::read(&mut r)?,
                steps: r.usize()?,
                until: r.usize()?,
                from: r.bytes()?.to_vec(),
            },
        };
        r.done()?;
        Ok((id, job))
    }
}

/// A job's header: the magic number, its id and its kind.
fn header(r: &mut Reader) -> Result<(u32, JobKind), String> {
    if r.u32()? != JOB_MAGIC {
        return Err("not a job".into());
    }
    Ok((r.u32()?, JobKind::read(r)?))
}

/// A pin job's one pin, as `write_pins` wrote it.
fn read_pin(r: &mut Reader) -> Result<Pin, String> {
    read_pins(r)?.pop().ok_or_else(|| "a pin job without its pin".to_string())
}

impl Report {
    pub fn encode(&self, id: u32, done: bool) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(1024));
        w.u32(REPORT_MAGIC);
        w.u32(id);
        w.u32(u32::from(done));
        match self {
            Report::Run(o) => {
                w.u32(JobKind::Run as u32);
                write_outcome(&mut w, o);
            }
            Report::Pin(frame) => {
                w.u32(JobKind::Pin as u32);
                w.bytes(&frame.encode());
            }
            Report::Knockout(k) => {
                w.u32(JobKind::Knockout as u32);
                write_knockout(&mut w, k);
            }
            Report::Trial(end) => {
                w.u32(JobKind::Trial as u32);
                w.f64(end.tail);
                w.bytes(&end.resume);
            }
            Report::TunedLens(fit) => {
                w.u32(JobKind::TunedLens as u32);
                w.u64(fit.fit_steps as u64);
                w.f64s(&fit.losses);
            }
            Report::Shape(s) => {
                w.u32(JobKind::Shape as u32);
                s.config.write(&mut w);
                w.u64(s.params as u64);
                w.f64s(&s.loss);
                write_evals(&mut w, &s.evals);
                w.opt_usize(s.diverged_at);
                w.f64(s.ms_per_step);
                w.f64(s.ms_per_char);
                write_learned(&mut w, s.learned);
                write_learned(&mut w, s.converged);
            }
        }
        w.0
    }

    /// Reads what `encode` wrote: the job's id, whether it is done, and the report.
    pub fn decode(bytes: &[u8]) -> Result<(u32, bool, Report), String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != REPORT_MAGIC {
            return Err("not a job's report".into());
        }
        let (id, done) = (r.u32()?, r.u32()? != 0);
        // a report is of its job's kind
        let report = match JobKind::read(&mut r)? {
            JobKind::Run => Report::Run(read_outcome(&mut r)?),
            JobKind::Pin => Report::Pin(Box::new(Frame::decode(r.bytes()?)?)),
            JobKind::Knockout => Report::Knockout(read_knockout(&mut r)?),
            JobKind::TunedLens => Report::TunedLens(LensFit { fit_steps: r.usize()?, losses: r.f64s()? }),
            JobKind::Trial => Report::Trial(TrialEnd { tail: r.f64()?, resume: r.bytes()?.to_vec() }),
            JobKind::Shape => {
                let (config, params, loss) = (Config::read(&mut r)?, r.usize()?, r.f64s()?);
                let evals = read_evals(&mut r)?;
                let diverged_at = r.opt_usize()?;
                let (ms_per_step, ms_per_char) = (r.f64()?, r.f64()?);
                let (learned, converged) = (read_learned(&mut r)?, read_learned(&mut r)?);
                Report::Shape(ShapeOutcome {
                    learned,
                    converged,
                    config,
                    params,
                    loss,
                    evals,
                    diverged_at,
                    ms_per_step,
                    ms_per_char,
                })
            }
        };
        r.done()?;
        Ok((id, done, report))
    }
}
