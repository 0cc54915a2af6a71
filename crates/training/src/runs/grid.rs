//! The search's grid and rounds (`tuner`): the rate at each power of the grid's step, how many
//! rounds of successive halving a first grid gets, and which warmups a round may judge.

use ablation_core::config::Tuning;

/// Whether a candidate with `warmup` is judged at a round that trains to update `until` of a
/// run of `steps`: its warmup's last update comes before the first loss the round's score
/// reads (`spread::tail_loss`: the last tenth of the losses kept, one per update, and at the
/// run's end the loss after the last).
pub fn judged(warmup: usize, until: usize, steps: usize) -> bool {
    let losses = if until >= steps { steps + 1 } else { until };
    warmup <= losses - losses.div_ceil(10)
}

/// The rate `lr · step^k`, where the table's step is `10^(1/steps_per_decade)`: whole decades
/// by multiplying or dividing by 10, then the remaining steps by the table's factor, one
/// IEEE operation at a time (never `powf`, whose last bit may differ between the native and the
/// wasm library): the same rate everywhere, and `lr · 10` exactly where a decade is whole.
pub fn rate_at(lr: f64, tuning: &Tuning, k: i32) -> f64 {
    let per = tuning.lr_steps_per_decade.max(1) as i32;
    let (decades, rest) = (k.div_euclid(per), k.rem_euclid(per));
    let mut rate = lr;
    for _ in 0..decades.unsigned_abs() {
        rate = if decades > 0 { rate * 10.0 } else { rate / 10.0 };
    }
    for _ in 0..rest {
        rate *= tuning.lr_step;
    }
    rate
}

/// Rounds of successive halving for `n` first candidates: enough that the last round keeps
/// about one (`1 + ⌈log_eta n⌉`), at most `max`.
pub fn planned_rounds(n: usize, eta: usize, max: usize) -> usize {
    let mut rounds = 1;
    let mut left = n;
    while left > 1 && rounds < max {
        left = left.div_ceil(eta);
        rounds += 1;
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_keep_about_one_at_the_end() {
        assert_eq!(planned_rounds(1, 3, 4), 1);
        assert_eq!(planned_rounds(5, 3, 4), 3);
        assert_eq!(planned_rounds(9, 3, 4), 3);
        assert_eq!(planned_rounds(50, 3, 4), 4);
    }
}
