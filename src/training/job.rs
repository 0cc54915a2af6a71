//! A job: one piece of the comparisons, which any worker can run from start to end because
//! every run starts from the seed: one run of All four or of the sweep, a pinned run, or the
//! knockout of the live run's stack (from its weights). The same job gives the same bits in
//! every worker, on every thread and natively. `JobRunner` advances one in slices and reports
//! what it has so far; jobs and reports cross threads in the checked binary form below.

use crate::config::{read_pins, write_pins, Config, Pin};
use crate::training::frame::Frame;
use crate::training::knockout::{Knockout, KnockoutInProgress};
use crate::training::outcome::Outcome;
use crate::training::report::{RunInProgress, TaskEnd};
use crate::training::session::Session;
use crate::training::train::Trainer;
use crate::wire::{Reader, Writer};

#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// One run of All four or of the sweep: `config` trained for `steps` updates (its curve
    /// kept if `keep_loss`).
    Run { config: Config, steps: usize, keep_loss: bool },
    /// A pinned run, trained as the page's live run would be to the pin's step.
    Pin(Pin),
    /// Each layer of the live run's stack at `step` knocked out in turn: `weights` are the
    /// stack's parameters in `Params::visit` order.
    Knockout { config: Config, step: usize, weights: Vec<f32> },
}

/// What a job has given so far: when `done`, its result.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    Run(Outcome),
    Pin(Box<Frame>),
    Knockout(Knockout),
}

impl Job {
    /// The configuration the job trains or measures.
    pub fn config(&self) -> &Config {
        match self {
            Job::Run { config, .. } | Job::Knockout { config, .. } => config,
            Job::Pin(pin) => &pin.config,
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
    Knockout(Box<Trainer<f32>>, KnockoutInProgress),
}

/// A job under way.
pub struct JobRunner {
    progress: Progress,
}

impl JobRunner {
    /// Starts `job`: builds its stack and measures it at initialisation (about a step's work).
    pub fn new(job: Job) -> Result<JobRunner, String> {
        let progress = match job {
            Job::Run { config, steps, keep_loss } => {
                // All four's runs keep their curve and write; the sweep's do neither
                let run = RunInProgress::new(&config, steps);
                Progress::Run(Box::new(if keep_loss { run } else { run.without_writing() }), keep_loss)
            }
            Job::Pin(pin) => Progress::Pin(Box::new(Session::new(&pin.config))),
            Job::Knockout { config, weights, .. } => {
                let mut trainer = Box::new(Trainer::<f32>::new(&config));
                trainer.load_weights(&weights)?;
                let knocking = KnockoutInProgress::new(&mut trainer);
                Progress::Knockout(trainer, knocking)
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
                session.recover(max_steps.saturating_sub(taken));
            }
            Progress::Knockout(trainer, knocking) => {
                knocking.advance(trainer, max_steps);
            }
        }
        self.is_done()
    }

    /// Its reports part way show something: a run that keeps no curve (the sweep's) only
    /// gives its numbers at the end.
    pub fn progressive(&self) -> bool {
        !matches!(self.progress, Progress::Run(_, false))
    }

    pub fn is_done(&self) -> bool {
        match &self.progress {
            Progress::Run(run, _) => run.is_done(),
            Progress::Pin(session) => !session.running() && !session.recovering(),
            Progress::Knockout(_, knocking) => knocking.is_done(),
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
    runner.advance(usize::MAX);
    Ok(runner.report())
}

const JOB_MAGIC: u32 = 0x314A_5041; // "APJ1"
const REPORT_MAGIC: u32 = 0x3252_5041; // "APR2": outcomes carry their readout

pub(crate) fn write_outcome(w: &mut Writer, o: &Outcome) {
    o.config.write(w);
    for x in [o.init_top_std, o.grad_ratio, o.final_loss] {
        w.f64(x);
    }
    w.opt_usize(o.diverged_at);
    w.f64s(&o.loss);
    w.f64(o.held_out.loss);
    w.f64(o.held_out.accuracy);
    w.str(&o.held_out.sample);
    w.f64s(&o.readout_loss);
}

pub(crate) fn read_outcome(r: &mut Reader) -> Result<Outcome, String> {
    let config = Config::read(r)?;
    let (init_top_std, grad_ratio, final_loss) = (r.f64()?, r.f64()?, r.f64()?);
    let diverged_at = r.opt_usize()?;
    let loss = r.f64s()?;
    let held_out = TaskEnd { loss: r.f64()?, accuracy: r.f64()?, sample: r.str()? };
    let readout_loss = r.f64s()?;
    if ![0, config.depth + 1].contains(&readout_loss.len()) {
        return Err("an outcome's readout does not match its depth".into());
    }
    Ok(Outcome { config, init_top_std, grad_ratio, final_loss, diverged_at, loss, held_out, readout_loss })
}

impl Job {
    pub fn encode(&self, id: u32) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(256));
        w.u32(JOB_MAGIC);
        w.u32(id);
        match self {
            Job::Run { config, steps, keep_loss } => {
                w.u32(0);
                config.write(&mut w);
                w.u64(*steps as u64);
                w.u32(u32::from(*keep_loss));
            }
            Job::Pin(pin) => {
                w.u32(1);
                write_pins(&mut w, std::slice::from_ref(pin));
            }
            Job::Knockout { config, step, weights } => {
                w.u32(2);
                config.write(&mut w);
                w.u64(*step as u64);
                w.f32s(weights);
            }
        }
        w.0
    }

    /// Reads what `encode` wrote: the job and its id. Anything else is an error, never a panic.
    /// The configuration of the job these bytes describe, read without the rest (a knockout
    /// job carries every weight of the stack): what a worker checks before it starts the job.
    pub fn config_in(bytes: &[u8]) -> Result<Config, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != JOB_MAGIC {
            return Err("not a job".into());
        }
        let _id = r.u32()?;
        match r.u32()? {
            0 | 2 => Config::read(&mut r),
            1 => {
                let _pins = r.u64()?; // one, as `encode` writes a pin job
                Config::read(&mut r)
            }
            _ => Err("an unknown kind of job".into()),
        }
    }

    pub fn decode(bytes: &[u8]) -> Result<(u32, Job), String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != JOB_MAGIC {
            return Err("not a job".into());
        }
        let id = r.u32()?;
        let job = match r.u32()? {
            0 => Job::Run { config: Config::read(&mut r)?, steps: r.usize()?, keep_loss: r.u32()? != 0 },
            1 => match read_pins(&mut r)?.pop() {
                Some(pin) => Job::Pin(pin),
                None => return Err("a pin job without its pin".into()),
            },
            2 => Job::Knockout { config: Config::read(&mut r)?, step: r.usize()?, weights: r.f32s()? },
            _ => return Err("an unknown kind of job".into()),
        };
        r.done()?;
        Ok((id, job))
    }
}

impl Report {
    pub fn encode(&self, id: u32, done: bool) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(1024));
        w.u32(REPORT_MAGIC);
        w.u32(id);
        w.u32(u32::from(done));
        match self {
            Report::Run(o) => {
                w.u32(0);
                write_outcome(&mut w, o);
            }
            Report::Pin(frame) => {
                w.u32(1);
                w.bytes(&frame.encode());
            }
            Report::Knockout(k) => {
                w.u32(2);
                w.f64(k.intact_loss);
                w.f64s(&k.loss);
                w.f64s(&k.output_change);
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
        let report = match r.u32()? {
            0 => Report::Run(read_outcome(&mut r)?),
            1 => Report::Pin(Box::new(Frame::decode(r.bytes()?)?)),
            2 => {
                let k = Knockout { intact_loss: r.f64()?, loss: r.f64s()?, output_change: r.f64s()? };
                if k.loss.len() != k.output_change.len() {
                    return Err("a knockout's lists differ in length".into());
                }
                Report::Knockout(k)
            }
            _ => return Err("an unknown kind of report".into()),
        };
        r.done()?;
        Ok((id, done, report))
    }
}
