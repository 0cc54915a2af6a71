//! Depth or width: stacks of about the same parameter count, from deep and narrow to shallow
//! and wide, trained on the same task and settings. Each run reports its loss (and held-out
//! loss), its parameters, and two times on the machine that ran it: a training step, and a
//! character written (one forward pass of a one-sequence stack over the context, as writing
//! takes: depth's latency, since the layers run one after another). The time comes from a
//! clock the caller hands in, so the core reads none itself.

use crate::live::writing::twin_config;
use crate::runs::spread::learned;
use crate::step::report::RunInProgress;
use crate::step::train::Eval;
use ablation_core::config::{Config, TaskKind};
use ablation_core::model::layer::Layer;
use ablation_core::model::param::{Draw, Params};
use ablation_core::model::stack::Stack;

/// A clock in milliseconds (`performance.now()` in the browser, `Instant` natively).
pub type Clock = fn() -> f64;

/// Forward passes timed for the latency of one character: at least this many, and as many as
/// fit in `LATENCY_MS` (a browser's clock ticks in tenths of a millisecond, a pass at the text
/// defaults takes about one), but none begun after `LATENCY_MAX_MS`.
const LATENCY_PASSES: usize = 8;
const LATENCY_MS: f64 = 100.0;
const LATENCY_MAX_MS: f64 = 2000.0;
/// ...and never more than this many (a clock too coarse to see them).
const LATENCY_MAX_PASSES: usize = 4096;

/// The parameters of `config`'s stack: every weight, norm gain and bias, the readout and the
/// embeddings. Counted on a stack of one layer and one more layer, not on the whole stack: a
/// layer's count depends only on its index's parity (a block alternates attention and FFN),
/// and `ablation_comparisons::depth_width::shapes` asks for every depth of many widths (on the
/// page's thread, where whole stacks took most of a second).
pub fn parameters(config: &Config) -> usize {
    let counts = Counts::of(config);
    counts.fixed + counts.embedding + counts.layers(config.depth)
}

/// The parameters that are not embeddings, Kaplan et al.'s N: the layers and the final norm,
/// without the token and position embeddings and the readout (the unembedding). The budget
/// "depth or width" holds fixed: the embeddings grow with the width alone, and counting them
/// favours the deep and narrow stack (whose layers then get more of the budget).
pub fn non_embedding_parameters(config: &Config) -> usize {
    let counts = Counts::of(config);
    counts.fixed + counts.layers(config.depth)
}

/// One stack's parameters by part.
struct Counts {
    /// A layer at an even and at an odd index.
    even: usize,
    odd: usize,
    /// The final norm's.
    fixed: usize,
    /// The embeddings' and the readout's.
    embedding: usize,
}

impl Counts {
    fn of(config: &Config) -> Counts {
        fn count(params: &mut dyn Params<f32>) -> usize {
            let mut n = 0;
            params.visit(&mut |p| n += p.value.len());
            n
        }
        let one = Config { depth: 1, tokens: config.sequence(), context: 0, ..config.clone() };
        let layer = |index| count(&mut Layer::<f32>::with_draw(&one, index, &mut Draw::Zeros));
        let mut stack = Stack::<f32>::unweighted(&one);
        let embedding = count(&mut stack.readout) + stack.embedding.as_mut().map_or(0, |e| count(e));
        let fixed = stack.final_norm.as_mut().map_or(0, |n| count(n));
        Counts { even: layer(0), odd: layer(1), fixed, embedding }
    }

    fn layers(&self, depth: usize) -> usize {
        depth.div_ceil(2) * self.even + depth / 2 * self.odd
    }
}

/// One shape's run: what it measured (NaN where it has not yet).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeOutcome {
    pub config: Config,
    pub params: usize,
    /// The loss of each step's batch before its update, then after the last.
    pub loss: Vec<f64>,
    /// A sequence task's held-out measurements.
    pub evals: Vec<Eval>,
    pub diverged_at: Option<usize>,
    pub ms_per_step: f64,
    /// One forward pass of a one-sequence stack over the context (NaN on the regression).
    pub ms_per_char: f64,
    /// A sequence task's run learned it by its end (`spread::learned`); `None` on the
    /// regression or while in progress.
    pub learned: Option<bool>,
    /// The run had plateaued by its end (`spread::plateaued`); `None` while in progress.
    pub converged: Option<bool>,
}

impl ShapeOutcome {
    pub fn pending(config: &Config) -> ShapeOutcome {
        ShapeOutcome {
            config: config.clone(),
            params: parameters(config),
            loss: Vec::new(),
            evals: Vec::new(),
            diverged_at: None,
            ms_per_step: f64::NAN,
            ms_per_char: f64::NAN,
            learned: None,
            converged: None,
        }
    }

    /// The last loss (NaN until the run is done, or after a divergence).
    pub fn final_loss(&self) -> f64 {
        self.loss.last().copied().unwrap_or(f64::NAN)
    }

    /// The last held-out loss (NaN on the regression).
    pub fn val_loss(&self) -> f64 {
        self.evals.last().map_or(f64::NAN, |e| e.loss)
    }
}

/// A shape's run under way: training timed step by step, then the latency timed one forward
/// pass at a time (at depth 96 and a context of 256 one pass takes a third of a second).
pub struct ShapeRun {
    run: RunInProgress,
    clock: Clock,
    train_ms: f64,
    /// The one-sequence stack the latency is timed on, and the passes timed so far.
    twin: Option<(Stack<f32>, Vec<u32>)>,
    passes: Vec<f64>,
}

impl ShapeRun {
    pub fn new(config: &Config, steps: usize, clock: Clock) -> ShapeRun {
        ShapeRun {
            run: RunInProgress::new(config, steps).without_writing(),
            clock,
            train_ms: 0.0,
            twin: None,
            passes: Vec::new(),
        }
    }

    /// The latency is timed: never on the regression (it writes nothing); else after at least
    /// `LATENCY_PASSES` passes and `LATENCY_MS`, or once they took `LATENCY_MAX_MS`.
    fn latency_done(&self) -> bool {
        let spent: f64 = self.passes.iter().sum();
        self.run.config().task == TaskKind::Teacher
            || (self.passes.len() >= LATENCY_PASSES && spent >= LATENCY_MS)
            || spent > LATENCY_MAX_MS
            || self.passes.len() >= LATENCY_MAX_PASSES
            || spent.is_nan() // no clock
    }

    pub fn is_done(&self) -> bool {
        self.run.is_done() && self.latency_done()
    }

    /// Takes up to `max_steps` more steps, or once trained one more timed forward pass.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        if !self.run.is_done() {
            let t0 = (self.clock)();
            self.run.advance(max_steps);
            self.train_ms += (self.clock)() - t0;
        } else if !self.latency_done() {
            let (stack, ids) = self.twin.get_or_insert_with(|| {
                let twin = twin_config(self.run.config());
                let ids = vec![0; twin.tokens];
                (Stack::<f32>::new(&twin), ids)
            });
            let t0 = (self.clock)();
            stack.forward_ids(ids);
            self.passes.push((self.clock)() - t0);
        }
        self.is_done()
    }

    pub fn outcome(&self) -> ShapeOutcome {
        let steps = self.run.loss().len().saturating_sub(1).max(1);
        let timed = &self.passes;
        let last = self.run.evals().last();
        let learned =
            last.filter(|_| self.run.is_done()).and_then(|e| learned(self.run.config(), e.loss, e.accuracy));
        ShapeOutcome {
            learned,
            converged: self.run.is_done().then(|| self.run.converged()),
            config: self.run.config().clone(),
            params: parameters(self.run.config()),
            loss: self.run.loss().to_vec(),
            evals: self.run.evals().to_vec(),
            diverged_at: self.run.diverged_at(),
            ms_per_step: if self.run.loss().is_empty() { f64::NAN } else { self.train_ms / steps as f64 },
            ms_per_char: if timed.is_empty() || !self.latency_done() {
                f64::NAN
            } else {
                timed.iter().sum::<f64>() / timed.len() as f64
            },
        }
    }
}
