//! Depth or width: stacks of about the same parameters, deep and narrow to shallow and wide,
//! trained alike; each shape's label, the panel's sentence, its table and its chart.

use super::{Scene, Surface, Table};
use crate::config::TaskKind;
use crate::training::comparisons::DepthWidthState;
use crate::training::depth_width::ShapeOutcome;
use crate::training::loss_history::LossHistory;
use crate::view::charts::{self, depth_width::ShapeCurve, short, ChartResult, Theme};
use crate::view::json::Json;
use plotters::coord::Shift;
use plotters::prelude::*;

/// "49 × 16: 81k parameters, 0.92 ms a step, 0.21 ms a character".
pub fn shape_label(r: &ShapeOutcome) -> String {
    let mut label = format!("{} × {}: {} params", r.config.depth, r.config.width, short(r.params as f64));
    if r.ms_per_step.is_finite() {
        label += &format!(", {} ms/step", short(r.ms_per_step));
    }
    if r.ms_per_char.is_finite() {
        label += &format!(", {} ms/char", short(r.ms_per_char));
    }
    label
}

/// The loss a shape is judged by: held-out on a sequence task, the last training loss else.
fn judged(r: &ShapeOutcome) -> f64 {
    if r.config.task == TaskKind::Teacher {
        r.final_loss()
    } else {
        r.val_loss()
    }
}

/// One sentence: which shape ends lowest, and what depth costs in latency.
pub fn depth_width_summary(d: &DepthWidthState) -> String {
    let done: Vec<&ShapeOutcome> = d.rows.iter().filter(|(done, _)| *done).map(|(_, r)| r).collect();
    if done.len() < d.rows.len() {
        return format!(
            "Training {} stacks of about the same parameters: {} of {} done.",
            d.rows.len(),
            done.len(),
            d.rows.len()
        );
    }
    let Some(best) =
        done.iter().filter(|r| judged(r).is_finite()).min_by(|a, b| judged(a).total_cmp(&judged(b)))
    else {
        return "No shape ended with a finite loss.".into();
    };
    let which = if d.config.task == TaskKind::Teacher { "loss" } else { "held-out loss" };
    let mut out = format!(
        "After {} steps, {} × {} ends lowest ({which} {})",
        d.steps,
        best.config.depth,
        best.config.width,
        short(judged(best))
    );
    let others: Vec<String> = done
        .iter()
        .filter(|r| r.config != best.config)
        .map(|r| format!("{} × {} {}", r.config.depth, r.config.width, short(judged(r))))
        .collect();
    if !others.is_empty() {
        out += &format!(", against {}", others.join(" and "));
    }
    let (deep, wide) = (done[0], done[done.len() - 1]);
    if deep.ms_per_char.is_finite() && wide.ms_per_char.is_finite() && deep.config != wide.config {
        out += &format!(
            "; a character takes {}× as long at depth {} as at depth {} ({} against {} ms)",
            short(deep.ms_per_char / wide.ms_per_char),
            deep.config.depth,
            wide.config.depth,
            short(deep.ms_per_char),
            short(wide.ms_per_char)
        );
    }
    out + "."
}

/// The table: one row per shape (a number not reached yet is "…").
pub fn depth_width_table(d: &DepthWidthState) -> Table {
    let which = if d.config.task == TaskKind::Teacher { "loss" } else { "held-out loss" };
    let mut table = Table::new(vec![
        "depth × width".to_string(),
        "parameters".to_string(),
        format!("{which} after {} steps", d.steps),
        "ms per step".to_string(),
        "ms per character".to_string(),
    ]);
    for (done, r) in &d.rows {
        let num = |x: f64| {
            if x.is_nan() && !done {
                "…".to_string()
            } else if x.is_nan() {
                "–".to_string()
            } else {
                short(x)
            }
        };
        table.rows.push(vec![
            format!("{} × {}", r.config.depth, r.config.width),
            r.params.to_string(),
            num(if *done { judged(r) } else { f64::NAN }),
            num(r.ms_per_step),
            num(r.ms_per_char),
        ]);
    }
    table
}

pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    let d = scene.shown.depth_width.as_ref();
    (
        d.map_or_else(|| "Not run yet.".into(), depth_width_summary),
        vec![("table", d.map_or_else(Table::default, depth_width_table).json())],
    )
}

/// The chart from its shapes' runs (deepest first, a run in progress partial): held-out loss
/// on a sequence task, the smoothed training loss on the regression.
pub fn draw_shapes<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: impl IntoIterator<Item = &'a ShapeOutcome>,
    steps: usize,
    theme: &Theme,
) -> ChartResult {
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

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(d) = &scene.shown.depth_width else { return Ok(()) };
    draw_shapes(area, d.rows.iter().map(|(_, r)| r), d.steps, theme)
}
