//! Where a run's batches come from, per task: the teacher's random features and targets, the
//! text's windows, or the copy task's examples. Every step's batch comes from the seeded data
//! stream; the fixed probe batch, which the panels and the held-out loss read, from its own
//! stream, and for the text from the held-out end of the text.

use crate::config::{Config, TaskKind, COPY_SYMBOLS};
use crate::model::batch::{Batch, Tokens};
use crate::model::real::Real;
use crate::model::rng::{Rng, Stream};
use crate::model::stack::outputs;
use crate::training::copy_task::CopyTask;
use crate::training::corpus::{the_text, Corpus, Floors};
use crate::training::data::DataStream;
use nalgebra::DMatrix;

/// Positions a sequence task's held-out loss is measured on (at least).
pub const EVAL_POSITIONS: usize = 2048;

pub enum Batches<F: Real> {
    Teacher(DataStream<F>),
    Text { rng: Rng, context: usize, sequences: usize },
    Copy { rng: Rng, task: CopyTask, sequences: usize },
}

/// What a loss is read against: the text's unigram and bigram entropies, or the copy task's chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TaskFloors {
    Text(Floors),
    Copy { chance: f64 },
}

/// The copy task of `config`.
pub fn copy_task(config: &Config) -> CopyTask {
    CopyTask { symbols: COPY_SYMBOLS, context: config.sequence() }
}

/// The floors of `config`'s task (none for the teacher).
pub fn floors(config: &Config) -> Option<TaskFloors> {
    match config.task {
        TaskKind::Teacher => None,
        TaskKind::Text => Some(TaskFloors::Text(the_text().floors())),
        TaskKind::Copy => Some(TaskFloors::Copy { chance: copy_task(config).chance() }),
    }
}

impl<F: Real> Batches<F> {
    pub fn new(config: &Config) -> Self {
        let rng = Rng::new(config.seed, Stream::Data);
        let (context, sequences) = (config.sequence(), config.sequences());
        match config.task {
            TaskKind::Teacher => {
                Batches::Teacher(DataStream::new(config.seed, config.width, outputs(config)))
            }
            TaskKind::Text => Batches::Text { rng, context, sequences },
            TaskKind::Copy => Batches::Copy { rng, task: copy_task(config), sequences },
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
        match (self, batch) {
            (Batches::Teacher(data), Batch::Values { x, y }) => data.next_batch(x, y),
            (Batches::Text { rng, context, sequences }, Batch::Tokens(tokens)) => {
                *tokens = Corpus::batch(the_text().train(), *context, *sequences, rng);
            }
            (Batches::Copy { rng, task, sequences }, Batch::Tokens(tokens)) => {
                *tokens = task.batch(*sequences, rng);
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
        let batch = |rng: &mut Rng| match self {
            Batches::Teacher(_) => None,
            Batches::Text { context, sequences, .. } => {
                Some(Batch::Tokens(Corpus::batch(the_text().held_out(), *context, *sequences, rng)))
            }
            Batches::Copy { task, sequences, .. } => Some(Batch::Tokens(task.batch(*sequences, rng))),
        };
        (0..batches).map_while(|_| batch(&mut rng)).collect()
    }

    /// The fixed probe batch: the same at every step and every reload. For the text, windows of
    /// the held-out part; for the copy task, examples from a stream no training batch draws.
    pub fn probe(&self, config: &Config) -> Batch<F> {
        let mut rng = Rng::new(config.seed, Stream::Probe);
        match self {
            Batches::Teacher(data) => {
                let (x, y) = data.probe(config.tokens);
                Batch::Values { x, y }
            }
            Batches::Text { context, sequences, .. } => {
                Batch::Tokens(Corpus::batch(the_text().held_out(), *context, *sequences, &mut rng))
            }
            Batches::Copy { task, sequences, .. } => Batch::Tokens(task.batch(*sequences, &mut rng)),
        }
    }
}
