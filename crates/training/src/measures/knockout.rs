//! The layer knockout: on a trained stack, layers knocked out, their branches zeroed
//! (`x_{ℓ+1} = x_ℓ`, post-norm `LN(x_ℓ)`), measuring the loss and how far the top of the stream moves. Five
//! studies, each a list of forward passes with some layers skipped:
//!
//! - each layer alone, in turn (lesson 001: "removing one from a trained model often degrades
//!   output only mildly");
//! - the upper k layers together, for every k (Gromov et al. 2024 remove whole blocks of the
//!   upper layers of trained LLMs with little loss);
//! - k layers chosen at random, `DRAWS` draws for each k of `random_counts` (Veit et al. 2016
//!   remove several layers of a residual network at random);
//! - by Gromov et al.'s own protocol: the final layer and the readout kept, the k layers just
//!   below the final one (`below_top_k`), and the block of k consecutive layers whose input and
//!   output are nearest in angular distance (`gromov`, `gromov_blocks`), for every k < L.
//!
//! A layer is knocked out by zeroing its branch (`Layer::forward_knocked_out`): post-norm keeps
//! the norm its stream passes through, so that every placement loses the same thing, the
//! branch's update. The knockout measures the stack as it is; `heal` adds Gromov et al.'s short
//! fine-tune of the pruned stack (`ablate --heal-steps`).
//!
//! Each removal is measured on the fixed probe batch (its `loss`, what the knockout always
//! reported) and, on a sequence task, on the held-out set too: its loss and the copy tasks'
//! share of symbols copied right (one probe batch of the text has a spread of about ±0.12 nats
//! between windows, as large as the gap between the floors).

use crate::measures::similarity::angular_distance;
use crate::runs::spread::median;
use crate::step::train::Trainer;
use crate::tasks::task::{floors, TaskFloors};
use ablation_core::config::{Config, TaskKind};
use ablation_core::model::batch::Batch;
use ablation_core::model::loss::accuracy;
use ablation_core::model::param::Params;
use ablation_core::model::real::Real;
use ablation_core::model::rng::{Rng, Stream};
use ablation_core::model::stats::frobenius;
use nalgebra::DMatrix;

/// Random draws of each count of layers removed.
pub const DRAWS: usize = 5;

/// What a stack measures with some layers knocked out (NaN where nothing was measured: the
/// held-out numbers on the regression, the accuracy on the text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Removal {
    /// The probe batch's loss.
    pub loss: f64,
    /// The held-out set's loss, and the share of its scored symbols predicted right.
    pub val_loss: f64,
    pub accuracy: f64,
}

impl Removal {
    pub const NONE: Removal = Removal { loss: f64::NAN, val_loss: f64::NAN, accuracy: f64::NAN };

    /// Each number's median over `removals` (draws, or seeds' stacks).
    pub fn median<'a>(removals: impl Iterator<Item = &'a Removal>) -> Removal {
        Self::median_of(&removals.collect::<Vec<_>>())
    }

    /// `median` of a list (compiled once, whatever the callers' iterators).
    fn median_of(removals: &[&Removal]) -> Removal {
        let of = |f: fn(&Removal) -> f64| median(&removals.iter().map(|r| f(r)).collect::<Vec<_>>());
        Removal { loss: of(|r| r.loss), val_loss: of(|r| r.val_loss), accuracy: of(|r| r.accuracy) }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Knockout {
    /// Probe loss of the intact stack.
    pub intact_loss: f64,
    /// Probe loss with layer ℓ knocked out, for ℓ = 0..L (so far).
    pub loss: Vec<f64>,
    /// `‖x_L' − x_L‖ / ‖x_L‖` with layer ℓ knocked out: how far the output moved, relative
    /// to its size.
    pub output_change: Vec<f64>,
    /// The intact stack, measured as every removal is (its `loss` is `intact_loss`).
    pub intact: Removal,
    /// Layer ℓ knocked out, for ℓ = 0..L (so far); `each[ℓ].loss` is `loss[ℓ]`.
    pub each: Vec<Removal>,
    /// The upper k layers knocked out together, for k = 1, 2, … (so far; `top_k[k − 1]`).
    pub top_k: Vec<Removal>,
    /// k layers chosen at random, for k in `random_counts(L)` (so far): each k's draws.
    pub random_k: Vec<(usize, Vec<Removal>)>,
    /// The k layers just below the final one knocked out together (the final layer kept), for
    /// k = 1 … L − 1 (so far; `below_top_k[k − 1]`).
    pub below_top_k: Vec<Removal>,
    /// Gromov's block for k = 1 … L − 1 (so far): the first of its k layers, the angular
    /// distance between its input and output on the intact stack, and its removal.
    pub gromov: Vec<(usize, f64, Removal)>,
    /// The text's bigram line, which a removal's loss on the text is judged against (none on
    /// the other tasks): measured where the stack was, since the page's thread has no text.
    pub bigram: Option<f64>,
}

impl Knockout {
    /// Removals measured so far: each layer, the upper k and the random draws.
    pub fn measured(&self) -> usize {
        let random: usize = self.random_k.iter().map(|(_, draws)| draws.len()).sum();
        self.each.len() + self.top_k.len() + random + self.below_top_k.len() + self.gromov.len()
    }

    /// A knockout with nothing measured yet.
    pub fn empty() -> Knockout {
        Knockout {
            intact_loss: f64::NAN,
            loss: Vec::new(),
            output_change: Vec::new(),
            intact: Removal::NONE,
            each: Vec::new(),
            top_k: Vec::new(),
            random_k: Vec::new(),
            below_top_k: Vec::new(),
            gromov: Vec::new(),
            bigram: None,
        }
    }
}

/// Gromov's choice for every block size k = 1 … L − 1 of a stack whose streams are `x_0 … x_L`
/// (`streams`, L + 1 of them): among the blocks of layers `ℓ … ℓ + k − 1` that keep the final
/// layer (`ℓ + k ≤ L − 1`), the one whose input `x_ℓ` and output `x_{ℓ+k}` are nearest in
/// angular distance (the lowest ℓ on a tie). Each: (ℓ, the distance).
pub fn gromov_blocks<F: Real>(streams: &[DMatrix<F>]) -> Vec<(usize, f64)> {
    let depth = streams.len().saturating_sub(1);
    (1..depth)
        .map(|k| {
            let mut best = (0, f64::INFINITY);
            for start in 0..depth - k {
                let d = angular_distance(&streams[start], &streams[start + k]);
                if d < best.1 {
                    best = (start, d);
                }
            }
            best
        })
        .collect()
}

/// How many layers are removed at random: 1, 2, 3, 4, 6, 8, 12, … (about two counts per
/// doubling), fewer than the stack's `depth` (all of them at once is `top_k`'s last).
pub fn random_counts(depth: usize) -> Vec<usize> {
    let mut counts = Vec::new();
    let mut k = 1;
    while k < depth {
        counts.push(k);
        // 1, 2, 3, 4, then 1.5× and 2× each power of two
        k = if k < 4 {
            k + 1
        } else if k.is_power_of_two() {
            k / 2 * 3
        } else {
            k / 3 * 4
        };
    }
    counts
}

/// `‖changed − intact‖ / ‖intact‖` (Frobenius norms, summed in f64).
pub fn relative_change<F: Real>(changed: &DMatrix<F>, intact: &DMatrix<F>) -> f64 {
    let difference: f64 = changed.iter().zip(intact.iter()).map(|(&a, &b)| (a.f64() - b.f64()).powi(2)).sum();
    difference.sqrt() / frobenius(intact.as_slice())
}

/// `k` distinct layers of `depth`, drawn from `rng` (a partial Fisher–Yates shuffle), in
/// increasing order.
pub fn draw_layers(rng: &mut Rng, depth: usize, k: usize) -> Vec<usize> {
    let mut layers: Vec<usize> = (0..depth).collect();
    for i in 0..k.min(depth) {
        let j = i + ((rng.uniform() * (depth - i) as f64) as usize).min(depth - i - 1);
        layers.swap(i, j);
    }
    let mut drawn = layers[..k.min(depth)].to_vec();
    ablation_core::order::sort_by_key(&mut drawn, |&layer| layer);
    drawn
}

/// `trainer`'s stack with the layers `skipped` knocked out: the probe loss (the probe's pass
/// is left in the stream) and, on a sequence task, the held-out loss and accuracy.
fn measure(trainer: &mut Trainer<f32>, skipped: &[usize]) -> Removal {
    let (mut val_loss, mut right) = (f64::NAN, f64::NAN);
    if trainer.config.task != TaskKind::Teacher {
        let (copies, mut loss, mut hits) = (trainer.config.task.copies(), 0.0, 0.0);
        let batches = trainer.held_out().len();
        for b in 0..batches {
            let (stack, batch) = trainer.stack_and_held_out(b);
            loss += stack.forward_skipping(batch, skipped);
            if let (true, Batch::Tokens(t)) = (copies, batch) {
                hits += accuracy(stack.prediction(), &t.next, &t.scored);
            }
        }
        let n = batches.max(1) as f64;
        val_loss = loss / n;
        right = if copies { hits / n } else { f64::NAN };
    }
    let loss = trainer.probe_forward_skipping(skipped);
    Removal { loss, val_loss, accuracy: right }
}

/// A knockout that goes forward a few removals at a time (each is a forward pass on the probe
/// batch, and on a sequence task one over the held-out set), so that a worker can run it in
/// small slices at depth 96. Every call must get the same trainer, untrained in between.
pub struct KnockoutInProgress {
    result: Knockout,
    intact_top: DMatrix<f32>, // (T, d) x_L of the intact stack
    depth: usize,
    /// Where the random draws come from (the seed's own stream: the same layers every time).
    rng: Rng,
    counts: Vec<usize>,
    /// Gromov's block for each k (`gromov_blocks` of the intact probe pass).
    blocks: Vec<(usize, f64)>,
}

impl KnockoutInProgress {
    /// Measures the intact stack.
    pub fn new(trainer: &mut Trainer<f32>) -> KnockoutInProgress {
        let intact = measure(trainer, &[]);
        let depth = trainer.stack.layers.len();
        let blocks = gromov_blocks(&trainer.stack.stream[..=depth]);
        KnockoutInProgress {
            result: Knockout {
                intact_loss: intact.loss,
                intact,
                loss: Vec::with_capacity(depth),
                output_change: Vec::with_capacity(depth),
                each: Vec::with_capacity(depth),
                top_k: Vec::with_capacity(depth),
                random_k: Vec::new(),
                below_top_k: Vec::with_capacity(depth),
                gromov: Vec::with_capacity(depth),
                bigram: match floors(&trainer.config) {
                    Some(TaskFloors::Text(f)) => Some(f.bigram),
                    _ => None,
                },
            },
            intact_top: trainer.stack.output().clone(),
            depth,
            rng: Rng::new(trainer.config.seed, Stream::Knockout),
            counts: random_counts(depth),
            blocks,
        }
    }

    /// Removals in all: each layer, the top k for every k, the random draws, then the k below
    /// the final layer and Gromov's block for every k < L.
    fn total(&self) -> usize {
        2 * self.depth + DRAWS * self.counts.len() + 2 * self.blocks.len()
    }

    /// Measures up to `max_removals` more removals and says whether every one is done. The
    /// last call leaves the intact stack's probe activations in the stream, as they were
    /// before the knockout.
    pub fn advance(&mut self, trainer: &mut Trainer<f32>, max_removals: usize) -> bool {
        assert_eq!(trainer.stack.layers.len(), self.depth, "the knockout's own trainer");
        let (start, total) = (self.result.measured(), self.total());
        let end = start.saturating_add(max_removals).min(total);
        for _ in start..end {
            self.measure_next(trainer);
        }
        if start < end && end == total {
            trainer.probe_forward_skipping(&[]); // what the panels read is the intact stack's
        }
        self.is_done()
    }

    /// The next removal, in order: layer 0, 1, …; the top 1, 2, … layers; then each count's draws.
    fn measure_next(&mut self, trainer: &mut Trainer<f32>) {
        let (depth, r) = (self.depth, &mut self.result);
        if r.each.len() < depth {
            let removal = measure(trainer, &[r.each.len()]);
            r.loss.push(removal.loss);
            r.output_change.push(relative_change(trainer.stack.output(), &self.intact_top));
            r.each.push(removal);
        } else if r.top_k.len() < depth {
            let k = r.top_k.len() + 1;
            let upper: Vec<usize> = (depth - k..depth).collect();
            r.top_k.push(measure(trainer, &upper));
        } else if r.random_k.iter().map(|(_, draws)| draws.len()).sum::<usize>() < DRAWS * self.counts.len() {
            let done = r.random_k.last().is_some_and(|(_, draws)| draws.len() == DRAWS);
            if r.random_k.is_empty() || done {
                r.random_k.push((self.counts[r.random_k.len()], Vec::with_capacity(DRAWS)));
            }
            let (k, draws) = r.random_k.last_mut().expect("pushed");
            let layers = draw_layers(&mut self.rng, depth, *k);
            draws.push(measure(trainer, &layers));
        } else if r.below_top_k.len() < self.blocks.len() {
            let k = r.below_top_k.len() + 1;
            let below: Vec<usize> = (depth - 1 - k..depth - 1).collect();
            r.below_top_k.push(measure(trainer, &below));
        } else {
            let (start, distance) = self.blocks[r.gromov.len()];
            let k = r.gromov.len() + 1;
            let block: Vec<usize> = (start..start + k).collect();
            r.gromov.push((start, distance, measure(trainer, &block)));
        }
    }

    pub fn is_done(&self) -> bool {
        self.result.measured() == self.total()
    }

    /// The measurements so far.
    pub fn result(&self) -> &Knockout {
        &self.result
    }

    pub fn into_result(self) -> Knockout {
        self.result
    }
}

/// Gromov et al.'s healing: each of Gromov's blocks (one per k < L) removed from the trained
/// stack, the stack then trained `steps` more updates with the block's branches held at zero,
/// and measured; beside it the intact stack trained the same `steps` more, the fair baseline
/// (a healed stack has had more training than the one it is compared with otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct Healing {
    pub steps: usize,
    /// The intact stack after `steps` more updates.
    pub intact: Removal,
    /// For k = 1 … L − 1: Gromov's block's first layer and the healed stack without it.
    pub gromov: Vec<(usize, Removal)>,
    /// The control: a fresh stack of the same configuration and seed trained `steps` updates
    /// from its initialisation at the rate the healing trains at, the run's full rate from the
    /// first update (no warmup: the healing's updates come after it): what the healing's
    /// updates buy without the kept layers.
    pub scratch: Removal,
}

/// `Healing` of `trainer`'s stack: each continuation resumes from the trained stack's own
/// checkpoint (its weights, Adam's moments, the data's place and the schedule's step: the run
/// goes on as it would have) in a trainer of its own, so `trainer` itself does not change.
/// Gromov et al. heal with a QLoRA fine-tune at a rate of their choosing; here every weight
/// left is trained, at the run's own rate and schedule.
pub fn heal(trainer: &mut Trainer<f32>, steps: usize) -> Result<Healing, String> {
    if trainer.diverged_at.is_some() {
        return Err("the run diverged: there is no trained stack to heal".into());
    }
    let depth = trainer.stack.layers.len();
    trainer.probe_forward_skipping(&[]);
    let blocks = gromov_blocks(&trainer.stack.stream[..=depth]);
    let mut at = None;
    trainer.checkpoint(&mut at);
    let at = at.expect("a checkpoint was just taken");
    let mut twin = Trainer::<f32>::new(&trainer.config);
    let mut continued = |block: &[usize]| {
        twin.resume(&at);
        let zero = |t: &mut Trainer<f32>| {
            for &l in block {
                t.stack.layers[l].sublayer.visit(&mut |p| p.value.fill(0.0));
            }
        };
        zero(&mut twin);
        for _ in 0..steps {
            if twin.diverged_at.is_some() {
                break; // measured as it is: not finite
            }
            twin.replay_step();
            zero(&mut twin); // the update moved the removed branch; it stays removed
        }
        measure(&mut twin, block)
    };
    let intact = continued(&[]);
    let gromov = blocks
        .iter()
        .enumerate()
        .map(|(i, &(start, _))| (start, continued(&(start..start + i + 1).collect::<Vec<_>>())))
        .collect();
    let mut fresh = Trainer::<f32>::new(&Config { warmup_steps: 0, ..trainer.config.clone() });
    for _ in 0..steps {
        if fresh.diverged_at.is_some() {
            break; // measured as it is: not finite
        }
        fresh.replay_step();
    }
    let scratch = measure(&mut fresh, &[]);
    trainer.probe_forward_skipping(&[]);
    Ok(Healing { steps, intact, gromov, scratch })
}

/// Every layer of `trainer`'s stack knocked out in turn, the top k and k at random.
pub fn knockout(trainer: &mut Trainer<f32>) -> Knockout {
    let mut progress = KnockoutInProgress::new(trainer);
    progress.advance(trainer, usize::MAX);
    progress.into_result()
}
