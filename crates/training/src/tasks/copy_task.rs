//! The copy task: a seeded random string of symbols, a separator, then the same string again.
//! Only the repeated half is scored, and every answer there is determined by the prompt: the
//! symbol `length` positions back. A sublayer that works on each position alone (`mlp`, `ffn`)
//! cannot look back, so it stays at chance, `ln symbols`; attention can.
//!
//! The reverse task is the same with the string written back reversed: the symbol to write
//! at the copy's i-th position is the string's i-th from the end, at an offset that changes
//! from position to position. Its first half (the source) is what an encoder–decoder's
//! encoder reads, its second (the separator and the target) what its decoder reads.

use ablation_core::model::batch::Tokens;
use ablation_core::model::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyTask {
    /// Distinct symbols in a string (ids `0..symbols`); the separator is id `symbols`.
    pub symbols: usize,
    /// Positions per example, at least 2: the string (`context / 2` symbols), the separator and
    /// the copy but its last symbol, which is only ever a target. An odd context starts with one
    /// more separator.
    pub context: usize,
    /// The copy is the string reversed (the reverse task).
    pub reversed: bool,
}

impl CopyTask {
    /// The vocabulary: the symbols and the separator.
    pub fn vocab(&self) -> usize {
        self.symbols + 1
    }

    /// Symbols in the string to copy.
    pub fn length(&self) -> usize {
        self.context / 2
    }

    /// Chance on the scored positions: every symbol equally likely, `ln symbols` nats.
    pub fn chance(&self) -> f64 {
        libm::log(self.symbols as f64)
    }

    /// Appends the next example from `rng` to `out`: `context` inputs, their next tokens, and
    /// which of them the loss counts. `sequence` is scratch, reused from example to example.
    pub fn example(&self, rng: &mut Rng, out: &mut Tokens, sequence: &mut Vec<u32>) {
        let (n, length, separator) = (self.context, self.length(), self.symbols as u32);
        sequence.clear();
        if n % 2 == 1 {
            sequence.push(separator);
        }
        let start = sequence.len();
        sequence.extend((0..length).map(|_| (rng.next_u64() % self.symbols as u64) as u32));
        let middle = sequence.len(); // the separator between the string and its copy
        sequence.push(separator);
        sequence.extend_from_within(start..middle);
        if self.reversed {
            sequence[middle + 1..].reverse();
        }
        out.ids.extend_from_slice(&sequence[..n]);
        out.next.extend_from_slice(&sequence[1..=n]);
        // the target at the separator is the string's first symbol; from there on, the copy
        out.scored.extend((0..n).map(|t| t >= middle));
    }

    /// Where, in an example, the symbol to write at position `p` stands (the string's symbol it
    /// copies), if the loss counts p.
    pub fn answer_position(&self, p: usize) -> Option<usize> {
        let (lead, n) = (self.context % 2, self.length());
        let middle = lead + n;
        let i = p.checked_sub(middle).filter(|_| p < self.context)?;
        Some(lead + if self.reversed { n - 1 - i } else { i })
    }

    /// A symbol or the separator as a character: the digits, then `|`.
    pub fn char_of(&self, id: u32) -> char {
        if id as usize == self.symbols {
            '|'
        } else {
            char::from_digit(id, 36).unwrap_or('?')
        }
    }
}
