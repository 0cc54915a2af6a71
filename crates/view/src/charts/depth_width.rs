//! Depth or width: each shape's loss over the steps (held-out on a sequence task, measured
//! every 100 steps; the training loss, smoothed, on the regression), on a log axis, with a
//! legend naming each shape with its parameters and times.

use super::number;
use super::{
    err, frame, legend, legend_width, log_range, log_ticks, place_legend, plot_fractions, raised_top,
    style_mesh, Axis, ChartResult, Corner, Theme,
};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One shape's curve: its label and its (step, loss) points; over several seeds the median's,
/// with the band from the lowest to the highest run at each step (else empty).
pub struct ShapeCurve {
    pub label: String,
    pub points: Vec<(usize, f64)>,
    pub band: Vec<(usize, f64, f64)>,
}

/// `curves` deepest first; `steps` fixes the x axis, so it does not jump as runs fill in.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    curves: &[ShapeCurve],
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let colours = [theme.alert, theme.other, theme.now, theme.init];
    let positive = |v: &f64| v.is_finite() && *v > 0.0;
    let bands = curves.iter().flat_map(|c| c.band.iter().flat_map(|b| [b.1, b.2]));
    let (lo, hi) = log_range(curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)).chain(bands));
    let entries: Vec<(RGBColor, String)> =
        curves.iter().enumerate().map(|(i, c)| (colours[i % 4], c.label.clone())).collect();
    let width = legend_width(area, &entries, theme);
    let span = steps.max(1) as f64;
    // the lines and the bands' edges are what the legend must leave clear
    let taken: Vec<(f64, f64)> = curves
        .iter()
        .flat_map(|c| {
            let low = c.band.iter().map(|b| (b.0, b.1));
            let high = c.band.iter().map(|b| (b.0, b.2.min(hi)));
            [c.points.to_vec(), low.collect(), high.collect()]
        })
        .flat_map(|line| {
            let points: Vec<(f64, f64)> =
                line.iter().filter(|p| positive(&p.1)).map(|&(s, v)| (s as f64 / span, v)).collect();
            plot_fractions(&points, lo, hi)
        })
        .collect();
    let (corner, free) =
        place_legend(area, entries.len(), width, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
    let hi = raised_top(lo, hi, free);
    let mut chart = frame(area, title.to_string(), theme)
        .build_cartesian_2d(Axis::count(0..steps.max(1)), Axis::log_at(lo..hi, log_ticks(lo, hi)))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_label_formatter(&|y| number(*y)).draw().map_err(err)?;
    for (i, c) in curves.iter().enumerate().filter(|(_, c)| c.band.len() > 1) {
        // the band from the lowest to the highest seed, under the lines
        let clip = |v: f64| if v.is_finite() { v.clamp(lo, hi) } else { hi };
        let mut outline: Vec<(f64, f64)> = c.band.iter().map(|&(x, _, top)| (x as f64, clip(top))).collect();
        outline.extend(c.band.iter().rev().map(|&(x, low, _)| (x as f64, clip(low))));
        let colour = colours[i % 4].mix(0.18);
        chart.draw_series(std::iter::once(Polygon::new(outline, colour.filled()))).map_err(err)?;
    }
    for (i, c) in curves.iter().enumerate() {
        let line = c.points.iter().filter(|p| positive(&p.1)).map(|&(x, v)| (x as f64, v));
        chart.draw_series(LineSeries::new(line, colours[i % 4].stroke_width(theme.px(2.0)))).map_err(err)?;
    }
    legend(area, chart.plotting_area().get_pixel_range(), corner, &entries, width, theme)?;
    area.present().map_err(err)
}
