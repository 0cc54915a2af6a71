//! Static figures: the three panels of a finished run, and the comparisons' charts, as SVG,
//! through the same chart code the page draws on its canvases (for `<noscript>`, print, and
//! lesson images).

use crate::config::TaskKind;
use crate::model::lens::AttentionMaps;
use crate::training::depth_width::ShapeOutcome;
use crate::training::knockout::Knockout;
use crate::training::loss_history::LossHistory;
use crate::training::outcome::Outcome;
use crate::training::report::{self, Run};
use crate::training::sweep::SweepSeries;
use crate::training::task::TaskFloors;
use crate::training::train::Eval;
use crate::view::charts::depth_width::ShapeCurve;
use crate::view::charts::loss::HeldOut;
use crate::view::charts::short;
use crate::view::charts::{self, compare::LossCurve, depth::DepthCurves, sweep::SweepCurve, Theme};
use crate::view::lens_words::{attention_title, head_titles, readout_curves, readout_floors, readout_notes};
use crate::view::shape_words::shape_label;
use crate::view::words::{combination_name, histogram_subject, last_finite_state};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const SIZE: (u32, u32) = (640, 480);
/// The attention panel: four heads side by side.
pub const WIDE: (u32, u32) = (960, 300);

/// The live run's panels as SVG documents: `[("histogram", svg), ("loss", svg), ("depth", svg),
/// ("readout", svg)]`, and `("attention", svg)` for the `attention` maps given.
/// A run that diverged shows its last finite state in the histogram and the per-layer panel,
/// as the page does: the same run stopped one step before (the loss panel keeps the whole run).
pub fn panels_svg(
    run: &Run,
    attention: Option<&AttentionMaps>,
    dark: bool,
) -> Result<Vec<(&'static str, String)>, String> {
    let theme = theme(dark);
    let mut out = Vec::new();
    let mut svg = String::new();
    let finite = run.diverged_at.map(|at| (at, report::run(&run.config, at.saturating_sub(1))));
    let (shown, notes) = match &finite {
        Some((at, before)) => (before, last_finite_state(at.saturating_sub(1), *at)),
        None => (run, vec![]),
    };
    charts::histogram::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &shown.histogram,
        &histogram_subject(&run.config),
        shown.last.readout_std,
        &notes,
        &theme,
    )?;
    out.push(("histogram", std::mem::take(&mut svg)));
    let (evals, floors) =
        run.task.as_ref().map_or_else(Default::default, |t| held_out_parts(&t.evals, Some(t.floors)));
    charts::loss::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &run.loss.iter().copied().collect::<LossHistory>(),
        run.diverged_at,
        &[],
        &HeldOut { loss: &evals, floors: &floors },
        &theme,
    )?;
    out.push(("loss", std::mem::take(&mut svg)));
    let curves = DepthCurves {
        grad_init: &run.init.grad_norm,
        grad_now: &shown.last.grad_norm,
        std_init: &run.init.act_std,
        std_now: &shown.last.act_std,
        pins: &[],
    };
    charts::depth::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &curves,
        &notes,
        &theme,
    )?;
    out.push(("depth", std::mem::take(&mut svg)));
    let floors = readout_floors(run.task.as_ref().map(|t| t.floors));
    let last_eval = run.task.as_ref().and_then(|t| t.evals.last());
    let readout_notes = readout_notes(last_eval, run.loss.len().saturating_sub(1));
    let curves = readout_curves(&run.init, &shown.last, &floors, &[]);
    charts::readout::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &curves,
        &if notes.is_empty() { readout_notes } else { notes.clone() },
        &theme,
    )?;
    out.push(("readout", std::mem::take(&mut svg)));
    if let Some(maps) = attention {
        charts::attention::draw(
            &SVGBackend::with_string(&mut svg, WIDE).into_drawing_area(),
            maps,
            &attention_title(maps),
            &head_titles(maps),
            false,
            &theme,
        )?;
        out.push(("attention", svg));
    }
    Ok(out)
}

fn theme(dark: bool) -> Theme {
    if dark {
        Theme::dark(1.0)
    } else {
        Theme::light(1.0)
    }
}

/// All four's chart from its runs (in the order of `four_combinations`, a run in progress
/// partial, and whether it failed in its worker), each named as the lesson names it: what the
/// page's canvas and the SVG both draw. A failed run's curve, what it reached, says so.
pub fn draw_compare<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: impl IntoIterator<Item = (&'a Outcome, bool)>,
    steps: usize,
    theme: &Theme,
) -> charts::ChartResult {
    let (runs, failed): (Vec<&Outcome>, Vec<bool>) = runs.into_iter().unzip();
    let labels: Vec<String> = runs
        .iter()
        .zip(&failed)
        .map(|(o, &failed)| {
            let name = combination_name(o.config.residual, o.config.norm);
            if failed {
                format!("{name} (failed)")
            } else {
                name
            }
        })
        .collect();
    let curves: Vec<LossCurve> = runs.iter().zip(&labels).map(|(o, label)| LossCurve::of(o, label)).collect();
    charts::compare::draw(area, &curves, steps, theme)
}

/// Depth or width's chart from its shapes' runs (deepest first, a run in progress partial):
/// held-out loss on a sequence task, the smoothed training loss on the regression.
pub fn draw_depth_width<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: impl IntoIterator<Item = &'a ShapeOutcome>,
    steps: usize,
    theme: &Theme,
) -> charts::ChartResult {
    let rows: Vec<&ShapeOutcome> = rows.into_iter().collect();
    let sequence = rows.first().is_some_and(|r| r.config.task != TaskKind::Teacher);
    let curves: Vec<ShapeCurve> = rows
        .iter()
        .map(|r| {
            let points = if sequence {
                r.evals.iter().map(|e| (e.step, e.loss)).collect()
            } else {
                let history: LossHistory = r.loss.iter().copied().collect();
                history.buckets().iter().map(|b| (b.start + b.count - 1, b.smooth)).collect()
            };
            ShapeCurve { label: shape_label(r), points }
        })
        .collect();
    let what = if sequence { "held-out loss" } else { "training loss (smoothed)" };
    let params = rows.first().map_or(0, |r| r.params);
    let title = format!("{what} · depth × width at about {} parameters", short(params as f64));
    charts::depth_width::draw(area, &title, &curves, steps, theme)
}

/// Depth or width as an SVG document.
pub fn depth_width_svg(rows: &[ShapeOutcome], dark: bool) -> Result<String, String> {
    let mut svg = String::new();
    let steps = rows.iter().map(|r| r.config.steps).max().unwrap_or(1);
    let area = SVGBackend::with_string(&mut svg, (SIZE.0 * 3 / 2, SIZE.1)).into_drawing_area();
    draw_depth_width(&area, rows, steps, &theme(dark))?;
    drop(area);
    Ok(svg)
}

/// The depth sweep's two charts from its series, each named as the lesson names it: what the
/// page's canvas and the SVG both draw.
pub fn draw_sweep<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    depths: &[usize],
    series: &[SweepSeries],
    steps: usize,
    theme: &Theme,
) -> charts::ChartResult {
    let labels: Vec<String> = series.iter().map(|s| combination_name(s.residual, s.norm)).collect();
    let curves: Vec<SweepCurve> =
        series.iter().zip(&labels).map(|(s, label)| SweepCurve::of(s, label)).collect();
    charts::sweep::draw(area, depths, &curves, steps, theme)
}

/// "All four" as an SVG document: the four runs' loss curves.
pub fn compare_svg(entries: &[Outcome], steps: usize, dark: bool) -> Result<String, String> {
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
    draw_compare(&area, entries.iter().map(|o| (o, false)), steps, &theme(dark))?;
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
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (SIZE.0 * 2, SIZE.1)).into_drawing_area();
    draw_sweep(&area, depths, series, steps, &theme(dark))?;
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

/// The held-out loss at each measured step, and each floor with its name.
pub type HeldOutParts = (Vec<(usize, f64)>, Vec<(&'static str, f64)>);

/// The loss panel's held-out curve and named floors, from a sequence task's measurements (the
/// page's and the CLI's figure alike).
pub fn held_out_parts(evals: &[Eval], floors: Option<TaskFloors>) -> HeldOutParts {
    let loss = evals.iter().map(|e| (e.step, e.loss)).collect();
    let floors = match floors {
        None => vec![],
        Some(TaskFloors::Text(f)) => vec![("unigram", f.unigram), ("bigram", f.bigram)],
        Some(TaskFloors::Chance { chance }) => vec![("chance", chance)],
    };
    (loss, floors)
}
