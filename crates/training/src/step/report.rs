//! A full run as plain data: what the CLI prints and what static figures are drawn from.

use crate::live::writing::{write, Writing};
use crate::runs::spread::{plateaued, training_curve};
use crate::step::train::{Eval, Trainer, EVAL_EVERY};
use crate::tasks::task::{floors, TaskFloors};
use ablation_core::config::{Config, TaskKind, Until};
use ablation_core::model::stats::{histogram, mean_std, Histogram, Range};

/// The histogram's fixed axis: wide enough for a healthy unit-scale stream, narrow enough
/// that an exploding one piles up visibly at both edges.
pub const HISTOGRAM_RANGE: Range = Range::Fixed(-4.0, 4.0);
pub const HISTOGRAM_BINS: usize = 40;

/// The per-depth picture on the fixed probe batch at one moment of training.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// std of the stream `x_ℓ`, ℓ = 0..=L.
    pub act_std: Vec<f64>,
    /// `‖∂L/∂x_ℓ‖`, ℓ = 0..=L.
    pub grad_norm: Vec<f64>,
    /// `‖∂L/∂W_ℓ‖` for each sublayer.
    pub weight_grad_norm: Vec<f64>,
    /// std of what the readout reads: `LN_f(x_L)` with a final norm, else `x_L`.
    pub readout_std: f64,
    /// Loss on the probe batch.
    pub probe_loss: f64,
    /// The loss the readout gets reading `x_ℓ` instead of `x_L`, ℓ = 0..=L: on the probe batch
    /// for the teacher (its last equals `probe_loss`), on the held-out set at the last held-out
    /// measurement for a sequence task (its last equals that measurement's loss).
    pub readout_loss: Vec<f64>,
    /// `‖x_{ℓ+1} − x_ℓ‖ / ‖x_ℓ‖` for each layer, on the probe batch.
    pub update_ratio: Vec<f64>,
}

impl Snapshot {
    /// Probes the trainer's stack. A sequence task's first snapshot measures the held-out set
    /// first (step 0's measurement, which the first step would make), so the lens has numbers
    /// at initialisation; the stack's last pass is then the probe's.
    pub fn take(trainer: &mut Trainer<f32>) -> Snapshot {
        let sequence_task = trainer.config.task != TaskKind::Teacher;
        if sequence_task && trainer.evals.is_empty() {
            trainer.evaluate();
        }
        let probe_loss = trainer.probe();
        let stack = &trainer.stack;
        let mut snapshot = Snapshot {
            act_std: stack.stream_stds(),
            grad_norm: stack.stream_grad_norm.clone(),
            weight_grad_norm: stack.weight_grad_norm.clone(),
            readout_std: mean_std(stack.readout_input().as_slice()).1,
            probe_loss,
            readout_loss: Vec::new(),
            update_ratio: stack.update_ratios(),
        };
        snapshot.readout_loss =
            if sequence_task { trainer.readout_loss.clone() } else { trainer.probe_readout_losses() };
        snapshot
    }
}

pub struct Run {
    pub config: Config,
    pub init: Snapshot,
    pub last: Snapshot,
    /// Loss before each update and after the last (`steps + 1` values; NaN after divergence).
    pub loss: Vec<f64>,
    pub diverged_at: Option<usize>,
    /// What the readout reads on the probe batch after training, on the fixed axis.
    pub histogram: Histogram,
    /// The same at initialisation.
    pub init_histogram: Histogram,
    /// The RMS of the readout norm's learned scale γ after training (`Stack::readout_unscaled_std`).
    pub readout_unscaled_std: f64,
    /// A sequence task's floors, held-out measurements and what the trained stack writes.
    pub task: Option<TaskRecord>,
}

/// A sequence task's end, as a comparison keeps it: the last held-out loss and copy accuracy
/// (NaN otherwise), and what the trained stack writes (empty for the teacher).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskEnd {
    pub loss: f64,
    pub accuracy: f64,
    /// A stack without the causal mask: the held-out loss with the future hidden (NaN otherwise).
    pub future_hidden: f64,
    pub sample: String,
}

impl Default for TaskEnd {
    fn default() -> Self {
        TaskEnd { loss: f64::NAN, accuracy: f64::NAN, future_hidden: f64::NAN, sample: String::new() }
    }
}

/// What a sequence task adds to a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRecord {
    pub floors: TaskFloors,
    pub evals: Vec<Eval>,
    pub writing: Writing,
}

impl TaskRecord {
    /// The record of `trainer`'s run so far, with what its stack writes now (`None` for the teacher).
    /// (`written`, if the run already let it write).
    pub fn of(trainer: &mut Trainer<f32>, written: Option<Writing>) -> Option<TaskRecord> {
        let writing = match written {
            Some(w) => w,
            None => write(trainer, &mut None, None)?,
        };
        Some(TaskRecord { floors: floors(&trainer.config)?, evals: trainer.evals.clone(), writing })
    }
}

/// The trainer's stack measured on the probe batch, and what its readout reads there as the
/// histogram on the fixed axis: a finished run's last state (or, after
/// `Trainer::back_to_last_finite`, its last finite one).
pub fn probed(trainer: &mut Trainer<f32>) -> (Snapshot, Histogram) {
    let snapshot = Snapshot::take(trainer);
    (snapshot, readout_histogram(trainer))
}

/// Trains `config` for `steps` updates and measures it before and after.
pub fn run(config: &Config, steps: usize) -> Run {
    trained(config, steps).0
}

/// `run`, and the trainer as the run left it, for measurements on the trained stack (the
/// layer knockout).
pub fn trained(config: &Config, steps: usize) -> (Run, Trainer<f32>) {
    RunInProgress::new(config, steps).finish()
}

/// `trained` (keeping the last finite state if asked), a sharded step's shards run on
/// `executors` threads at once (`Trainer::set_shard_executors`): the same bits as one.
pub fn trained_sharing(
    config: &Config,
    steps: usize,
    keep_last_finite: bool,
    executors: usize,
) -> (Run, Trainer<f32>) {
    let mut progress = RunInProgress::new(config, steps);
    progress.trainer.set_shard_executors(executors);
    if keep_last_finite {
        progress.trainer.keep_last_finite();
    }
    progress.finish()
}

/// `trained` (keeping the last finite state if asked), its stack starting from `weights`
/// (`Params::visit` order, as a weights file gives them), which have had `earlier_updates`
/// updates (the file's `step`), instead of the seed's draw, with a fresh optimiser and the
/// seed's data stream from its first batch: an error, and no run, if they do not fit the
/// configuration's stack. A sharded step's shards run on `executors` threads.
pub fn trained_from(
    config: &Config,
    steps: usize,
    weights: &[f32],
    earlier_updates: usize,
    keep_last_finite: bool,
    executors: usize,
) -> Result<(Run, Trainer<f32>), String> {
    let mut trainer = Trainer::<f32>::new(config);
    trainer.load_weights(weights)?;
    trainer.earlier_updates = earlier_updates;
    let mut progress = RunInProgress::with_trainer(trainer, steps);
    progress.trainer.set_shard_executors(executors);
    if keep_last_finite {
        progress.trainer.keep_last_finite();
    }
    Ok(progress.finish())
}

/// A run of `steps` updates that goes forward a budget of steps at a time, so that a worker
/// can train it in small time slices between messages; `run` drives one to the end at once.
/// Either way it is the same calls of `one_step` in the same order: the same bits.
pub struct RunInProgress {
    trainer: Trainer<f32>,
    /// What the trained stack writes, once the run is done (a sequence task's, if asked).
    written: Option<Writing>,
    writes: bool,
    /// The readout loss at every depth once done (`Snapshot::readout_loss`; empty after a
    /// divergence on the teacher): what All four shows of each combination's layers.
    readout: Option<Vec<f64>>,
    init: Snapshot,
    init_histogram: Histogram,
    /// Loss before each update, then after the last: `steps + 1` values once done.
    loss: Vec<f64>,
    /// The updates it makes: the configured ones, or fewer once it has plateaued (`until=plateau`).
    steps: usize,
}

impl RunInProgress {
    /// Builds the stack and measures it on the probe batch at initialisation (about one
    /// training step's work).
    pub fn new(config: &Config, steps: usize) -> RunInProgress {
        Self::with_trainer(Trainer::<f32>::new(config), steps)
    }

    /// `new` for a trainer made already (its stack's weights set from a file, say).
    fn with_trainer(mut trainer: Trainer<f32>, steps: usize) -> RunInProgress {
        let init = Snapshot::take(&mut trainer);
        let init_histogram = readout_histogram(&trainer);
        RunInProgress {
            trainer,
            written: None,
            writes: true,
            readout: None,
            init,
            init_histogram,
            loss: Vec::with_capacity(steps + 1),
            steps,
        }
    }

    /// Takes up to `max_steps` more steps (the last, measuring-only step counts as one) and
    /// says whether the run is done. After a divergence `one_step` only returns NaN, so the
    /// remaining losses are filled in at once, free of charge.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        let mut taken = 0;
        while taken < max_steps && !self.is_done() {
            if self.trainer.diverged_at.is_some() {
                self.loss.resize(self.steps + 1, f64::NAN);
                break;
            }
            let update = self.loss.len() < self.steps;
            let measured = self.trainer.evals.len();
            self.loss.push(self.trainer.one_step(update));
            taken += 1;
            if update && self.config().until == Until::Plateau && self.trainer.diverged_at.is_none() {
                let due = match self.config().task {
                    TaskKind::Teacher => self.loss.len().is_multiple_of(EVAL_EVERY),
                    _ => self.trainer.evals.len() > measured,
                };
                if due && self.converged() {
                    self.steps = self.loss.len(); // the loss after this update is the last
                }
            }
        }
        if self.writes && self.is_done() && self.readout.is_none() {
            self.readout = Some(self.final_readout());
        }
        if self.writes && self.is_done() && self.written.is_none() && self.trainer.diverged_at.is_none() {
            self.written = write(&mut self.trainer, &mut None, None);
        }
        self.is_done()
    }

    /// The readout loss at every depth after the last step: a sequence task's from its last
    /// held-out measurement (where the run stopped, or before it diverged), the teacher's on
    /// the probe batch (none after a divergence).
    fn final_readout(&mut self) -> Vec<f64> {
        let t = &mut self.trainer;
        if t.config.task != TaskKind::Teacher {
            t.readout_loss.clone()
        } else if t.diverged_at.is_some() {
            Vec::new()
        } else {
            t.probe_forward_skipping(&[]);
            t.probe_readout_losses()
        }
    }

    /// The readout loss at every depth once the run is done (All four's runs; empty otherwise).
    pub fn readout_loss(&self) -> Vec<f64> {
        self.readout.clone().unwrap_or_default()
    }

    /// The same run, but its trained stack writes nothing (a sweep's runs: nobody reads it,
    /// and at depth 96 a sample costs seconds).
    pub fn without_writing(mut self) -> RunInProgress {
        self.writes = false;
        self
    }

    /// A sequence task's end, once the run is done: the last held-out measurement and what
    /// the trained stack writes (NaN and empty before, and for the teacher).
    pub fn task_end(&self) -> TaskEnd {
        let last = self.trainer.evals.last().filter(|_| self.is_done());
        TaskEnd {
            loss: last.map_or(f64::NAN, |e| e.loss),
            accuracy: last.map_or(f64::NAN, |e| e.accuracy),
            future_hidden: last.and_then(|e| e.future_hidden).unwrap_or(f64::NAN),
            sample: self.written.as_ref().map(|w| w.text.clone()).unwrap_or_default(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.loss.len() == self.steps + 1
    }

    /// Whether the run has plateaued so far (`spread::plateaued`): on its held-out
    /// measurements, or on the regression its training loss by stretches of `EVAL_EVERY`.
    pub fn converged(&self) -> bool {
        match self.config().task {
            TaskKind::Teacher => {
                let whole = self.loss.len().min(self.steps) / EVAL_EVERY * EVAL_EVERY;
                plateaued(&training_curve(&self.loss[..whole], EVAL_EVERY))
            }
            _ => plateaued(&self.trainer.evals.iter().map(|e| e.loss).collect::<Vec<_>>()),
        }
    }

    pub fn config(&self) -> &Config {
        &self.trainer.config
    }

    /// The updates this run makes in all (fewer than asked once it has plateaued, with
    /// `until=plateau`).
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The probe at initialisation.
    pub fn init(&self) -> &Snapshot {
        &self.init
    }

    /// The losses so far (`steps + 1` once done; NaN after divergence).
    pub fn loss(&self) -> &[f64] {
        &self.loss
    }

    pub fn diverged_at(&self) -> Option<usize> {
        self.trainer.diverged_at
    }

    /// A sequence task's held-out measurements so far.
    pub fn evals(&self) -> &[Eval] {
        &self.trainer.evals
    }

    /// The finished run as plain data (measured again on the probe batch, after the last
    /// step), and its trainer. Runs whatever steps are left first.
    pub fn finish(mut self) -> (Run, Trainer<f32>) {
        self.advance(usize::MAX);
        let mut trainer = self.trainer;
        let (last, histogram) = probed(&mut trainer);
        let task = TaskRecord::of(&mut trainer, self.written);
        let run = Run {
            task,
            config: trainer.config.clone(),
            init: self.init,
            last,
            loss: self.loss,
            diverged_at: trainer.diverged_at,
            histogram,
            init_histogram: self.init_histogram,
            readout_unscaled_std: trainer.stack.readout_unscaled_std(),
        };
        (run, trainer)
    }
}

/// What the readout reads, from the stack's last pass (the probe's), on the fixed axis.
fn readout_histogram(trainer: &Trainer<f32>) -> Histogram {
    histogram(trainer.stack.readout_input().as_slice(), HISTOGRAM_BINS, HISTOGRAM_RANGE)
}
