//! The histogram: what the readout reads on the probe batch, on the reader's axis.

use super::{Scene, Surface};
use crate::config::Config;
use crate::training::frame::Frame;
use crate::view::charts::histogram::Shown;
use crate::view::charts::{self, short, ChartResult, Theme};
use crate::view::words::{norm_name, shown_state, shown_state_sentence, since_init};
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
