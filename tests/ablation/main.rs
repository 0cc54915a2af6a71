//! The comparisons ("All four", the depth sweep, the layer knockout) against their
//! definitions: each entry is the single run of its configuration, bit for bit, however the
//! work is sliced; a knocked-out layer is the stack built without it.
//!
//! One test binary, by feature: `comparisons.rs`, `knockout.rs`; the helpers they share are here.

mod comparisons;
mod knockout;

use ablation_playground::comparisons::{all_four_here, sweep_here};
use ablation_playground::config::*;
use ablation_playground::model::batch::Batch;
use ablation_playground::model::param::Params;
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::model::stack::{outputs, Stack};
use ablation_playground::training::measures::knockout::{
    draw_layers, knockout, random_counts, Knockout, KnockoutInProgress, Removal, DRAWS,
};
use ablation_playground::training::runs::all_four::four_combinations;
use ablation_playground::training::runs::outcome::Outcome;
use ablation_playground::training::runs::sweep::{parse_depths, SweepSeries, MAX_SWEEP_DEPTHS};
use ablation_playground::training::step::report::{run, trained, Run, RunInProgress, Snapshot};
use ablation_playground::training::tasks::data::DataStream;
use ablation_playground::Trainer;
use nalgebra::DMatrix;

/// Small enough to train many times in a test, deep enough to have a middle.
fn small(depth: usize) -> Config {
    Config { depth, width: 16, tokens: 8, ..Config::default() }
}

/// Plain SGD with a huge step on a large init: the runs without a norm explode.
fn diverging(depth: usize) -> Config {
    Config {
        norm: NormPlacement::Off,
        init_gain: 3.0,
        optimizer: OptimizerKind::Sgd,
        learning_rate: 5.0,
        ..small(depth)
    }
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

// `==` on structs of f64 fails on NaN (a diverged run has many) and passes 0.0 == −0.0; these
// compare bits.

fn assert_same_snapshot(a: &Snapshot, b: &Snapshot) {
    assert_eq!(bits(&a.act_std), bits(&b.act_std));
    assert_eq!(bits(&a.grad_norm), bits(&b.grad_norm));
    assert_eq!(bits(&a.weight_grad_norm), bits(&b.weight_grad_norm));
    assert_eq!(a.probe_loss.to_bits(), b.probe_loss.to_bits());
}

fn assert_same_outcomes(a: &[Outcome], b: &[Outcome]) {
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(b) {
        assert_eq!(a.config, b.config);
        let numbers = |o: &Outcome| bits(&[o.init_top_std, o.grad_ratio, o.final_loss]);
        assert_eq!(numbers(a), numbers(b), "{:?}", a.config);
        assert_eq!(a.diverged_at, b.diverged_at);
        assert_eq!(bits(&a.loss), bits(&b.loss));
    }
}

fn assert_same_series(a: &[SweepSeries], b: &[SweepSeries]) {
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(b) {
        assert_eq!((a.residual, a.norm), (b.residual, b.norm));
        assert_eq!(bits(&a.final_loss), bits(&b.final_loss));
        assert_eq!(bits(&a.grad_ratio), bits(&b.grad_ratio));
        assert_eq!(a.diverged_at, b.diverged_at);
    }
}

/// An outcome is what the single run of its configuration measured.
fn assert_outcome_is_the_run(outcome: &Outcome, run: &Run, keeps_loss: bool) {
    let top = run.config.depth;
    let what = format!("{:?}", run.config);
    assert_eq!(outcome.config, run.config, "{what}");
    assert_eq!(outcome.init_top_std.to_bits(), run.init.act_std[top].to_bits(), "{what}");
    let ratio = run.init.grad_norm[0] / run.init.grad_norm[top];
    assert_eq!(outcome.grad_ratio.to_bits(), ratio.to_bits(), "{what}");
    assert_eq!(outcome.final_loss.to_bits(), run.loss.last().unwrap().to_bits(), "{what}");
    assert_eq!(outcome.diverged_at, run.diverged_at, "{what}");
    if keeps_loss {
        assert_eq!(bits(&outcome.loss), bits(&run.loss), "{what}");
        if run.diverged_at.is_none() {
            // All four's rows keep the lens of the trained stack: the run's own, to the bit
            assert_eq!(bits(&outcome.readout_loss), bits(&run.last.readout_loss), "{what}");
        }
    }
}
