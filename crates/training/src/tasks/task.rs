//! Where a run's batches come from, per task: the teacher's random features and targets, the
//! text's windows, or the copy task's examples. Every step's batch comes from the seeded data
//! stream; the fixed probe batch, which the panels and the held-out loss read, from its own
//! stream, and for the text from the held-out end of the text.

use crate::tasks::copy_task::CopyTask;
use crate::tasks::corpus::{text_of, Corpus, Floors};
use crate::tasks::data::DataStream;
use crate::tasks::induction_task::InductionTask;
use ablation_core::config::{Config, TaskKind, COPY_SYMBOLS, INDUCTION_SYMBOLS};
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::real::Real;
use ablation_core::model::rng::{Rng, Stream};
use ablation_core::model::stack::outputs;
use nalgebra::DMatrix;
use std::sync::Arc;

/// Positions a sequence task's held-out loss is measured on (at least).
pub const EVAL_POSITIONS: usize = 2048;

#[derive(Clone)]
pub struct Batches<F: Real> {
    /// The training batches' stream (the teacher's `DataStream` keeps its own).
    rng: Rng,
    source: Source<F>,
    /// An example's scratch, kept from batch to batch: a step allocates nothing.
    scratch: Vec<u32>,
}

#[derive(Clone)]
enum Source<F: Real> {
    Teacher(DataStream<F>),
    Text { corpus: Arc<Corpus>, context: usize, sequences: usize },
    Symbols { task: SymbolTask, sequences: usize },
}

impl<F: Real> Source<F> {
    /// A sequence task's batch from `rng`: windows of the text's training or held-out part, or
    /// copy examples (whose held-out ones differ by their stream alone). None for the teacher.
    fn tokens(&self, held_out: bool, rng: &mut Rng) -> Option<Tokens> {
        match self {
            Source::Teacher(_) => None,
            Source::Text { corpus: text, context, sequences } => {
                let part = if held_out { text.held_out() } else { text.train() };
                Some(Corpus::batch(part, *context, *sequences, rng))
            }
            Source::Symbols { task, sequences } => Some(task.batch(*sequences, rng)),
        }
    }

    /// `tokens`, into `out`'s buffers (`scratch` an example's); false for the teacher.
    fn fill(&self, held_out: bool, rng: &mut Rng, out: &mut Tokens, scratch: &mut Vec<u32>) -> bool {
        match self {
            Source::Teacher(_) => return false,
            Source::Text { corpus: text, context, sequences } => {
                let part = if held_out { text.held_out() } else { text.train() };
                Corpus::fill(part, *context, *sequences, rng, out);
            }
            Source::Symbols { task, sequences } => task.fill(*sequences, rng, out, scratch),
        }
        true
    }
}

/// What a loss is read against: the text's unigram and bigram entropies, or the chance of a
/// task of symbols (copy, induction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TaskFloors {
    Text(Floors),
    Chance { chance: f64 },
}

/// The copy task of `config` (the reverse task's string written back reversed).
pub fn copy_task(config: &Config) -> CopyTask {
    CopyTask { symbols: COPY_SYMBOLS, context: config.sequence(), reversed: config.task == TaskKind::Reverse }
}

/// The induction task of `config`.
pub fn induction_task(config: &Config) -> InductionTask {
    InductionTask { symbols: INDUCTION_SYMBOLS, context: config.sequence() }
}

/// A task scored by the symbols the stack copies right: its examples, chance and characters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SymbolTask {
    Copy(CopyTask),
    Induction(InductionTask),
}

impl SymbolTask {
    /// A batch of `count` examples.
    pub fn batch(&self, count: usize, rng: &mut Rng) -> Tokens {
        let mut out = Tokens::default();
        self.fill(count, rng, &mut out, &mut Vec::new());
        out
    }

    /// `out` becomes a batch of `count` examples, in the buffers it has (`scratch` an
    /// example's, reused from one to the next).
    pub fn fill(&self, count: usize, rng: &mut Rng, out: &mut Tokens, scratch: &mut Vec<u32>) {
        out.clear();
        for _ in 0..count {
            match self {
                SymbolTask::Copy(t) => t.example(rng, out, scratch),
                SymbolTask::Induction(t) => t.example(rng, out, scratch),
            }
        }
    }

    /// Chance on the scored positions, in nats.
    pub fn chance(&self) -> f64 {
        match self {
            SymbolTask::Copy(t) => t.chance(),
            SymbolTask::Induction(t) => t.chance(),
        }
    }

    /// A token as a character.
    pub fn char_of(&self, id: u32) -> char {
        match self {
            SymbolTask::Copy(t) => t.char_of(id),
            SymbolTask::Induction(t) => t.char_of(id),
        }
    }
}

/// `config`'s task of symbols, if it is one.
pub fn symbol_task(config: &Config) -> Option<SymbolTask> {
    match config.task {
        TaskKind::Copy | TaskKind::Reverse => Some(SymbolTask::Copy(copy_task(config))),
        TaskKind::Induction => Some(SymbolTask::Induction(induction_task(config))),
        _ => None,
    }
}

/// The floors of `config`'s task (none for the teacher).
pub fn floors(config: &Config) -> Option<TaskFloors> {
    match config.task {
        TaskKind::Teacher => None,
        TaskKind::Text => Some(TaskFloors::Text(text_of(config).floors())),
        _ => symbol_task(config).map(|t| TaskFloors::Chance { chance: t.chance() }),
    }
}

impl<F: Real> Batches<F> {
    pub fn new(config: &Config) -> Self {
        Self::from_stream(config, Stream::Data)
    }

    /// `new`, its training batches drawn from `stream` instead of the run's own (`Stream::Data`).
    pub fn from_stream(config: &Config, stream: Stream) -> Self {
        let (context, sequences) = (config.sequence(), config.sequences());
        let source = match config.task {
            TaskKind::Teacher => Source::Teacher(DataStream::new(config.seed, config.width, outputs(config))),
            TaskKind::Text => Source::Text { corpus: text_of(config), context, sequences },
            TaskKind::Copy | TaskKind::Induction | TaskKind::Reverse => {
                Source::Symbols { task: symbol_task(config).expect("a task of symbols"), sequences }
            }
        };
        Batches { rng: Rng::new(config.seed, stream), source, scratch: Vec::new() }
    }

    /// Where the training batches' streams stand: the task's, and the teacher's own (0 for
    /// the other tasks). Everything else about the batches follows from the configuration.
    pub fn position(&self) -> [u64; 2] {
        let teacher = match &self.source {
            Source::Teacher(data) => data.position(),
            _ => 0,
        };
        [self.rng.position(), teacher]
    }

    /// Back to where `position` said the streams stood.
    pub fn set_position(&mut self, [own, teacher]: [u64; 2]) {
        self.rng = Rng::at(own);
        if let Source::Teacher(data) = &mut self.source {
            data.set_position(teacher);
        }
    }

    /// An empty batch of `config`'s shapes, for `next` to fill.
    pub fn empty(config: &Config) -> Batch<F> {
        match config.task {
            TaskKind::Teacher => Batch::Values {
                x: DMatrix::zeros(config.tokens, config.width),
                y: DMatrix::zeros(config.tokens, outputs(config)),
            },
            _ => Batch::Tokens(Tokens::default()),
        }
    }

    /// Overwrites `batch` with the next training batch.
    pub fn next(&mut self, batch: &mut Batch<F>) {
        match (&mut self.source, batch) {
            (Source::Teacher(data), Batch::Values { x, y }) => data.next_batch(x, y),
            (source, Batch::Tokens(tokens)) => {
                let filled = source.fill(false, &mut self.rng, tokens, &mut self.scratch);
                assert!(filled, "a sequence task's batch");
            }
            _ => unreachable!("a batch of the task's own kind"),
        }
    }

    /// A sequence task's fixed held-out set: at least `EVAL_POSITIONS` positions in batches of
    /// the training batch's shape, drawn once (for the text, from its held-out end), the same
    /// at every step and every reload. (The probe batch alone, 128 characters at the text's
    /// defaults, measured a loss with a spread of about ±0.12 nats between windows: as large as
    /// the gap between the floors.) None for the teacher.
    pub fn held_out(&self, config: &Config) -> Vec<Batch<F>> {
        let mut rng = Rng::new(config.seed, Stream::HeldOut);
        let batches = EVAL_POSITIONS.div_ceil(config.tokens);
        (0..batches).map_while(|_| self.source.tokens(true, &mut rng).map(Batch::Tokens)).collect()
    }

    /// The fixed probe batch: the same at every step and every reload. For the text, windows of
    /// the held-out part; for the copy task, examples from a stream no training batch draws.
    pub fn probe(&self, config: &Config) -> Batch<F> {
        let mut rng = Rng::new(config.seed, Stream::Probe);
        match &self.source {
            Source::Teacher(data) => {
                let (x, y) = data.probe(config.tokens);
                Batch::Values { x, y }
            }
            source => Batch::Tokens(source.tokens(true, &mut rng).expect("a sequence task's batch")),
        }
    }
}
