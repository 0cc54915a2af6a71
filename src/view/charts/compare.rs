//! "All four": the loss curves of the four switch combinations together, on a log axis, with
//! a legend that also says where a run diverged.

use super::{
    combination_colours, err, frame, legend, log_range, log_ticks, short, style_mesh, ChartResult, Corner,
    Theme,
};
use crate::training::loss_history::LossHistory;
use crate::training::outcome::Outcome;
use plotters::coord::combinators::BindKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One run's curve: its label, its losses (NaN after divergence) and the divergence step.
pub struct LossCurve<'a> {
    pub label: &'a str,
    pub loss: &'a [f64],
    pub diverged_at: Option<usize>,
}

impl<'a> LossCurve<'a> {
    /// A run of "All four" (finished or in progress), labelled `label`.
    pub fn of(run: &'a Outcome, label: &'a str) -> Self {
        LossCurve { label, loss: &run.loss, diverged_at: run.diverged_at }
    }
}

/// `curves` in the order of `compare::four_combinations` (their colours follow it); a curve
/// may be partial (a run in progress). `steps` fixes the x axis, so it does not jump as runs
/// fill in.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[LossCurve],
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    // Each fresh batch makes the per-step loss noisy: four raw curves would hide each other,
    // so each is drawn as the loss panel's smoothed line, in a bounded number of points.
    let histories: Vec<LossHistory> = curves.iter().map(|c| c.loss.iter().copied().collect()).collect();
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let (lo, hi) = log_range(histories.iter().flat_map(|h| h.buckets().iter().map(|b| b.smooth)));
    let title = format!("the four combinations · {steps} steps");
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(0..steps.max(1), (lo..hi).log_scale().with_key_points(log_ticks(lo, hi)))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_labels(5).y_label_formatter(&|y| short(*y)).draw().map_err(err)?;
    let colours = combination_colours(theme);
    let mut entries = Vec::new();
    for (i, (curve, history)) in curves.iter().zip(&histories).enumerate() {
        let colour = colours[i % colours.len()];
        // the average stands still after a divergence (every later loss is NaN): the line
        // stops there
        let end = curve.diverged_at.unwrap_or(usize::MAX);
        let points: Vec<(usize, f64)> = history
            .buckets()
            .iter()
            .map(|b| (b.start + b.count - 1, b.smooth))
            .filter(|&(step, smooth)| step <= end && positive(smooth))
            .collect();
        let last = points.last().copied();
        chart.draw_series(LineSeries::new(points, colour.stroke_width(theme.px(2.0)))).map_err(err)?;
        let label = match (curve.diverged_at, curve.loss.last()) {
            (Some(s), _) => {
                // a cross where the curve ends
                let (x, y) = last.unwrap_or((s, hi));
                let cross = Text::new("✕", (x, y), theme.font(12.0).color(&colour));
                chart.plotting_area().draw(&cross).map_err(err)?;
                format!("{} · diverged at step {s}", curve.label)
            }
            (None, Some(&l)) => format!("{} · {}", curve.label, short(l)),
            (None, None) => curve.label.to_string(),
        };
        entries.push((colour, label));
    }
    legend(area, chart.plotting_area().get_pixel_range(), Corner::TopRight, &entries, 250.0, theme)?;
    area.present().map_err(err)
}
