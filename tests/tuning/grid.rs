//! The grid: widened until the best is inside it, its record audited, ties, the limits.

use super::{search, tuned};
use ablation_playground::comparisons::tuner::grid::rate_at;
use ablation_playground::comparisons::tuner::{Tuner, TIE};
use ablation_playground::config::{tuning, Config};
use ablation_playground::training::runs::tuned::Limit;
use std::collections::BTreeSet;

#[test]
fn a_best_rate_beyond_the_first_grid_widens_it_until_the_best_is_inside() {
    // the best rate is five steps of the grid (half decades) below the settings' rate, whose
    // first grid reaches two steps down; the loss a bowl in log rate
    let table = tuning(Config::default().task);
    let best = rate_at(0.01, &table, -5);
    assert!((best / (0.01 / 10f64.powf(2.5)) - 1.0).abs() < 1e-12);
    let bowl = |lr: f64, _| 1.0 + (lr / best).ln().powi(2);
    let mut tuner = Tuner::new(&tuned(0.01), 300);
    let first: BTreeSet<u64> = tuner.requests().iter().map(|t| t.config.learning_rate.to_bits()).collect();
    assert_eq!(first.len(), 5, "five rates at first");
    let mut tuner = Tuner::new(&tuned(0.01), 300);
    let trained = search(&mut tuner, bowl);
    let t = tuner.tuned();
    let (chosen, _, _) = t.chosen.unwrap();
    assert!((chosen / best - 1.0).abs() < 1e-12, "chose {chosen}, the best is {best}; tried {:?}", t.lrs);
    assert!(t.bracketed && t.limit.is_none(), "{t:?}");
    // both neighbours of the chosen rate trained the full run
    for n in [rate_at(0.01, &table, -6), rate_at(0.01, &table, -4)] {
        assert!(
            trained.iter().any(|&(lr, until)| (lr / n - 1.0).abs() < 1e-12 && until == 300),
            "the neighbour {n} did not train the full run: {trained:?}"
        );
    }
    assert!(t.lrs.iter().any(|&lr| lr < best), "the grid widened past the best: {:?}", t.lrs);
    assert_eq!(tuner.chosen().unwrap().learning_rate, chosen, "the arm's runs train at the chosen rate");
}

/// What the record alone says (the report's `tuning.candidates`): every candidate with its
/// score at every round, so that a reader can audit the choice. Checked against the search's
/// own verdict: the chosen setting scores lowest at the last round (or within `TIE` of it), and
/// "bracketed" is exactly "both neighbours on the grid trained the full run and scored no better".
#[test]
fn the_record_holds_every_candidates_score_so_that_the_choice_can_be_audited() {
    let table = tuning(Config::default().task);
    for (best_step, steps) in [(-5, 300), (0, 300), (3, 90)] {
        let best = rate_at(0.01, &table, best_step);
        let mut tuner = Tuner::new(&tuned(0.01), steps);
        let trained = search(&mut tuner, |lr, _| 1.0 + (lr / best).ln().powi(2));
        let t = tuner.tuned();
        let last = t.planned_rounds - 1;
        assert_eq!(
            t.candidates.len(),
            trained.iter().map(|x| x.0.to_bits()).collect::<BTreeSet<_>>().len(),
            "{t:?}"
        );
        assert!(t.candidates.iter().all(|c| c.scores.len() == t.planned_rounds), "{t:?}");
        let full: Vec<(f64, f64)> =
            t.candidates.iter().filter_map(|c| Some((c.lr, c.scores[last]?))).collect();
        let (chosen, _, _) = t.chosen.unwrap();
        let chosen_score =
            full.iter().find(|c| c.0 == chosen).map(|c| c.1).expect("the chosen trained the full run");
        let lowest = full.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        assert!(
            chosen_score <= lowest * (1.0 + TIE),
            "chose {chosen} at {chosen_score}, the lowest {lowest}: {full:?}"
        );
        // the grid's neighbours of the chosen rate, read from the record
        let mut rates: Vec<f64> = t.lrs.clone();
        rates.sort_by(f64::total_cmp);
        let at = rates.iter().position(|&r| r == chosen).unwrap();
        let neighbour_ok = |i: Option<usize>| {
            i.and_then(|i| rates.get(i))
                .and_then(|&r| full.iter().find(|c| c.0 == r))
                .is_some_and(|c| c.1 >= chosen_score)
        };
        let audited = neighbour_ok(at.checked_sub(1)) && neighbour_ok(Some(at + 1));
        assert_eq!(
            audited, t.bracketed,
            "the record says bracketed {audited}, the search {}: {t:?}",
            t.bracketed
        );
        // a bowl has one lowest score: no tie kept another
        assert_eq!(t.tie, None, "{t:?}");
    }
}

/// A stack that learns nothing ends at the same loss at every rate, up to noise: the search
/// keeps the settings' rate among rates as good (within `TIE`) and does not walk down the flat
/// stretch a full run per step.
#[test]
fn a_flat_stretch_of_rates_is_a_tie_not_a_walk() {
    let mut tuner = Tuner::new(&tuned(0.01), 900);
    // 3.2 everywhere, a hair lower (0.01%) at each lower rate
    let trained = search(&mut tuner, |lr, _| 3.2 * (1.0 + 1e-4 * lr.log10()));
    let full: BTreeSet<u64> = trained.iter().filter(|t| t.1 == 900).map(|t| t.0.to_bits()).collect();
    // the top third and the settings' rate with its two neighbours go on; nothing is widened
    assert!(full.len() <= 4, "{trained:?}");
    let lowest = trained.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
    assert!((lowest / 0.001 - 1.0).abs() < 1e-12, "the grid was not widened: {trained:?}");
    let t = tuner.tuned();
    assert_eq!((t.chosen.unwrap().0, t.bracketed), (0.01, true), "{t:?}");
    // the record says the tie kept the settings' rate over a lower score, and which
    let tie = t.tie.clone().expect("a lower rate scored lower: the record names it");
    let score = |lr: f64| 3.2 * (1.0 + 1e-4 * lr.log10());
    assert!(tie.lr < 0.01 && tie.score == score(tie.lr) && tie.chosen_score == score(0.01), "{tie:?}");
    assert!(tie.score < tie.chosen_score && tie.chosen_score <= tie.score * (1.0 + TIE), "{tie:?}");
    let lowest =
        t.candidates.iter().filter_map(|c| c.scores[t.planned_rounds - 1]).fold(f64::INFINITY, f64::min);
    assert_eq!(tie.score, lowest, "the lowest of the last round: {t:?}");
}

#[test]
fn an_arm_whose_best_is_the_tables_limit_is_said_to_be_at_it_not_bracketed() {
    // the higher the better, forever: the search climbs to the table's highest rate
    let mut tuner = Tuner::new(&tuned(0.01), 90);
    search(&mut tuner, |lr, _| 1.0 / lr);
    let t = tuner.tuned();
    let (chosen, _, _) = t.chosen.unwrap();
    let max = tuning(Config::default().task).lr_max;
    assert!(
        chosen <= max && chosen * tuning(Config::default().task).lr_step > max,
        "chose {chosen}, the limit is {max}"
    );
    assert_eq!((t.bracketed, t.limit), (false, Some(Limit::Highest)), "{t:?}");
    // and the lower limit
    let mut tuner = Tuner::new(&tuned(0.01), 90);
    search(&mut tuner, |lr, _| lr);
    let t = tuner.tuned();
    assert_eq!((t.bracketed, t.limit), (false, Some(Limit::Lowest)), "{t:?}");
    assert!(t.chosen.unwrap().0 >= tuning(Config::default().task).lr_min);
}
