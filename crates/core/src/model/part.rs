//! An encoder–decoder on one stream: each sequence's source positions are the encoder's rows,
//! its target positions the decoder's. A layer of either works on its own rows alone, gathered
//! out of the stream (`Rows::gather`), and passes the others through unchanged; its backward
//! passes their gradient through as unchanged. So `x_ℓ` stays one (T, d) matrix at every depth
//! (the panels, the lens, the knockout read it as they read a decoder's), the encoder's layers
//! leave the target's embeddings as they are, and the decoder's leave the encoder's last output
//! in the source rows, where its cross-attention reads it (`stack.rs`).

use crate::model::real::Real;
use nalgebra::DMatrix;
use std::ops::Range;

/// The rows `positions` of every sequence of `context` positions in a (T, d) matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    pub context: usize,
    pub positions: Range<usize>,
}

impl Rows {
    /// The rows `config`'s sublayers of `part` work on.
    pub fn of(config: &crate::config::Config, part: crate::config::Part) -> Rows {
        Rows { context: config.sequence(), positions: config.part_positions(part) }
    }

    /// Copies the rows out of `m` (T, d) into `out`, (sequences × positions, d), sequence by
    /// sequence.
    pub fn gather<F: Real>(&self, m: &DMatrix<F>, out: &mut DMatrix<F>) {
        let (t, n) = (m.nrows(), self.positions.len());
        let (rows, src) = (out.nrows(), m.as_slice());
        for (j, col) in out.as_mut_slice().chunks_exact_mut(rows).enumerate() {
            for (b, part) in col.chunks_exact_mut(n).enumerate() {
                let start = j * t + b * self.context + self.positions.start;
                part.copy_from_slice(&src[start..start + n]);
            }
        }
    }

    /// Writes `part` (as `gather` makes it) into the rows of `m`.
    pub fn scatter<F: Real>(&self, part: &DMatrix<F>, m: &mut DMatrix<F>) {
        let (t, n) = (m.nrows(), self.positions.len());
        let (rows, dst) = (part.nrows(), m.as_mut_slice());
        for (j, col) in part.as_slice().chunks_exact(rows).enumerate() {
            for (b, run) in col.chunks_exact(n).enumerate() {
                let start = j * t + b * self.context + self.positions.start;
                dst[start..start + n].copy_from_slice(run);
            }
        }
    }

    /// Adds `part` (as `gather` makes it) into the rows of `m`.
    pub fn scatter_add<F: Real>(&self, part: &DMatrix<F>, m: &mut DMatrix<F>) {
        let (t, n) = (m.nrows(), self.positions.len());
        let (rows, dst) = (part.nrows(), m.as_mut_slice());
        for (j, col) in part.as_slice().chunks_exact(rows).enumerate() {
            for (b, run) in col.chunks_exact(n).enumerate() {
                let start = j * t + b * self.context + self.positions.start;
                for (o, &v) in dst[start..start + n].iter_mut().zip(run) {
                    *o += v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_then_scatter_moves_exactly_the_rows() {
        // 3 sequences of 4 positions, 2 columns; the rows are positions 2..4 of each
        let m = DMatrix::<f32>::from_fn(12, 2, |i, j| (i + 100 * j) as f32);
        let rows = Rows { context: 4, positions: 2..4 };
        let mut part = DMatrix::zeros(6, 2);
        rows.gather(&m, &mut part);
        assert_eq!(part.column(0).iter().copied().collect::<Vec<_>>(), [2.0, 3.0, 6.0, 7.0, 10.0, 11.0]);
        assert_eq!(part[(5, 1)], 111.0);
        let mut back = DMatrix::zeros(12, 2);
        rows.scatter(&part, &mut back);
        for i in 0..12 {
            let want = if i % 4 >= 2 { m[(i, 1)] } else { 0.0 };
            assert_eq!(back[(i, 1)], want, "row {i}");
        }
        rows.scatter_add(&part, &mut back);
        assert_eq!(back[(3, 0)], 6.0);
        assert_eq!(back[(4, 0)], 0.0);
    }
}
