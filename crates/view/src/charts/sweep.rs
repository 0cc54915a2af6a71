//! The depth sweep: side by side, the loss after N steps and the gradient ratio
//! `‖∂L/∂x₀‖ / ‖∂L/∂x_L‖` at initialisation against depth, for the four switch combinations.
//! Both axes are logarithmic: depths double, losses and ratios span decades.

use super::number;
use super::{
    beyond_label, beyond_mark, combination_colours, comparable_top, draw_beyond, err, fitted_titles, frame,
    legend, legend_width, log_range, log_ticks, place_legend, plot_fractions, raised_top, spaced_ticks,
    style_mesh, Axis, ChartResult, Corner, Theme,
};
use ablation_training::runs::sweep::SweepSeries;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One combination across the depths; the lists may be shorter than the depths (a sweep in
/// progress fills them in from the shallow end).
pub struct SweepCurve<'a> {
    pub label: &'a str,
    /// Its name where a phone leaves little room for the legend ("LN (pre)").
    pub short: String,
    pub final_loss: &'a [f64],
    pub grad_ratio: &'a [f64],
    pub diverged_at: &'a [Option<usize>],
    /// Over several seeds, the lowest and highest run's loss at each depth (else empty).
    pub band: &'a [(f64, f64)],
}

impl<'a> SweepCurve<'a> {
    /// One combination of a sweep (finished or in progress), labelled `label`.
    pub fn of(series: &'a SweepSeries, label: &'a str) -> Self {
        SweepCurve {
            label,
            short: crate::words::combination_short(series.residual, series.norm),
            final_loss: &series.final_loss,
            grad_ratio: &series.grad_ratio,
            diverged_at: &series.diverged_at,
            band: &[],
        }
    }
}

/// `curves` in the order of `compare::four_combinations` (their colours follow it).
pub fn draw<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    depths: &[usize],
    curves: &[SweepCurve<'a>],
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let (left, right) = area.split_horizontally(area.dim_in_pixel().0 / 2);
    let colours = combination_colours(theme);
    // each title the longest that fits its half (a phone's is narrow)
    let band = if curves.iter().any(|c| !c.band.is_empty()) { "yes" } else { "no" };
    let loss = [
        say!("sweep-chart-loss", steps = steps, band = band),
        say!("sweep-chart-loss", steps = steps, band = "no"),
        say!("sweep-chart-loss-short"),
    ];
    let ratio = [say!("sweep-chart-ratio"), say!("sweep-chart-ratio-short")];
    let panels = [
        (&left, fitted_titles(&left, &loss.each_ref().map(String::as_str), &[], theme)),
        (&right, fitted_titles(&right, &ratio.each_ref().map(String::as_str), &[], theme)),
    ];
    let deepest = depths.iter().copied().max().unwrap_or(1) as f64;
    let shallowest = depths.iter().copied().min().unwrap_or(1) as f64;
    // a little room either side so the end points are not on the frame
    let x_range = (shallowest / 1.25)..(deepest.max(shallowest * 2.0) * 1.25);
    // a label at every depth swept: they are what the reader chose
    let depth_ticks: Vec<f64> = depths.iter().map(|&d| d as f64).collect();
    let x_frac = |d: f64| (d.ln() - x_range.start.ln()) / (x_range.end.ln() - x_range.start.ln());
    for (panel, (sub_area, title)) in panels.into_iter().enumerate() {
        let values = |curve: &SweepCurve<'a>| if panel == 0 { curve.final_loss } else { curve.grad_ratio };
        let positive = |v: &f64| v.is_finite() && *v > 0.0;
        // one combination far past the others would flatten them: the axis ends above the
        // comparable ones, and the others are marked where they leave it
        let largest =
            |curve: &SweepCurve<'a>| values(curve).iter().copied().filter(positive).fold(0.0, f64::max);
        let cut = comparable_top(curves.iter().map(largest));
        // the legend names each combination, and one past the cut with its value
        let named = |short: bool| -> Vec<(RGBColor, String)> {
            curves
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let label = if short { c.short.as_str() } else { c.label };
                    let past = cut.is_some_and(|t| largest(c) > t);
                    let name = if past { beyond_label(label, largest(c)) } else { label.to_string() };
                    (colours[i % colours.len()], name)
                })
                .collect()
        };
        // a half too narrow for the names (a phone's) takes the short ones, in a box its width
        let room = f64::from(sub_area.dim_in_pixel().0) / theme.scale - 60.0;
        let mut names = named(false);
        let mut legend_w = legend_width(area, &names, theme);
        if legend_w > room {
            names = named(true);
            legend_w = legend_width(area, &names, theme).min(room.max(60.0));
        }
        let bands = curves.iter().filter(|_| panel == 0).flat_map(|c| c.band.iter().flat_map(|b| [b.0, b.1]));
        let (lo, mut hi) = log_range(
            curves
                .iter()
                .flat_map(|c| values(c).iter().copied())
                .chain(bands)
                .filter(|v| cut.is_none_or(|t| *v <= t)),
        );
        let points_of = |curve: &SweepCurve<'a>, hi: f64| -> Vec<(f64, f64)> {
            let mut points: Vec<(f64, f64)> = depths
                .iter()
                .zip(values(curve))
                .filter(|(_, v)| positive(v))
                .map(|(&d, &v)| (d as f64, v.min(hi)))
                .collect();
            ablation_core::order::sort_by(&mut points, |a, b| a.0.total_cmp(&b.0)); // the reader may list depths in any order
            points
        };
        let mut corner = Corner::TopLeft;
        let clip = hi;
        if panel == 0 {
            // the dots and lines, and the bands' edges, are what the legend must leave clear
            let edge = |c: &SweepCurve<'a>, high: bool| -> Vec<(f64, f64)> {
                let mut points: Vec<(f64, f64)> = depths
                    .iter()
                    .zip(c.band)
                    .filter(|(_, b)| b.0.is_finite())
                    .map(|(&d, b)| (x_frac(d as f64), if high { b.1.min(hi) } else { b.0 }))
                    .collect();
                ablation_core::order::sort_by(&mut points, |a, b| a.0.total_cmp(&b.0));
                points
            };
            let taken: Vec<(f64, f64)> = curves
                .iter()
                .flat_map(|c| {
                    let points: Vec<(f64, f64)> =
                        points_of(c, hi).iter().map(|&(d, v)| (x_frac(d), v)).collect();
                    [points, edge(c, false), edge(c, true)]
                })
                .flat_map(|points| plot_fractions(&points, lo, hi))
                .collect();
            let (at, free) = place_legend(
                sub_area,
                curves.len(),
                legend_w,
                &taken,
                &[Corner::TopLeft, Corner::TopRight],
                theme,
            );
            corner = at;
            hi = raised_top(lo, hi, free);
        }
        let ticks = log_ticks(lo, hi);
        let mut chart = frame(sub_area, title, theme)
            .build_cartesian_2d(
                Axis::log_at(x_range.clone(), depth_ticks.clone()),
                Axis::log_at(lo..hi, ticks),
            )
            .map_err(err)?;
        // every depth swept has its tick; a label where it clears its neighbours' labels
        let placed: Vec<(f64, i32)> =
            depth_ticks.iter().map(|&d| (d, chart.backend_coord(&(d, lo)).0)).collect();
        let labelled = spaced_ticks(area, &placed, |d| format!("{d:.0}"), theme);
        let mut mesh = chart.configure_mesh();
        style_mesh(&mut mesh, theme);
        mesh.x_label_formatter(&|x| {
            if labelled.iter().any(|d| (d - x).abs() < 0.5) {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| number(*y))
        .draw()
        .map_err(err)?;
        for (i, curve) in curves.iter().enumerate().filter(|_| panel == 0) {
            // the band from the lowest to the highest seed, under the lines
            let mut edges: Vec<(f64, f64, f64)> = depths
                .iter()
                .zip(curve.band)
                .filter(|(_, b)| b.0.is_finite())
                .map(|(&d, &(low, high))| {
                    (d as f64, low.clamp(lo, clip), if high.is_finite() { high.min(clip) } else { clip })
                })
                .collect();
            ablation_core::order::sort_by(&mut edges, |a, b| a.0.total_cmp(&b.0));
            if edges.len() > 1 {
                let mut outline: Vec<(f64, f64)> = edges.iter().map(|e| (e.0, e.2)).collect();
                outline.extend(edges.iter().rev().map(|e| (e.0, e.1)));
                let colour = colours[i % colours.len()].mix(0.18);
                chart.draw_series(std::iter::once(Polygon::new(outline, colour.filled()))).map_err(err)?;
            }
        }
        let mut beyond = 0;
        for (i, curve) in curves.iter().enumerate() {
            let colour = colours[i % colours.len()];
            // the clipped ones run along the cut, under the legend's room
            let points = points_of(curve, clip);
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(theme.px(2.0))))
                .map_err(err)?;
            let dot = theme.px(3.0) as i32;
            chart.draw_series(points.iter().map(|&p| Circle::new(p, dot, colour.filled()))).map_err(err)?;
            // past the axis's top: the largest value, named, where the curve first reaches it
            let top = largest(curve);
            if top > clip {
                if let Some(&(d, _)) = points.iter().find(|p| p.1 >= clip) {
                    let at = chart.backend_coord(&(d, clip));
                    draw_beyond(area, at, beyond, x_frac(d) > 0.5, beyond_mark(top), colour, theme)?;
                    beyond += 1;
                }
            }
            // a diverged run has no final loss: a cross at the top of the panel at its depth,
            // nudged sideways per combination so that four crosses at one depth stay visible
            if panel == 0 {
                let nudge = 1.06f64.powf(i as f64 - 1.5);
                for (&d, diverged) in depths.iter().zip(curve.diverged_at) {
                    if diverged.is_some() {
                        let cross = Text::new("✕", (d as f64 * nudge, hi), theme.font(12.0).color(&colour));
                        chart.plotting_area().draw(&cross).map_err(err)?;
                    }
                }
            }
        }
        if panel == 0 {
            // pixel ranges are the backend's, so the legend is drawn on the whole area
            legend(area, chart.plotting_area().get_pixel_range(), corner, &names, legend_w, theme)?;
        }
    }
    area.present().map_err(err)
}
