//! All four: the four switch combinations trained alike from the live run's settings, their
//! loss curves, their numbers, their readouts and what each writes.

use super::{Scene, Surface, Table};
use crate::training::comparisons::{CompareRow, CompareState};
use crate::training::outcome::Outcome;
use crate::view::charts::{self, compare::LossCurve, short, ChartResult, Theme};
use crate::view::json::Json;
use crate::view::words::combination_name;
use plotters::coord::Shift;
use plotters::prelude::*;

/// "All four" as a table: one row per combination (a run not yet reached
/// shows dashes; the one in progress, what it has measured).
pub fn compare_table(c: &CompareState) -> Table {
    let mut table = Table::new(vec![
        "combination".to_string(),
        "std at the top (init)".to_string(),
        "gradient ratio ‖∂L/∂x₀‖/‖∂L/∂x_L‖ (init)".to_string(),
        format!("loss after {} steps", c.steps),
        "diverged at step".to_string(),
    ]);
    for CompareRow { done, run: row, failed } in &c.rows {
        let done = *done;
        let num = |x: f64| if x.is_nan() && !done { "…".to_string() } else { short(x) };
        let loss = if let Some(why) = failed {
            format!("failed: {why}")
        } else if done && row.held_out.loss.is_finite() {
            format!("{} (held-out {})", short(row.final_loss), short(row.held_out.loss))
        } else if done {
            short(row.final_loss)
        } else if row.loss.is_empty() {
            "…".into()
        } else {
            format!("training: step {}", row.loss.len() - 1)
        };
        let diverged = match row.diverged_at {
            Some(at) => at.to_string(),
            None if failed.is_some() => "–".into(),
            None if done => "—".into(),
            None => "…".into(),
        };
        table.rows.push(vec![
            combination_name(row.config.residual, row.config.norm),
            num(row.init_top_std),
            num(row.grad_ratio),
            loss,
            diverged,
        ]);
    }
    table
}

/// The readout of each combination at a few depths (all when there are few): one row per
/// combination.
pub fn compare_readout_table(c: &CompareState) -> Table {
    let depth = c.config.depth;
    let mut depths: Vec<usize> =
        if depth <= 4 { (0..=depth).collect() } else { (0..=4).map(|i| i * depth / 4).collect() };
    depths.dedup();
    let mut columns = vec!["loss read out at depth".to_string()];
    columns.extend(depths.iter().map(|d| format!("x_{d}")));
    let mut table = Table::new(columns);
    for row in &c.rows {
        let r = &row.run.readout_loss;
        let mut cells = vec![combination_name(row.run.config.residual, row.run.config.norm)];
        cells.extend(depths.iter().map(|&d| r.get(d).map_or_else(|| "…".to_string(), |&x| short(x))));
        table.rows.push(cells);
    }
    table
}

/// What "All four" was run on, for its caption and its chart's text alternative.
pub fn compare_summary(c: &CompareState) -> String {
    let done = c.rows.iter().filter(|r| r.done).count();
    let cfg = &c.config;
    let mut s = format!(
        "All four combinations at depth {} ({} of 4 trained, {} steps each, otherwise the settings of the run it was started from)",
        cfg.depth, done, c.steps
    );
    let finished: Vec<String> = c
        .rows
        .iter()
        .filter(|r| r.done)
        .map(|CompareRow { run: r, failed, .. }| {
            let end = match (failed, r.diverged_at) {
                (Some(why), _) => format!("failed ({why})"),
                (None, Some(at)) => format!("diverged at step {at}"),
                (None, None) => format!("loss {}", short(r.final_loss)),
            };
            format!("{}: {end}", combination_name(r.config.residual, r.config.norm))
        })
        .collect();
    if !finished.is_empty() {
        s += &format!(": {}", finished.join("; "));
    }
    s + "."
}

pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    let c = scene.shown.compare.as_ref();
    (
        c.map_or_else(|| "Not run yet.".into(), compare_summary),
        vec![
            ("table", c.map_or_else(Table::default, compare_table).json()),
            ("readout", c.map_or_else(Table::default, compare_readout_table).json()),
        ],
    )
}

/// The chart from its runs (in the order of `four_combinations`, a run in progress partial,
/// and whether it failed in its worker), each named as the lesson names it. A failed run's
/// curve, what it reached, says so.
pub fn draw_runs<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: impl IntoIterator<Item = (&'a Outcome, bool)>,
    steps: usize,
    theme: &Theme,
) -> ChartResult {
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

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(c) = &scene.shown.compare else { return Ok(()) };
    draw_runs(area, c.rows.iter().map(|r| (&r.run, r.failed.is_some())), c.steps, theme)
}
