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

/// The `n` powers nearest 0 (the settings' own rate) within `range`, a tie to the lower, in
/// order: a run of consecutive powers, widened one step at a time from the one nearest 0.
pub fn first_powers(range: (i32, i32), n: usize) -> Vec<i32> {
    let start = range.0.max(0).min(range.1);
    let (mut lo, mut hi) = (start, start);
    while ((hi - lo + 1) as usize) < n && (lo > range.0 || hi < range.1) {
        if lo > range.0 && (hi == range.1 || lo.unsigned_abs() <= hi.unsigned_abs()) {
            lo -= 1;
        } else {
            hi += 1;
        }
    }
    (lo..=hi).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_powers_are_the_nearest_to_the_settings_rate_by_definition() {
        for a in -8..=8 {
            for b in a..=8 {
                for n in 1..=7 {
                    // by definition: every power in the range by distance to 0, a tie to the lower
                    let mut all: Vec<i32> = (a..=b).collect();
                    all.sort_by_key(|k| (k.abs(), *k));
                    all.truncate(n);
                    all.sort();
                    assert_eq!(first_powers((a, b), n), all, "range {a}..={b}, {n} powers");
                }
            }
        }
    }

    #[test]
    fn rounds_keep_about_one_at_the_end() {
        assert_eq!(planned_rounds(1, 3, 4), 1);
        assert_eq!(planned_rounds(5, 3, 4), 3);
        assert_eq!(planned_rounds(9, 3, 4), 3);
        assert_eq!(planned_rounds(50, 3, 4), 4);
    }
}
