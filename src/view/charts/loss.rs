//! Panel 2: the training loss, on a log axis, with a marker where a run diverges.

use super::{err, frame, log_range, short, style_mesh, ChartResult, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;

/// At most this many points are drawn; longer curves are sampled evenly (always keeping the last).
const MAX_POINTS: usize = 600;

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    losses: &[f64],
    diverged_at: Option<usize>,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let n = losses.len().max(2);
    let (lo, hi) = log_range(losses.iter().copied());
    let title = match (losses.last(), diverged_at) {
        (_, Some(s)) => format!("training loss · diverged at step {s}"),
        (Some(l), None) => format!("training loss · step {} · {}", losses.len() - 1, short(*l)),
        (None, None) => "training loss".to_string(),
    };
    let mut chart =
        frame(area, title, theme).build_cartesian_2d(0usize..n - 1, (lo..hi).log_scale()).map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_labels(5).y_label_formatter(&|y| short(*y)).draw().map_err(err)?;
    let stride = losses.len().div_ceil(MAX_POINTS).max(1);
    let sampled = losses
        .iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0 || *i + 1 == losses.len())
        .filter(|(_, l)| l.is_finite() && **l > 0.0)
        .map(|(i, &l)| (i, l));
    chart.draw_series(LineSeries::new(sampled, theme.now.stroke_width(theme.px(2.0)))).map_err(err)?;
    if let Some(s) = diverged_at {
        let line = PathElement::new(vec![(s, lo), (s, hi)], theme.alert.stroke_width(theme.px(2.0)));
        chart.plotting_area().draw(&line).map_err(err)?;
        let label = Text::new(
            format!("✕ diverged at step {s}"),
            (s.saturating_sub(n / 3), hi),
            theme.font(12.0).color(&theme.alert),
        );
        chart.plotting_area().draw(&label).map_err(err)?;
    }
    area.present().map_err(err)
}
