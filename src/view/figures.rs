//! Static figures: the three panels of a finished run, and the comparisons' charts, as SVG,
//! through the same chart code the page draws on its canvases (for `<noscript>`, print, and
//! lesson images).

use crate::training::compare::switches_label;
use crate::training::knockout::Knockout;
use crate::training::loss_history::LossHistory;
use crate::training::report::Run;
use crate::training::run_queue::Outcome;
use crate::training::sweep::SweepSeries;
use crate::view::charts::{self, compare::LossCurve, depth::DepthCurves, sweep::SweepCurve, Theme};
use crate::view::words::histogram_subject;
use plotters::prelude::*;

pub const SIZE: (u32, u32) = (640, 480);

/// The three panels as SVG documents: `[("histogram", svg), ("loss", svg), ("depth", svg)]`.
pub fn panels_svg(run: &Run, dark: bool) -> Result<Vec<(&'static str, String)>, String> {
    let theme = if dark { Theme::dark(1.0) } else { Theme::light(1.0) };
    let mut out = Vec::new();
    let mut svg = String::new();
    charts::histogram::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &run.histogram,
        &histogram_subject(&run.config),
        run.last.readout_std,
        &theme,
    )?;
    out.push(("histogram", std::mem::take(&mut svg)));
    charts::loss::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &run.loss.iter().copied().collect::<LossHistory>(),
        run.diverged_at,
        &[],
        &theme,
    )?;
    out.push(("loss", std::mem::take(&mut svg)));
    let curves = DepthCurves {
        grad_init: &run.init.grad_norm,
        grad_now: &run.last.grad_norm,
        std_init: &run.init.act_std,
        std_now: &run.last.act_std,
        pins: &[],
    };
    charts::depth::draw(&SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(), &curves, &theme)?;
    out.push(("depth", svg));
    Ok(out)
}

fn theme(dark: bool) -> Theme {
    if dark {
        Theme::dark(1.0)
    } else {
        Theme::light(1.0)
    }
}

/// "All four" as an SVG document: the four runs' loss curves.
pub fn compare_svg(entries: &[Outcome], steps: usize, dark: bool) -> Result<String, String> {
    let labels: Vec<String> =
        entries.iter().map(|o| switches_label(o.config.residual, o.config.norm)).collect();
    let curves: Vec<LossCurve> =
        entries.iter().zip(&labels).map(|(o, label)| LossCurve::of(o, label)).collect();
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
    charts::compare::draw(&area, &curves, steps, &theme(dark))?;
    drop(area);
    Ok(svg)
}

/// The depth sweep as an SVG document, twice as wide as a panel (two charts side by side).
pub fn sweep_svg(
    depths: &[usize],
    series: &[SweepSeries],
    steps: usize,
    dark: bool,
) -> Result<String, String> {
    let labels: Vec<String> = series.iter().map(|s| switches_label(s.residual, s.norm)).collect();
    let curves: Vec<SweepCurve> =
        series.iter().zip(&labels).map(|(s, label)| SweepCurve::of(s, label)).collect();
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (SIZE.0 * 2, SIZE.1)).into_drawing_area();
    charts::sweep::draw(&area, depths, &curves, steps, &theme(dark))?;
    drop(area);
    Ok(svg)
}

/// The layer knockout as an SVG document.
pub fn knockout_svg(knockout: &Knockout, dark: bool) -> Result<String, String> {
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
    charts::knockout::draw(
        &area,
        knockout.intact_loss,
        &knockout.loss,
        &knockout.output_change,
        &theme(dark),
    )?;
    drop(area);
    Ok(svg)
}
