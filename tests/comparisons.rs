//! The page's comparisons (pins, All four, the depth sweep, the knockout) are jobs that any
//! worker of the pool runs: run here through their bytes, in slices, by several runners at
//! once and out of order, they equal the single runs with the same configurations bit for bit.

use ablation_playground::comparisons::{all_four, all_four_here, knockout, sweep, sweep_here, Comparisons};
use ablation_playground::config::{parse_pins, Config, NormPlacement, Pin, TaskKind};
use ablation_playground::training::live::session::Session;
use ablation_playground::training::measures::knockout::knockout;
use ablation_playground::training::runs::all_four::comparison_steps;
use ablation_playground::training::runs::job::{Job, JobRunner, Report};
use ablation_playground::training::runs::sweep::DEFAULT_SWEEP_DEPTHS;
use ablation_playground::training::step::report::{run, trained};

fn small(depth: usize) -> Config {
    Config { depth, width: 8, tokens: 4, ..Config::default() }
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// A pool of `workers` runners: each idle one takes the next wanted job that nobody runs
/// (through its bytes) and advances it `slice` steps a turn, reporting through bytes. The last
/// worker reports first, so results arrive out of order. Returns the reports taken part way.
fn run_pool(comparisons: &mut Comparisons, workers: usize, slice: usize) -> usize {
    let mut slots: Vec<Option<(u32, JobRunner)>> = (0..workers).map(|_| None).collect();
    let mut partial = 0;
    loop {
        for w in 0..workers {
            if slots[w].is_some() {
                continue;
            }
            let busy: Vec<u32> = slots.iter().flatten().map(|(id, _)| *id).collect();
            if let Some(id) = comparisons.wanted().into_iter().find(|id| !busy.contains(id)) {
                let (decoded, job) = Job::decode(&comparisons.job(id).unwrap()).unwrap();
                assert_eq!(decoded, id);
                slots[w] = Some((id, JobRunner::new(job).unwrap()));
            }
        }
        if slots.iter().all(Option::is_none) {
            return partial;
        }
        for slot in slots.iter_mut().rev() {
            let Some((id, runner)) = slot else { continue };
            let done = runner.advance(slice);
            let bytes = runner.encoded_report(*id);
            if comparisons.report(&bytes).unwrap() && !done {
                partial += 1;
            }
            if done {
                *slot = None;
            }
        }
    }
}

#[test]
fn a_pin_is_its_run_recomputed_from_the_seed() {
    let config = Config { residual: false, ..small(5) };
    let mut live = Session::new(&Config { steps: 37, ..config.clone() });
    while live.train_step() {}
    let live_frame = live.frame();

    let mut comparisons = Comparisons::default();
    let pins = parse_pins(&Pin::new(&config, 37).text()).unwrap();
    comparisons.set_pins(&pins);
    assert!(run_pool(&mut comparisons, 1, 3) > 0, "a pin reports as it trains");
    let state = comparisons.state();
    assert_eq!(state.pins.len(), 1);
    let p = &state.pins[0];
    assert!(p.done);
    let (a, b) = (p.frame.as_ref().expect("a finished pin has its frame"), &live_frame);
    assert_eq!((a.step, &a.init, &a.now, &a.histogram), (b.step, &b.init, &b.now, &b.histogram));
    assert_eq!(a.history, b.history, "the same loss curve, bit for bit");
    // and the CLI's run of 37 steps
    let r = run(&config, 37);
    assert_eq!(a.history.last().unwrap().to_bits(), r.loss[36].to_bits());
    assert_eq!(bits(&a.init.grad_norm), bits(&r.init.grad_norm));

    // a pin that stays keeps its run; a new one starts from the seed
    comparisons.set_pins(&[pins[0].clone(), Pin::new(&small(2), 5)]);
    assert_eq!(comparisons.wanted().len(), 1, "only the new pin is wanted");
    run_pool(&mut comparisons, 2, 2);
    assert_eq!(comparisons.state().pins[0], state.pins[0]);
    comparisons.set_pins(&[]);
    assert!(comparisons.state().pins.is_empty() && !comparisons.busy());
}

#[test]
fn all_four_and_the_sweep_from_any_number_of_workers_equal_their_single_runs() {
    let config = Config { norm: NormPlacement::Post, ..small(3) };
    let steps = comparison_steps(config.task);
    let single_compare: Vec<_> =
        all_four_here(&config, steps, 2).unwrap().rows.into_iter().map(|r| r.run).collect();
    let single_sweep =
        sweep_here(&Config { depth: 1, ..config.clone() }, &DEFAULT_SWEEP_DEPTHS, steps, 2).unwrap().series;
    for workers in [1, 3] {
        let mut comparisons = Comparisons::default();
        all_four::start(&mut comparisons, &config);
        sweep::start(&mut comparisons, &Config { depth: 1, ..config.clone() });
        assert_eq!(comparisons.wanted().len(), 4 + 4 * DEFAULT_SWEEP_DEPTHS.len());
        assert!(run_pool(&mut comparisons, workers, 97) > 0);
        let state = comparisons.state();
        let c = state.compare.as_ref().unwrap();
        assert_eq!(c.steps, comparison_steps(config.task));
        for (row, single) in c.rows.iter().zip(&single_compare) {
            assert!(row.done);
            let row = &row.run;
            assert_eq!((row.config.residual, row.config.norm), (single.config.residual, single.config.norm));
            assert_eq!(bits(&row.loss), bits(&single.loss), "{workers} workers");
            assert_eq!(row.grad_ratio.to_bits(), single.grad_ratio.to_bits());
            assert_eq!(row.init_top_std.to_bits(), single.init_top_std.to_bits());
        }
        let s = state.sweep.as_ref().unwrap();
        assert_eq!((s.depths.as_slice(), s.runs_finished), (&DEFAULT_SWEEP_DEPTHS[..], s.runs_total));
        for (a, b) in s.series.iter().zip(&single_sweep) {
            assert_eq!(bits(&a.final_loss), bits(&b.final_loss), "{workers} workers");
            assert_eq!(bits(&a.grad_ratio), bits(&b.grad_ratio));
            assert_eq!(a.diverged_at, b.diverged_at);
        }
    }
}

#[test]
fn part_way_a_row_shows_its_run_and_a_sweep_fills_in_from_the_shallow_end() {
    let mut comparisons = Comparisons::default();
    all_four::start(&mut comparisons, &small(2));
    sweep::start(&mut comparisons, &small(2));
    let ids = comparisons.wanted();
    // the second row's run, five steps in, reports before the first has started
    let (_, job) = Job::decode(&comparisons.job(ids[1]).unwrap()).unwrap();
    let mut runner = JobRunner::new(job).unwrap();
    runner.advance(5);
    assert!(comparisons.report(&runner.encoded_report(ids[1])).unwrap());
    let c = comparisons.state().compare.unwrap();
    assert!(!c.rows[0].done && c.rows[0].run.loss.is_empty(), "not started");
    assert!(!c.rows[1].done && c.rows[1].run.loss.len() == 5, "in progress");
    // a sweep run at depth 2 that finishes before depth 1 waits for it
    let deep = ids[4 + 4]; // both off at the second depth
    let (_, job) = Job::decode(&comparisons.job(deep).unwrap()).unwrap();
    let Report::Run(outcome) = ablation_playground::training::runs::job::run_job(job).unwrap() else {
        panic!("a run")
    };
    assert!(comparisons.report(&Report::Run(outcome).encode(deep, true)).unwrap());
    let s = comparisons.state().sweep.unwrap();
    assert_eq!((s.runs_finished, s.series[0].final_loss.len()), (1, 0), "depth 1 is not in yet");
    // a new All four replaces the old: the old one's reports are dropped
    all_four::start(&mut comparisons, &small(3));
    assert!(
        !comparisons.report(&runner.encoded_report(ids[1])).unwrap(),
        "a replaced job's report is dropped"
    );
    assert!(comparisons.job(ids[1]).is_none());
    // damaged bytes are an error, never a panic
    let bytes = runner.encoded_report(ids[1]);
    for cut in [0, 3, 10, bytes.len() / 2, bytes.len() - 1] {
        assert!(comparisons.report(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(comparisons.report(&longer).is_err());
}

#[test]
fn the_knockout_from_the_live_runs_weights_equals_the_knockout_of_the_live_stack() {
    for config in [small(4), Config { residual: false, norm: NormPlacement::Post, ..small(6) }] {
        let mut live = Session::new(&Config { steps: 25, ..config.clone() });
        while live.train_step() {}
        let job = Job::knockout_of(&mut live);
        let Job::Knockout { step, .. } = &job else { panic!("a knockout job") };
        assert_eq!(*step, 25);
        let mut comparisons = Comparisons::default();
        let (_, decoded) = Job::decode(&job.encode(0)).unwrap();
        assert_eq!(decoded, job, "the weights cross intact");
        knockout::start_from_stack(&mut comparisons, decoded);
        run_pool(&mut comparisons, 1, 2);
        let k = comparisons.state().knockout.unwrap();
        assert!(k.done && k.step == 25);
        let (_, mut trainer) = trained(&config, 25);
        let direct = knockout(&mut trainer);
        assert_eq!(bits(&k.result.loss), bits(&direct.loss), "{config:?}");
        assert_eq!(bits(&k.result.output_change), bits(&direct.output_change));
        assert_eq!(k.result.intact_loss.to_bits(), direct.intact_loss.to_bits());
        comparisons.clear_knockout();
        assert!(comparisons.state().knockout.is_none());
    }
    // weights that do not fit are an error, not a panic
    let Job::Knockout { config, step, mut weights } = Job::knockout_of(&mut Session::new(&small(3))) else {
        panic!()
    };
    weights.pop();
    assert!(JobRunner::new(Job::Knockout { config, step, weights }).is_err());
}

#[test]
fn the_value_a_host_reads_holds_the_settings_the_readouts_and_the_comparisons() {
    use ablation_playground::comparisons::value_json;
    use ablation_playground::config::Settings;
    let pin = "depth:3,width:8,tokens:4,seed:18446744073709551615@4";
    let settings =
        Settings::from_query(&format!("depth=3&width=8&tokens=4&seed=18446744073709551615&pin={pin}"));
    let mut comparisons = Comparisons::default();
    comparisons.set_pins(&settings.pins);
    let before: serde_json::Value =
        serde_json::from_str(&value_json(&settings, None, &comparisons.state()).to_string()).unwrap();
    assert_eq!(before["seed"], "18446744073709551615", "the 64-bit seed as text");
    assert_eq!((before["depth"].as_i64(), before["step"].as_i64()), (Some(3), Some(0)));
    assert!(before["loss"].is_null() && before["knockout"].is_null() && before["compare"].is_null());
    assert_eq!(
        (before["pin"].as_str(), before["pins"][0]["done"].as_bool()),
        (Some("depth:3,width:8,tokens:4,seed:18446744073709551615@4"), Some(false))
    );
    let mut live = Session::new(&settings.config);
    for _ in 0..4 {
        live.train_step();
    }
    let frame = live.frame();
    run_pool(&mut comparisons, 1, 10);
    let after: serde_json::Value =
        serde_json::from_str(&value_json(&settings, Some(&frame), &comparisons.state()).to_string()).unwrap();
    assert_eq!(after["step"].as_i64(), Some(4));
    // (serde_json's own float parsing may be one unit of the last place off)
    let near = |v: &serde_json::Value| (v.as_f64().unwrap() - frame.loss()).abs() < 1e-12;
    assert!(near(&after["loss"]), "{}", after["loss"]);
    let pin = &after["pins"][0];
    assert!(pin["done"].as_bool().unwrap() && near(&pin["loss"]), "the pin is the live run at step 4: {pin}");
}

#[test]
fn a_jobs_configuration_reads_from_its_bytes_without_the_rest() {
    use ablation_playground::config::{Pin, TaskKind};
    let config = Config { task: TaskKind::Copy, depth: 3, context: 16, ..Config::default() };
    let jobs = [
        Job::Run { config: config.clone(), steps: 5, keep_loss: true },
        Job::Pin(Pin { config: Config { seed: 9, ..config.clone() } }),
        Job::knockout_of(&mut Session::new(&config)),
    ];
    for job in jobs {
        let bytes = job.encode(4);
        assert_eq!(Job::config_in(&bytes).as_ref(), Ok(job.config()));
        assert!(Job::config_in(&bytes[..6]).is_err() && Job::config_in(b"not a job at all").is_err());
    }
}

/// All four and the sweep train each task's own count (docs/using.md, "Comparing"): the state says it
/// before a run is done, and the jobs handed to the workers carry it.
#[test]
fn the_comparisons_train_as_long_as_each_task_needs() {
    use ablation_playground::config::task_defaults;
    for (task, steps) in
        [(TaskKind::Teacher, 500), (TaskKind::Text, 1500), (TaskKind::Copy, 500), (TaskKind::Induction, 2500)]
    {
        assert_eq!(comparison_steps(task), steps, "{task:?}");
        let config = task_defaults(task);
        let mut comparisons = Comparisons::default();
        all_four::start(&mut comparisons, &config);
        sweep::start(&mut comparisons, &config);
        let state = comparisons.state();
        assert_eq!(state.compare.as_ref().unwrap().steps, steps, "{task:?}: All four");
        assert_eq!(state.sweep.as_ref().unwrap().steps, steps, "{task:?}: the sweep");
        for id in comparisons.wanted() {
            let (_, job) = Job::decode(&comparisons.job(id).unwrap()).unwrap();
            let Job::Run { steps: s, .. } = job else { panic!("All four and the sweep are runs") };
            assert_eq!(s, steps, "{task:?}: job {id}");
        }
    }
}

/// A job that fails in its worker is done, said once, in its row and the failures, and the
/// others go on: nothing waits for it.
#[test]
fn a_failed_job_is_said_once_and_the_others_go_on() {
    use ablation_playground::comparisons::all_four::all_four_table;
    let config = small(3);
    let mut comparisons = Comparisons::default();
    all_four::start(&mut comparisons, &config);
    let first = comparisons.wanted()[0];
    assert!(comparisons.fail(first, "out of memory"));
    assert!(!comparisons.fail(first, "out of memory"), "a failure is taken once");
    assert!(!comparisons.wanted().contains(&first), "a failed job is not handed out again");
    assert_eq!(comparisons.wanted().len(), 3);
    assert!(run_pool(&mut comparisons, 2, 7) > 0);
    assert!(!comparisons.busy(), "the other three finished; nothing waits for the failed one");
    let state = comparisons.state();
    let c = state.compare.as_ref().unwrap();
    assert_eq!(c.rows[0].failed.as_deref(), Some("out of memory"));
    assert!(c.rows[1..].iter().all(|r| r.done && r.failed.is_none() && r.run.final_loss.is_finite()));
    assert_eq!(state.failures.len(), 1);
    assert!(
        state.failures[0].starts_with("the run at depth 3, residual off, norm off: out of memory"),
        "{:?}",
        state.failures
    );
    let table = all_four_table(c);
    assert_eq!(table.rows[0][3], "failed: out of memory");
    // a failure of a replaced comparison is dropped
    all_four::start(&mut comparisons, &config);
    assert!(!comparisons.fail(first, "late"));
}
