//! The induction task: a random string of random length, a separator, and the string again
//! from a random symbol of it on. The loss counts the repeat from its second symbol on, where
//! the current symbol stands once in the string: there every answer is determined by the
//! prompt, the symbol that followed the current one in the string. It stands a varying
//! distance back (the string's length less where the repeat began), so no head looking at a
//! fixed offset finds it, as one does on the copy task. A position must first learn which
//! symbol came before it (one attention layer), then find the earlier position whose previous
//! symbol is its own, and copy what stands there (a second attention layer). Examples are
//! padded in front, so each fills its sequence.
//!
//! Why not the whole string, of distinct symbols, repeated: then one attention layer learned it
//! to 76–94% (`studies/induction.toml`, seeds 1–3) by a shortcut. The answer was the
//! string's first symbol not yet repeated, which one layer finds by counting each symbol in
//! for the string and out for the repeat. Begun at a random symbol, 64% were still learned so;
//! with symbols that may recur, 39–62%, against 97–100% for two layers.

use ablation_core::model::batch::Tokens;
use ablation_core::model::rng::Rng;
use std::ops::RangeInclusive;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InductionTask {
    /// The symbols a string draws from (ids `0..symbols`); the separator is id `symbols`, the
    /// padding `symbols + 1`.
    pub symbols: usize,
    /// Positions per example, at least 5.
    pub context: usize,
}

impl InductionTask {
    /// The vocabulary: the symbols, the separator and the padding.
    pub fn vocab(&self) -> usize {
        self.symbols + 2
    }

    fn separator(&self) -> u32 {
        self.symbols as u32
    }

    fn pad(&self) -> u32 {
        self.symbols as u32 + 1
    }

    /// The strings' lengths: from a quarter of the context (at least 2) to as long as fits
    /// twice with the separator.
    pub fn lengths(&self) -> RangeInclusive<usize> {
        let longest = self.context / 2;
        (self.context / 4).clamp(2, longest)..=longest
    }

    /// Chance on the scored positions: every symbol equally likely, `ln symbols` nats.
    pub fn chance(&self) -> f64 {
        libm::log(self.symbols as f64)
    }

    /// Appends the next example from `rng` to `out`: `context` inputs, their next tokens, and
    /// which of them the loss counts. `scratch` is reused from example to example: the string,
    /// then the whole sequence after it.
    pub fn example(&self, rng: &mut Rng, out: &mut Tokens, scratch: &mut Vec<u32>) {
        let lengths = self.lengths();
        let n = lengths.start() + (rng.next_u64() % (lengths.end() - lengths.start() + 1) as u64) as usize;
        scratch.clear();
        scratch.extend((0..n).map(|_| (rng.next_u64() % self.symbols as u64) as u32));
        // the repeat begins at symbol r, leaving at least two: its first given, one scored
        let r = (rng.next_u64() % (n - 1) as u64) as usize;
        let pad = self.context + 1 - (2 * n + 1 - r);
        scratch.resize(n + pad, self.pad());
        scratch.extend_from_within(..n);
        scratch.push(self.separator());
        scratch.extend_from_within(r..n);
        let (string, sequence) = scratch.split_at(n);
        let c = self.context;
        out.ids.extend_from_slice(&sequence[..c]);
        out.next.extend_from_slice(&sequence[1..=c]);
        // the repeat's first symbol (predicted at the separator) is not counted: from there on
        let first_scored = pad + n + 1; // the input position of the repeat's first symbol
                                        // only where the current symbol stands once in the string: there the answer is determined
        let once = |s: u32| string.iter().filter(|&&x| x == s).count() == 1;
        out.scored.extend((0..c).map(|t| t >= first_scored && once(sequence[t])));
    }

    /// A symbol, the separator or the padding as a character: `0`–`9`, `a`–`z`, then `|` and `·`.
    pub fn char_of(&self, id: u32) -> char {
        if id == self.separator() {
            '|'
        } else if id == self.pad() {
            '·'
        } else {
            char::from_digit(id, 36).unwrap_or('?')
        }
    }
}
