//! The tuner (issue 52): a grid that widens until the best rate is inside it, an arm whose
//! best is at the table's limit said to be there, successive halving's survivors going on bit
//! for bit from their checkpoints, choosing seeds apart from the seeds shown, the plateau rule
//! on runs that plateau and runs that do not, and the CLI's contract.

use ablation_playground::comparisons::all_four::all_four_table;
use ablation_playground::comparisons::all_four_here;
use ablation_playground::config::{copy_defaults, tuning, Config, TuneGrid, Until};
use ablation_playground::training::runs::job::{run_job, Job, Report};
use ablation_playground::training::runs::outcome::Outcome;
use ablation_playground::training::runs::trial::{TrialEnd, TrialRun};
use ablation_playground::training::runs::tuned::Limit;
use ablation_playground::training::runs::tuner::{judged, rate_at, Tuner, TIE};
use ablation_playground::training::step::report::RunInProgress;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

/// Drives `tuner` to its choice with each trial scored by `loss(rate, until)` (the same on
/// every seed): the search's logic alone, no training. Returns every (rate, until) trained.
fn search(tuner: &mut Tuner, loss: impl Fn(f64, usize) -> f64) -> Vec<(f64, usize)> {
    let mut trained = Vec::new();
    for _ in 0..10_000 {
        let asked = tuner.requests();
        if asked.is_empty() {
            break;
        }
        for t in asked {
            trained.push((t.config.learning_rate, t.until));
            let tail = loss(t.config.learning_rate, t.until);
            tuner.record(t.setting, t.seed, t.round, TrialEnd { tail, resume: Vec::new() });
        }
    }
    assert!(tuner.done(), "the search ended without choosing");
    trained
}

fn tuned(lr: f64) -> Config {
    Config { tune: true, learning_rate: lr, seeds: 2, choose_seeds: 3, ..Config::default() }
}

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

/// Successive halving never judges a candidate mid-ramp: a long warmup that ends well but looks
/// worst while it warms up (as a warmup does: its rate is still small) goes on unjudged until a
/// round scores the stretch after its warmup, and is chosen; the record says how many each
/// round carried, and the grid holds only warmups that end before the full run's scored tail.
#[test]
fn a_warmup_is_never_judged_before_it_ends() {
    let config = Config { tune_grid: TuneGrid::Recipe, ..tuned(0.01) };
    let steps = 2000;
    let mut tuner = Tuner::new(&config, steps);
    assert_eq!(tuner.rungs, [75, 223, 667, 2000], "{:?}", tuner.rungs);
    let warmups: BTreeSet<usize> = tuner.requests().iter().map(|t| t.config.warmup_steps).collect();
    assert_eq!(
        warmups.into_iter().collect::<Vec<_>>(),
        [0, 100, 300, 1000],
        "3000 does not end before the tail"
    );
    let mut tuner = Tuner::new(&config, steps);
    // mid-ramp, a warmup scores badly (10); after it, warmup 1000 is best, then the shorter ones
    let loss = |lr: f64, warmup: usize, until: usize| {
        if !judged(warmup, until, steps) {
            10.0
        } else {
            1.0 + (lr / 0.01).ln().powi(2) + (warmup as f64 - 1000.0).abs() / 1000.0
        }
    };
    let mut asked_at: Vec<(usize, usize)> = Vec::new(); // (warmup, until)
    for _ in 0..1000 {
        let asked = tuner.requests();
        if asked.is_empty() {
            break;
        }
        for t in asked {
            asked_at.push((t.config.warmup_steps, t.until));
            let tail = loss(t.config.learning_rate, t.config.warmup_steps, t.until);
            tuner.record(t.setting, t.seed, t.round, TrialEnd { tail, resume: Vec::new() });
        }
    }
    let t = tuner.tuned();
    let (lr, warmup, _) = t.chosen.unwrap();
    assert_eq!((lr, warmup), (0.01, 1000), "{t:?}");
    // every setting still warming up at a round went on to the next one
    for c in &t.candidates {
        for (r, pair) in c.scores.windows(2).enumerate() {
            if pair[0].is_some() && !judged(c.warmup, t.rounds[r].steps, steps) {
                assert!(pair[1].is_some(), "{c:?} was dropped at round {r} while warming up");
            }
        }
    }
    let carried: Vec<usize> = t.rounds.iter().map(|r| r.carried).collect();
    let expected: Vec<usize> = t
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            t.candidates
                .iter()
                .filter(|c| {
                    c.scores[r].is_some() && r + 1 < t.rounds.len() && !judged(c.warmup, round.steps, steps)
                })
                .count()
        })
        .collect();
    assert_eq!(carried, expected, "each round's record counts the candidates it carried: {t:?}");
    assert!(carried[0] > 0 && carried[3] == 0, "{carried:?}");
    assert!(asked_at.iter().any(|&(w, u)| w == 1000 && u == 2000));
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

#[test]
fn successive_halving_judges_early_and_gives_the_full_run_to_few() {
    // three rounds for five rates: 1/9, 1/3 and the whole of 900 steps
    let mut tuner = Tuner::new(&tuned(0.01), 900);
    assert_eq!(tuner.rungs, [100, 300, 900]);
    let trained = search(&mut tuner, |lr, _| 1.0 + (lr / 0.01).ln().powi(2));
    let full: BTreeSet<u64> = trained.iter().filter(|t| t.1 == 900).map(|t| t.0.to_bits()).collect();
    assert_eq!(full.len(), 3, "the best and its two neighbours train the full run: {trained:?}");
    let t = tuner.tuned();
    assert_eq!(t.rounds.iter().map(|r| r.steps).collect::<Vec<_>>(), [100, 300, 900]);
    assert_eq!(t.rounds[0].candidates, 5);
    // off: every candidate trains the full run, in one round
    let mut full_grid = Tuner::new(&Config { halving: false, ..tuned(0.01) }, 900);
    assert_eq!(full_grid.rungs, [900]);
    search(&mut full_grid, |lr, _| 1.0 + (lr / 0.01).ln().powi(2));
    assert_eq!(full_grid.tuned().chosen, t.chosen);
}

#[test]
fn a_recipe_grid_tries_every_warmup_shorter_than_the_run_and_both_betas() {
    let config = Config { tune_grid: TuneGrid::Recipe, ..tuned(0.01) };
    let mut tuner = Tuner::new(&config, 500);
    let asked = tuner.requests();
    let warmups: BTreeSet<usize> = asked.iter().map(|t| t.config.warmup_steps).collect();
    let betas: BTreeSet<u64> = asked.iter().map(|t| t.config.beta2.to_bits()).collect();
    assert_eq!(
        warmups.into_iter().collect::<Vec<_>>(),
        [0, 100, 300],
        "3000 and 1000 are not shorter than 500"
    );
    assert_eq!(betas.len(), 2);
    assert_eq!(asked.len(), 5 * 3 * 2 * 3, "rates × warmups × β₂s × choosing seeds");
    // a loss that wants warmup 300 and β₂ 0.98
    let mut tuner = Tuner::new(&config, 500);
    for _ in 0..1000 {
        let asked = tuner.requests();
        if asked.is_empty() {
            break;
        }
        for t in asked {
            let c = &t.config;
            let tail = 1.0
                + (c.learning_rate / 0.01).ln().powi(2)
                + (c.warmup_steps as f64 - 300.0).abs() / 100.0
                + (c.beta2 - 0.98).abs();
            tuner.record(t.setting, t.seed, t.round, TrialEnd { tail, resume: Vec::new() });
        }
    }
    assert_eq!(tuner.tuned().chosen, Some((0.01, 300, 0.98)));
}

fn small_copy() -> Config {
    Config { depth: 2, width: 16, tokens: 32, ..copy_defaults() }
}

/// A trial stopped at a third of the run and continued from its bytes in a new runner (as
/// another worker would) ends with the same bits as the run trained straight through.
#[test]
fn a_survivor_goes_on_from_its_checkpoint_bit_for_bit() {
    for config in [small_copy(), Config { depth: 3, width: 8, tokens: 8, ..Config::default() }] {
        let steps = 90;
        let straight = match run_job(Job::Run { config: config.clone(), steps, keep_loss: true }).unwrap() {
            Report::Run(o) => o,
            other => panic!("{other:?}"),
        };
        let mut first = TrialRun::new(&config, steps, 30, &[]).unwrap();
        while !first.advance(7) {}
        let at_30 = first.end();
        assert!(!at_30.resume.is_empty(), "a trial stopped part way keeps its checkpoint");
        // bytes across a job's encoding, as between workers
        let job = Job::Trial { config: config.clone(), steps, until: steps, from: at_30.resume.clone() };
        let (_, job) = Job::decode(&job.encode(7)).unwrap();
        let Report::Trial(end) = run_job(job).unwrap() else { panic!("a trial's report") };
        assert_eq!(end.tail.to_bits(), straight.tail.to_bits(), "{} against {}", end.tail, straight.tail);
        assert!(end.resume.is_empty(), "nothing to go on from at the run's end");
        // and in three pieces
        let mut a = TrialRun::new(&config, steps, 10, &[]).unwrap();
        a.advance(usize::MAX);
        let mut b = TrialRun::new(&config, steps, 30, &a.end().resume).unwrap();
        b.advance(usize::MAX);
        let mut c = TrialRun::new(&config, steps, steps, &b.end().resume).unwrap();
        c.advance(usize::MAX);
        assert_eq!(c.end().tail.to_bits(), straight.tail.to_bits());
        // damaged bytes are an error, never a panic
        assert!(TrialRun::new(&config, steps, steps, &at_30.resume[..at_30.resume.len() / 2]).is_err());
    }
}

/// A tuned comparison: its runs shown train on other seeds than the ones that chose, at the
/// chosen setting, each the single run of its seed and setting; the table and the sentence
/// say so.
#[test]
fn the_choosing_seeds_and_the_seeds_shown_are_disjoint() {
    let config =
        Config { seeds: 2, choose_seeds: 2, tune: true, learning_rate: 0.01, seed: 3, ..small_copy() };
    let state = all_four_here(&config, 60, 2).unwrap();
    for row in &state.rows {
        let t = row.arm.tuning.as_ref().expect("tuned");
        let (lr, warmup, beta2) = t.chosen.expect("chosen");
        assert_eq!(row.arm.seeds, [3, 4]);
        assert_eq!(t.choosing_seeds, [5, 6]);
        for (seed, run) in row.arm.shown_done() {
            assert_eq!((run.config.seed, run.config.learning_rate), (seed, lr));
            assert_eq!((run.config.warmup_steps, run.config.beta2), (warmup, beta2));
            let single =
                match run_job(Job::Run { config: run.config.clone(), steps: 60, keep_loss: true }).unwrap() {
                    Report::Run(o) => o,
                    other => panic!("{other:?}"),
                };
            assert_eq!(run.final_loss.to_bits(), single.final_loss.to_bits(), "seed {seed}");
        }
        assert!(t.rounds.len() >= 2, "successive halving: {:?}", t.rounds);
    }
    let sentence = ablation_playground::comparisons::all_four::all_four_summary(&state);
    assert!(sentence.contains("chosen on seeds 5–6 (not shown)"), "{sentence}");
    assert!(sentence.contains("over seeds 3–4"), "{sentence}");
    let table = all_four_table(&state);
    assert!(table.columns.iter().any(|c| c == "learning rate (chosen on seeds 5–6)"), "{:?}", table.columns);
    assert!(table.columns.iter().any(|c| c == "plateaued"), "{:?}", table.columns);
}

fn run(config: &Config, steps: usize) -> Outcome {
    let mut r = RunInProgress::new(config, steps);
    r.advance(usize::MAX);
    Outcome::of(&r, true)
}

/// The plateau rule on a run that plateaus (the regression, settled long before its cap: it
/// stops there) and on one that does not (the copy task at a rate too low to have settled by
/// its cap): by the rule's own definition, recomputed here.
#[test]
fn the_plateau_rule_stops_a_run_that_plateaus_and_not_one_that_does_not() {
    let settles = Config { depth: 2, width: 8, tokens: 16, until: Until::Plateau, ..Config::default() };
    let o = run(&settles, 20_000);
    assert_eq!(o.converged, Some(true));
    assert!(o.steps < 20_000 && o.steps >= 2000, "stopped at step {}", o.steps);
    assert_eq!(o.loss.len(), o.steps + 1);
    // by the definition: the last third of the stretches' means less than 1% below the rest
    let curve: Vec<f64> =
        o.loss[..o.steps / 100 * 100].chunks(100).map(|c| c.iter().sum::<f64>() / 100.0).collect();
    let q = curve.len().div_ceil(3);
    assert!(curve.len() >= 20, "{curve:?}");
    let min = |xs: &[f64]| xs.iter().copied().fold(f64::INFINITY, f64::min);
    let (before, last) = curve.split_at(curve.len() - q);
    assert!(min(last) > 0.99 * min(before), "{curve:?}");
    // the same run with a fixed step count trains them all and says whether it had plateaued
    let fixed = run(&Config { until: Until::Steps, ..settles.clone() }, o.steps + 200);
    assert_eq!(fixed.steps, o.steps + 200);
    assert_eq!(
        bits(&fixed.loss[..o.steps]),
        bits(&o.loss[..o.steps]),
        "stopping early changes no step before"
    );

    let slow = Config { learning_rate: 3e-4, until: Until::Plateau, ..small_copy() };
    let o = run(&slow, 1200);
    assert_eq!((o.converged, o.steps), (Some(false), 1200), "still improving at its cap");
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn the_clis_report_carries_the_search_for_each_arm() {
    let out = Command::new(env!("CARGO_BIN_EXE_ablate"))
        .args([
            "--compare",
            "--tune",
            "--seeds",
            "2",
            "--choose-seeds",
            "2",
            "--steps",
            "45",
            "--depth",
            "2",
            "--width",
            "8",
            "--tokens",
            "8",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["compare"].as_array().unwrap_or_else(|| panic!("{report}"));
    assert_eq!(rows.len(), 4);
    for row in rows {
        let t = &row["tuning"];
        let lrs = t["grid"]["lr"].as_array().unwrap();
        assert!(lrs.len() >= 5, "{t}");
        assert_eq!(t["grid"]["warmup"], serde_json::json!([0]));
        assert_eq!(t["grid"]["beta2"], serde_json::json!([0.999]));
        let chosen = t["chosen"]["lr"].as_f64().unwrap();
        assert!(lrs.iter().any(|x| x.as_f64() == Some(chosen)), "{t}");
        assert_eq!(row["lr"].as_f64(), Some(chosen));
        assert!(t["bracketed"]["lr"].is_boolean(), "{t}");
        assert_eq!(t["choosing_seeds"], serde_json::json!([3, 4]));
        assert_eq!(t["reporting_seeds"], serde_json::json!([1, 2]));
        let rounds = t["rounds"].as_array().unwrap();
        assert_eq!(rounds.last().unwrap()["steps"], 45, "{t}");
        assert!(rounds.iter().all(|r| r["candidates"].as_u64().unwrap() >= 1));
        // every candidate with its score at every planned round (null where not trained so far)
        let candidates = t["candidates"].as_array().unwrap();
        assert_eq!(candidates.len(), lrs.len(), "{t}");
        let planned = t["planned_rounds"].as_u64().unwrap() as usize;
        assert!(candidates.iter().all(|c| c["scores"].as_array().unwrap().len() == planned), "{t}");
        let chosen_scores =
            candidates.iter().find(|c| c["lr"].as_f64() == Some(chosen)).unwrap()["scores"].clone();
        assert!(chosen_scores[planned - 1].is_f64(), "the chosen trained the full run: {t}");
        assert_eq!(row["converged"].as_array().unwrap().len(), 2, "{row}");
        assert!(row["runs"].as_array().unwrap().iter().all(|r| r["lr"].as_f64() == Some(chosen)));
    }
}

/// A tuned pin: its search chooses on the choosing seeds, and its runs (pinned runs, trained as
/// the live run is) train at the chosen setting on its own seeds.
#[test]
fn a_tuned_pin_shows_its_runs_at_the_setting_its_search_chose() {
    use ablation_playground::comparisons::Comparisons;
    use ablation_playground::config::Pin;
    let config =
        Config { tune: true, seeds: 2, choose_seeds: 2, depth: 3, width: 8, tokens: 8, ..Config::default() };
    let mut c = Comparisons::default();
    c.set_pins(&[Pin::new(&config, 40)]);
    c.run_here(2, || f64::NAN).unwrap();
    let state = c.state();
    let pin = &state.pins[0];
    let t = pin.tuning.as_ref().expect("tuned");
    let (lr, _, _) = t.chosen.expect("chosen");
    assert!(pin.done && pin.config.learning_rate == lr, "{pin:?}");
    assert_eq!(t.choosing_seeds, [3, 4]);
    assert_eq!(pin.seeds.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [1, 2]);
    for (seed, frame) in &pin.seeds {
        let frame = frame.as_ref().expect("every seed's frame");
        assert_eq!((frame.config.seed, frame.config.learning_rate, frame.step), (*seed, lr, 40));
    }
}
