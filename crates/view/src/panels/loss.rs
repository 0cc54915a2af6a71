//! The loss: the training loss of the live run and its pins, a sequence task's held-out loss
//! and its floors.

use super::spread::spread_text;
use super::{with_pins, Scene, Surface};
use crate::charts::loss::HeldOut;
use crate::charts::number;
use crate::charts::{self, ChartResult, Pinned, Theme};
use crate::words::pin_description;
use ablation_core::config::Config;
use ablation_training::live::frame::Frame;
use ablation_training::runs::pinned::PinState;
use ablation_training::runs::spread::Spread;
use ablation_training::step::train::Eval;
use ablation_training::tasks::task::TaskFloors;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Text alternative for the loss panel.
pub fn loss_summary(m: &Frame) -> String {
    let h = &m.history;
    let (Some(last), Some(first)) = (h.last(), h.first()) else {
        return say!("loss-none");
    };
    let mut sentences = vec![match m.diverged_at {
        Some(at) => say!("loss-diverged", first = number(first), at = at),
        None => say!(
            "loss-training",
            step = h.len(),
            last = number(last),
            first = number(first),
            lowest = number(h.lowest()),
            smooth = number(h.buckets().last().map_or(last, |b| b.smooth))
        ),
    }];
    if let (Some(e), Some(floors)) = (m.evals.last(), m.floors) {
        sentences.push(match floors {
            TaskFloors::Text(f) => say!(
                "loss-held-out-text",
                step = e.step,
                loss = number(e.loss),
                unigram = number(f.unigram),
                bigram = number(f.bigram)
            ),
            TaskFloors::Chance { chance } => {
                say!("loss-held-out-chance", step = e.step, loss = number(e.loss), chance = number(chance))
            }
        });
    }
    sentences.join(&say!("sentence-join"))
}

/// The pins' numbers for the loss panel's text alternative.
pub fn pins_loss_summary(pins: &[PinState], live: &Config) -> String {
    let each = pins.iter().enumerate().map(|(i, p)| {
        let what = pin_description(&p.pin.config, live);
        let Some(f) = &p.frame else {
            return say!("pin-loss", pin = i + 1, what = what, loss = say!("pin-waiting"));
        };
        let mut loss = match (f.diverged_at, f.history.last()) {
            (Some(at), _) => say!("end-diverged", step = at),
            (None, Some(l)) => say!("end-loss", loss = number(l)),
            (None, None) => say!("pin-probe-loss", loss = number(f.now.probe_loss)),
        };
        // a pin over several seeds: the spread of their last losses once all are in
        if p.seeds.len() > 1 && p.done {
            let last: Vec<f64> = p
                .seeds
                .iter()
                .map(|(_, f)| f.as_ref().and_then(|f| f.history.last()).unwrap_or(f64::NAN))
                .collect();
            let seeds = say!("pin-seeds", n = p.seeds.len(), spread = spread_text(&Spread::of(&last)));
            loss += &say!("clause", text = seeds);
        }
        if !p.done {
            loss += &say!("pin-computing", step = f.step);
        }
        say!("pin-loss", pin = i + 1, what = what, loss = loss)
    });
    each.collect::<Vec<_>>().join(&say!("end-join"))
}

pub(super) fn summary(scene: &Scene) -> String {
    with_pins(scene, loss_summary, pins_loss_summary)
}

/// The held-out loss at each measured step, and each floor with its name.
pub type HeldOutParts = (Vec<(usize, f64)>, Vec<(&'static str, f64)>);

/// The held-out curve and the named floors, from a sequence task's measurements.
pub fn held_out_parts(evals: &[Eval], floors: Option<TaskFloors>) -> HeldOutParts {
    let loss = evals.iter().map(|e| (e.step, e.loss)).collect();
    let floors = match floors {
        None => vec![],
        Some(TaskFloors::Text(f)) => vec![("unigram", f.unigram), ("bigram", f.bigram)],
        Some(TaskFloors::Chance { chance }) => vec![("chance", chance)],
    };
    (loss, floors)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(f) = scene.frame else { return Ok(()) };
    let pins: Vec<Pinned> = scene.pinned().into_iter().map(|(p, _)| p).collect();
    let (loss, floors) = held_out_parts(&f.evals, f.floors);
    let held_out = HeldOut { loss: &loss, floors: &floors };
    charts::loss::draw(area, &f.history, f.diverged_at, &pins, &held_out, theme)
}
