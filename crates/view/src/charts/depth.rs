//! Panel 3: per depth ℓ, the stream gradient ‖∂L/∂x_ℓ‖ and the activation std, at
//! initialisation and now, on a log axis; or, in the weights' view, each sublayer's weight
//! gradient ‖∂L/∂W_ℓ‖.

use super::number;
use super::{
    err, fitted_title, fitted_titles, frame, legend, legend_width, log_points, log_range, log_ticks,
    mark_split, pinned_colour, place_legend, plot_fractions, raised_top, style_mesh, Axis, ChartResult,
    Corner, Pinned, Theme,
};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The four curves, each with L + 1 values (ℓ = 0..=L).
pub struct DepthCurves<'a> {
    pub grad_init: &'a [f64],
    pub grad_now: &'a [f64],
    pub std_init: &'a [f64],
    pub std_now: &'a [f64],
    /// Pinned runs' curves at their steps (their depths may differ from the live run's).
    pub pins: &'a [Pinned<'a>],
    /// An encoder–decoder's `x_ℓ` where the decoder begins (the encoder's last output).
    pub split: Option<usize>,
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    c: &DepthCurves,
    notes: &[String],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let pinned_depth = c.pins.iter().map(|p| p.grad.len().saturating_sub(1)).max().unwrap_or(0);
    let depth = c.grad_now.len().saturating_sub(1).max(pinned_depth).max(1);
    let all = [c.grad_init, c.grad_now, c.std_init, c.std_now];
    let pinned = c.pins.iter().flat_map(|p| p.grad.iter().chain(p.std).copied());
    let (lo, hi) = log_range(all.iter().flat_map(|s| s.iter().copied()).chain(pinned));
    // the legend goes in a top corner the curves leave empty, or above them
    let curve_labels =
        [say!("depth-grad-now"), say!("depth-grad-init"), say!("depth-std-now"), say!("depth-std-init")];
    let pin_labels: Vec<_> =
        c.pins.iter().enumerate().map(|(i, p)| (theme.text, format!("{} {}", i + 1, p.label))).collect();
    let labels: Vec<_> = curve_labels.iter().map(|l| (theme.text, l.clone())).chain(pin_labels).collect();
    let legend_w = legend_width(area, &labels, theme);
    let rows = 4 + c.pins.len();
    let pinned_curves = c.pins.iter().flat_map(|p| [p.grad, p.std]);
    let taken: Vec<(f64, f64)> = all
        .into_iter()
        .chain(pinned_curves)
        .flat_map(|values| {
            let points: Vec<(f64, f64)> = log_points(values).map(|(l, v)| (l / depth as f64, v)).collect();
            plot_fractions(&points, lo, hi)
        })
        .collect();
    let (corner, free) =
        place_legend(area, rows, legend_w, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
    let hi = raised_top(lo, hi, free);
    let title = fitted_title(area, &say!("depth-title"), notes, theme);
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(Axis::count(0..depth), Axis::log(lo..hi))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(depth.min(8) + 1)
        .y_labels(5)
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()
        .map_err(err)?;
    // pinned runs first, under the live one, in the quiet colour, numbered at their ends
    for (i, p) in c.pins.iter().enumerate() {
        let colour = pinned_colour(theme);
        for values in [p.grad, p.std] {
            chart
                .draw_series(LineSeries::new(log_points(values), colour.stroke_width(theme.px(1.5))))
                .map_err(err)?;
            if let Some(end) = log_points(values).last() {
                let number = Text::new(format!("{}", i + 1), end, theme.font(11.0).color(&colour));
                chart.plotting_area().draw(&number).map_err(err)?;
            }
        }
    }
    let thick = theme.px(2.0);
    let [grad_now, grad_init, std_now, std_init] = &curve_labels;
    let series: [(&[f64], RGBColor, bool, &str); 4] = [
        (c.grad_now, theme.now, true, grad_now),
        (c.grad_init, theme.now, false, grad_init),
        (c.std_now, theme.other, true, std_now),
        (c.std_init, theme.other, false, std_init),
    ];
    for (values, colour, now, _) in series {
        // Initial curves are thin and pale: one stroke per curve (a dashed line is one canvas
        // call per dash, which made this the slowest panel to draw at depth 96).
        let style =
            if now { colour.stroke_width(thick) } else { colour.mix(0.6).stroke_width(theme.px(1.5)) };
        chart.draw_series(LineSeries::new(log_points(values), style)).map_err(err)?;
    }
    if let Some(split) = c.split {
        let x = chart.backend_coord(&(split as f64, lo)).0;
        mark_split(area, x, chart.plotting_area().get_pixel_range(), theme)?;
    }
    // The legend, drawn by hand in pixels: plotters' own series labels cost more than the rest
    // of this chart together on a canvas.
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    // wide enough for the pins' labels, if any (else the 150 px the four curves need)
    let (line, pad, width) = (theme.px(13.0) as i32, theme.px(6.0) as i32, theme.px(legend_w) as i32);
    let x0 = match corner {
        Corner::TopRight => xs.end - width - pad,
        Corner::TopLeft => xs.start + pad,
    };
    let y0 = ys.start + pad;
    let box_ = Rectangle::new(
        [(x0, y0), (x0 + width, y0 + pad + line * rows as i32)],
        theme.background.mix(0.85).filled(),
    );
    area.draw(&box_).map_err(err)?;
    for (i, p) in c.pins.iter().enumerate() {
        let y = y0 + pad / 2 + line * (4 + i as i32) + line / 2;
        let at = (x0 + pad, y - line / 2 + theme.px(1.0) as i32);
        let colour = pinned_colour(theme);
        let text = Text::new(format!("{} {}", i + 1, p.label), at, theme.font(10.0).color(&colour));
        area.draw(&text).map_err(err)?;
    }
    for (i, (_, colour, now, label)) in series.iter().enumerate() {
        let y = y0 + pad / 2 + line * i as i32 + line / 2;
        let (stroke, alpha) = if *now { (thick, 1.0) } else { (theme.px(1.5), 0.6) };
        let swatch = PathElement::new(
            vec![(x0 + pad, y), (x0 + pad + theme.px(16.0) as i32, y)],
            colour.mix(alpha).stroke_width(stroke),
        );
        area.draw(&swatch).map_err(err)?;
        let text = Text::new(
            *label,
            (x0 + pad * 2 + theme.px(16.0) as i32, y - line / 2 + theme.px(1.0) as i32),
            theme.font(10.0),
        );
        area.draw(&text).map_err(err)?;
    }
    area.present().map_err(err)
}

/// One curve of the weights' view: `‖∂L/∂W_ℓ‖` of sublayers ℓ = 0..L−1, each of a kind (its
/// marker: `true` for attention, drawn as a circle; an FFN or MLP as a square).
pub struct WeightCurve<'a> {
    pub label: String,
    pub values: &'a [f64],
    pub attention: &'a [bool],
}

/// A chart's possible titles, longest first, and the notes the first that fits is followed by.
pub struct Heading<'a> {
    pub titles: &'a [String],
    pub notes: &'a [String],
}

/// The weights' view: each sublayer's weight-gradient norm, at initialisation and now (none
/// before the first step), and the pins' at initialisation, on a log axis over the live stack's sublayers (a pin of another
/// depth stretched to it, so that its top meets the top). Attention and FFN sublayers are
/// separate lines, as their scales differ. `titles` say what was measured, longest first (the
/// first that fits is drawn; the matrices' view draws one matrix of each sublayer the same way).
pub fn draw_weights<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    heading: &Heading,
    init: &WeightCurve,
    now: Option<&WeightCurve>,
    pins: &[WeightCurve],
    split: Option<usize>,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let depth = init.values.len().max(2);
    let span = (depth - 1) as f64;
    // x of sublayer ℓ of a curve of `n` sublayers, on the live stack's axis
    let at = |l: usize, n: usize| if n > 1 { l as f64 * span / (n - 1) as f64 } else { 0.0 };
    let all = [Some(init), now].into_iter().flatten().chain(pins);
    let (lo, hi) = log_range(all.clone().flat_map(|c| c.values.iter().copied()));
    let entries: Vec<(RGBColor, String)> = now
        .map(|now| (theme.now, now.label.clone()))
        .into_iter()
        .chain([(theme.init, init.label.clone())])
        .chain(pins.iter().enumerate().map(|(i, p)| (pinned_colour(theme), format!("{} {}", i + 1, p.label))))
        .chain([(theme.text, say!("weights-legend-marks"))])
        .collect();
    let width = legend_width(area, &entries, theme);
    let taken: Vec<(f64, f64)> = all
        .clone()
        .flat_map(|c| {
            let n = c.values.len();
            let points: Vec<(f64, f64)> =
                log_points(c.values).map(|(l, v)| (at(l as usize, n) / span.max(1.0), v)).collect();
            plot_fractions(&points, lo, hi)
        })
        .collect();
    let (corner, free) =
        place_legend(area, entries.len(), width, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
    let hi = raised_top(lo, hi, free);
    let titles: Vec<&str> = heading.titles.iter().map(String::as_str).collect();
    let title = fitted_titles(area, &titles, heading.notes, theme);
    let y = Axis::log_at(lo..hi, log_ticks(lo, hi));
    let mut chart =
        frame(area, title, theme).build_cartesian_2d(Axis::linear(-0.5..span + 0.5), y).map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(depth.min(8) + 1)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| number(*y))
        .draw()
        .map_err(err)?;
    let curves = pins
        .iter()
        .map(|p| (p, pinned_colour(theme), theme.px(1.5)))
        .chain([(init, theme.init, theme.px(1.5))])
        .chain(now.map(|now| (now, theme.now, theme.px(2.0))));
    let r = theme.px(2.5) as i32;
    for (c, colour, stroke) in curves {
        let n = c.values.len();
        for attention in [true, false] {
            let points: Vec<(f64, f64)> = log_points(c.values)
                .filter(|&(l, _)| c.attention.get(l as usize).copied().unwrap_or(false) == attention)
                .map(|(l, v)| (at(l as usize, n), v))
                .collect();
            chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(stroke))).map_err(err)?;
            for p in points {
                if attention {
                    chart.plotting_area().draw(&Circle::new(p, r, colour.filled())).map_err(err)?;
                } else {
                    let square = EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], colour.filled());
                    chart.plotting_area().draw(&square).map_err(err)?;
                }
            }
        }
    }
    // each pin numbered at its top sublayer, as its legend entry is
    let quiet = pinned_colour(theme);
    for (i, p) in pins.iter().enumerate() {
        if let Some((l, v)) = log_points(p.values).last() {
            let at = (at(l as usize, p.values.len()) + 0.3, v);
            let number = Text::new(format!("{}", i + 1), at, theme.font(11.0).color(&quiet));
            chart.plotting_area().draw(&number).map_err(err)?;
        }
    }
    if let Some(split) = split {
        // between the encoder's last sublayer and the decoder's first
        let x = chart.backend_coord(&(split as f64 - 0.5, lo)).0;
        mark_split(area, x, chart.plotting_area().get_pixel_range(), theme)?;
    }
    let plot = chart.plotting_area().get_pixel_range();
    legend(area, plot, corner, &entries, width, theme)?;
    area.present().map_err(err)
}
