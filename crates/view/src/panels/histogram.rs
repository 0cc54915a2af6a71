//! The histogram: what the readout reads on the probe batch, on the reader's axis.

use super::{Scene, Surface};
use crate::charts::histogram::Shown;
use crate::charts::number;
use crate::charts::{self, ChartResult, Theme};
use crate::words::{norm_name, shown_state, shown_state_sentence, since_init};
use ablation_core::config::Config;
use ablation_training::live::frame::Frame;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the histogram shows, for its title: what the readout reads.
pub fn histogram_subject(c: &Config) -> String {
    if c.has_final_norm() {
        say!("histogram-subject-norm", norm = norm_name(c))
    } else {
        say!("histogram-subject")
    }
}

/// Text alternative for the histogram panel.
pub fn histogram_summary(m: &Frame) -> String {
    let (h, std) = (&m.histogram, m.act_std());
    let inside: u32 = h.counts.iter().sum();
    let total = inside + h.below + h.above + h.nan;
    let what = if m.config.has_final_norm() {
        say!("histogram-what-norm", total = total, norm = norm_name(&m.config), top = number(m.top_std()))
    } else {
        say!("histogram-what", total = total)
    };
    let (lo, hi, std) = (number(h.lo), number(h.hi), number(std));
    let (below, above) = (h.below, h.above);
    let mut sentences: Vec<String> = shown_state_sentence(m).into_iter().collect();
    sentences.push(if h.nan > 0 {
        say!(
            "histogram-summary-nan",
            what = what,
            lo = lo,
            hi = hi,
            std = std,
            below = below,
            above = above,
            nan = h.nan
        )
    } else {
        say!("histogram-summary", what = what, lo = lo, hi = hi, std = std, below = below, above = above)
    });
    sentences.extend(since_init(m));
    sentences.join(&say!("sentence-join"))
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
