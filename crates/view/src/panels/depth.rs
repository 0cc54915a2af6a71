//! The per-layer panel: the gradient norm and the stream's std at every depth, at
//! initialisation and now, with the pins'; or, in the weights' view (`layer_view`), each
//! sublayer's weight gradient `‖∂L/∂W_ℓ‖` at initialisation and now, with the pins' at
//! initialisation: the measure Xiong et al. (2020) bound and draw layer by layer.

use super::{and_list, with_pins, Scene, Surface};
use crate::charts::depth::{DepthCurves, Heading, WeightCurve};
use crate::charts::number;
use crate::charts::{self, ChartResult, Pinned, Theme};
use crate::words::{pin_changes, pin_description, shown_state, shown_state_sentence};
use ablation_core::config::{Config, LayerView, MATRIX_BATCHES};
use ablation_training::live::frame::Frame;
use ablation_training::measures::per_matrix::MatrixGradients;
use ablation_training::runs::pinned::PinState;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Text alternative for the per-depth panel.
pub fn depth_summary(m: &Frame) -> String {
    let (init, now) = (&m.init, &m.now);
    let top = now.grad_norm.len() - 1;
    let mut sentences: Vec<String> = shown_state_sentence(m).into_iter().collect();
    sentences.push(say!(
        "depth-summary-gradient",
        bottom_now = number(now.grad_norm[0]),
        bottom_init = number(init.grad_norm[0]),
        top = top,
        top_now = number(now.grad_norm[top]),
        top_init = number(init.grad_norm[top])
    ));
    sentences.push(say!(
        "depth-summary-std",
        input = number(now.act_std[0]),
        top_now = number(now.act_std[top]),
        top_init = number(init.act_std[top])
    ));
    sentences.extend(split_sentence(&m.config));
    sentences.join(&say!("sentence-join"))
}

/// "Sublayers 0–3 are the encoder's (2 layers of self-attention and FFN) and 4–9 the
/// decoder's (2 layers of masked self-attention, cross-attention and FFN); x_4 is the
/// encoder's last output." for an encoder–decoder; None otherwise.
pub fn split_sentence(config: &Config) -> Option<String> {
    let (end, depth, n) = (config.encoder_sublayers(), config.depth, config.encoder_layers());
    (end > 0)
        .then(|| say!("depth-split", encoder_last = end - 1, n = n, decoder_first = end, last = depth - 1))
}

/// The pins' numbers for the per-layer panel's text alternative.
pub fn pins_depth_summary(pins: &[PinState], live: &Config) -> String {
    let each =
        pins.iter().enumerate().filter_map(|(i, p)| Some((i, p, &p.frame.as_ref()?.now))).map(|(i, p, s)| {
            let top = s.grad_norm.len() - 1;
            let loss = say!(
                "depth-pin",
                bottom = number(s.grad_norm[0]),
                top = top,
                top_grad = number(s.grad_norm[top]),
                top_std = number(s.act_std[top])
            );
            say!("pin-loss", pin = i + 1, what = pin_description(&p.pin.config, live), loss = loss)
        });
    each.collect::<Vec<_>>().join(&say!("end-join"))
}

/// Which sublayers of `config`'s stack attend.
fn attending(config: &Config, depth: usize) -> Vec<bool> {
    (0..depth).map(|l| config.attends_at(l)).collect()
}

/// The bottom and top sublayer of a kind (`attention`) in `values`, and their weight-gradient
/// norms: `(bottom, top, ‖∂L/∂W‖ at the bottom, at the top)`.
fn ends(values: &[f64], attends: &[bool], attention: bool) -> Option<(usize, usize, f64, f64)> {
    let mut of_kind = (0..values.len()).filter(|&l| attends[l] == attention);
    let bottom = of_kind.next()?;
    let top = of_kind.next_back()?; // two at least: a single sublayer has no bottom and top
    Some((bottom, top, values[bottom], values[top]))
}

/// "the top FFN's ‖∂L/∂W‖ is 0.31, 0.52× the bottom one's (0.6)", for each kind the stack has
/// two of.
fn ends_words(values: &[f64], config: &Config) -> Vec<String> {
    let attends = attending(config, values.len());
    [(false, ffn_name(config)), (true, "attention")]
        .into_iter()
        .filter_map(|(attention, kind)| {
            let (_, _, bottom, top) = ends(values, &attends, attention)?;
            Some(say!(
                "depth-ends",
                kind = kind,
                top = number(top),
                ratio = number(top / bottom),
                bottom = number(bottom)
            ))
        })
        .collect()
}

/// What a stack's non-attention sublayers are called, as `depth-ends` selects it.
fn ffn_name(config: &Config) -> &'static str {
    match config.sublayer {
        ablation_core::config::SublayerKind::Mlp => "mlp",
        _ => "ffn",
    }
}

/// Text alternative for the weights' view.
pub fn weights_summary(m: &Frame) -> String {
    let (init, now) = (&m.init.weight_grad_norm, &m.now.weight_grad_norm);
    let mut sentences: Vec<String> = shown_state_sentence(m).into_iter().collect();
    sentences.push(say!("weights-summary", n = init.len()));
    sentences.extend(split_sentence(&m.config));
    let at_init = ends_words(init, &m.config);
    if !at_init.is_empty() {
        sentences.push(say!("weights-at-init", ends = and_list(&at_init)));
    }
    let at_now = ends_words(now, &m.config);
    if m.step > 0 && !at_now.is_empty() {
        sentences.push(say!("weights-at-step", step = m.step, ends = and_list(&at_now)));
    }
    sentences.join(&say!("sentence-join"))
}

/// The pins' numbers for the weights' view, at their initialisation.
pub fn pins_weights_summary(pins: &[PinState], live: &Config) -> String {
    let each = pins.iter().enumerate().filter_map(|(i, p)| {
        let f = p.frame.as_ref()?;
        let words = ends_words(&f.init.weight_grad_norm, &f.config);
        let what = if words.is_empty() { say!("weights-none") } else { and_list(&words) };
        Some(say!("weights-pin", pin = i + 1, what = pin_description(&p.pin.config, live), ends = what))
    });
    each.collect::<Vec<_>>().join(&say!("end-join"))
}

pub(super) fn summary(scene: &Scene) -> String {
    match scene.frame.map(|f| f.config.layer_view) {
        Some(LayerView::Weights) => with_pins(scene, weights_summary, pins_weights_summary),
        Some(LayerView::Matrices) => with_pins(scene, matrices_summary, pins_matrices_summary),
        _ => with_pins(scene, depth_summary, pins_depth_summary),
    }
}

/// A pin's curve at initialisation in the weights' views: its values, which of its sublayers
/// attend, and its legend label.
struct PinCurve<'a> {
    values: &'a [f64],
    attention: Vec<bool>,
    label: String,
}

impl PinCurve<'_> {
    fn curve(&self) -> WeightCurve<'_> {
        WeightCurve { label: self.label.clone(), values: self.values, attention: &self.attention }
    }
}

/// Each drawn pin's curve, its values read from its frame by `values`.
fn pin_curves<'a>(scene: &Scene<'a>, live: &Config, values: fn(&Frame) -> &[f64]) -> Vec<PinCurve<'a>> {
    let curve = |(_, pf): (_, &'a Frame)| PinCurve {
        values: values(pf),
        attention: attending(&pf.config, pf.config.depth),
        label: say!("weights-pin-label", changes = pin_changes(&pf.config, live)),
    };
    scene.pinned().into_iter().map(curve).collect()
}

/// The matrices' view's measure of a frame so far (none before its first batch).
fn matrix_values(f: &Frame) -> &[f64] {
    f.matrices.as_ref().map_or(&[], |m| &m.values)
}

fn draw_weights<DB: Surface>(
    scene: &Scene,
    f: &Frame,
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
) -> ChartResult {
    let attends = attending(&f.config, f.config.depth);
    let pinned = pin_curves(scene, &f.config, |pf| &pf.init.weight_grad_norm);
    let pins: Vec<WeightCurve> = pinned.iter().map(PinCurve::curve).collect();
    let init =
        WeightCurve { label: say!("weights-init"), values: &f.init.weight_grad_norm, attention: &attends };
    let now = WeightCurve {
        label: say!("readout-note-step", step = f.step),
        values: &f.now.weight_grad_norm,
        attention: &attends,
    };
    let now = (f.step > 0).then_some(&now); // before the first step it is the initialisation
    let split = Some(f.config.encoder_sublayers()).filter(|&s| s > 0);
    let heading = Heading { titles: &[say!("weights-title")], notes: &shown_state(f) };
    charts::depth::draw_weights(area, &heading, &init, now, &pins, split, theme)
}

/// The matrices' view's titles, longest first: which matrix of each sublayer it draws.
fn matrices_titles(config: &Config) -> Vec<String> {
    let kind = matrices_kind(config);
    let n = if kind == "block" { 3 } else { 2 };
    (0..n).map(|i| say!("matrices-title", kind = kind, length = i)).collect()
}

/// The matrices' view's sublayers, as its messages select them: `mlp`, `ffn`, `attention` or
/// `block`.
fn matrices_kind(config: &Config) -> &'static str {
    match config.sublayer {
        ablation_core::config::SublayerKind::Mlp => "mlp",
        ablation_core::config::SublayerKind::Ffn => "ffn",
        ablation_core::config::SublayerKind::Attention => "attention",
        ablation_core::config::SublayerKind::Block => "block",
    }
}

/// The title's notes, longest first: "at init, 100 batches" or how far the measure has got.
fn measured_notes(m: Option<&MatrixGradients>) -> [String; 2] {
    let short = match m {
        None => say!("matrices-note-measuring"),
        Some(m) => say!("matrices-note", batches = m.batches, of = m.of, done = done(m)),
    };
    [measured_words(m), short]
}

/// "at initialisation, the mean over 100 batches" (or how far the measure has got).
fn measured_words(m: Option<&MatrixGradients>) -> String {
    match m {
        None => say!("matrices-measuring", of = MATRIX_BATCHES),
        Some(m) => say!("matrices-measured", batches = m.batches, of = m.of, done = done(m)),
    }
}

/// Whether the measure has all its batches, as the messages select it: `yes` or `no`.
fn done(m: &MatrixGradients) -> &'static str {
    if m.batches < m.of {
        "no"
    } else {
        "yes"
    }
}

/// Text alternative for the matrices' view.
pub fn matrices_summary(m: &Frame) -> String {
    let matrices = m.matrices.as_ref();
    let words = matrices.map(|x| ends_words(&x.values, &m.config)).unwrap_or_default();
    let mut sentences = vec![say!(
        "matrices-summary",
        n = m.config.depth,
        kind = matrices_kind(&m.config),
        measured = measured_words(matrices),
        ends = if words.is_empty() { String::new() } else { say!("matrices-ends", ends = and_list(&words)) }
    )];
    sentences.extend(split_sentence(&m.config));
    sentences.join(&say!("sentence-join"))
}

/// The pins' numbers for the matrices' view.
pub fn pins_matrices_summary(pins: &[PinState], live: &Config) -> String {
    let each = pins.iter().enumerate().filter_map(|(i, p)| {
        let f = p.frame.as_ref()?;
        if f.config.layer_view != LayerView::Matrices {
            let what = pin_description(&p.pin.config, live);
            return Some(say!("matrices-pin-elsewhere", pin = i + 1, what = what));
        }
        let words = f.matrices.as_ref().map(|x| ends_words(&x.values, &f.config)).unwrap_or_default();
        let ends = if words.is_empty() { say!("matrices-none") } else { and_list(&words) };
        Some(say!(
            "matrices-pin",
            pin = i + 1,
            what = pin_description(&p.pin.config, live),
            measured = measured_words(f.matrices.as_ref()),
            ends = ends
        ))
    });
    each.collect::<Vec<_>>().join(&say!("end-join"))
}

fn draw_matrices<DB: Surface>(
    scene: &Scene,
    f: &Frame,
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
) -> ChartResult {
    let attends = attending(&f.config, f.config.depth);
    let pinned = pin_curves(scene, &f.config, matrix_values);
    let pins: Vec<WeightCurve> = pinned.iter().map(PinCurve::curve).collect();
    let init = WeightCurve { label: say!("weights-init"), values: matrix_values(f), attention: &attends };
    let split = Some(f.config.encoder_sublayers()).filter(|&s| s > 0);
    let notes = measured_notes(f.matrices.as_ref());
    let titles = matrices_titles(&f.config);
    let heading = Heading { titles: &titles, notes: &notes };
    charts::depth::draw_weights(area, &heading, &init, None, &pins, split, theme)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(f) = scene.frame else { return Ok(()) };
    match f.config.layer_view {
        LayerView::Weights => return draw_weights(scene, f, area, theme),
        LayerView::Matrices => return draw_matrices(scene, f, area, theme),
        LayerView::Activations => {}
    }
    let pins: Vec<Pinned> = scene.pinned().into_iter().map(|(p, _)| p).collect();
    let curves = DepthCurves {
        grad_init: &f.init.grad_norm,
        grad_now: &f.now.grad_norm,
        std_init: &f.init.act_std,
        std_now: &f.now.act_std,
        pins: &pins,
        split: Some(f.config.encoder_sublayers()).filter(|&s| s > 0),
    };
    charts::depth::draw(area, &curves, &shown_state(f), theme)
}
