//! A session after a divergence, a restart in place, a histogram that moved, and a run put aside and resumed.

use super::*;

/// A seed or gain change restarts in the old run's buffers (no allocation): after training on
/// both sides, the frames must be the bytes of a fresh session's, under every sublayer and norm.
#[test]
fn a_restart_in_place_equals_a_fresh_session_bit_for_bit() {
    use ablation_playground::NormKind;
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for (norm, norm_kind) in [
            (NormPlacement::Pre, NormKind::LayerNorm),
            (NormPlacement::Post, NormKind::RmsNorm),
            (NormPlacement::Off, NormKind::LayerNorm),
        ] {
            for optimizer in [OptimizerKind::Adam, OptimizerKind::Sgd] {
                let base = Config { depth: 5, sublayer, norm, norm_kind, optimizer, ..Config::default() };
                let mut s = trained(&base, 25); // scratch, moments and stream all dirty
                let next = Config { seed: 11, init_gain: 1.3, learning_rate: 0.02, ..base.clone() };
                s.restart(&next, 4);
                assert_eq!(s.frame().encode(), Session::new(&next).with_generation(4).frame().encode());
                for _ in 0..25 {
                    s.train_step();
                }
                let fresh = trained(&next, 25).with_generation(4);
                assert_eq!(s.frame().encode(), fresh.with_generation(4).frame().encode(), "{next:?}");
                // and back to the first seed: the layers come from a fresh draw again
                s.restart(&base, 5);
                assert_eq!(s.frame().encode(), Session::new(&base).with_generation(5).frame().encode());
            }
        }
    }
}

/// The explode preset diverges at step 2 (seed 1): after it, the panels keep the last finite
/// state, found by replaying the run from the seed, and say which step they show.
#[test]
fn after_a_divergence_the_panels_show_the_last_finite_state_and_say_so() {
    let config = (ablation_playground::config::find_preset("explode").expect("a preset").config)();
    let mut s = Session::new(&config);
    while s.train_step() {}
    let at = s.diverged_at().expect("the explode preset diverges");
    assert!(at >= 1, "diverged at step {at}");
    // the replay runs in slices, as the worker calls it; meanwhile frames say it is under way
    assert!(s.recovering());
    let finding = s.frame();
    assert_eq!(finding.shows, Shows::Finding);
    assert_eq!(finding.diverged_at, Some(at));
    while s.recovering() {
        s.recover(1);
    }
    let f = s.frame();
    assert_eq!((f.shows, f.diverged_at, f.step), (Shows::LastFinite(at - 1), Some(at), at));
    // the state is the one a run stopped one step before the divergence would measure
    let mut before = Session::new(&Config { steps: at - 1, ..config.clone() });
    while before.train_step() {}
    let b = before.frame();
    // (as Debug text: the backward of so large a stream overflows, and NaN ≠ NaN)
    assert_eq!(format!("{:?}", f.now), format!("{:?}", b.now), "the probe of the last finite state");
    assert_eq!(f.histogram, b.histogram, "its histogram");
    assert_eq!(s.trainer().weights(), before.trainer().weights(), "its weights (a knockout's)");
    // finite, with its values beyond the axis piled at the edges, and no NaN
    let h = &f.histogram;
    assert_eq!(h.nan, 0, "{h:?}");
    assert!(h.counts.iter().sum::<u32>() + h.below + h.above > 0, "{h:?}");
    assert!(f.act_std().is_finite(), "{}", f.act_std());
    // the titles and summaries say which step they show; the status line keeps the divergence
    let long = format!("step {}, the last finite state; diverged at step {at}", at - 1);
    assert_eq!(words::shown_state(&f).first(), Some(&long));
    let summary = histogram::histogram_summary(&f);
    assert!(
        summary.starts_with(&format!("Step {}, the last finite state; diverged at step {at}. ", at - 1)),
        "{summary}"
    );
    assert!(!summary.contains("NaN"), "{summary}");
    assert!(depth::depth_summary(&f).starts_with("Step "), "{}", depth::depth_summary(&f));
    assert!(words::status_line(&f).ends_with(&format!(" · diverged at step {at}")));
    // the figures, drawn by the page's panels: the histogram's title names the step shown, and
    // so do the per-layer panel's and the lens's (shortened to fit)
    let figures = svgs(Some(&f), &ComparisonsState::default(), false).unwrap();
    let svg = |name: &str| figures.iter().find(|(n, _)| *n == name).map(|(_, s)| s.clone()).unwrap();
    assert!(svg("histogram").contains(&long), "the title names the step shown");
    assert!(svg("histogram").contains("<rect"), "bars");
    let short = format!("step {}, the last finite state", at - 1);
    for name in ["depth", "readout"] {
        assert!(svg(name).contains(&short), "{name}: {}", svg(name));
    }
    // a restart forgets the divergence
    s.restart(&Config { seed: 2, ..config }, 1);
    assert_eq!((s.frame().shows, s.diverged_at()), (Shows::Now, None));
}

/// A late divergence is replayed from the last checkpoint, not from the seed: SGD
/// whose warmup ramps to a rate it cannot take diverges at step 3606; the replay takes the 605
/// steps from the checkpoint at 3000, at most `CHECKPOINT_EVERY`, and ends in exactly the state
/// a run stopped there has.
#[test]
fn a_late_divergence_replays_from_the_last_checkpoint_to_the_same_state() {
    use ablation_playground::training::live::session::CHECKPOINT_EVERY;
    let config = Config {
        optimizer: OptimizerKind::Sgd,
        learning_rate: 8.0,
        warmup_steps: 4000,
        steps: 5000,
        ..Config::default()
    };
    let mut s = Session::new(&config);
    while s.train_step() {}
    let at = s.diverged_at().expect("the rate ramps past what the stack can take");
    assert!(at > 2 * CHECKPOINT_EVERY, "a late divergence: step {at}");
    let mut replayed = 0;
    while s.recovering() {
        replayed += s.recover(7);
    }
    assert!(replayed < CHECKPOINT_EVERY, "{replayed} steps replayed, not {}", at - 1);
    assert_eq!(replayed, at - 1 - (at - 1) / CHECKPOINT_EVERY * CHECKPOINT_EVERY);
    let f = s.frame();
    assert_eq!((f.shows, f.step), (Shows::LastFinite(at - 1), at));
    let mut before = Session::new(&Config { steps: at - 1, ..config.clone() });
    while before.train_step() {}
    assert_eq!(s.trainer().weights(), before.trainer().weights(), "the weights of the last finite state");
    assert_eq!(format!("{:?}", f.now), format!("{:?}", before.frame().now), "its probe");
}

/// On the text task the last finite state is measured as a run stopped there is (SGD at rate 2
/// diverges at step 16 at depth 4): the same held-out measurements, ending at its step, the
/// same lens, the same weights, and what it writes comes from those weights; and the trainer
/// that kept its weights before each update (the CLI's, for its figures) goes back to the
/// same state with nothing trained again.
#[test]
fn a_sequence_tasks_last_finite_state_is_measured_as_a_stopped_run_is() {
    let text = (ablation_playground::config::find_preset("text").expect("a preset").config)();
    let config = Config {
        depth: 4,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 2.0,
        warmup_steps: 0,
        steps: 150,
        ..text
    };
    let mut s = Session::new(&config);
    while s.train_step() {}
    let at = s.diverged_at().expect("SGD at rate 2 diverges");
    assert!(at > 1, "diverged at step {at}");
    while s.recovering() {
        s.recover(3);
    }
    let mut before = Session::new(&Config { steps: at - 1, ..config.clone() });
    while before.train_step() {}
    let (f, b) = (s.frame(), before.frame());
    // (as Debug text: the text task's accuracy is NaN, and NaN ≠ NaN)
    let text = |e: &[_]| format!("{e:?}");
    assert_eq!(text(&f.evals), text(&b.evals), "the held-out measurements end at the last finite step");
    assert_eq!(f.evals.last().map(|e| e.step), Some(at - 1));
    assert_eq!(format!("{:?}", f.now), format!("{:?}", b.now), "its probe and its lens");
    assert_eq!(s.trainer().weights(), before.trainer().weights());
    s.write();
    before.write();
    assert_eq!(s.frame().writing, before.frame().writing, "it writes with the last finite weights");
    let mut kept = Trainer::<f32>::new(&config);
    kept.keep_last_finite();
    while kept.diverged_at.is_none() {
        kept.one_step(true);
    }
    assert_eq!(kept.back_to_last_finite(), Some(at));
    assert_eq!((kept.step, kept.diverged_at), (at - 1, None));
    assert_eq!(text(&kept.evals), text(&b.evals), "its held-out measurements");
    assert_eq!(kept.weights(), before.trainer().weights(), "its weights");
    let mut unkept = Trainer::<f32>::new(&config);
    while unkept.diverged_at.is_none() {
        unkept.one_step(true);
    }
    assert_eq!(unkept.back_to_last_finite(), None, "a trainer that kept nothing cannot go back");
    assert_eq!(unkept.diverged_at, Some(at), "and stays as it was");
}

/// The histogram at initialisation is the one the session showed at step 0, on the axis now
/// shown (also after a rescale); the std before the readout norm's γ and β is that of x̂ by
/// its definition; and the words say why the std moved.
#[test]
fn the_histogram_keeps_its_initialisation_and_says_why_it_moved() {
    let config = Config { depth: 4, steps: 3000, ..Config::default() };
    let mut s = Session::new(&config);
    let at_init = s.frame();
    assert_eq!(at_init.init_histogram, at_init.histogram, "at step 0 the two are one");
    assert_eq!(words::since_init(&at_init), None, "nothing to say at step 0");
    for _ in 0..20 {
        s.train_step();
    }
    // while it trains, a drift within 2x is not said (the words would come and go)
    let early = s.frame();
    let drift = early.act_std() / early.init.readout_std;
    assert!((0.5..=2.0).contains(&drift), "{drift}");
    assert_eq!(words::since_init(&early), None, "std {}", early.act_std());
    while s.train_step() {}
    let f = s.frame();
    assert!(f.finished() && f.step == 3000);
    assert_eq!(f.init_histogram, at_init.histogram, "kept through training");
    // the std of the final norm's x̂, before γ and β, recomputed here from what it normalised:
    // the top of the stream x_L, per token centred and scaled (LayerNorm's ε = 1e-5)
    let x = s.trainer().stack.stream[config.depth].map(f64::from);
    let mut xhat = Vec::new();
    for row in x.row_iter() {
        let mean = row.mean();
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / row.len() as f64;
        xhat.extend(row.iter().map(|v| (v - mean) / (var + 1e-5).sqrt()));
    }
    let n = xhat.len() as f64;
    let mean = xhat.iter().sum::<f64>() / n;
    let std = (xhat.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
    assert!((f.readout_unscaled_std - std).abs() < 1e-4, "{} against {std}", f.readout_unscaled_std);
    assert_eq!(charts::short(f.readout_unscaled_std), "1.00", "what LayerNorm promises");
    assert!(f.act_std() < 0.8, "training moves γ and β: std {}", f.act_std());
    let words = words::since_init(&f).unwrap_or_default();
    assert!(
        words.contains("its std was 1.00")
            && words.contains("the norm's output still has std 1.00")
            && words.contains("std 1.00 before γ"),
        "{words}"
    );
    let caption = words::caption(&f);
    assert!(caption.contains("act. std has gone from 1.00 at initialisation"), "{caption}");
    // a rescaled axis redraws the initialisation on it, from the same values
    s.rescale();
    let r = s.frame();
    assert_eq!((r.init_histogram.lo, r.init_histogram.hi), (r.histogram.lo, r.histogram.hi));
    assert_ne!(r.init_histogram, f.init_histogram);
    let total = |h: &ablation_playground::model::stats::Histogram| {
        h.counts.iter().sum::<u32>() + h.below + h.above + h.nan
    };
    assert_eq!(total(&r.init_histogram), total(&f.init_histogram));
    // without a norm nothing holds the scale: the words say what training did to it
    let plain = Config { depth: 12, residual: false, norm: NormPlacement::Off, ..Config::default() };
    let f = trained(&plain, 500).frame();
    assert!(f.readout_unscaled_std.is_nan());
    let words = words::since_init(&f).unwrap_or_default();
    assert!(words.contains("no norm holds the scale"), "{words}");
}

/// A widget scrolled away lets its worker go and puts its run aside (`Session::suspend`); the
/// run resumed in a new worker is the same run: the same frame at once, the same frames after
/// more steps, the same sample written, on every task and stack, after a rescale of the axis,
/// in the loss history's merged buckets, and after a divergence.
#[test]
fn a_run_put_aside_and_resumed_goes_on_bit_for_bit() {
    use ablation_playground::config::{StackKind, TaskKind};
    let configs = [
        Config {
            depth: 6,
            sublayer: SublayerKind::Block,
            norm: NormPlacement::Post,
            seed: 3,
            ..Config::default()
        },
        Config { depth: 4, optimizer: OptimizerKind::Sgd, learning_rate: 0.05, ..Config::default() },
        Config { task: TaskKind::Text, ..ablation_playground::config::text_defaults() },
        Config {
            depth: 10,
            stack: StackKind::EncoderDecoder,
            ..ablation_playground::config::reverse_defaults()
        },
    ];
    for config in configs {
        // past the loss history's capacity (its buckets merged) on the small teacher runs
        let steps = if config.task == TaskKind::Teacher { CAPACITY + 37 } else { 130 };
        let mut going = trained(&config, steps).with_generation(9);
        going.rescale();
        let bytes = going.suspend().expect("a run that is not replaying");
        let mut resumed = Session::resume(&bytes).expect("its own bytes").with_generation(9);
        assert_eq!(resumed.frame().encode(), going.frame().encode(), "at once: {config:?}");
        for _ in 0..steps {
            going.train_step();
            resumed.train_step();
        }
        going.write();
        resumed.write();
        assert_eq!(resumed.frame().encode(), going.frame().encode(), "{steps} steps later: {config:?}");
        assert_eq!(resumed.trainer().weights(), going.trainer().weights());
        // anything else is refused with a message, never a panic
        for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
            assert!(Session::resume(&bytes[..cut]).is_err(), "cut at {cut} of {}", bytes.len());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Session::resume(&longer).is_err(), "a byte over");
        let mut other = bytes.clone();
        other[0] ^= 1;
        assert_eq!(Session::resume(&other).err().as_deref(), Some("not a run put aside"));
    }
    // a diverged run, once its last finite state is found, is put aside and comes back as it was
    let config = (ablation_playground::config::find_preset("explode").expect("a preset").config)();
    let mut s = Session::new(&config);
    while s.train_step() {}
    assert!(s.suspend().is_none(), "not while the replay is under way");
    while s.recovering() {
        s.recover(1);
    }
    let back = Session::resume(&s.suspend().expect("found")).expect("its own bytes");
    assert_eq!(format!("{:?}", back.with_generation(0).frame()), format!("{:?}", s.frame()));
}
