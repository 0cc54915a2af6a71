//! "All four": the loss curves of the four switch combinations together, on a log axis, with
//! a legend that also says where a run diverged.

use super::number;
use super::{
    beyond_mark, combination_colours, comparable_top, draw_beyond, err, frame, legend, legend_width,
    log_range, log_ticks, place_legend, plot_fractions, raised_top, style_mesh, Axis, ChartResult, Corner,
    Theme,
};
use ablation_training::live::loss_history::LossHistory;
use ablation_training::runs::outcome::Outcome;
use ablation_training::runs::spread::Spread;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One row's curve: its label, its smoothed line (stopping where it diverged), over several
/// seeds the band from the lowest to the highest run at each of the line's steps (∞ where a
/// run had diverged), and what its legend entry says after the label.
pub struct LossCurve<'a> {
    pub label: &'a str,
    pub line: Vec<(usize, f64)>,
    pub band: Vec<(usize, f64, f64)>,
    pub end: Option<String>,
    /// Where the line ends in a divergence (a cross).
    pub diverged_at: Option<usize>,
    /// The largest value any of its runs reached (what the axis may cut).
    pub top: f64,
    /// How many runs it is of.
    pub seeds: usize,
}

/// A run's loss smoothed as the loss panel smooths it: `(step, smoothed)` per bucket, ∞ past
/// its divergence.
fn smoothed(loss: &[f64]) -> Vec<(usize, f64)> {
    let history: LossHistory = loss.iter().copied().collect();
    let end = loss.iter().position(|x| !x.is_finite()).unwrap_or(usize::MAX);
    let positive = |v: f64| v.is_finite() && v > 0.0;
    history
        .buckets()
        .iter()
        .map(|b| {
            let step = b.start + b.count - 1;
            (step, if step < end && positive(b.smooth) { b.smooth } else { f64::INFINITY })
        })
        .collect()
}

impl<'a> LossCurve<'a> {
    /// A run of "All four" (finished or in progress), labelled `label`.
    pub fn of(run: &'a Outcome, label: &'a str) -> Self {
        let line: Vec<(usize, f64)> = smoothed(&run.loss).into_iter().filter(|p| p.1.is_finite()).collect();
        let end = match (run.diverged_at, run.loss.last()) {
            (Some(s), _) => Some(say!("end-diverged", step = s)),
            (None, Some(&l)) => Some(number(l)),
            (None, None) => None,
        };
        let top = line.iter().map(|p| p.1).fold(0.0, f64::max);
        LossCurve { label, line, band: Vec::new(), end, diverged_at: run.diverged_at, top, seeds: 1 }
    }

    /// Several seeds' finished runs of one row: the median of their smoothed lines, bucket by
    /// bucket (a diverged run counting as ∞, so the line stops once most have diverged), and
    /// the band from the lowest to the highest.
    pub fn over(runs: &[&[f64]], label: &'a str) -> Self {
        let lines: Vec<Vec<(usize, f64)>> = runs.iter().map(|l| smoothed(l)).collect();
        let buckets = lines.iter().map(Vec::len).min().unwrap_or(0);
        let mut line = Vec::new();
        let mut band = Vec::new();
        for i in 0..buckets {
            let values: Vec<f64> = lines.iter().map(|l| l[i].1).collect();
            let spread = Spread::of(&values);
            let step = lines[0][i].0;
            if spread.median.is_finite() {
                line.push((step, spread.median));
            }
            if spread.min.is_finite() {
                band.push((step, spread.min, spread.max));
            }
        }
        let finals: Vec<f64> = runs.iter().map(|l| l.last().copied().unwrap_or(f64::NAN)).collect();
        let diverged = finals.iter().filter(|x| !x.is_finite()).count();
        let end = Spread::of(&finals);
        let said = if diverged > 0 {
            say!("diverged-count", k = diverged, n = runs.len())
        } else {
            say!(
                "curve-median",
                median = number(end.median),
                min = number(end.min),
                max = number(end.max),
                n = runs.len()
            )
        };
        let top = band.iter().map(|b| b.2).filter(|v| v.is_finite()).fold(0.0, f64::max);
        LossCurve { label, line, band, end: Some(said), diverged_at: None, top, seeds: runs.len() }
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
    let lines: Vec<&Vec<(usize, f64)>> = curves.iter().map(|c| &c.line).collect();
    // one run far past the others would flatten them: the axis ends above the comparable
    // ones, and the others are marked where they leave it
    let largest = |c: &LossCurve| c.top;
    let cut = comparable_top(curves.iter().map(largest));
    let band_values = curves.iter().flat_map(|c| &c.band).flat_map(|b| [b.1, b.2]).filter(|v| v.is_finite());
    let (lo, hi) = log_range(
        lines
            .iter()
            .flat_map(|l| l.iter())
            .map(|p| p.1)
            .chain(band_values)
            .filter(|v| cut.is_none_or(|t| *v <= t)),
    );
    let x_frac = |step: usize| step as f64 / steps.max(1) as f64;
    let colours = combination_colours(theme);
    // the lines and the bands' edges are what the legend must leave clear
    let edges: Vec<Vec<(usize, f64)>> = curves
        .iter()
        .flat_map(|c| {
            [c.band.iter().map(|b| (b.0, b.1)).collect(), c.band.iter().map(|b| (b.0, b.2)).collect()]
        })
        .collect();
    let taken: Vec<(f64, f64)> = lines
        .iter()
        .copied()
        .chain(&edges)
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
        .map(|(i, (curve, _))| {
            let label = match &curve.end {
                Some(end) => format!("{} · {end}", curve.label),
                None => curve.label.to_string(),
            };
            let top = largest(curve);
            let label = if top > hi { say!("curve-up-to", label = label, top = number(top)) } else { label };
            (colours[i % colours.len()], label)
        })
        .collect();
    let legend_w = legend_width(area, &entries, theme).max(250.0);
    let (corner, free) =
        place_legend(area, curves.len(), legend_w, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
    // the clipped runs run along the cut, under the legend's room
    let (clip, hi) = (hi, raised_top(lo, hi, free));
    let seeds = curves.iter().map(|c| c.seeds).max().unwrap_or(1);
    let title = say!("compare-chart-title", steps = steps, seeds = seeds);
    let ticks = log_ticks(lo, hi);
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(Axis::count(0..steps.max(1)), Axis::log_at(lo..hi, ticks))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_labels(5).y_label_formatter(&|y| number(*y)).draw().map_err(err)?;
    let mut beyond = 0;
    for (i, curve) in curves.iter().enumerate() {
        let colour = colours[i % colours.len()];
        if curve.band.len() > 1 {
            // the band: the highest run's line out, the lowest's back, under the cut
            let mut outline: Vec<(f64, f64)> =
                curve.band.iter().map(|&(x, _, top)| (x as f64, top.min(clip))).collect();
            outline.extend(curve.band.iter().rev().map(|&(x, low, _)| (x as f64, low.clamp(lo, clip))));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, colour.mix(0.18).filled())))
                .map_err(err)?;
        }
    }
    for (i, (curve, line)) in curves.iter().zip(&lines).enumerate() {
        let colour = colours[i % colours.len()];
        let points: Vec<(usize, f64)> = line.iter().map(|&(x, y)| (x, y.min(clip))).collect();
        let last = points.last().copied();
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|&(x, y)| (x as f64, y)),
                colour.stroke_width(theme.px(2.0)),
            ))
            .map_err(err)?;
        // past the axis's top: the largest value, where the curve first reaches the cut
        let top = largest(curve);
        if top > clip {
            if let Some(&(x, _)) = points.iter().find(|p| p.1 >= clip) {
                let at = chart.backend_coord(&(x as f64, clip));
                draw_beyond(area, at, beyond, x_frac(x) > 0.5, beyond_mark(top), colour, theme)?;
                beyond += 1;
            }
        }
        if let Some(s) = curve.diverged_at {
            // a cross where the curve ends
            let (x, y) = last.unwrap_or((s, hi));
            let cross = Text::new("✕", (x as f64, y), theme.font(12.0).color(&colour));
            chart.plotting_area().draw(&cross).map_err(err)?;
        }
    }
    legend(area, chart.plotting_area().get_pixel_range(), corner, &entries, legend_w, theme)?;
    area.present().map_err(err)
}
