//! The page's comparisons (pins, All four, the depth sweep), advanced in small slices as the
//! worker does, equal the single runs with the same configurations, and cross to the page
//! intact.

use ablation_playground::config::{parse_pins, Config, NormPlacement, Pin};
use ablation_playground::training::compare::compare;
use ablation_playground::training::lab::{Lab, LabState, LAB_STEPS};
use ablation_playground::training::report::run;
use ablation_playground::training::session::Session;
use ablation_playground::training::sweep::{sweep, DEFAULT_SWEEP_DEPTHS};

fn small(depth: usize) -> Config {
    Config { depth, width: 8, tokens: 4, ..Config::default() }
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_pin_is_its_run_recomputed_from_the_seed() {
    let config = Config { residual: false, ..small(5) };
    let mut live = Session::new(&Config { steps: 37, ..config.clone() });
    while live.train_step() {}
    let live_frame = live.frame();

    let mut lab = Lab::default();
    let pins = parse_pins(&Pin::new(&config, 37).text()).unwrap();
    lab.set_pins(&pins);
    while lab.advance(3) {}
    let state = lab.state();
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
    lab.set_pins(&[pins[0].clone(), Pin::new(&small(2), 5)]);
    assert!(lab.busy());
    while lab.advance(2) {}
    assert_eq!(lab.state().pins[0], state.pins[0]);
    lab.set_pins(&[]);
    assert!(lab.state().pins.is_empty() && !lab.busy());
}

#[test]
fn all_four_and_the_sweep_in_slices_equal_their_single_runs() {
    let config = Config { norm: NormPlacement::Post, ..small(3) };
    let mut lab = Lab::default();
    lab.start_compare(&config);
    lab.start_sweep(&Config { depth: 1, ..config.clone() });
    let mut partial = None;
    let mut slices = 0;
    while lab.advance(7) {
        slices += 1;
        if slices == 100 {
            partial = Some(lab.state());
        }
    }
    // part way, the rows filled so far are those of the finished runs
    let partial = partial.expect("the lab takes more than 100 slices");
    let c = partial.compare.as_ref().unwrap();
    assert_eq!(c.rows.len(), 4);
    assert!(c.rows.iter().any(|r| !r.done), "part way, a row is still running");

    let state = lab.state();
    let c = state.compare.as_ref().unwrap();
    assert_eq!(c.steps, LAB_STEPS);
    for (row, single) in c.rows.iter().zip(compare(&config, LAB_STEPS)) {
        assert!(row.done);
        let row = &row.run;
        assert_eq!((row.config.residual, row.config.norm), (single.config.residual, single.config.norm));
        assert_eq!(bits(&row.loss), bits(&single.loss));
        assert_eq!(row.grad_ratio.to_bits(), single.grad_ratio.to_bits());
        assert_eq!(row.init_top_std.to_bits(), single.init_top_std.to_bits());
    }
    let s = state.sweep.as_ref().unwrap();
    assert_eq!(
        (s.depths.as_slice(), s.runs_finished),
        (&DEFAULT_SWEEP_DEPTHS[..], 4 * DEFAULT_SWEEP_DEPTHS.len())
    );
    let single = sweep(&Config { depth: 1, ..config.clone() }, &DEFAULT_SWEEP_DEPTHS, LAB_STEPS).unwrap();
    for (a, b) in s.series.iter().zip(&single) {
        assert_eq!(bits(&a.final_loss), bits(&b.final_loss));
        assert_eq!(bits(&a.grad_ratio), bits(&b.grad_ratio));
        assert_eq!(a.diverged_at, b.diverged_at);
    }

    // the state crosses to the page intact; damaged bytes are errors, not panics
    let bytes = state.encode();
    assert_eq!(LabState::decode(&bytes).unwrap(), state);
    for cut in [0, 3, 10, bytes.len() / 2, bytes.len() - 1] {
        assert!(LabState::decode(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(LabState::decode(&longer).is_err());
}
