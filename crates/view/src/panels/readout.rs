//! The lens: what each layer's stream would predict if the readout read it there, and how
//! much each layer changes the stream.

use super::{percent, Scene, Surface};
use crate::charts::number;
use crate::charts::readout::ReadoutCurves;
use crate::charts::{self, ChartResult, Theme};
use crate::words::shown_state;
use ablation_training::live::frame::Frame;
use ablation_training::measures::tuned_lens::TunedLensState;
use ablation_training::measures::tuned_lens::FIT_STEPS;
use ablation_training::step::report::Snapshot;
use ablation_training::step::train::Eval;
use ablation_training::tasks::task::TaskFloors;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The share of the way from the start line to the final loss that the summary looks for.
const MOST_OF_THE_WAY: f64 = 0.8;

/// The floors the readout chart draws, as (name, loss): the text's unigram and bigram lines,
/// the copy task's chance; none for the teacher.
pub fn readout_floors(floors: Option<TaskFloors>) -> Vec<(String, f64)> {
    match floors {
        Some(TaskFloors::Text(f)) => vec![("unigram".into(), f.unigram), ("bigram".into(), f.bigram)],
        Some(TaskFloors::Chance { chance }) => vec![("chance".into(), chance)],
        None => vec![],
    }
}

/// Where and when the readout was measured, for the chart's title, longest first: at the last
/// held-out measurement (`last_eval`, a sequence task's), else on the probe batch at `step`.
pub fn readout_notes(last_eval: Option<&Eval>, step: usize) -> Vec<String> {
    match last_eval {
        Some(e) => {
            vec![say!("readout-note-held-out", step = e.step), say!("readout-note-step", step = e.step)]
        }
        None => vec![say!("readout-note-probe", step = step), say!("readout-note-step", step = step)],
    }
}

/// The readout chart's curves from the probe at initialisation and at the moment shown, with
/// the floors of the task and the pins' readouts.
pub fn readout_curves<'a>(
    init: &'a Snapshot,
    now: &'a Snapshot,
    floors: &'a [(String, f64)],
    pins: &'a [(String, &'a [f64])],
    tuned: &'a [f64],
) -> ReadoutCurves<'a> {
    ReadoutCurves {
        readout_init: &init.readout_loss,
        readout_now: &now.readout_loss,
        ratio_init: &init.update_ratio,
        ratio_now: &now.update_ratio,
        floors,
        pins,
        tuned,
    }
}

/// Where a readout curve `r` (ℓ = 0..=L) first gets `MOST_OF_THE_WAY` from `start` to its
/// last value, if it gets below `start` at all.
fn most_of_the_way(r: &[f64], start: f64) -> Option<usize> {
    let last = *r.last()?;
    (last < start).then_some(())?; // NaN, or never below the start: no way made
    (0..r.len()).find(|&l| start - r[l] >= MOST_OF_THE_WAY * (start - last))
}

/// The tuned lens in words: under way, failed, or what it reads against the logit lens.
pub fn tuned_lens_sentence(lens: &TunedLensState, m: &Frame) -> String {
    if let Some(why) = &lens.failed {
        return say!("lens-failed", why = why.as_str());
    }
    if !lens.done {
        return say!("lens-fitting", step = lens.step, done = lens.fit_steps, total = FIT_STEPS);
    }
    let t = &lens.losses;
    let depth = t.len().saturating_sub(1);
    let start = match m.floors {
        Some(TaskFloors::Text(f)) => f.unigram,
        Some(TaskFloors::Chance { chance }) => chance,
        None => t.first().copied().unwrap_or(f64::NAN),
    };
    let mid = depth / 2;
    // one sentence of clauses, each its own message (a translation keeps their order)
    let mut out = say!("lens-reads", step = lens.step, mid = mid, loss = number(t[mid]));
    if m.step == lens.step && m.now.readout_loss.len() == t.len() {
        out += &say!("lens-against-logit", loss = number(m.now.readout_loss[mid]));
    }
    out += &match most_of_the_way(t, start) {
        Some(l) => say!("lens-most", share = percent(MOST_OF_THE_WAY), layer = l, depth = depth),
        None => say!("lens-no-depth"),
    };
    // what the upper layers contribute, in nats of the same held-out loss whatever the
    // placement (the update ratio is not comparable across placements: docs/findings.md)
    let gain = t[0] - t[depth];
    if depth >= 2 && gain > 0.0 {
        out += &say!("lens-upper", share = percent((t[mid] - t[depth]) / gain));
    }
    if m.step != lens.step {
        out += &say!("lens-since");
    }
    out + &say!("lens-end")
}

fn median(xs: &[f64]) -> f64 {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    ablation_core::order::sort_by(&mut v, f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The panel's text: where the readout loss falls, how far up the stack most of the final
/// loss is reached (from the unigram line on the text, chance on copy, `x₀`'s readout on the
/// teacher), and how much the lower and upper layers change the stream.
pub fn readout_summary(m: &Frame) -> String {
    let r = &m.now.readout_loss;
    let depth = r.len().saturating_sub(1);
    if r.is_empty() {
        return say!("readout-none");
    }
    let source = match m.evals.last() {
        Some(e) => say!("readout-source-held-out", step = e.step),
        None => say!("readout-source-probe", step = m.step),
    };
    let (start_name, start) = match m.floors {
        Some(TaskFloors::Text(f)) => ("unigram", f.unigram),
        Some(TaskFloors::Chance { chance }) => ("chance", chance),
        None => ("input", r[0]),
    };
    let start_name = say!("readout-start", start = start_name);
    let last = r[depth];
    let mut sentences =
        vec![say!("readout-top", source = source, input = number(r[0]), depth = depth, top = number(last))];
    if last.is_nan() || last >= start || depth == 0 {
        sentences.push(say!("readout-none-below", start = start_name, value = number(start)));
    } else {
        let reached = most_of_the_way(r, start).unwrap_or(depth);
        let (drop_at, _) = (0..depth)
            .map(|l| (l, r[l] - r[l + 1]))
            .filter(|(_, d)| d.is_finite())
            .fold((0, f64::NEG_INFINITY), |best, x| if x.1 > best.1 { x } else { best });
        sentences.push(say!(
            "readout-most",
            reached = reached,
            depth = depth,
            share = percent(MOST_OF_THE_WAY),
            start = start_name,
            value = number(start),
            layer = drop_at,
            from = number(r[drop_at]),
            to = number(r[drop_at + 1]),
        ));
    }
    sentences.extend(update_sentence(&m.init.update_ratio, &m.now.update_ratio));
    sentences.join(&say!("sentence-join"))
}

/// How much the layers change the stream: the median now and at initialisation, and the
/// medians of the lower and upper halves of the stack now.
fn update_sentence(init: &[f64], now: &[f64]) -> Option<String> {
    if now.is_empty() {
        return None;
    }
    let half = now.len() / 2;
    let (now_median, init_median) = (percent(median(now)), percent(median(init)));
    Some(if half > 0 {
        say!(
            "readout-update-halves",
            now = now_median,
            init = init_median,
            lower = percent(median(&now[..half])),
            upper = percent(median(&now[half..]))
        )
    } else {
        say!("readout-update", now = now_median, init = init_median)
    })
}

pub(super) fn ready(scene: &Scene) -> bool {
    scene.frame.is_some_and(|f| !f.now.readout_loss.is_empty())
}

pub(super) fn summary(scene: &Scene) -> String {
    let Some(f) = scene.frame else { return String::new() };
    match scene.tuned_lens {
        Some(lens) => [readout_summary(f), tuned_lens_sentence(lens, f)].join(&say!("sentence-join")),
        None => readout_summary(f),
    }
}

/// The chart's title note: after a divergence, the last finite state it shows (as the
/// histogram's and the per-layer panel's say); else where and when the readout was measured.
fn notes(f: &Frame) -> Vec<String> {
    let shown = shown_state(f);
    if shown.is_empty() {
        readout_notes(f.evals.last(), f.step)
    } else {
        shown
    }
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(f) = scene.frame else { return Ok(()) };
    let floors = readout_floors(f.floors);
    let pins: Vec<(String, &[f64])> =
        scene.pinned().into_iter().map(|(p, frame)| (p.label, frame.now.readout_loss.as_slice())).collect();
    let tuned = scene.tuned_lens.filter(|l| l.done).map_or(&[][..], |l| &l.losses[..]);
    let curves = readout_curves(&f.init, &f.now, &floors, &pins, tuned);
    charts::readout::draw(area, &curves, &notes(f), theme)
}
