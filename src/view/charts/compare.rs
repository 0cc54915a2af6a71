//! "All four": the loss curves of the four switch combinations together, on a log axis, with
//! a legend that also says where a run diverged.

use super::{
    beyond_mark, combination_colours, comparable_top, draw_beyond, err, frame, legend, legend_width,
    log_range, log_ticks, place_legend, plot_fractions, raised_top, short, style_mesh, ChartResult, Corner,
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
    // each run's smoothed line, stopping where it diverged (every later loss is NaN)
    let lines: Vec<Vec<(usize, f64)>> = curves
        .iter()
        .zip(&histories)
        .map(|(curve, history)| {
            let end = curve.diverged_at.unwrap_or(usize::MAX);
            history
                .buckets()
                .iter()
                .map(|b| (b.start + b.count - 1, b.smooth))
                .filter(|&(step, smooth)| step <= end && positive(smooth))
                .collect()
        })
        .collect();
    // one run far past the others would flatten them: the axis ends above the comparable
    // ones, and the others are marked where they leave it
    let largest = |line: &Vec<(usize, f64)>| line.iter().map(|p| p.1).fold(0.0, f64::max);
    let cut = comparable_top(lines.iter().map(largest));
    let (lo, hi) = log_range(lines.iter().flatten().map(|p| p.1).filter(|v| cut.is_none_or(|t| *v <= t)));
    let x_frac = |step: usize| step as f64 / steps.max(1) as f64;
    let colours = combination_colours(theme);
    let taken: Vec<(f64, f64)> = lines
        .iter()
        .flat_map(|line| {
            let points: Vec<(f64, f64)> = line.iter().map(|&(x, y)| (x_frac(x), y.min(hi))).collect();
            plot_fractions(&points, lo, hi)
        })
        .collect();
    // each run's legend entry: its final loss or its divergence, and how far past the cut
    let entries: Vec<(RGBColor, String)> = curves
        .iter()
        .zip(&lines)
        .enumerate()
        .map(|(i, (curve, line))| {
            let label = match (curve.diverged_at, curve.loss.last()) {
                (Some(s), _) => format!("{} · diverged at step {s}", curve.label),
                (None, Some(&l)) => format!("{} · {}", curve.label, short(l)),
                (None, None) => curve.label.to_string(),
            };
            let top = largest(line);
            let label = if top > hi { format!("{label} · up to {} ↑", short(top)) } else { label };
            (colours[i % colours.len()], label)
        })
        .collect();
    let legend_w = legend_width(&entries).max(250.0);
    let (corner, free) =
        place_legend(area, curves.len(), legend_w, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
    // the clipped runs run along the cut, under the legend's room
    let (clip, hi) = (hi, raised_top(lo, hi, free));
    let title = format!("the four combinations · {steps} steps");
    let ticks = log_ticks(lo, hi);
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(0..steps.max(1), (lo..hi).log_scale().with_key_points(ticks))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_labels(5).y_label_formatter(&|y| short(*y)).draw().map_err(err)?;
    let mut beyond = 0;
    for (i, (curve, line)) in curves.iter().zip(&lines).enumerate() {
        let colour = colours[i % colours.len()];
        let points: Vec<(usize, f64)> = line.iter().map(|&(x, y)| (x, y.min(clip))).collect();
        let last = points.last().copied();
        chart
            .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(theme.px(2.0))))
            .map_err(err)?;
        // past the axis's top: the largest value, where the curve first reaches the cut
        let top = largest(line);
        if top > clip {
            if let Some(&(x, _)) = points.iter().find(|p| p.1 >= clip) {
                let at = chart.backend_coord(&(x, clip));
                draw_beyond(area, at, beyond, x_frac(x) > 0.5, beyond_mark(top), colour, theme)?;
                beyond += 1;
            }
        }
        if let Some(s) = curve.diverged_at {
            // a cross where the curve ends
            let (x, y) = last.unwrap_or((s, hi));
            let cross = Text::new("✕", (x, y), theme.font(12.0).color(&colour));
            chart.plotting_area().draw(&cross).map_err(err)?;
        }
    }
    legend(area, chart.plotting_area().get_pixel_range(), corner, &entries, legend_w, theme)?;
    area.present().map_err(err)
}
