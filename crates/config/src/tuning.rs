//! How a tuned comparison searches, task by task: the grid's start and limits, a recipe's
//! warmups and β₂s, successive halving's factor (`ablation_comparisons::tuner` runs the search).

use crate::TaskKind;

/// How a tuned comparison searches on one task (`ablation_comparisons::tuner`): where the rates' grid
/// starts and how far it may widen, the warmups and β₂s of a recipe's grid, and successive
/// halving's factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// The grid's rates are the settings' rate times `lr_step` to a whole power, where
    /// `lr_step` is `10^(1/lr_steps_per_decade)`…
    pub lr_step: f64,
    pub lr_steps_per_decade: u32,
    /// …`lr_points` of them around it at first (powers −2..=2 for five)…
    pub lr_points: usize,
    /// …and widened on the side of the best while it is at an edge, within these limits.
    pub lr_min: f64,
    pub lr_max: f64,
    /// A recipe's warmups (those that end before the run's scored tail) and β₂s, every one tried
    /// in the first round.
    pub warmups: &'static [usize],
    pub beta2s: &'static [f64],
    /// Each round of successive halving keeps the best `1/eta` of its candidates (and the
    /// best's neighbours on the rates' grid) and trains them `eta` times as long…
    pub eta: usize,
    /// …in at most this many rounds, the last the full run.
    pub max_rounds: usize,
}

/// The search of a tuned comparison on `task`. Half decades between rates (1e-3, 3.2e-3,
/// 1e-2: the usual sweep's step), so that five span two decades: on the text the arms' best
/// rates lie two decades apart (3e-4 with the norm alone, 1e-2 with both on), and a factor-2
/// grid widened at full runs there cost a fifth more than the grid it replaced (BENCHMARKS.md);
/// the best of it is within 10^¼ ≈ 1.8 of the best rate. The limits are the rates at which Adam trains any
/// of these stacks at all: below 1e-5 nothing moves in a comparison's few thousand steps, and a
/// sequence task's logits blow up above 1 (the regression's table allows up to 10).
pub fn tuning(task: TaskKind) -> Tuning {
    let sequence = Tuning {
        lr_step: 3.162_277_660_168_379_5, // √10
        lr_steps_per_decade: 2,
        lr_points: 5,
        lr_min: 1e-5,
        lr_max: 1.0,
        // the original Transformer's recipe is 4000 warmup steps with β₂ = 0.98
        warmups: &[0, 100, 300, 1000, 3000],
        beta2s: &[0.98, 0.999],
        eta: 3,
        max_rounds: 4,
    };
    match task {
        TaskKind::Teacher => Tuning { lr_max: 10.0, ..sequence },
        TaskKind::Text | TaskKind::Copy | TaskKind::Induction | TaskKind::Reverse => sequence,
    }
}
