//! Panel 3: per depth ℓ, the stream gradient ‖∂L/∂x_ℓ‖ and the activation std, at
//! initialisation and now, on a log axis.

use super::{err, frame, log_range, style_mesh, ChartResult, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The four curves, each with L + 1 values (ℓ = 0..=L).
pub struct DepthCurves<'a> {
    pub grad_init: &'a [f64],
    pub grad_now: &'a [f64],
    pub std_init: &'a [f64],
    pub std_now: &'a [f64],
}

fn points(values: &[f64]) -> impl Iterator<Item = (usize, f64)> + Clone + '_ {
    values.iter().enumerate().filter(|(_, v)| v.is_finite() && **v > 0.0).map(|(i, &v)| (i, v))
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: &DepthCurves,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let depth = c.grad_now.len().saturating_sub(1).max(1);
    let all = [c.grad_init, c.grad_now, c.std_init, c.std_now];
    let (lo, hi) = log_range(all.iter().flat_map(|s| s.iter().copied()));
    let mut chart = frame(area, "per layer ℓ: ‖∂L/∂x_ℓ‖ and act. std".into(), theme)
        .build_cartesian_2d(0usize..depth, (lo..hi).log_scale())
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(depth.min(8) + 1)
        .y_labels(5)
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()
        .map_err(err)?;
    let thick = theme.px(2.0);
    let series: [(&[f64], RGBColor, bool, &str); 4] = [
        (c.grad_now, theme.now, true, "‖∂L/∂x‖ now"),
        (c.grad_init, theme.now, false, "‖∂L/∂x‖ at init (dashed)"),
        (c.std_now, theme.other, true, "std now"),
        (c.std_init, theme.other, false, "std at init"),
    ];
    for (values, colour, solid, label) in series {
        // Initial curves are dashed: a dash pattern is many fewer canvas calls than markers.
        let drawn = if solid {
            chart.draw_series(LineSeries::new(points(values), colour.stroke_width(thick))).map_err(err)?
        } else {
            let style = colour.stroke_width(theme.px(1.5));
            chart
                .draw_series(DashedLineSeries::new(points(values), theme.px(5.0), theme.px(4.0), style))
                .map_err(err)?
        };
        drawn.label(label).legend(move |(x, y)| {
            if solid {
                PathElement::new(vec![(x, y), (x + 14, y)], colour.stroke_width(2)).into_dyn()
            } else {
                // a short, thin stroke: the dashed line in miniature
                PathElement::new(vec![(x + 4, y), (x + 10, y)], colour.stroke_width(1)).into_dyn()
            }
        });
    }
    chart
        .configure_series_labels()
        .background_style(theme.background.mix(0.8))
        .border_style(theme.grid)
        .label_font(theme.font(10.0))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)?;
    area.present().map_err(err)
}
