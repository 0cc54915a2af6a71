//! Depth or width: the shapes compared have the budget's parameter count within 10%, from deep
//! and narrow to shallow and wide; each run is the single run of its configuration, bit for bit.

use ablation_playground::comparisons::depth_width::shapes::{head_dim, is_control, shapes, TOLERANCE};
use ablation_playground::config::{copy_defaults, induction_defaults, text_defaults, Config};
use ablation_playground::training::measures::depth_width::{non_embedding_parameters, parameters};

/// Every parameter of the whole stack, counted one by one.
fn counted(config: &Config) -> usize {
    use ablation_playground::model::param::Params;
    use ablation_playground::model::stack::Stack;
    let mut stack = Stack::<f32>::new(config);
    let mut n = 0;
    stack.visit(&mut |p| n += p.value.len());
    n
}

/// The embeddings' and the readout's parameters, counted one by one.
fn counted_embedding(config: &Config) -> usize {
    use ablation_playground::model::param::Params;
    use ablation_playground::model::stack::Stack;
    let mut stack = Stack::<f32>::new(config);
    let mut n = 0;
    stack.readout.visit(&mut |p| n += p.value.len());
    if let Some(e) = stack.embedding.as_mut() {
        e.visit(&mut |p| n += p.value.len());
    }
    n
}

#[test]
fn parameters_are_the_stacks_own_count() {
    for config in [Config::default(), text_defaults(), copy_defaults(), induction_defaults()] {
        for depth in [1, 2, 3, 12, 49] {
            for width in [16, 32, 64] {
                let c = Config { depth, width, ..config.clone() };
                assert_eq!(parameters(&c), counted(&c), "{:?} {depth} × {width}", c.task);
                let without = counted(&c) - counted_embedding(&c);
                assert_eq!(non_embedding_parameters(&c), without, "{:?} {depth} × {width}", c.task);
            }
        }
    }
    // the text stack's embeddings: 70 characters × d, 32 positions × d, the readout d × 70
    let text = text_defaults();
    let (v, d, c) = (70, text.width, text.context);
    assert_eq!(parameters(&text) - non_embedding_parameters(&text), v * d + c * d + d * v);
}

#[test]
fn the_shapes_have_the_budgets_parameters_within_ten_percent() {
    for config in [Config::default(), text_defaults(), copy_defaults(), induction_defaults()] {
        let budget = non_embedding_parameters(&config) as f64;
        let found = shapes(&config);
        let what = format!(
            "{:?} {budget}: {:?}",
            config.task,
            found
                .iter()
                .map(|c| (c.depth, c.width, c.heads, non_embedding_parameters(c)))
                .collect::<Vec<_>>()
        );
        let (on_budget, controls): (Vec<&Config>, Vec<&Config>) =
            found.iter().partition(|s| !is_control(s, &config));
        // five or more from a stack of 12; induction's 2 layers have fewer below them
        let least = if config.depth >= 12 { 5 } else { 3 };
        assert!(on_budget.len() >= least, "{what}: at least {least} shapes on the budget");
        for s in &on_budget {
            let p = non_embedding_parameters(s) as f64;
            assert!((p - budget).abs() <= TOLERANCE * budget, "{what}: {}×{}: {p}", s.depth, s.width);
        }
        // a head has the same features in every shape; the heads grow with the width
        for s in &found {
            assert_eq!(head_dim(s), head_dim(&config), "{what}");
            assert_eq!(s.heads * head_dim(s), s.width, "{what}");
        }
        assert!(
            on_budget.windows(2).all(|w| w[0].depth > w[1].depth && w[0].width < w[1].width),
            "{what}: deep and narrow first"
        );
        // and one control off the budget: the run's own depth at the narrowest width
        let narrowest = on_budget.iter().map(|s| s.width).min().unwrap();
        assert_eq!(controls.len(), 1, "{what}");
        assert_eq!((controls[0].depth, controls[0].width), (config.depth, narrowest), "{what}");
        assert!((non_embedding_parameters(controls[0]) as f64) < budget / 2.0, "{what}");
        assert_eq!(found.last(), Some(controls[0]), "{what}: the control comes last");
    }
}

#[test]
fn each_shape_is_its_single_run_bit_for_bit_from_any_worker() {
    use ablation_playground::comparisons::depth_width_here;
    use ablation_playground::training::runs::job::{Job, JobRunner, Report};
    use ablation_playground::training::step::report::run;
    let config = Config { steps: 60, context: 8, tokens: 64, ..copy_defaults() };
    fn clock() -> f64 {
        7.0 // a clock that never moves: the times are 0, the losses all that is compared
    }
    // (a few passes of the copy task's one-sequence stack: 4096 at most, as many as a clock
    // too coarse to see them allows)
    let rows: Vec<_> = depth_width_here(&config, clock).unwrap().rows.into_iter().map(|(_, r)| r).collect();
    assert_eq!(rows.len(), shapes(&config).len());
    for row in &rows {
        let single = run(&row.config, 60);
        let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&row.loss), bits(&single.loss), "{}×{}", row.config.depth, row.config.width);
        let evals = &single.task.as_ref().unwrap().evals;
        assert_eq!(&row.evals, evals);
        assert_eq!(row.params, parameters(&row.config));
        assert_eq!((row.ms_per_step, row.ms_per_char), (0.0, 0.0));
        // the same job from its bytes, in slices, as a worker of the pool runs it
        let (id, job) = Job::decode(&Job::Shape { config: row.config.clone(), steps: 60 }.encode(9)).unwrap();
        assert_eq!((id, Job::config_in(&job.encode(9)).unwrap()), (9, row.config.clone()));
        let mut runner = JobRunner::with_clock(job, clock).unwrap();
        while !runner.advance(7) {}
        let (_, done, report) = Report::decode(&runner.encoded_report(9)).unwrap();
        let Report::Shape(from_job) = report else { panic!("a shape's report") };
        assert!(done);
        assert_eq!(&from_job, row);
    }
}

#[test]
fn the_cli_reports_each_shape() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ablate"))
        .args(["--preset", "text", "--steps", "30", "--depth-width"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = r["depth_width"].as_array().unwrap();
    let shapes: Vec<(u64, u64)> =
        rows.iter().map(|x| (x["depth"].as_u64().unwrap(), x["width"].as_u64().unwrap())).collect();
    assert_eq!(
        shapes,
        [(47, 16), (21, 24), (12, 32), (8, 40), (4, 56), (2, 80), (12, 16)],
        "deep and narrow to shallow and wide at the text defaults, then the narrow control"
    );
    for x in rows {
        for field in [
            "params",
            "non_embedding_params",
            "heads",
            "head_dim",
            "lr",
            "final_loss",
            "val_loss",
            "ms_per_step",
            "ms_per_char",
        ] {
            assert!(x[field].as_f64().is_some_and(|v| v > 0.0), "{field}: {x}");
        }
        assert_eq!(x["head_dim"], 8, "{x}");
        assert_eq!(x["heads"].as_u64().unwrap() * 8, x["width"].as_u64().unwrap(), "{x}");
        assert!(x["non_embedding_params"].as_u64() < x["params"].as_u64(), "{x}");
    }
    // the regression has no held-out loss and writes nothing
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ablate"))
        .args(["--steps", "5", "--depth-width"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &r["depth_width"][0];
    assert!(first.get("val_loss").is_none() && first["ms_per_char"].is_null(), "{first}");
}
