//! A session's run: the CLI's bits, frames, restarts, the step limit, bounded history.

use super::*;

#[test]
fn a_session_reproduces_the_cli_run_bit_for_bit() {
    for config in [
        Config {
            depth: 6,
            sublayer: SublayerKind::Block,
            norm: NormPlacement::Post,
            seed: 7,
            ..Config::default()
        },
        Config { depth: 3, residual: false, ..Config::default() },
    ] {
        let steps = 20;
        let cli = run(&config, steps);
        let frame = trained(&config, steps).frame();
        assert_eq!(frame.init, cli.init, "the probe at initialisation");
        assert_eq!(frame.now, cli.last, "the probe after {steps} steps");
        let exact: Vec<f64> = frame.history.buckets().iter().map(|b| b.min).collect();
        assert_eq!(exact, cli.loss[..steps], "the training losses");
        assert_eq!(frame.histogram, cli.histogram);
        assert_eq!(frame.init_histogram, cli.init_histogram);
        assert_eq!(frame.readout_unscaled_std.to_bits(), cli.readout_unscaled_std.to_bits());
        assert_eq!(frame.step, steps);
    }
}

#[test]
fn frames_round_trip_and_malformed_bytes_are_errors() {
    let diverging = Config {
        depth: 12,
        norm: NormPlacement::Off,
        init_gain: 3.0,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 5.0,
        ..Config::default()
    };
    for (config, steps) in [(Config::default(), 0), (Config::default(), 700), (diverging, 100)] {
        let mut s = trained(&config, steps);
        s.restart(&config, 9); // same configuration: only the generation changes
        let frame = s.frame();
        let bytes = frame.encode();
        // (NaN fields make `==` useless: compare the bytes of a second encoding)
        assert_eq!(Frame::decode(&bytes).unwrap().encode(), bytes);
        for cut in [0, 3, 4, 40, bytes.len() / 2, bytes.len() - 1] {
            assert!(Frame::decode(&bytes[..cut]).is_err(), "a frame cut at {cut} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Frame::decode(&longer).is_err());
        // corrupt lengths and configurations are errors, not panics or huge allocations
        for at in (0..bytes.len()).step_by(97) {
            let mut bad = bytes.clone();
            bad[at] ^= 0xFF;
            let _ = Frame::decode(&bad);
        }
    }
    assert!(Frame::decode(b"not a frame at all").is_err());
}

#[test]
fn restarts_carry_their_generation_and_a_step_limit_change_keeps_the_run() {
    let config = Config { depth: 4, ..Config::default() };
    let mut s = trained(&config, 30);
    s.restart(&Config { steps: 40, ..config.clone() }, 1);
    let f = s.frame();
    assert_eq!((f.generation, f.step, f.history.len(), f.stop_at), (1, 30, 30, 40), "the run goes on");
    s.restart(&Config { depth: 5, steps: 40, ..config.clone() }, 2);
    let f = s.frame();
    assert_eq!(
        (f.generation, f.step, f.history.len()),
        (2, 0, 0),
        "a new configuration starts from the seed"
    );
    assert_eq!(
        f.init,
        run(&Config { depth: 5, ..config.clone() }, 0).init,
        "from kept layers, the same stack"
    );
    s.train_step();
    s.restart(&Config { depth: 5, steps: 40, ..config }, 3);
    assert_eq!((s.frame().generation, s.frame().step), (3, 0), "the same configuration again is a reset");
}

#[test]
fn a_run_stops_at_its_step_limit_and_play_continues_it() {
    let config = Config { depth: 2, steps: 25, ..Config::default() };
    let mut s = Session::new(&config);
    let mut taken = 0;
    while s.train_step() {
        taken += 1;
    }
    assert_eq!(taken, 25);
    let f = s.frame();
    assert!(f.finished() && !s.running());
    assert!(words::status_line(&f).ends_with("· step 25 · finished"), "{}", words::status_line(&f));
    assert!(words::caption(&f).contains("finished its 25 steps"), "{}", words::caption(&f));
    assert!(s.single_step(), "Step trains one more even at the limit");
    assert!(!s.train_step());
    s.continue_run();
    let mut more = 0;
    while s.train_step() {
        more += 1;
        // status_line: `… · step N`, then ` · finished` only once the run reached its limit
        let f = s.frame();
        let status = words::status_line(&f);
        if more < 25 {
            assert!(!f.finished() && status.ends_with(&format!("· step {}", f.step)), "{status}");
            assert!(!status.contains("finished"), "{status}");
        }
    }
    assert_eq!(more, 25, "Play continues for another `steps`");
    let f = s.frame();
    assert!(f.finished() && f.step == 51);
    assert!(words::status_line(&f).ends_with(" · step 51 · finished"), "{}", words::status_line(&f));
}

#[test]
fn a_diverged_run_is_not_called_finished() {
    let config = Config {
        depth: 12,
        norm: NormPlacement::Off,
        init_gain: 3.0,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 5.0,
        steps: 30,
        ..Config::default()
    };
    let mut s = Session::new(&config);
    while s.train_step() {}
    let f = s.frame();
    let at = f.diverged_at.expect("this configuration explodes");
    let status = words::status_line(&f);
    assert!(!f.finished() && status.ends_with(&format!(" · diverged at step {at}")), "{status}");
    assert!(!status.contains("finished"), "{status}");
}

#[test]
fn every_number_on_screen_comes_from_one_frame() {
    let mut s = trained(&Config { depth: 6, ..Config::default() }, 48);
    let f = s.frame();
    let status = words::status_line(&f);
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (640, 480)).into_drawing_area();
    charts::loss::draw(&area, &f.history, f.diverged_at, &[], &Default::default(), &Theme::light(1.0))
        .unwrap();
    drop(area);
    let mut hist = String::new();
    let area = SVGBackend::with_string(&mut hist, (640, 480)).into_drawing_area();
    let shown = charts::histogram::Shown { now: &f.histogram, subject: "x", std: f.act_std(), init: None };
    charts::histogram::draw(&area, &shown, &[], &Theme::light(1.0)).unwrap();
    drop(area);
    let std = charts::short(f.act_std());
    let loss = charts::short(f.loss());
    assert!(
        status.contains(&format!("act. std = {std}")) && status.contains(&format!("loss {loss}")),
        "{status}"
    );
    assert!(status.ends_with("· step 48"), "48 updates applied: {status}");
    assert!(svg.contains(&format!("training loss · step 48 · {loss}")), "the loss chart's title");
    assert!(hist.contains(&format!("std = {std}")), "the histogram's title");
}

#[test]
fn long_runs_stay_bounded() {
    let config = Config { depth: 1, steps: 60_000, ..Config::default() };
    let mut s = Session::new(&config);
    let early = s.frame().encode().len();
    let mut sizes = Vec::new();
    for chunk in 0..30 {
        for _ in 0..2_000 {
            s.train_step();
        }
        let f = s.frame();
        assert!(f.history.buckets().len() <= CAPACITY);
        assert_eq!(f.history.len(), (chunk + 1) * 2_000);
        sizes.push(f.encode().len());
    }
    let largest = *sizes.iter().max().unwrap();
    assert!(largest <= early + CAPACITY * 40 + 200, "a frame stays small: {largest} bytes (first {early})");
    assert!(sizes[29] <= sizes[0] * 2, "no growth with the step count: {sizes:?}");
    let f = s.frame();
    assert!(f.finished() && f.step == 60_000);
    assert!(loss::loss_summary(&f).starts_with("Training loss at step 60000"), "{}", loss::loss_summary(&f));
}
