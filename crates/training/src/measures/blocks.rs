//! Gromov et al.'s unit of removal, a Transformer layer: one block of attention and FFN, two of
//! a block stack's sublayers (`2b` and `2b + 1`). For each count `n` of blocks, the `n`
//! consecutive blocks whose input `x_{2s}` and output `x_{2(s+n)}` are nearest in angular
//! distance are removed, the final block always kept, and the stack's held-out loss read without
//! them. The distance is averaged over `batches` batches of a stream of its own (the linear
//! probe's), so that the choice does not rest on one batch; the choice after 1, 2, 4, … of them
//! says from how many it stops changing. The layer knockout's own "Gromov's block of k" removes
//! sublayers and chooses on the probe batch alone, as the page does; this measure is the CLI's.

use crate::measures::similarity::angular_distance;
use crate::step::train::Trainer;
use crate::tasks::task::Batches;
use ablation_core::config::{StackKind, SublayerKind};
use ablation_core::model::real::Real;
use ablation_core::model::rng::Stream;

/// Blocks `start .. start + n` removed: their choice and what the stack loses without them.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRemoval {
    pub n: usize,
    pub start: usize,
    /// The mean angular distance between the removed run's input and output.
    pub distance: f64,
    /// The held-out loss with those blocks' sublayers knocked out.
    pub held_out_loss: f64,
}

/// Every count's removal, the intact held-out loss, and the start chosen for each count after
/// each number of batches `(batches counted, [start for n = 1, 2, …])`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockKnockout {
    pub batches: usize,
    pub intact: f64,
    pub removals: Vec<BlockRemoval>,
    pub choices: Vec<(usize, Vec<usize>)>,
}

/// The sublayers of blocks `start .. start + n`.
pub fn sublayers_of(start: usize, n: usize) -> Vec<usize> {
    (2 * start..2 * (start + n)).collect()
}

/// For each count n = 1 .. B − 1 of a stack of `blocks` blocks, the start whose mean distance
/// in `sums` (indexed `[n − 1][start]`) is least, the earlier start on a tie.
pub fn nearest(sums: &[Vec<f64>]) -> Vec<usize> {
    sums.iter()
        .map(|row| (0..row.len()).fold(0, |best, s| if row[s] < row[best] { s } else { best }))
        .collect()
}

/// Gromov et al.'s block removal on `trainer`'s trained stack (a decoder-only stack of blocks,
/// as the text and copy tasks' are), the distances averaged over `batches` batches.
pub fn block_knockout<F: Real>(trainer: &mut Trainer<F>, batches: usize) -> Result<BlockKnockout, String> {
    let config = trainer.config.clone();
    if config.sublayer != SublayerKind::Block
        || config.stack != StackKind::Decoder
        || !config.depth.is_multiple_of(2)
    {
        return Err("Gromov's unit is a block of attention and FFN: a decoder-only stack of blocks".into());
    }
    let blocks = config.depth / 2;
    if blocks < 2 {
        return Err("the final block is kept, so a stack needs two blocks".into());
    }
    // sums[n − 1][s]: the summed distance between x_{2s} and x_{2(s+n)}, s + n ≤ B − 1
    let mut sums: Vec<Vec<f64>> = (1..blocks).map(|n| vec![0.0; blocks - n]).collect();
    let mut choices = Vec::new();
    let mut data = Batches::<F>::from_stream(&config, Stream::LinearProbe);
    let mut batch = Batches::empty(&config);
    for counted in 1..=batches {
        data.next(&mut batch);
        trainer.stack.forward_batch(&batch);
        let stream = &trainer.stack.stream;
        for (i, row) in sums.iter_mut().enumerate() {
            for (s, sum) in row.iter_mut().enumerate() {
                *sum += angular_distance(&stream[2 * s], &stream[2 * (s + i + 1)]);
            }
        }
        if counted.is_power_of_two() || counted == batches {
            choices.push((counted, nearest(&sums)));
        }
    }
    let intact = trainer.held_out_loss_skipping(&[]);
    let chosen = nearest(&sums);
    let removals = chosen
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let n = i + 1;
            let held_out_loss = trainer.held_out_loss_skipping(&sublayers_of(start, n));
            BlockRemoval { n, start, distance: sums[i][start] / batches.max(1) as f64, held_out_loss }
        })
        .collect();
    trainer.probe_forward_skipping(&[]); // the panels read the probe's pass
    Ok(BlockKnockout { batches, intact, removals, choices })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_its_two_sublayers() {
        assert_eq!(sublayers_of(0, 1), vec![0, 1]);
        assert_eq!(sublayers_of(2, 3), vec![4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn the_nearest_start_is_the_least_distance_the_earlier_on_a_tie() {
        let sums = vec![vec![0.3, 0.1, 0.2], vec![0.5, 0.5]];
        assert_eq!(nearest(&sums), vec![1, 0]);
    }
}
