//! Panel 1: the distribution of what the readout reads, on a fixed axis with overflow counts.

use super::number;
use super::{err, fitted_title, frame, short, style_mesh, title_fits, Axis, ChartResult, Theme};
use ablation_core::model::stats::Histogram;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the panel draws: the histogram now, with its std, and the one at initialisation on
/// the same axis with its std (drawn as an outline behind), if it is to be compared.
pub struct Shown<'a> {
    pub now: &'a Histogram,
    pub subject: &'a str,
    pub std: f64,
    pub init: Option<(&'a Histogram, f64)>,
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shown: &Shown,
    notes: &[String],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let h = shown.now;
    let bins = h.counts.len();
    let init_peak = shown.init.map_or(0, |(i, _)| i.counts.iter().copied().max().unwrap_or(0));
    let peak = h.counts.iter().copied().max().unwrap_or(0).max(init_peak).max(1);
    let width = (h.hi - h.lo) / bins as f64;
    // the initialisation's std beside now's, where the title has no note and room for it
    let plain = say!("histogram-title", subject = shown.subject, std = number(shown.std));
    let title = match shown.init {
        Some((_, init)) if short(init) != short(shown.std) && notes.is_empty() => {
            let std = say!("histogram-outline", std = number(shown.std), init = number(init));
            let with_init = say!("histogram-title", subject = shown.subject, std = std);
            if title_fits(area, &with_init, theme) {
                with_init
            } else {
                plain
            }
        }
        _ => fitted_title(area, &plain, notes, theme),
    };
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(Axis::linear(h.lo..h.hi), Axis::whole(0..peak + peak / 8 + 1))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(9).y_labels(4).x_label_formatter(&|x| number(*x)).draw().map_err(err)?;
    // the initialisation's histogram as an outline (one stroke), the bars of now over it
    if let Some((init, _)) = shown.init.filter(|(i, _)| i.counts.len() == bins) {
        let mut outline = vec![(h.lo, 0.0)];
        for (i, &c) in init.counts.iter().enumerate() {
            let x0 = h.lo + i as f64 * width;
            outline.extend([(x0, f64::from(c)), (x0 + width, f64::from(c))]);
        }
        outline.push((h.hi, 0.0));
        let style = theme.init.stroke_width(theme.px(1.5));
        chart.draw_series(std::iter::once(PathElement::new(outline, style))).map_err(err)?;
    }
    chart
        .draw_series(h.counts.iter().enumerate().filter(|(_, &c)| c > 0).map(|(i, &c)| {
            let x0 = h.lo + i as f64 * width;
            Rectangle::new([(x0, 0.0), (x0 + width * 0.92, f64::from(c))], theme.now.filled())
        }))
        .map_err(err)?;
    // Values beyond the axis pile up as labelled bars at the edges.
    let edge = |count: u32, x0: f64, x1: f64, label_x: f64, text: String| -> ChartResult {
        if count == 0 {
            return Ok(());
        }
        let hgt = count.min(peak + peak / 8);
        chart
            .plotting_area()
            .draw(&Rectangle::new([(x0, 0.0), (x1, f64::from(hgt))], theme.alert.filled()))
            .map_err(err)?;
        chart
            .plotting_area()
            .draw(&Text::new(text, (label_x, f64::from(hgt)), theme.font(11.0).color(&theme.alert)))
            .map_err(err)
    };
    edge(h.below, h.lo, h.lo + width * 0.5, h.lo, say!("histogram-below", n = h.below))?;
    edge(h.above, h.hi - width * 0.5, h.hi, h.hi - 10.0 * width, say!("histogram-above", n = h.above))?;
    if h.nan > 0 {
        let t = Text::new(
            say!("histogram-nan", n = h.nan),
            (h.lo + (h.hi - h.lo) * 0.4, f64::from(peak)),
            theme.font(12.0).color(&theme.alert),
        );
        chart.plotting_area().draw(&t).map_err(err)?;
    }
    area.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ablation_core::model::stats::{histogram, Range};

    fn svg_of(h: &Histogram) -> String {
        let mut svg = String::new();
        let shown = Shown { now: h, subject: "x", std: 1.0, init: None };
        draw(
            &SVGBackend::with_string(&mut svg, (640, 480)).into_drawing_area(),
            &shown,
            &[],
            &Theme::light(1.0),
        )
        .unwrap();
        svg
    }

    #[test]
    fn values_beyond_the_axis_are_counted_at_its_edges_in_the_alert_colour() {
        let inside: Vec<f64> = (0..40).map(|i| -3.9 + i as f64 * 0.19).collect();
        let mut xs = inside.clone();
        xs.extend([-7.0, -1e9, f64::NEG_INFINITY]);
        xs.extend([4.5, 6.0, 1e30, f64::INFINITY, 9.0]);
        xs.extend([f64::NAN, f64::NAN]);
        let h = histogram(&xs, 32, Range::Fixed(-4.0, 4.0));
        assert_eq!((h.below, h.above, h.nan), (3, 5, 2));
        let alert = {
            let RGBColor(r, g, b) = Theme::light(1.0).alert;
            format!("#{r:02X}{g:02X}{b:02X}")
        };
        let svg = svg_of(&h);
        for label in ["◀ 3 below", "5 above ▶", "2 NaN"] {
            assert!(svg.contains(label), "the histogram does not say {label}");
        }
        // the two edge bars and the three labels
        assert_eq!(svg.matches(&alert).count(), 5, "{alert} in:\n{svg}");
        // with every value on the axis, nothing is drawn in the alert colour
        let svg = svg_of(&histogram(&inside, 32, Range::Fixed(-4.0, 4.0)));
        assert!(!svg.contains("below") && !svg.contains("above") && !svg.contains(&alert));
    }
}
