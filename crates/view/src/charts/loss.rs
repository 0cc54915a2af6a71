//! Panel 2: the training loss, on a log axis, with a marker where a run diverges. On a
//! sequence task also the held-out loss, and the floors as labelled lines: the text's unigram
//! and bigram entropies, or the copy task's chance.

use super::number;
use super::{
    beyond_mark, comparable_top, draw_beyond, err, frame, legend, legend_width, log_range, pinned_colour,
    pinned_legend, place_legend, plot_fractions, raised_top, style_mesh, Axis, ChartResult, Corner, Pinned,
    Theme,
};
use ablation_training::live::loss_history::LossHistory;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A floor's name sits on its line; the held-out loss's beside its last point, on the side
/// with room (inside the plot however far the run has gone).
const ABOVE: Pos = Pos { h_pos: HPos::Left, v_pos: VPos::Bottom };
const LEFT: Pos = Pos { h_pos: HPos::Right, v_pos: VPos::Bottom };
const RIGHT: Pos = Pos { h_pos: HPos::Left, v_pos: VPos::Bottom };

/// `history` holds at most `loss_history::CAPACITY` buckets, so the cost of a frame does not
/// grow with the run: each bucket is one column of the band (its lowest and highest loss, the
/// noise of fresh batches) and one point of the smoothed line.
/// A sequence task's additions to the loss panel: the held-out loss at measured steps and the
/// floors, each with its name.
#[derive(Default)]
pub struct HeldOut<'a> {
    pub loss: &'a [(usize, f64)],
    pub floors: &'a [(&'static str, f64)],
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    history: &LossHistory,
    diverged_at: Option<usize>,
    pins: &[Pinned],
    held_out: &HeldOut,
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let buckets = history.buckets();
    let n = pins.iter().map(|p| p.history.len()).fold(history.len(), usize::max).max(2);
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let pinned = pins.iter().flat_map(|p| p.history.buckets().iter().map(|b| b.smooth));
    let extra = held_out.loss.iter().map(|&(_, l)| l).chain(held_out.floors.iter().map(|&(_, f)| f));
    // a pin far past the live run (or the live run far past its pins) would flatten the
    // others: the axis ends above the comparable ones, and the others are marked
    let largest = |values: &mut dyn Iterator<Item = f64>| values.filter(|v| positive(*v)).fold(0.0, f64::max);
    let live_largest = largest(&mut buckets.iter().map(|b| b.max));
    let pin_largest: Vec<f64> =
        pins.iter().map(|p| largest(&mut p.history.buckets().iter().map(|b| b.smooth))).collect();
    let cut = comparable_top(std::iter::once(live_largest).chain(pin_largest.iter().copied()));
    let within = |v: &f64| cut.is_none_or(|t| *v <= t);
    let (lo, hi) =
        log_range(buckets.iter().flat_map(|b| [b.min, b.max]).chain(pinned).filter(within).chain(extra));
    let clip = hi;
    // the pins' legend goes in a top corner the curves leave empty, or above them
    let entries = pinned_legend(pins, theme);
    let mut corner = Corner::TopRight;
    let mut hi = hi;
    if !pins.is_empty() {
        let x_frac = |step: usize| step as f64 / (n - 1) as f64;
        let curve = |points: Vec<(f64, f64)>| plot_fractions(&points, lo, hi);
        let live = buckets.iter().filter(|b| positive(b.min) && positive(b.max));
        let mut taken = curve(live.clone().map(|b| (x_frac(b.start), b.min.min(clip))).collect());
        taken.extend(curve(live.map(|b| (x_frac(b.start + b.count - 1), b.max.min(clip))).collect()));
        for p in pins {
            let line = p.history.buckets().iter().filter(|b| positive(b.smooth));
            taken.extend(curve(line.map(|b| (x_frac(b.start + b.count - 1), b.smooth.min(clip))).collect()));
        }
        let width = legend_width(area, &entries, theme);
        let (at, free) =
            place_legend(area, entries.len(), width, &taken, &[Corner::TopRight, Corner::TopLeft], theme);
        corner = at;
        hi = raised_top(lo, hi, free);
    }
    let title = match (history.last(), diverged_at) {
        (_, Some(s)) => say!("loss-title-diverged", step = s),
        // one loss per update: after n updates the count is n
        (Some(l), None) => say!("loss-title-step", step = history.len(), loss = number(l)),
        (None, None) => say!("loss-title"),
    };
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(Axis::count(0..n - 1), Axis::log(lo..hi))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(6).y_labels(5).y_label_formatter(&|y| number(*y)).draw().map_err(err)?;
    // series past the cut: (name, largest value, first step at the cut, colour)
    let mut beyond: Vec<(String, f64, usize, RGBColor)> = Vec::new();
    // a pin's seeds under everything: the band from the lowest to the highest
    for p in pins.iter().filter(|p| p.band.len() > 1) {
        let top = |v: f64| if v.is_finite() { v.clamp(lo, clip) } else { clip };
        let mut outline: Vec<(f64, f64)> = p.band.iter().map(|&(x, _, high)| (x as f64, top(high))).collect();
        outline.extend(p.band.iter().rev().map(|&(x, low, _)| (x as f64, top(low))));
        let fill = pinned_colour(theme).mix(0.15).filled();
        chart.draw_series(std::iter::once(Polygon::new(outline, fill))).map_err(err)?;
    }
    // pinned runs first, under the live one: their smoothed loss, numbered at its end
    for (i, p) in pins.iter().enumerate() {
        let line: Vec<(f64, f64)> = p
            .history
            .buckets()
            .iter()
            .filter(|b| positive(b.smooth))
            .map(|b| ((b.start + b.count - 1) as f64, b.smooth.min(clip)))
            .collect();
        if let Some(&(x, _)) = line.iter().find(|p| p.1 >= clip).filter(|_| pin_largest[i] > clip) {
            let x = x as usize;
            beyond.push((say!("pin-number", pin = i + 1), pin_largest[i], x, pinned_colour(theme)));
        }
        let style = pinned_colour(theme).stroke_width(theme.px(1.5));
        chart.draw_series(LineSeries::new(line.iter().copied(), style)).map_err(err)?;
        if let Some(&end) = line.last() {
            let colour = pinned_colour(theme);
            let number = Text::new(format!("{}", i + 1), end, theme.font(11.0).color(&colour));
            chart.plotting_area().draw(&number).map_err(err)?;
        }
    }
    let shown = || buckets.iter().filter(|b| positive(b.min) && positive(b.max));
    let raw = theme.now.mix(0.35);
    if history.per_bucket() == 1 {
        // every step is its own bucket: the raw losses as a thin line
        let points = shown().map(|b| (b.start as f64, b.min.min(clip)));
        chart.draw_series(LineSeries::new(points, raw.stroke_width(theme.px(1.0)))).map_err(err)?;
    } else {
        // lowest losses left to right, then highest right to left: the band's outline
        let outline: Vec<(f64, f64)> = shown()
            .map(|b| (b.start as f64, b.min.min(clip)))
            .chain(shown().rev().map(|b| ((b.start + b.count - 1) as f64, b.max.min(clip))))
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(outline, raw.filled()))).map_err(err)?;
    }
    if let Some(b) = shown().find(|b| b.max >= clip).filter(|_| live_largest > clip) {
        beyond.push((String::new(), live_largest, b.start, theme.now));
    }
    let smooth = buckets
        .iter()
        .filter(|b| positive(b.smooth))
        .map(|b| ((b.start + b.count - 1) as f64, b.smooth.min(clip)));
    chart.draw_series(LineSeries::new(smooth, theme.now.stroke_width(theme.px(2.0)))).map_err(err)?;
    // the floors: dashed lines across, named at their left end
    for &(name, floor) in held_out.floors.iter().filter(|(_, f)| positive(*f)) {
        let style = theme.text.mix(0.6).stroke_width(theme.px(1.0));
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, floor), ((n - 1) as f64, floor)],
                theme.px(4.0),
                theme.px(3.0),
                style,
            ))
            .map_err(err)?;
        let label = Text::new(
            say!("loss-floor", floor = name, value = number(floor)),
            (0.0, floor),
            theme.font(10.0).color(&theme.text).pos(ABOVE),
        );
        chart.plotting_area().draw(&label).map_err(err)?;
    }
    // the held-out loss, with a dot at each measurement and its name at the last
    let measured: Vec<(f64, f64)> =
        held_out.loss.iter().filter(|&&(_, l)| positive(l)).map(|&(s, l)| (s as f64, l)).collect();
    if !measured.is_empty() {
        chart
            .draw_series(LineSeries::new(measured.iter().copied(), theme.other.stroke_width(theme.px(2.0))))
            .map_err(err)?;
        if let Some(&last) = measured.last() {
            let dot = Circle::new(last, theme.px(3.0), theme.other.filled());
            chart.plotting_area().draw(&dot).map_err(err)?;
            // left of the last point once it is past the middle, else right of it: inside the plot
            let side = if 2 * (last.0 as usize) >= n { LEFT } else { RIGHT };
            let label = Text::new(
                say!("loss-held-out-label", loss = number(last.1)),
                last,
                theme.font(11.0).color(&theme.other).pos(side),
            );
            chart.plotting_area().draw(&label).map_err(err)?;
        }
    }
    if let Some(s) = diverged_at {
        let line =
            PathElement::new(vec![(s as f64, lo), (s as f64, hi)], theme.alert.stroke_width(theme.px(2.0)));
        chart.plotting_area().draw(&line).map_err(err)?;
        let label = Text::new(
            say!("loss-diverged-mark", step = s),
            (s.saturating_sub(n / 3) as f64, hi),
            theme.font(12.0).color(&theme.alert),
        );
        chart.plotting_area().draw(&label).map_err(err)?;
    }
    for (row, (name, top, x, colour)) in beyond.into_iter().enumerate() {
        let text = if name.is_empty() { beyond_mark(top) } else { format!("{name} {}", beyond_mark(top)) };
        draw_beyond(area, chart.backend_coord(&(x as f64, clip)), row, 2 * x >= n, text, colour, theme)?;
    }
    if !pins.is_empty() {
        let plot = chart.plotting_area().get_pixel_range();
        legend(area, plot, corner, &entries, legend_width(area, &entries, theme), theme)?;
    }
    area.present().map_err(err)
}
