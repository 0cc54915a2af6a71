//! A tuned comparison's runs: seeds that choose apart from seeds shown, the plateau rule, the CLI's report, a tuned pin.

use super::small_copy;
use ablation_playground::comparisons::all_four::all_four_table;
use ablation_playground::comparisons::all_four_here;
use ablation_playground::config::{Config, Until};
use ablation_playground::training::runs::job::{run_job, Job, Report};
use ablation_playground::training::runs::outcome::Outcome;
use ablation_playground::training::step::report::RunInProgress;
use serde_json::Value;
use std::process::Command;

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
