//! The layer knockout: per layer ℓ, a bar for the loss with ℓ knocked out (its branch zeroed)
//! (against a line at the intact stack's loss), and below it a bar for how far the output
//! moved, `‖x_L' − x_L‖ / ‖x_L‖`; beside them, the loss with k layers removed at once, the
//! upper k and k at random, against k. Log axes: a knocked-out layer of a plain stack can cost
//! orders of magnitude more than one of a residual stack.

use super::number;
use super::{
    err, fitted_titles, frame, layer_chart, legend, legend_width, log_range, log_ticks, style_mesh, Axis,
    Chart, ChartResult, Corner, Geometry, Theme,
};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// `loss` and `output_change` have one value per layer knocked out so far; `band`, over
/// several seeds, each layer's lowest and highest loss (a whisker on its bar), or empty.
/// `what` names the loss ("probe loss", "held-out loss"). Draws without presenting: the
/// caller presents the panel once.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    what: &str,
    intact_loss: f64,
    loss: &[f64],
    output_change: &[f64],
    band: &[(f64, f64)],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 / 2);
    let layers = loss.len().max(output_change.len()).max(1);
    let intact = say!("knockout-chart-intact", intact = number(intact_loss));
    let named = [
        say!("knockout-chart-loss", what = what),
        say!("knockout-chart-loss-short", what = what),
        what.to_string(),
    ];
    // each with the intact loss, then the shortest without it (a phone's half panel)
    let titles: Vec<String> =
        named.iter().map(|t| format!("{t} · {intact}")).chain([what.to_string()]).collect();
    let title_loss = fitted_titles(&top, &titles.iter().map(String::as_str).collect::<Vec<_>>(), &[], theme);
    let whiskers = band.iter().flat_map(|&(a, b)| [a, b]);
    let loss_range = log_range(loss.iter().copied().chain([intact_loss]).chain(whiskers));
    let upper = bars(&top, title_loss, loss, loss_range, layers, theme.now, theme)?;
    for (l, &(low, high)) in band.iter().enumerate() {
        let (lo, hi) = loss_range;
        let (low, high) = (low.clamp(lo, hi), if high.is_finite() { high.min(hi) } else { hi });
        let x = l as f64;
        let whisker = PathElement::new(vec![(x, low), (x, high)], theme.text.stroke_width(theme.px(1.5)));
        upper.plotting_area().draw(&whisker).map_err(err)?;
    }
    // the intact loss as a line across the upper panel, the level each bar is measured against
    if intact_loss.is_finite() && intact_loss > 0.0 {
        let line = PathElement::new(
            vec![(-0.5, intact_loss), (layers as f64 - 0.5, intact_loss)],
            theme.text.stroke_width(theme.px(1.5)),
        );
        upper.plotting_area().draw(&line).map_err(err)?;
    }
    let change_range = log_range(output_change.iter().copied());
    let titles =
        [say!("knockout-chart-change"), say!("knockout-chart-change-short"), say!("column-output-change")];
    let title_change = fitted_titles(&bottom, &titles.each_ref().map(String::as_str), &[], theme);
    bars(&bottom, title_change, output_change, change_range, layers, theme.other, theme)?;
    Ok(()) // the caller presents the whole panel once (an SVG ends at its first `present`)
}

/// The loss with `k` layers removed at once, one point per k: `(k, median, lowest, highest)`.
pub type RemovalPoint = (usize, f64, f64, f64);

/// Two curves against k, the number of layers removed from a stack of `depth`: the upper k
/// together (`top`: Gromov et al.) and k chosen at random (`random`, the median of its draws
/// with their range as a band: Veit et al.), over a line at the intact stack's loss. Both
/// begin at k = 0, the intact stack. Draws without presenting, as `draw`.
pub fn draw_removals<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    what: &str,
    depth: usize,
    intact_loss: f64,
    top: &[RemovalPoint],
    random: &[RemovalPoint],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let values = top.iter().chain(random).flat_map(|&(_, m, lo, hi)| [m, lo, hi]).chain([intact_loss]);
    let (lo, hi) = log_range(values);
    let titles = [
        say!("knockout-chart-removals", what = what, depth = depth),
        say!("knockout-chart-removals-short", what = what),
        what.to_string(),
    ];
    let title = fitted_titles(area, &titles.each_ref().map(String::as_str), &[], theme);
    let mut chart = frame(area, title, theme)
        .x_label_area_size(theme.px(Geometry::X_LABELS + Geometry::X_DESC)) // (the axis's name under its numbers)
        .build_cartesian_2d(Axis::linear(0.0..depth.max(1) as f64), Axis::log_at(lo..hi, log_ticks(lo, hi)))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(depth.clamp(2, 12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| number(*y))
        .x_desc(say!("column-removed"))
        .draw()
        .map_err(err)?;
    let clamp = |v: f64| if v.is_finite() { v.clamp(lo, hi) } else { hi };
    let start = [(0.0, intact_loss)].into_iter().filter(|p| p.1.is_finite() && p.1 > 0.0);
    // the random draws' range, as a band
    let upper: Vec<(f64, f64)> = random.iter().map(|&(k, _, _, h)| (k as f64, clamp(h))).collect();
    let lower: Vec<(f64, f64)> = random.iter().rev().map(|&(k, _, l, _)| (k as f64, clamp(l))).collect();
    if random.len() > 1 {
        let band = Polygon::new([upper, lower].concat(), theme.other.mix(0.2).filled());
        chart.plotting_area().draw(&band).map_err(err)?;
    }
    if intact_loss.is_finite() && intact_loss > 0.0 {
        let line = PathElement::new(
            vec![(0.0, intact_loss), (depth as f64, intact_loss)],
            theme.text.mix(0.6).stroke_width(theme.px(1.0)),
        );
        chart.plotting_area().draw(&line).map_err(err)?;
    }
    for (points, colour) in [(top, theme.now), (random, theme.other)] {
        let line: Vec<(f64, f64)> =
            start.clone().chain(points.iter().map(|&(k, m, _, _)| (k as f64, clamp(m)))).collect();
        chart
            .plotting_area()
            .draw(&PathElement::new(line.clone(), colour.stroke_width(theme.px(2.0))))
            .map_err(err)?;
        for p in line {
            chart
                .plotting_area()
                .draw(&Circle::new(p, theme.px(2.5) as i32, colour.filled()))
                .map_err(err)?;
        }
    }
    let entries = [(theme.now, say!("knockout-legend-upper")), (theme.other, say!("knockout-legend-random"))];
    // the plot's pixels within this area (the panel's right half: its ranges are the page's)
    let ((xs, ys), (ax, ay)) = (chart.plotting_area().get_pixel_range(), area.get_pixel_range());
    let plot = (xs.start - ax.start..xs.end - ax.start, ys.start - ay.start..ys.end - ay.start);
    // a narrow plot (a phone's half panel) takes the short names, in a box no wider than it
    let room = f64::from(plot.0.end - plot.0.start) / theme.scale - 12.0;
    let (entries, width) = match legend_width(area, &entries, theme) {
        w if w <= room => (entries, w),
        _ => {
            let short = [
                (theme.now, say!("knockout-legend-upper-short")),
                (theme.other, say!("knockout-legend-random-short")),
            ];
            let width = legend_width(area, &short, theme).min(room.max(60.0));
            (short, width)
        }
    };
    legend(area, plot, Corner::TopLeft, &entries, width, theme)
}

/// One panel: a bar per layer from the bottom of the log axis up to its value; a value that
/// is not a positive number gets a cross at the top instead.
fn bars<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: String,
    values: &[f64],
    (lo, hi): (f64, f64),
    layers: usize,
    colour: RGBColor,
    theme: &Theme,
) -> Result<Chart<'a, DB>, String> {
    let chart = layer_chart(area, title, layers, (lo, hi), theme)?;
    let half_width = 0.4;
    for (l, &v) in values.iter().enumerate() {
        let x = l as f64;
        if v.is_finite() && v > 0.0 {
            let bar = Rectangle::new([(x - half_width, lo), (x + half_width, v)], colour.filled());
            chart.plotting_area().draw(&bar).map_err(err)?;
        } else if !v.is_finite() {
            let cross = Text::new("✕", (x, hi), theme.font(11.0).color(&theme.alert));
            chart.plotting_area().draw(&cross).map_err(err)?;
        }
    }
    Ok(chart)
}
