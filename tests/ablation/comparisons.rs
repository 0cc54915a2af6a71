//! All four and the sweep: every entry is its single run, bit for bit.

use super::*;

#[test]
fn a_run_in_slices_is_the_run_at_once() {
    for config in [small(5), diverging(6)] {
        let whole = run(&config, 30);
        let mut sliced = RunInProgress::new(&config, 30);
        let mut slices = 0;
        while !sliced.advance(7) {
            slices += 1;
        }
        assert!(slices >= 4 || whole.diverged_at.is_some(), "the budget limits each slice");
        let (sliced, _) = sliced.finish();
        assert_eq!(bits(&sliced.loss), bits(&whole.loss));
        assert_eq!(sliced.loss.len(), 31);
        assert_eq!(sliced.diverged_at, whole.diverged_at);
        assert_same_snapshot(&sliced.init, &whole.init);
        assert_same_snapshot(&sliced.last, &whole.last);
        assert_eq!(sliced.histogram, whole.histogram);
    }
    assert!(run(&diverging(6), 30).diverged_at.is_some(), "the diverging config diverges");
}

#[test]
fn the_four_combinations_change_only_the_switches() {
    for (placement, expected) in [
        (NormPlacement::Off, NormPlacement::Pre),
        (NormPlacement::Pre, NormPlacement::Pre),
        (NormPlacement::Post, NormPlacement::Post),
    ] {
        let config = Config { norm: placement, residual: false, seed: 7, ..small(9) };
        let four = four_combinations(&config);
        let switches: Vec<_> = four.iter().map(|c| (c.residual, c.norm)).collect();
        assert_eq!(
            switches,
            [(false, NormPlacement::Off), (false, expected), (true, NormPlacement::Off), (true, expected)]
        );
        for c in &four {
            assert_eq!(Config { residual: config.residual, norm: config.norm, ..c.clone() }, config);
        }
    }
}

fn compare(config: &Config, steps: usize) -> Vec<Outcome> {
    all_four_here(config, steps, 1).unwrap().rows.into_iter().map(|r| r.run).collect()
}

fn sweep(config: &Config, depths: &[usize], steps: usize, threads: usize) -> [SweepSeries; 4] {
    sweep_here(config, depths, steps, threads).unwrap().series.try_into().unwrap()
}

#[test]
fn every_compare_entry_is_the_single_run_bit_for_bit() {
    let steps = 25;
    for config in
        [Config { norm: NormPlacement::Post, sublayer: SublayerKind::Block, ..small(6) }, diverging(8)]
    {
        let entries = compare(&config, steps);
        assert_eq!(entries.len(), 4);
        for (entry, variant) in entries.iter().zip(four_combinations(&config)) {
            assert_outcome_is_the_run(entry, &run(&variant, steps), true);
        }
        // the CLI's --threads: the same bits on any number of threads
        for threads in [2, 3, 8] {
            let threaded: Vec<Outcome> =
                all_four_here(&config, steps, threads).unwrap().rows.into_iter().map(|r| r.run).collect();
            assert_same_outcomes(&threaded, &entries);
        }
    }
    let diverged = compare(&diverging(8), steps);
    assert!(diverged.iter().any(|e| e.diverged_at.is_some() && e.final_loss.is_nan()));
}

/// Over several seeds and a tuned rate, every run shown of every row is the single run at its
/// seed and chosen setting, bit for bit, and the row shows the first seed.
#[test]
fn every_seed_and_rate_of_all_four_is_its_single_run_bit_for_bit() {
    let steps = 20;
    let config = Config { seeds: 3, tune: true, seed: 5, ..small(4) };
    let state = all_four_here(&config, steps, 2).unwrap();
    for (row, variant) in state.rows.iter().zip(four_combinations(&config)) {
        assert_eq!(row.arm.runs.len(), 3, "3 seeds shown");
        let chosen = row.arm.tuning.as_ref().and_then(|t| t.chosen).expect("chosen").0;
        for (got, seed) in row.arm.runs.iter().zip([5, 6, 7]) {
            let got = got.as_ref().expect("every run done");
            let single = Config { seed, learning_rate: chosen, ..variant.clone() };
            assert_eq!((got.config.seed, got.config.learning_rate), (single.seed, single.learning_rate));
            assert_outcome_is_the_run(got, &run(&single, steps), true);
        }
        assert_eq!(row.arm.seeds, [5, 6, 7]);
        let first = row.arm.shown()[0].as_ref().unwrap();
        // the row's own numbers are the first seed's at the chosen rate
        assert_eq!((&row.run.config, bits(&row.run.loss)), (&first.config, bits(&first.loss)));
        assert_eq!(row.run.config.learning_rate, row.arm.rate());
    }
    assert_eq!(state.runs_finished, state.runs_total);
    assert!(state.runs_total > 12, "the trials are counted: {}", state.runs_total);
}

#[test]
fn every_sweep_entry_is_the_single_run_bit_for_bit() {
    let steps = 12;
    let depths = [1, 3, 7];
    for config in [Config { norm: NormPlacement::Post, ..small(4) }, diverging(4)] {
        let series = sweep(&config, &depths, steps, 1);
        for (combination, s) in series.iter().enumerate() {
            for (j, &depth) in depths.iter().enumerate() {
                let variant = &four_combinations(&Config { depth, ..config.clone() })[combination];
                assert_eq!((s.residual, s.norm), (variant.residual, variant.norm));
                let single = run(variant, steps);
                let outcome = Outcome {
                    config: variant.clone(),
                    init_top_std: single.init.act_std[depth],
                    grad_ratio: s.grad_ratio[j],
                    final_loss: s.final_loss[j],
                    diverged_at: s.diverged_at[j],
                    loss: Vec::new(),
                    held_out: Default::default(),
                    readout_loss: Vec::new(),
                    tail: f64::NAN,
                    learned: None,
                    converged: None,
                    steps,
                };
                assert_outcome_is_the_run(&outcome, &single, false);
            }
        }
        for threads in [2, 5] {
            assert_same_series(&sweep(&config, &depths, steps, threads), &series);
        }
    }
    // over seeds: each seed's run at each depth is its single run
    let config = Config { seeds: 2, seed: 9, ..small(4) };
    let series = sweep(&config, &depths, steps, 2);
    for (combination, s) in series.iter().enumerate() {
        for (j, &depth) in depths.iter().enumerate() {
            let variant = &four_combinations(&Config { depth, ..config.clone() })[combination];
            for (k, seed) in [9, 10].into_iter().enumerate() {
                let got = s.arms[j].shown()[k].as_ref().unwrap();
                let single = run(&Config { seed, ..variant.clone() }, steps);
                assert_eq!(got.final_loss.to_bits(), single.loss.last().unwrap().to_bits(), "seed {seed}");
            }
        }
    }
}

#[test]
fn sweep_depths_are_checked_like_the_parameter_table() {
    assert_eq!(parse_depths("1,2,4,8,12,24,48,96").unwrap(), [1, 2, 4, 8, 12, 24, 48, 96]);
    assert_eq!(parse_depths(" 8 , 3 ").unwrap(), [8, 3]);
    let too_many: Vec<String> = (1..=MAX_SWEEP_DEPTHS + 1).map(|d| d.to_string()).collect();
    let cases = [
        ("", "no depths"),
        ("0", "\"0\" is not an integer from 1 to 96"),
        ("1,97", "\"97\" is not an integer from 1 to 96"),
        ("1,,2", "\"\" is not an integer from 1 to 96"),
        ("2.5", "\"2.5\" is not an integer from 1 to 96"),
        ("twelve", "\"twelve\" is not an integer from 1 to 96"),
        ("4,2,4", "depth 4 is listed twice"),
        (&too_many.join(","), "17 depths; at most 16"),
    ];
    for (text, message) in cases {
        let e = parse_depths(text).unwrap_err();
        assert_eq!(e.name, "sweep");
        assert!(e.message().contains(message), "{text:?}: {e}");
    }
    assert!(sweep_here(&small(3), &[], 5, 2).is_err());
    assert!(sweep_here(&small(3), &[3, 3], 5, 2).is_err());
}
