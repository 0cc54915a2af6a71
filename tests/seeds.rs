//! Comparisons over seeds and tuned rates: each run is the single run at its seed and rate,
//! the spread a chart and a table show is the runs' own, the rate is chosen on training loss
//! alone, and the CLI's report keeps its one-seed fields and adds the runs.

use ablation_playground::comparisons::all_four::all_four_table;
use ablation_playground::comparisons::all_four::AllFourState;
use ablation_playground::comparisons::{all_four_here, knockout_here};
use ablation_playground::config::{copy_defaults, Config};
use ablation_playground::training::measures::knockout::knockout;
use ablation_playground::training::runs::spread::{median, tail_loss};
use ablation_playground::training::step::report::trained;
use ablation_playground::view::charts::all_four::LossCurve;
use ablation_playground::view::charts::short;
use serde_json::Value;
use std::process::Command;

fn small(depth: usize) -> Config {
    Config { depth, width: 8, tokens: 8, ..Config::default() }
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn each_seeds_knockout_is_the_knockout_of_its_own_trained_stack() {
    let config = Config { seeds: 3, seed: 4, ..small(4) };
    let (_, mut trainer) = trained(&config, 15);
    let state = knockout_here(&mut trainer, &config, 15, 2).unwrap();
    assert!(state.done);
    assert_eq!(state.seeds.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [4, 5, 6]);
    for (seed, k) in &state.seeds {
        let (_, mut own) = trained(&Config { seed: *seed, ..config.clone() }, 15);
        let single = knockout(&mut own);
        assert_eq!(k.intact_loss.to_bits(), single.intact_loss.to_bits(), "seed {seed}");
        assert_eq!(bits(&k.loss), bits(&single.loss), "seed {seed}");
        assert_eq!(bits(&k.output_change), bits(&single.output_change), "seed {seed}");
    }
    // (as text: the regression's removals have no held-out numbers, NaN, which `==` refuses)
    assert_eq!(
        format!("{:?}", state.result),
        format!("{:?}", state.seeds[0].1),
        "the first seed's is the live run's"
    );
}

/// The chosen rate is, among the rates trained the full run, the one whose median over the
/// choosing seeds of each run's training loss over its last tenth is lowest, recomputed here
/// from straight runs of those seeds (each a single run: the held-out loss is never read);
/// and the runs shown are other seeds' runs at that rate.
#[test]
fn the_tuned_rate_is_the_grids_best_on_training_loss_and_the_held_out_loss_plays_no_part() {
    let config = Config {
        seeds: 2,
        choose_seeds: 3,
        tune: true,
        learning_rate: 0.01,
        ..Config { steps: 60, ..copy_defaults() }
    };
    let config = Config { depth: 2, width: 16, ..config };
    let state = all_four_here(&config, 60, 2).unwrap();
    let mut chose_other = 0;
    let tail_of = |c: &Config| match ablation_playground::training::runs::job::run_job(
        ablation_playground::training::runs::job::Job::Run { config: c.clone(), steps: 60, keep_loss: true },
    )
    .unwrap()
    {
        ablation_playground::training::runs::job::Report::Run(o) => {
            // the tail by its definition: the mean of the last ceil(61/10) = 7 training losses
            let last: Vec<f64> = o.loss[o.loss.len() - 7..].to_vec();
            let mean = last.iter().sum::<f64>() / 7.0;
            if o.diverged_at.is_none() {
                assert!((o.tail - mean).abs() <= 1e-12 * mean.abs(), "{} against {mean}", o.tail);
            }
            assert_eq!(o.tail.to_bits(), tail_loss(&o.loss).to_bits());
            o.tail
        }
        other => panic!("{other:?}"),
    };
    for row in &state.rows {
        let arm = &row.arm;
        let t = arm.tuning.as_ref().unwrap();
        assert!(arm.done && t.bracketed, "{t:?}");
        let chosen = t.chosen.unwrap().0;
        let at = |lr: f64| {
            let tails: Vec<f64> = t
                .choosing_seeds
                .iter()
                .map(|&seed| tail_of(&Config { seed, learning_rate: lr, ..arm.config.clone() }))
                .collect();
            median(&tails)
        };
        // its two neighbours on the grid trained the full run too, and lost
        let step = 10f64.sqrt();
        let (below, best, above) = (at(chosen / step), at(chosen), at(chosen * step));
        // (a score within TIE of the lowest is as good: the search keeps the rate it had)
        let tie = ablation_playground::comparisons::tuner::TIE;
        assert!(best <= below.min(above) * (1.0 + tie), "{below} {best} {above} at {chosen}");
        chose_other += usize::from(chosen != 0.01);
        assert_eq!(row.run.config.learning_rate, arm.rate(), "the row shows its chosen rate");
        assert!(arm.seeds.iter().all(|s| !t.choosing_seeds.contains(s)));
    }
    assert!(
        chose_other > 0,
        "some arm's best rate is not the settings' own: the test would not see a wrong choice"
    );
}

/// The band a chart draws and the cell a table writes come from the runs: a change to one
/// run's numbers moves them.
#[test]
fn the_median_and_the_band_are_the_runs_own() {
    let config = Config { seeds: 3, ..small(3) };
    let state = all_four_here(&config, 40, 2).unwrap();
    let both_on = &state.rows[3];
    let losses = |state: &AllFourState| -> Vec<Vec<f64>> {
        state.rows[3].arm.shown().iter().map(|r| r.as_ref().unwrap().loss.clone()).collect()
    };
    let band_at_end = |runs: &[Vec<f64>]| {
        let refs: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
        let curve = LossCurve::over(&refs, "both on");
        (*curve.line.last().unwrap(), *curve.band.last().unwrap())
    };
    let runs = losses(&state);
    let ((_, mid), (_, lo, hi)) = band_at_end(&runs);
    // each run's own smoothed end, as the loss panel smooths it
    let ends: Vec<f64> = runs
        .iter()
        .map(|l| {
            let h: ablation_playground::training::live::loss_history::LossHistory =
                l.iter().copied().collect();
            h.buckets().last().unwrap().smooth
        })
        .collect();
    let mut sorted = ends.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!((lo, mid, hi), (sorted[0], sorted[1], sorted[2]), "the band is the lowest and highest run");
    // the table: median [min–max] of the final losses
    let finals: Vec<f64> = both_on.arm.shown().iter().map(|r| r.as_ref().unwrap().final_loss).collect();
    let mut f = finals.clone();
    f.sort_by(f64::total_cmp);
    let cell = &all_four_table(&state).rows[3][3];
    assert_eq!(cell, &format!("{} [{}–{}]", short(f[1]), short(f[0]), short(f[2])), "{cell}");

    // one run ten times higher: the band's top follows it, and the table's maximum
    let mut moved = state.clone();
    let arm = &mut moved.rows[3].arm;
    let top = 2;
    let run = arm.runs[top].as_mut().unwrap();
    run.loss.iter_mut().for_each(|x| *x *= 10.0);
    run.final_loss *= 10.0;
    let ((_, _), (_, _, hi_moved)) = band_at_end(&losses(&moved));
    assert!(hi_moved > 5.0 * hi, "the band's top moved: {hi} to {hi_moved}");
    let cell_moved = &all_four_table(&moved).rows[3][3];
    assert_ne!(cell_moved, cell, "the table follows the run");
    assert!(cell_moved.contains(&short(10.0 * finals[2])), "{cell_moved}");
}

fn ablate(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ablate")).args(args).output().unwrap()
}

fn report(args: &[&str]) -> Value {
    let out = ablate(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn seeds_outside_one_to_ten_get_one_line_and_exit_2() {
    for bad in ["0", "11", "two", "-1", ""] {
        let out = ablate(&["--seeds", bad, "--compare"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--seeds {bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("ablate: --seeds: ") && err.contains("an integer from 1 to 10"), "{err}");
    }
    let out = ablate(&["--tune", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The CLI contract: the one-seed fields keep their meaning for the first seed, and each
/// comparison gains its runs (and with --tune the grid and the chosen rate).
#[test]
fn the_report_keeps_the_first_seeds_fields_and_adds_every_seeds_runs() {
    let base = ["--depth", "3", "--width", "8", "--tokens", "8", "--steps", "12", "--seed", "7"];
    let with = |extra: &[&str]| report(&[&base[..], extra].concat());
    let one = with(&["--compare", "--sweep", "1,2", "--knockout"]);
    let three = with(&["--compare", "--sweep", "1,2", "--knockout", "--seeds", "3"]);
    assert_eq!(three["config"]["seeds"], 3);
    for (a, b) in one["compare"].as_array().unwrap().iter().zip(three["compare"].as_array().unwrap()) {
        for field in ["final_loss", "init_top_std", "grad_ratio", "diverged_at", "loss", "readout_loss"] {
            assert_eq!(a[field], b[field], "{field}: the first seed's, as with one seed");
        }
        let runs = b["runs"].as_array().unwrap();
        let seeds: Vec<u64> = runs.iter().map(|r| r["seed"].as_u64().unwrap()).collect();
        assert_eq!(seeds, [7, 8, 9]);
        assert_eq!(runs[0]["final_loss"], b["final_loss"]);
        let mut finals: Vec<f64> = runs.iter().map(|r| r["final_loss"].as_f64().unwrap()).collect();
        finals.sort_by(f64::total_cmp);
        assert_eq!(b["median_final_loss"].as_f64().unwrap(), finals[1]);
        assert!(runs.iter().all(|r| r["lr"] == 0.01 && r["val_loss"].is_null()), "{runs:?}");
        assert!(b.get("lr_grid").is_none(), "no grid without --tune");
        assert_eq!(a["runs"].as_array().unwrap().len(), 1);
    }
    // each seed's run is the single run at that seed
    for (k, seed) in ["7", "8", "9"].into_iter().enumerate() {
        let single = report(&[
            "--depth",
            "3",
            "--width",
            "8",
            "--tokens",
            "8",
            "--steps",
            "12",
            "--seed",
            seed,
            "--compare",
        ]);
        for (row, single) in
            three["compare"].as_array().unwrap().iter().zip(single["compare"].as_array().unwrap())
        {
            assert_eq!(row["runs"][k]["final_loss"], single["final_loss"], "seed {seed}");
        }
    }
    for (a, b) in
        one["sweep"]["runs"].as_array().unwrap().iter().zip(three["sweep"]["runs"].as_array().unwrap())
    {
        for field in ["final_loss", "grad_ratio", "diverged_at"] {
            assert_eq!(a[field], b[field], "sweep {field}");
        }
        let seeds = b["seeds"].as_array().unwrap();
        assert_eq!(seeds.len(), 3);
        assert_eq!(seeds[0]["final_loss"], b["final_loss"]);
        assert_eq!(seeds[1]["final_loss"].as_array().unwrap().len(), 2, "one per depth");
        assert_eq!(seeds[2]["lr"], serde_json::json!([0.01, 0.01]));
        assert_eq!(b["median_final_loss"].as_array().unwrap().len(), 2);
    }
    let (k1, k3) = (&one["knockout"], &three["knockout"]);
    assert_eq!((&k1["loss"], &k1["intact_loss"]), (&k3["loss"], &k3["intact_loss"]));
    let ks = k3["seeds"].as_array().unwrap();
    assert_eq!(ks.iter().map(|s| s["seed"].as_u64().unwrap()).collect::<Vec<_>>(), [7, 8, 9]);
    assert!(ks.iter().all(|s| s["loss"].as_array().unwrap().len() == 3), "every layer of every seed's stack");

    let tuned = with(&["--compare", "--sweep", "1,2", "--seeds", "2", "--tune"]);
    assert_eq!(tuned["config"]["tune"], "on");
    for row in tuned["compare"].as_array().unwrap() {
        let grid: Vec<f64> = row["lr_grid"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        // half decades around the settings' rate, five at least (widened on the best's side)
        assert!(grid.len() >= 5 && grid.contains(&0.01) && grid.contains(&0.1), "{grid:?}");
        assert!(grid.windows(2).all(|w| (w[1] / w[0] - 10f64.sqrt()).abs() < 1e-9), "{grid:?}");
        let lr = row["lr"].as_f64().unwrap();
        assert!(grid.contains(&lr));
        assert!(row["runs"].as_array().unwrap().iter().all(|r| r["lr"].as_f64() == Some(lr)));
    }
    for s in tuned["sweep"]["runs"].as_array().unwrap() {
        assert_eq!(s["lr"].as_array().unwrap().len(), 2, "a rate per depth");
        assert!(s["lr_grid"].as_array().unwrap().len() >= 5);
    }
    // `--tune on` is `--tune`
    let on = with(&["--compare", "--seeds", "2", "--tune", "on"]);
    assert_eq!(on["compare"], tuned["compare"]);
}

#[test]
fn depth_or_width_reports_every_seed_of_every_shape() {
    let r = report(&["--preset", "copy", "--steps", "20", "--depth-width", "--seeds", "2"]);
    for row in r["depth_width"].as_array().unwrap() {
        let runs = row["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0]["final_loss"], row["final_loss"]);
        assert!(runs.iter().all(|r| r["val_loss"].is_f64()), "{runs:?}");
    }
    assert_eq!(r["config"]["task"], "copy");
}
