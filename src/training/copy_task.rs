//! The copy task: a seeded random string of `length` symbols, a separator, then the same string
//! again. Only the repeated half is scored, and every answer there is determined by the prompt:
//! the symbol `length + 1` positions back. A sublayer that works on each position alone
//! (`mlp`, `ffn`) cannot look back, so it stays at chance, `ln symbols`; attention can.

use crate::model::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyTask {
    /// Distinct symbols in a string (ids `0..symbols`); the separator is id `symbols`.
    pub symbols: usize,
    /// Symbols in the string to copy.
    pub length: usize,
}

/// One example: `inputs[t]` and the next token `targets[t]` for each position, and whether the
/// loss counts that position (the repeated half).
#[derive(Clone, Debug, PartialEq)]
pub struct CopyExample {
    pub inputs: Vec<u32>,
    pub targets: Vec<u32>,
    pub scored: Vec<bool>,
}

impl CopyTask {
    /// The vocabulary: the symbols and the separator.
    pub fn vocab(&self) -> usize {
        self.symbols + 1
    }

    /// Positions per example: the string, the separator and the copy but its last symbol (which
    /// is only ever a target).
    pub fn context(&self) -> usize {
        2 * self.length
    }

    /// Chance on the scored positions: every symbol equally likely, `ln symbols` nats.
    pub fn chance(&self) -> f64 {
        libm::log(self.symbols as f64)
    }

    /// The next example from `rng`.
    pub fn example(&self, rng: &mut Rng) -> CopyExample {
        let string: Vec<u32> =
            (0..self.length).map(|_| (rng.next_u64() % self.symbols as u64) as u32).collect();
        let mut sequence = string.clone();
        sequence.push(self.symbols as u32);
        sequence.extend_from_slice(&string);
        let n = self.context();
        CopyExample {
            inputs: sequence[..n].to_vec(),
            targets: sequence[1..=n].to_vec(),
            // the target at the separator is the string's first symbol; from there on, the copy
            scored: (0..n).map(|t| t >= self.length).collect(),
        }
    }
}
