//! What each layer would predict: above, per depth ℓ = 0..=L, the loss the model's own readout
//! gets reading `x_ℓ` (the logit lens), at initialisation and now, and the tuned lens if one
//! was fitted, with the task's floors;
//! below, per layer, how much it changes the stream, `‖x_{ℓ+1} − x_ℓ‖ / ‖x_ℓ‖`. Log axes.

use super::number;
use super::{
    err, fitted_titles, frame, layer_chart, log_points, log_range, log_ticks, pinned_colour, style_mesh,
    Axis, ChartResult, Theme,
};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The curves: `readout_*` with L + 1 values, `ratio_*` with L; a pinned run's readout curve
/// (its depth may differ); the floors as (name, loss).
pub struct ReadoutCurves<'a> {
    pub readout_init: &'a [f64],
    pub readout_now: &'a [f64],
    pub ratio_init: &'a [f64],
    pub ratio_now: &'a [f64],
    pub floors: &'a [(String, f64)],
    pub pins: &'a [(String, &'a [f64])],
    /// The tuned lens's readout at each depth (L + 1 values), if one was fitted; else empty.
    pub tuned: &'a [f64],
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: &ReadoutCurves,
    notes: &[String],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 * 3 / 5);
    let pinned_depth = c.pins.iter().map(|(_, r)| r.len().saturating_sub(1)).max().unwrap_or(0);
    let depth = c.readout_now.len().max(c.readout_init.len()).saturating_sub(1).max(pinned_depth).max(1);
    // the loss each depth would give
    let floors = c.floors.iter().map(|(_, v)| *v);
    let pinned = c.pins.iter().flat_map(|(_, r)| r.iter().copied());
    let all = c.readout_init.iter().chain(c.readout_now).chain(c.tuned).copied().chain(floors).chain(pinned);
    let (lo, hi) = log_range(all);
    // no legend box: the curves fill the plot's corners; the title names them and the floors
    // are labelled on their lines, as in the loss panel
    let titles = [say!("readout-title-long"), say!("readout-title"), say!("readout-title-short")];
    let title = fitted_titles(&top, &titles.each_ref().map(String::as_str), notes, theme);
    let mut chart = frame(&top, title, theme)
        .build_cartesian_2d(Axis::count(0..depth), Axis::log_at(lo..hi, log_ticks(lo, hi)))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(depth.min(8) + 1).y_label_formatter(&|y| number(*y)).draw().map_err(err)?;
    for (name, v) in c.floors {
        if v.is_finite() && *v > 0.0 {
            let line = PathElement::new(
                vec![(0.0, *v), (depth as f64, *v)],
                theme.text.mix(0.7).stroke_width(theme.px(1.0)),
            );
            chart.plotting_area().draw(&line).map_err(err)?;
            let label = Text::new(
                say!("loss-floor", floor = name.as_str(), value = number(*v)),
                (0.0, *v),
                theme.font(10.0).pos(above_left()),
            );
            chart.plotting_area().draw(&label).map_err(err)?;
        }
    }
    // pinned runs under the live one, in the quiet colour, numbered at their ends
    for (i, (_, values)) in c.pins.iter().enumerate() {
        let colour = pinned_colour(theme);
        chart
            .draw_series(LineSeries::new(log_points(values), colour.stroke_width(theme.px(1.5))))
            .map_err(err)?;
        if let Some(end) = log_points(values).last() {
            let number = Text::new(format!("{}", i + 1), end, theme.font(11.0).color(&colour));
            chart.plotting_area().draw(&number).map_err(err)?;
        }
    }
    let init_style = theme.now.mix(0.6).stroke_width(theme.px(1.5));
    chart.draw_series(LineSeries::new(log_points(c.readout_init), init_style)).map_err(err)?;
    let now_style = theme.now.stroke_width(theme.px(2.0));
    chart.draw_series(LineSeries::new(log_points(c.readout_now), now_style)).map_err(err)?;
    chart
        .draw_series(log_points(c.readout_now).map(|p| Circle::new(p, theme.px(2.0), theme.now.filled())))
        .map_err(err)?;
    // the tuned lens: each depth read through a map of its own, squares, named at its start
    if !c.tuned.is_empty() {
        let tuned_style = theme.init.stroke_width(theme.px(2.0));
        chart.draw_series(LineSeries::new(log_points(c.tuned), tuned_style)).map_err(err)?;
        let r = theme.px(2.5) as i32;
        let squares = log_points(c.tuned)
            .map(|p| EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], theme.init.filled()));
        chart.draw_series(squares).map_err(err)?;
        // named above its middle point (the floors are named at the left edge)
        let points: Vec<(f64, f64)> = log_points(c.tuned).collect();
        if let Some(&middle) = points.get(points.len() / 2) {
            let above = Pos::new(HPos::Center, VPos::Bottom);
            let label = Text::new(
                say!("readout-tuned-label"),
                middle,
                theme.font(10.0).color(&theme.init).pos(above),
            );
            chart.plotting_area().draw(&label).map_err(err)?;
        }
    }

    // how much each layer changes the stream
    let layers = c.ratio_now.len().max(c.ratio_init.len()).max(1);
    let (lo, hi) = log_range(c.ratio_init.iter().chain(c.ratio_now).copied());
    let titles =
        [say!("readout-change-title-long"), say!("readout-change-title"), say!("readout-change-title-short")];
    let title = fitted_titles(&bottom, &titles.each_ref().map(String::as_str), &[], theme);
    let mut chart = layer_chart(&bottom, title, layers, (lo, hi), theme)?;
    let at = |values: &[f64]| -> Vec<(f64, f64)> {
        values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite() && **v > 0.0)
            .map(|(i, &v)| (i as f64, v))
            .collect()
    };
    chart.draw_series(LineSeries::new(at(c.ratio_init), init_style)).map_err(err)?;
    chart
        .draw_series(LineSeries::new(at(c.ratio_now), theme.other.stroke_width(theme.px(2.0))))
        .map_err(err)?;
    chart
        .draw_series(at(c.ratio_now).into_iter().map(|p| Circle::new(p, theme.px(2.0), theme.other.filled())))
        .map_err(err)?;
    area.present().map_err(err)
}

/// A floor's label: just above its line, from the left.
fn above_left() -> Pos {
    Pos::new(HPos::Left, VPos::Bottom)
}
