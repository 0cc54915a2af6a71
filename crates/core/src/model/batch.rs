//! What one pass of the stack reads: the teacher's features and targets, or a sequence task's
//! token ids, each position's next id and whether the loss counts that position.

use crate::model::real::Real;
use nalgebra::DMatrix;

#[derive(Clone)]
pub enum Batch<F: Real> {
    /// (T, d) features and their (T, d_out) targets.
    Values {
        x: DMatrix<F>,
        y: DMatrix<F>,
    },
    Tokens(Tokens),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tokens {
    /// (T) the inputs.
    pub ids: Vec<u32>,
    /// (T) the token after each input: what the stack predicts there.
    pub next: Vec<u32>,
    /// (T) whether the loss counts the position; empty counts them all.
    pub scored: Vec<bool>,
}

impl Tokens {
    /// Empty, keeping the buffers for the next batch.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.next.clear();
        self.scored.clear();
    }

    /// The positions the loss counts.
    pub fn is_scored(&self, t: usize) -> bool {
        self.scored.is_empty() || self.scored[t]
    }
}
