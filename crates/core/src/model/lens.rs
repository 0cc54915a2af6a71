//! A lens on the trained stack: what each layer would predict if it were the last (the "logit
//! lens": the model's own readout applied to `x_ℓ`), how much each layer changes the stream,
//! and where each attention head looks.
//!
//! All three read the stack's last forward pass; none changes a weight or draws a random number.

use crate::model::batch::{Batch, Tokens};
use crate::model::real::Real;
use crate::model::stack::{Stack, Target};
use crate::model::stats::sum8;
use crate::model::sublayer::Sublayer;
use std::ops::Range;

impl<F: Real> Stack<F> {
    /// The loss the model's readout gets when it reads `x_ℓ` instead of `x_L`, for ℓ = 0..=L,
    /// into `out` (L + 1 numbers), on `batch`, whose forward must be the stack's last pass (its
    /// stream is read). ℓ = L comes last, through the same `read_out` as every forward: its
    /// value is the pass's own loss to the bit, and the readout's buffers (the prediction,
    /// `LN_f(x_L)`) end as the forward left them.
    pub fn readout_losses(&mut self, batch: &Batch<F>, out: &mut [f64]) {
        assert_eq!(out.len(), self.layers.len() + 1, "one readout per depth 0..=L");
        let target = Target::of(batch);
        for (l, o) in out.iter_mut().enumerate() {
            *o = self.read_out(l, target);
        }
    }

    /// How much each layer changes the stream on the last pass: `‖x_{ℓ+1} − x_ℓ‖ / ‖x_ℓ‖`
    /// (Frobenius norms over the batch) for ℓ = 0..L. 0/0 (a stream of zeros left as it is) is
    /// 0; a change of a zero stream is ∞.
    pub fn update_ratios(&self) -> Vec<f64> {
        self.stream
            .windows(2)
            .map(|pair| {
                let (x, y) = (pair[0].as_slice(), pair[1].as_slice());
                let size = sum8(x, |v| v.f64() * v.f64()).sqrt();
                let change = difference_norm(x, y);
                if change == 0.0 {
                    0.0
                } else {
                    change / size
                }
            })
            .collect()
    }

    /// The sublayers that attend, by index.
    pub fn attention_layers(&self) -> Vec<usize> {
        (0..self.layers.len())
            .filter(|&l| matches!(self.layers[l].sublayer, Sublayer::Attention(_)))
            .collect()
    }

    /// Layer `layer`'s attention weights on sequence `b` of the last pass, every head's (C, C)
    /// rows one after another (`Attention::weights`); None if that layer does not attend.
    pub fn attention_weights(&self, layer: usize, b: usize) -> Option<Vec<f32>> {
        match &self.layers.get(layer)?.sublayer {
            Sublayer::Attention(a) => {
                let mut out = Vec::new();
                a.weights(b, &mut out);
                Some(out)
            }
            _ => None,
        }
    }
}

/// `‖x − y‖` in f64, summed as `sum8` sums (a fixed order, the same bits on every target).
fn difference_norm<F: Real>(x: &[F], y: &[F]) -> f64 {
    let mut acc = [0.0f64; 8];
    for (i, (&a, &b)) in x.iter().zip(y).enumerate() {
        let d = b.f64() - a.f64();
        acc[i % 8] += d * d;
    }
    crate::model::kernels::matmul::add_lanes(&acc).sqrt()
}

/// One attention sublayer's heads on one fixed sequence: what the Attention panel draws.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionMaps {
    /// The sublayer shown, and every sublayer that attends (the reader's choices).
    pub layer: usize,
    pub layers: Vec<usize>,
    /// The sequence's tokens as characters, one per position.
    pub tokens: Vec<char>,
    /// The positions the loss counts (all on the text; the repeated half on copy).
    pub scored: Vec<bool>,
    pub heads: usize,
    /// The positions of the maps' rows (the queries) and of their columns (the keys): the whole
    /// sequence for a decoder-only stack; an encoder–decoder's source positions (its encoder),
    /// its target positions (its decoder's self-attention), or the target's rows and the
    /// source's columns (cross-attention).
    pub queries: Range<usize>,
    pub keys: Range<usize>,
    /// A row sees only the keys at or before its position (a causal self-attention).
    pub masked: bool,
    /// Where the symbol each position must write stands in the sequence, on copy and reverse
    /// (None elsewhere, and at the positions the loss does not count).
    pub answers: Vec<Option<usize>>,
    /// `heads` maps of `queries.len()` rows of `keys.len()` weights: row q is where the q-th
    /// query looks (`Attention::weights`).
    pub weights: Vec<f32>,
}

/// Where one head looks: the offset back (query − key) that gets the largest mean weight over
/// the scored rows, and that mean. A negative offset is ahead: only a head without the mask
/// can look there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Focus {
    pub offset: isize,
    pub share: f64,
}

impl AttentionMaps {
    /// Positions in the sequence.
    pub fn size(&self) -> usize {
        self.tokens.len()
    }

    /// Rows and columns of each head's map.
    pub fn shape(&self) -> (usize, usize) {
        (self.queries.len(), self.keys.len())
    }

    /// Cross-attention: rows of the target, columns of the source.
    pub fn is_cross(&self) -> bool {
        self.queries != self.keys
    }

    /// Head `h`'s weights, row by row.
    pub fn head(&self, h: usize) -> &[f32] {
        let (r, c) = self.shape();
        &self.weights[h * r * c..(h + 1) * r * c]
    }

    /// The weight head `h`'s query at position `q` puts on the key at position `k` (both in
    /// the sequence; 0 outside the map).
    pub fn weight(&self, h: usize, q: usize, k: usize) -> f32 {
        if !self.queries.contains(&q) || !self.keys.contains(&k) {
            return 0.0;
        }
        self.head(h)[(q - self.queries.start) * self.keys.len() + k - self.keys.start]
    }

    /// The scored rows' positions, or every row's if none is scored (an encoder's).
    fn rows(&self) -> Vec<usize> {
        let scored: Vec<usize> =
            self.queries.clone().filter(|&q| self.scored.get(q).copied().unwrap_or(true)).collect();
        if scored.is_empty() {
            self.queries.clone().collect()
        } else {
            scored
        }
    }

    /// Where head `h` looks: for every offset k, the mean over the scored rows q of the weight
    /// `P[q, q − k]` (0 when q − k is not a key), and the offset with the largest (the nearest
    /// on a tie).
    pub fn focus(&self, h: usize) -> Focus {
        let rows = self.rows();
        let mut best = Focus { offset: 0, share: f64::NEG_INFINITY };
        let c = self.size() as isize;
        // back first (0, 1, 2, …), then ahead (−1, −2, …): a tie goes to the nearer look back
        for k in (0..c).chain((1..c).map(|k| -k)) {
            let total: f64 = rows
                .iter()
                .filter_map(|&q| usize::try_from(q as isize - k).ok().map(|key| (q, key)))
                .map(|(q, key)| f64::from(self.weight(h, q, key)))
                .sum();
            let share = total / rows.len().max(1) as f64;
            if share > best.share {
                best = Focus { offset: k, share };
            }
        }
        best
    }

    /// The mean weight head `h` puts on the position of the symbol to write, over the rows that
    /// have one among the keys: a head that reads the answer has most of it. None without any.
    pub fn answer_share(&self, h: usize) -> Option<f64> {
        let shares: Vec<f64> = self
            .queries
            .clone()
            .filter_map(|q| self.answers.get(q).copied().flatten().map(|a| (q, a)))
            .filter(|(_, a)| self.keys.contains(a))
            .map(|(q, a)| f64::from(self.weight(h, q, a)))
            .collect();
        (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
    }
}

/// The attention sublayer nearest to `wanted` at or below it (else the first above): which
/// layer the panel shows when the reader names one that does not attend. None without attention.
pub fn attention_layer_near(layers: &[usize], wanted: usize) -> Option<usize> {
    layers.iter().rev().find(|&&l| l <= wanted).or_else(|| layers.first()).copied()
}

/// The first sequence of a token batch: its ids and which of its positions are scored.
pub fn first_sequence(tokens: &Tokens, context: usize) -> (&[u32], Vec<bool>) {
    let ids = &tokens.ids[..context.min(tokens.ids.len())];
    (ids, (0..ids.len()).map(|t| tokens.is_scored(t)).collect())
}
