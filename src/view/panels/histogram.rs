//! The histogram: what the readout reads on the probe batch, on the reader's axis.

use super::{Scene, Surface};
use crate::config::Config;
use crate::training::frame::Frame;
use crate::view::charts::histogram::Shown;
use crate::view::charts::{self, short, ChartResult, Theme};
use crate::view::words::{norm_name, shown_state, shown_state_sentence};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the histogram shows, for its title: what the readout reads.
pub fn histogram_subject(c: &Config) -> String {
    if c.has_final_norm() {
        format!("final {}(x_L)", norm_name(c))
    } else {
        "final activations x_L".into()
    }
}

/// Text alternative for the histogram panel.
pub fn histogram_summary(m: &Frame) -> String {
    let (h, std) = (&m.histogram, m.act_std());
    let inside: u32 = h.counts.iter().sum();
    let total = inside + h.below + h.above + h.nan;
    let what = if m.config.has_final_norm() {
        format!(
            "the {total} values the readout reads, the final {} of the stream's top x_L (whose std is {})",
            norm_name(&m.config),
            short(m.top_std())
        )
    } else {
        format!("the {total} final activations x_L, which the readout reads")
    };
    let mut s = format!(
        "{}Histogram of {what}, on an axis from {} to {}: std {}",
        shown_state_sentence(m),
        short(h.lo),
        short(h.hi),
        short(std)
    );
    s += &format!("; {} below the axis and {} above it", h.below, h.above);
    if h.nan > 0 {
        s += &format!("; {} NaN", h.nan);
    }
    s + "." + &since_init(m)
}

/// How the histogram differs from the one at initialisation (its outline), and why: what a
/// norm promises is std 1 before its learned scale γ, which training moves; without a norm
/// nothing holds the scale, and training may shrink or blow it up. Said once the run has
/// finished (or at once, if they are more than twice apart: `std_change`).
pub fn since_init(m: &Frame) -> String {
    match std_change(m) {
        None => String::new(),
        Some((init, now, Why::Gain(g))) => format!(
            " At initialisation (the outline) its std was {init}; now it is {now}: before its learned scale γ and shift β the norm's output still has std {g}, and training has moved γ and β. That is all LayerNorm promises: std 1.00 before γ."
        ),
        Some((init, now, why)) => format!(
            " At initialisation (the outline) its std was {init}; now it is {now}: no norm holds the scale, and {}.",
            why.words()
        ),
    }
}

/// The same in a short clause, for the caption under the status line.
pub fn std_change_clause(m: &Frame) -> String {
    match std_change(m) {
        None => String::new(),
        Some((init, now, Why::Gain(_))) => {
            format!(" act. std has gone from {init} at initialisation to {now}: the norm's learned γ and β.")
        }
        Some((init, now, _)) => {
            format!(" act. std has gone from {init} at initialisation to {now}: no norm holds it.")
        }
    }
}

/// Why what the readout reads moved from its initial std.
enum Why {
    /// A norm ends the stream; what it makes before γ and β has this std (as text).
    Gain(String),
    Shrunk,
    Grown,
    Moved,
}

impl Why {
    fn words(&self) -> &'static str {
        match self {
            Why::Gain(_) => "its learned scale γ and shift β moved",
            Why::Shrunk => "training has shrunk it (the histogram collapses towards 0)",
            Why::Grown => "it has blown up (the histogram detonates past its axis)",
            Why::Moved => "training moves it freely",
        }
    }
}

/// The std at initialisation and now (as text) and why they differ, when that is to be said.
fn std_change(m: &Frame) -> Option<(String, String, Why)> {
    let (init, now) = (m.init.readout_std, m.act_std());
    // Said once the run has finished, if the two are more than 10% apart, or at any time if one
    // is more than twice the other: while the run trains the std wanders by a few tens of percent
    // (the default's dips to 0.85 in its first steps), and a sentence that comes and goes would
    // move the page under the reader (a slide's widget grows past its slide).
    let ratio = now / init;
    let far = !ratio.is_finite() || !(0.5..=2.0).contains(&ratio);
    let apart = (ratio - 1.0).abs() > 0.1;
    if m.step == 0 || !init.is_finite() || !(far || (apart && m.finished())) {
        return None;
    }
    let why = if m.readout_unscaled_std.is_finite() {
        Why::Gain(short(m.readout_unscaled_std))
    } else if now < init / 10.0 {
        Why::Shrunk
    } else if now > init * 10.0 || !now.is_finite() {
        Why::Grown
    } else {
        Why::Moved
    };
    Some((short(init), short(now), why))
}

pub(super) fn summary(scene: &Scene) -> String {
    scene.frame.map_or_else(String::new, histogram_summary)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(f) = scene.frame else { return Ok(()) };
    let subject = histogram_subject(&f.config);
    // the initialisation's outline once the run has moved from it
    let init = (f.step > 0).then_some((&f.init_histogram, f.init.readout_std));
    let shown = Shown { now: &f.histogram, subject: &subject, std: f.act_std(), init };
    charts::histogram::draw(area, &shown, &shown_state(f), theme)
}
