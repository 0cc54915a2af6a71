//! The depth sweep: side by side, the loss after N steps and the gradient ratio
//! `‖∂L/∂x₀‖ / ‖∂L/∂x_L‖` at initialisation against depth, for the four switch combinations.
//! Both axes are logarithmic: depths double, losses and ratios span decades.

use super::{
    combination_colours, err, frame, legend, log_range, log_ticks, short, style_mesh, ChartResult, Corner,
    Theme,
};
use crate::training::sweep::SweepSeries;
use plotters::coord::combinators::BindKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One combination across the depths; the lists may be shorter than the depths (a sweep in
/// progress fills them in from the shallow end).
pub struct SweepCurve<'a> {
    pub label: &'a str,
    pub final_loss: &'a [f64],
    pub grad_ratio: &'a [f64],
    pub diverged_at: &'a [Option<usize>],
}

impl<'a> SweepCurve<'a> {
    /// One combination of a sweep (finished or in progress), labelled `label`.
    pub fn of(series: &'a SweepSeries, label: &'a str) -> Self {
        SweepCurve {
            label,
            final_loss: &series.final_loss,
            grad_ratio: &series.grad_ratio,
            diverged_at: &series.diverged_at,
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
    let panels = [
        (&left, format!("loss after {steps} steps vs depth")),
        (&right, "gradient ratio at init vs depth".into()),
    ];
    let deepest = depths.iter().copied().max().unwrap_or(1) as f64;
    let shallowest = depths.iter().copied().min().unwrap_or(1) as f64;
    // a little room either side so the end points are not on the frame
    let x_range = (shallowest / 1.25)..(deepest.max(shallowest * 2.0) * 1.25);
    // a label at every depth swept: they are what the reader chose
    let depth_ticks: Vec<f64> = depths.iter().map(|&d| d as f64).collect();
    for (panel, (sub_area, title)) in panels.into_iter().enumerate() {
        let values = |curve: &SweepCurve<'a>| if panel == 0 { curve.final_loss } else { curve.grad_ratio };
        let (lo, hi) = log_range(curves.iter().flat_map(|c| values(c).iter().copied()));
        let mut chart = frame(sub_area, title, theme)
            .build_cartesian_2d(
                x_range.clone().log_scale().with_key_points(depth_ticks.clone()),
                (lo..hi).log_scale().with_key_points(log_ticks(lo, hi)),
            )
            .map_err(err)?;
        let mut mesh = chart.configure_mesh();
        style_mesh(&mut mesh, theme);
        mesh.x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| short(*y))
            .draw()
            .map_err(err)?;
        let mut entries = Vec::new();
        for (i, curve) in curves.iter().enumerate() {
            let colour = colours[i % colours.len()];
            let mut points: Vec<(f64, f64)> = depths
                .iter()
                .zip(values(curve))
                .filter(|(_, v)| v.is_finite() && **v > 0.0)
                .map(|(&d, &v)| (d as f64, v))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0)); // the reader may list depths in any order
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(theme.px(2.0))))
                .map_err(err)?;
            let dot = theme.px(3.0) as i32;
            chart.draw_series(points.iter().map(|&p| Circle::new(p, dot, colour.filled()))).map_err(err)?;
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
            entries.push((colour, curve.label.to_string()));
        }
        if panel == 0 {
            // pixel ranges are the backend's, so the legend is drawn on the whole area
            legend(area, chart.plotting_area().get_pixel_range(), Corner::TopLeft, &entries, 150.0, theme)?;
        }
    }
    area.present().map_err(err)
}
