//! Static figures: a finished run as the frame the page's panels draw (`comparisons::page`
//! draws every panel as SVG, for `<noscript>`, print, and lesson images).

use ablation_core::model::lens::AttentionMaps;
use ablation_core::model::stats::Histogram;
use ablation_training::live::frame::{Frame, Shows};
use ablation_training::live::loss_history::LossHistory;
use ablation_training::step::report::{Run, Snapshot};

/// The state the histogram and the per-layer panels show of a run that diverged: the last
/// finite one, its probe and its histogram (`Trainer::back_to_last_finite`), and its step.
pub struct LastFinite {
    pub step: usize,
    pub probe: Snapshot,
    pub histogram: Histogram,
}

/// A finished run as the frame the page would show at its end: the whole loss history, every
/// held-out measurement, and after a divergence the last finite state (`last_finite`). The
/// matrices' view's measure is the caller's to set (`ablate` measures it once for the report).
pub fn frame_of(run: &Run, last_finite: Option<LastFinite>, attention: Option<AttentionMaps>) -> Frame {
    let task = run.task.as_ref();
    let (now, histogram, shows) = match last_finite {
        Some(l) => (l.probe, l.histogram, Shows::LastFinite(l.step)),
        None => (run.last.clone(), run.histogram.clone(), Shows::Now),
    };
    Frame {
        generation: 0,
        config: run.config.clone(),
        step: run.diverged_at.unwrap_or(run.loss.len().saturating_sub(1)),
        diverged_at: run.diverged_at,
        stop_at: run.config.steps,
        init: run.init.clone(),
        now,
        histogram,
        init_histogram: run.init_histogram.clone(),
        readout_unscaled_std: run.readout_unscaled_std,
        shows,
        history: run.loss.iter().copied().collect::<LossHistory>(),
        evals: task.map_or_else(Vec::new, |t| t.evals.clone()),
        floors: task.map(|t| t.floors),
        writing: task.map(|t| t.writing.clone()),
        attention,
        matrices: None,
    }
}
