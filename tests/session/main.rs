//! The session behind the page and the frames it sends, natively: what the worker runs is
//! exactly this code compiled to wasm.
//!
//! One test binary, by feature: `runs.rs` a run as it trains, `recovery.rs` what it keeps and
//! restores; the helpers they share are here.

mod recovery;
mod runs;

use ablation_playground::comparisons::page::svgs;
use ablation_playground::comparisons::ComparisonsState;
use ablation_playground::training::live::frame::{Frame, Shows};
use ablation_playground::training::live::loss_history::CAPACITY;
use ablation_playground::training::live::session::Session;
use ablation_playground::training::step::report::run;
use ablation_playground::training::step::train::Trainer;
use ablation_playground::view::charts::{self, Theme};
use ablation_playground::view::panels::{depth, histogram, loss};
use ablation_playground::view::words;
use ablation_playground::{Config, NormPlacement, OptimizerKind, SublayerKind};
use plotters::prelude::*;

fn trained(config: &Config, steps: usize) -> Session {
    let mut s = Session::new(config);
    for _ in 0..steps {
        s.train_step();
    }
    s
}
