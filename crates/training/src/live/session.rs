//! One widget's live run: the trainer, the kept initial layers, the probe at initialisation and
//! now, the histogram's axis, the bounded loss history and the step limit. It knows nothing of
//! browsers or time: the worker (or the page, as a fallback) calls `train_step` as often as its
//! time slice allows and sends `frame()` to be drawn.

use crate::live::attention_view::attention_maps;
use crate::live::frame::{Frame, Shows};
use crate::live::loss_history::LossHistory;
use crate::live::writing::{copy_examples, write, Prompt, Sampling, Twin, Writing};
use crate::measures::initial_layers::{same_shapes, InitialLayers};
use crate::measures::per_matrix::{GradientAverage, MatrixGradients};
use crate::step::report::{Snapshot, HISTOGRAM_BINS, HISTOGRAM_RANGE};
use crate::step::train::{read_evals, write_evals, Checkpoint, Eval, Trainer};
use crate::tasks::task::floors;
use ablation_core::config::{Config, LayerView, TaskKind, MATRIX_BATCHES};
use ablation_core::model::lens::AttentionMaps;
use ablation_core::model::stack::Stack;
use ablation_core::model::stats::{histogram, Histogram, Range};
use ablation_core::wire::{Reader, Writer};

/// The first bytes of a run put aside (`Session::suspend`).
const SUSPENDED_MAGIC: u32 = u32::from_le_bytes(*b"APS1");

/// Held-out measurements a frame carries at most: evenly spaced, the last always among them.
pub const FRAME_EVALS: usize = 256;

pub struct Session {
    trainer: Trainer<f32>,
    initial: InitialLayers<f32>,
    init: Snapshot,
    /// The probe of the state the panels show, its histogram, and which state that is.
    now: Snapshot,
    shown: Histogram,
    /// What the readout read at initialisation (the probe's pass), and its histogram on the
    /// current axis.
    init_input: Vec<f32>,
    init_shown: Histogram,
    shows: Shows,
    /// Where the run diverged. The trainer then starts again from the seed and replays the
    /// run to the step before (`replay_to`), in slices (`recover`), so that the panels show the
    /// last finite state; its weights are then the ones a knockout measures and that write.
    diverged_at: Option<usize>,
    replay_to: Option<usize>,
    /// The held-out measurements of the run before it diverged, kept through the replay.
    kept_evals: Vec<Eval>,
    /// The histogram's axis: fixed while the reader drags, until they rescale.
    range: (f64, f64),
    history: LossHistory,
    /// The stack's activations are the probe's (no training step since the last probe).
    probed: bool,
    stop_at: usize,
    /// The page's desired state this session last answered (frames carry it).
    generation: u32,
    /// What the model wrote last, and the sampling stack (`writing::write`'s cache).
    writing: Option<Writing>,
    twin: Twin,
    /// A text sample being written, a few characters per call of `write_some`.
    sampling: Option<Sampling>,
    /// The reader's prompt, if they typed one: every sample continues it.
    prompt: Option<Prompt>,
    /// The chosen attention sublayer's heads on the probe's first sequence, from the last probe.
    attention: Option<AttentionMaps>,
    /// The lens at the last held-out measurement before a divergence, kept through the replay.
    kept_readout: Vec<f64>,
    /// The run every CHECKPOINT_EVERY steps (`Trainer::checkpoint`), so that the replay after a
    /// divergence starts from the last one, not from the seed: at most CHECKPOINT_EVERY steps,
    /// however late. Kept while it takes at most CHECKPOINT_MAX_BYTES.
    checkpoint: Option<Checkpoint<f32>>,
    /// The matrices' view's measure (`LayerView::Matrices`), a few batches per call of
    /// `measure_matrices`: begun when the view first asks for it, kept while the run is the same.
    matrices: Option<GradientAverage<f32>>,
    /// The weights a run loaded with `start_from` began with (the matrices' view measures them,
    /// not the seed's draw).
    started_from: Option<Vec<f32>>,
}

/// A run keeps a checkpoint every this many steps.
pub const CHECKPOINT_EVERY: usize = 1000;
/// ...of at most this size (the parameters and Adam's moments: up to about depth 48 at width
/// 128, or depth 96 at width 64; a larger run replays from the seed, as before).
const CHECKPOINT_MAX_BYTES: usize = 48 << 20;

fn default_range() -> (f64, f64) {
    match HISTOGRAM_RANGE {
        Range::Fixed(lo, hi) => (lo, hi),
        Range::Auto => (-4.0, 4.0),
    }
}

impl Session {
    pub fn new(config: &Config) -> Session {
        let mut initial = InitialLayers::default();
        let mut trainer = Trainer::with_stack(config, initial.stack(config));
        let init = Snapshot::take(&mut trainer);
        let range = default_range();
        let attention = attention_maps(&trainer, config.attention_layer);
        let init_input = trainer.stack.readout_input().as_slice().to_vec();
        Session {
            shown: stream_histogram(&trainer, range),
            init_shown: fixed_histogram(&init_input, range),
            init_input,
            shows: Shows::Now,
            diverged_at: None,
            replay_to: None,
            kept_evals: Vec::new(),
            trainer,
            initial,
            now: init.clone(),
            init,
            range,
            history: LossHistory::default(),
            probed: true,
            stop_at: config.steps,
            generation: 0,
            writing: None,
            twin: None,
            sampling: None,
            prompt: None,
            attention,
            kept_readout: Vec::new(),
            checkpoint: None,
            matrices: None,
            started_from: None,
        }
        .with_copy_examples()
    }

    fn with_copy_examples(mut self) -> Session {
        self.copy_examples();
        self
    }

    /// The same session, as restart number `generation`.
    pub fn with_generation(mut self, generation: u32) -> Session {
        self.generation = generation;
        self
    }

    /// Frames from now on answer the page's desired state number `generation`.
    pub fn set_generation(&mut self, generation: u32) {
        self.generation = generation;
    }

    /// Starts again from the seed with `config` (a new `generation`), keeping the axis and the
    /// initial layers. If only the step limit or the sampling temperature changed, the run goes
    /// on; returns whether it started again.
    pub fn restart(&mut self, config: &Config, generation: u32) -> bool {
        self.generation = generation;
        let old = &self.trainer.config;
        let same_run = *config != *old && Config { steps: old.steps, ..config.with_views_of(old) } == *old;
        if same_run {
            // only the step limit, the sampling or the attention panel's layer changed: the run goes on
            if config.steps != old.steps {
                self.stop_at = config.steps;
            }
            if config.temperature != old.temperature {
                self.writing = None;
                self.sampling = None;
            }
            if config.attention_layer != old.attention_layer {
                self.probed = false; // the next frame probes, and reads the newly chosen layer
            }
            self.trainer.config = Config { steps: config.steps, ..old.with_views_of(config) };
            return false;
        }
        if same_shapes(&self.trainer.config, config) {
            // a seed or gain change: new weights in the old run's buffers, nothing allocated
            self.trainer.restart(config, &mut self.initial);
        } else {
            // free the old run's layers, stream and moments first: the new ones take the same,
            // recently touched memory, and only one run's worth is ever held
            self.trainer.release();
            self.trainer = Trainer::with_stack(config, self.initial.stack(config));
        }
        self.begin_again();
        true
    }

    /// Starts the run again from `weights` (a weights file's, `Params::visit` order), which
    /// have had `earlier_updates` updates (the file's `step`), instead of the seed's draw, with
    /// a fresh optimiser and the seed's data stream from its first batch, at step 0: as
    /// `ablate --load-weights` does. An error, changing nothing, if they do not fit the stack.
    pub fn start_from(&mut self, weights: &[f32], earlier_updates: usize) -> Result<(), String> {
        let config = self.trainer.config.clone();
        let mut stack = Stack::unweighted(&config);
        stack.load_weights(weights)?;
        self.trainer.release();
        self.trainer = Trainer::with_stack(&config, stack);
        self.trainer.earlier_updates = earlier_updates;
        self.begin_again();
        self.started_from = Some(weights.to_vec());
        Ok(())
    }

    /// The measurements, histograms and history of a run beginning with the trainer as it is.
    fn begin_again(&mut self) {
        let config = &self.trainer.config.clone();
        self.init = Snapshot::take(&mut self.trainer);
        self.now = self.init.clone();
        self.init_input.clear();
        self.init_input.extend_from_slice(self.trainer.stack.readout_input().as_slice());
        self.redraw_histograms();
        self.attention = attention_maps(&self.trainer, config.attention_layer);
        self.kept_readout = Vec::new();
        self.shows = Shows::Now;
        self.diverged_at = None;
        self.replay_to = None;
        self.checkpoint = None;
        self.kept_evals = Vec::new();
        self.history = LossHistory::default();
        self.probed = true;
        self.stop_at = config.steps;
        self.writing = None;
        self.sampling = None;
        self.matrices = None;
        self.started_from = None;
        self.copy_examples();
    }

    /// The matrices' view asks for a measure not yet complete: `measure_matrices` has work.
    pub fn measuring(&self) -> bool {
        self.trainer.config.layer_view == LayerView::Matrices
            && !self.matrices.as_ref().is_some_and(|m| m.is_done())
    }

    /// Up to `batches` more batches of the matrices' view's measure, on a stack of its own at
    /// the run's initialisation (the run is not touched); returns whether more are left.
    pub fn measure_matrices(&mut self, batches: usize) -> bool {
        if self.trainer.config.layer_view != LayerView::Matrices {
            return false;
        }
        let (config, from) = (&self.trainer.config, &self.started_from);
        let average = self.matrices.get_or_insert_with(|| {
            let mut average = GradientAverage::new(config, MATRIX_BATCHES);
            if let Some(weights) = from {
                average.load_weights(weights).expect("the weights this run began with");
            }
            average
        });
        !average.advance(batches)
    }

    /// The matrices' view's measure so far: none before its first batch, and in another view.
    fn matrix_gradients(&self) -> Option<MatrixGradients> {
        if self.trainer.config.layer_view != LayerView::Matrices {
            return None;
        }
        MatrixGradients::of(self.matrices.as_ref()?)
    }

    /// Training can go on: not diverged and below the step limit.
    pub fn running(&self) -> bool {
        self.diverged_at.is_none() && self.trainer.step < self.stop_at
    }

    /// The step at which the run diverged, if it did.
    pub fn diverged_at(&self) -> Option<usize> {
        self.diverged_at
    }

    /// After a divergence, the replay to the last finite state is still under way.
    pub fn recovering(&self) -> bool {
        self.replay_to.is_some()
    }

    /// Replays up to `max_steps` more steps towards the last finite state after a divergence;
    /// once there, probes it, and the panels show it. Returns the steps replayed.
    pub fn recover(&mut self, max_steps: usize) -> usize {
        let Some(target) = self.replay_to else { return 0 };
        let mut steps = 0;
        while self.trainer.step < target && self.trainer.diverged_at.is_none() && steps < max_steps {
            self.trainer.replay_step();
            steps += 1;
        }
        if self.trainer.step >= target || self.trainer.diverged_at.is_some() {
            self.replay_to = None;
            self.trainer.evals = std::mem::take(&mut self.kept_evals);
            self.trainer.readout_loss = std::mem::take(&mut self.kept_readout);
            // measured as a run stopped here is measured (and as the CLI's figures show it)
            self.trainer.end_measurements_here();
            self.probed = false;
            self.measure();
            self.shows = Shows::LastFinite(self.trainer.step);
        }
        steps
    }

    /// Ends a replay under way at once (before anything reads the stack's weights).
    fn settle(&mut self) {
        self.recover(usize::MAX);
    }

    /// The run diverged at `at`: the trainer starts again from the seed, to be replayed to
    /// step `at - 1` (a divergence at step 0 shows the initial state).
    fn diverged(&mut self, at: usize) {
        self.diverged_at = Some(at);
        self.kept_evals = std::mem::take(&mut self.trainer.evals);
        self.kept_readout = std::mem::take(&mut self.trainer.readout_loss);
        // from the last checkpoint before it, else from the seed
        match self.checkpoint.as_ref().filter(|c| c.step() < at) {
            Some(c) => self.trainer.resume(c),
            None => {
                let config = self.trainer.config.clone();
                self.trainer.restart(&config, &mut self.initial);
            }
        }
        self.replay_to = Some(at.saturating_sub(1));
        self.shows = Shows::Finding;
    }

    /// The run put aside in bytes, for `resume` to go on from, bit for bit, in another worker
    /// (a widget scrolled away lets its worker go): the configuration, the step limit and the
    /// histogram's axis; the weights, Adam's state and the data streams' positions (a
    /// checkpoint); the held-out measurements, the lens and the loss history; where it
    /// diverged. Everything else is measured again from these. None while a replay after a
    /// divergence is under way.
    pub fn suspend(&mut self) -> Option<Vec<u8>> {
        if self.recovering() {
            return None;
        }
        let mut w = Writer(Vec::with_capacity(self.trainer.checkpoint_bytes() + 4096));
        w.u32(SUSPENDED_MAGIC);
        self.trainer.config.write(&mut w);
        w.u64(self.stop_at as u64);
        w.f64(self.range.0);
        w.f64(self.range.1);
        w.opt_usize(self.diverged_at);
        let mut checkpoint = None;
        self.trainer.checkpoint(&mut checkpoint);
        checkpoint.expect("just kept").write(&mut w);
        write_evals(&mut w, &self.trainer.evals);
        w.f64s(&self.trainer.readout_loss);
        self.history.write(&mut w);
        Some(w.0)
    }

    /// The run `suspend` put aside, going on as it would have (the same frames, the same next
    /// steps). Anything but `suspend`'s bytes is an error, never a panic.
    pub fn resume(bytes: &[u8]) -> Result<Session, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != SUSPENDED_MAGIC {
            return Err("not a run put aside".into());
        }
        let config = Config::read(&mut r)?;
        let stop_at = r.usize()?;
        let range = (r.f64()?, r.f64()?);
        let diverged_at = r.opt_usize()?;
        let checkpoint = Checkpoint::read(&mut r, &config)?;
        let evals = read_evals(&mut r)?;
        let readout_loss = r.f64s()?;
        let history = LossHistory::read(&mut r)?;
        if r.at != bytes.len() {
            return Err("a run put aside has bytes left over".into());
        }
        let axis = range.0.is_finite() && range.1.is_finite() && range.0 < range.1;
        if !axis || ![0, config.depth + 1].contains(&readout_loss.len()) {
            return Err("a run put aside does not agree with itself".into());
        }
        let mut session = Session::new(&config);
        session.trainer.resume_from(&checkpoint)?;
        session.trainer.evals = evals;
        session.trainer.readout_loss = readout_loss;
        session.history = history;
        session.stop_at = stop_at;
        session.range = range;
        session.redraw_histograms();
        if let Some(at) = diverged_at {
            // (put aside after the replay: the trainer holds the last finite state)
            session.diverged_at = Some(at);
            session.shows = Shows::LastFinite(session.trainer.step);
        }
        // the next frame probes the weights put aside
        session.probed = false;
        if session.trainer.checkpoint_bytes() <= CHECKPOINT_MAX_BYTES {
            session.checkpoint = Some(checkpoint);
        }
        Ok(session)
    }

    /// The configuration being trained.
    pub fn config(&self) -> &Config {
        &self.trainer.config
    }

    /// Training updates applied.
    pub fn step(&self) -> usize {
        self.trainer.step
    }

    /// The trainer, for measurements of the stack as trained so far (the knockout's weights).
    pub fn trainer(&mut self) -> &mut Trainer<f32> {
        self.settle();
        &mut self.trainer
    }

    /// One training step if the run is going on; returns whether one was taken.
    pub fn train_step(&mut self) -> bool {
        if !self.running() {
            return false;
        }
        let loss = self.trainer.one_step(true);
        self.after_step(loss);
        true
    }

    /// A split step shared with other workers, its first piece (`Trainer::begin_split_step`):
    /// false, doing nothing, if the run is not going on or its step is not split. The shards
    /// then run here (`trainer().shards()`) or elsewhere, and `finish_split_step` ends it: the
    /// bits of `train_step`.
    pub fn begin_split_step(&mut self) -> bool {
        self.running() && self.trainer.begin_split_step()
    }

    /// The split step begun, once every shard's result is in: the update and what
    /// `train_step` does after it.
    pub fn finish_split_step(&mut self) {
        let loss = self.trainer.finish_split_step();
        self.after_step(loss);
    }

    /// What a step's loss leaves behind: the history, a checkpoint when one is due, a
    /// divergence handled, the held-out loss where the run stops.
    fn after_step(&mut self, loss: f64) {
        self.history.push(loss);
        self.probed = false;
        let checkpoint_due =
            self.trainer.diverged_at.is_none() && self.trainer.step.is_multiple_of(CHECKPOINT_EVERY);
        if checkpoint_due && self.trainer.checkpoint_bytes() <= CHECKPOINT_MAX_BYTES {
            self.trainer.checkpoint(&mut self.checkpoint);
        }
        if let Some(at) = self.trainer.diverged_at {
            self.diverged(at);
        } else if !self.running() {
            // where a run stops, its held-out loss is measured, whatever the step
            self.trainer.evaluate();
        }
    }

    /// One training step even past the step limit (the Step button); not after a divergence.
    pub fn single_step(&mut self) -> bool {
        if self.trainer.step >= self.stop_at {
            self.stop_at = self.trainer.step + 1;
        }
        self.train_step()
    }

    /// Play on a finished run continues it for another `steps` steps (at least one).
    pub fn continue_run(&mut self) {
        if self.trainer.step >= self.stop_at {
            self.stop_at = self.trainer.step + self.trainer.config.steps.max(1);
        }
    }

    /// Fits the histogram's axis to the current activations; it then stays fixed again.
    pub fn rescale(&mut self) {
        self.settle();
        self.measure();
        let auto = histogram(self.trainer.stack.readout_input().as_slice(), HISTOGRAM_BINS, Range::Auto);
        let half = auto.lo.abs().max(auto.hi.abs()).max(1e-6);
        self.range = (-half, half);
        self.redraw_histograms();
    }

    /// Back to the default axis.
    pub fn reset_scale(&mut self) {
        self.settle();
        self.measure();
        self.range = default_range();
        self.redraw_histograms();
    }

    /// Probes the current weights if they changed since the last probe (and, on the copy
    /// task, reads the held-out examples the stack copies from the probe's pass).
    fn measure(&mut self) {
        if self.trainer.diverged_at.is_none() && !self.recovering() && !self.probed {
            self.now = Snapshot::take(&mut self.trainer);
            self.attention = attention_maps(&self.trainer, self.trainer.config.attention_layer);
            self.shown = self.histogram();
            self.probed = true;
            self.copy_examples();
        }
    }

    /// On the copy task, what the stack copies of the held-out examples, from the probe's
    /// pass that `Snapshot::take` just made.
    fn copy_examples(&mut self) {
        if self.trainer.config.task.copies() {
            self.writing = Some(copy_examples(&self.trainer));
        }
    }

    /// Lets the current weights write, at once (on the text task, 200 sampled characters:
    /// some training steps' work); frames carry it until the next.
    pub fn write(&mut self) {
        if self.trainer.diverged_at.is_none() && !self.recovering() && self.writing_is_stale() {
            self.sampling = None;
            self.writing = write(&mut self.trainer, &mut self.twin, self.prompt.as_ref());
        }
    }

    /// Writes up to `chars` more characters of a text sample, beginning one with the current
    /// weights if none is under way and what was written is stale; returns whether a sample
    /// is still under way (its weights are those of the step it began at). On the copy task
    /// the examples are written at once.
    pub fn write_some(&mut self, chars: usize) -> bool {
        if self.trainer.config.task != TaskKind::Text {
            self.write();
            return false;
        }
        if self.sampling.is_none() {
            if self.trainer.diverged_at.is_some() || self.recovering() || !self.writing_is_stale() {
                return false;
            }
            self.sampling = Some(Sampling::begin(&mut self.trainer, &mut self.twin, self.prompt.as_ref()));
        }
        let done = self.sampling.as_mut().expect("under way").advance(&mut self.twin, chars);
        if done.is_some() {
            self.writing = done;
            self.sampling = None;
        }
        self.sampling.is_some()
    }

    /// Every sample from now continues `prompt` (the text's own with None); the one written
    /// and any under way are dropped, so that the next `write_some` begins it at once.
    pub fn set_prompt(&mut self, prompt: Option<Prompt>) {
        if self.prompt != prompt {
            self.prompt = prompt;
            self.writing = None;
            self.sampling = None;
        }
    }

    /// Whether what the model wrote is older than its weights (or there is none yet).
    pub fn writing_is_stale(&self) -> bool {
        self.trainer.config.task != TaskKind::Teacher
            && self.writing.as_ref().is_none_or(|w| w.step != self.trainer.step)
    }

    fn histogram(&self) -> Histogram {
        stream_histogram(&self.trainer, self.range)
    }

    /// Now's histogram and the initialisation's, on the axis (after it changed).
    fn redraw_histograms(&mut self) {
        self.shown = self.histogram();
        self.init_shown = fixed_histogram(&self.init_input, self.range);
    }

    /// What the page shows now, measured on the probe batch.
    pub fn frame(&mut self) -> Frame {
        self.measure();
        Frame {
            generation: self.generation,
            config: self.trainer.config.clone(),
            step: self.diverged_at.unwrap_or(self.trainer.step),
            diverged_at: self.diverged_at,
            stop_at: self.stop_at,
            init: self.init.clone(),
            now: self.now.clone(),
            histogram: self.shown.clone(),
            init_histogram: self.init_shown.clone(),
            readout_unscaled_std: self.trainer.stack.readout_unscaled_std(),
            shows: self.shows,
            history: self.history.clone(),
            evals: thinned(
                if self.recovering() { &self.kept_evals } else { &self.trainer.evals },
                FRAME_EVALS,
            ),
            floors: floors(&self.trainer.config),
            // a reader's prompt's first sample shows as it is written (at depth 96 it takes seconds)
            writing: self
                .writing
                .clone()
                .or_else(|| self.sampling.as_ref().filter(|_| self.prompt.is_some()).map(Sampling::so_far)),
            attention: self.attention.clone(),
            matrices: self.matrix_gradients(),
        }
    }
}

/// What the readout reads, from the stack's last pass (the probe's), on the axis `lo..hi`.
fn stream_histogram(trainer: &Trainer<f32>, range: (f64, f64)) -> Histogram {
    fixed_histogram(trainer.stack.readout_input().as_slice(), range)
}

/// `values` on the axis `lo..hi`.
fn fixed_histogram(values: &[f32], (lo, hi): (f64, f64)) -> Histogram {
    histogram(values, HISTOGRAM_BINS, Range::Fixed(lo, hi))
}

/// At most `n` of `evals`, evenly spaced by index, the last always among them.
pub fn thinned(evals: &[Eval], n: usize) -> Vec<Eval> {
    let stride = evals.len().div_ceil(n.max(1)).max(1);
    let mut out: Vec<Eval> = evals.iter().rev().step_by(stride).copied().collect();
    out.reverse();
    out
}
