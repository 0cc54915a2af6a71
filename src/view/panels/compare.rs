//! All four: the four switch combinations trained alike from the live run's settings, their
//! loss curves, their numbers, their readouts and what each writes.

use super::spread::{
    arm_spread, disagree, diverged_count, learned_count, rate_cell, rate_column, rate_words, seeds_words,
    spread_text,
};
use super::{Scene, Surface, Table};
use crate::training::comparisons::{CompareRow, CompareState};
use crate::training::outcome::Outcome;
use crate::view::charts::{self, compare::LossCurve, short, ChartResult, Theme};
use crate::view::json::Json;
use crate::view::words::combination_name;
use plotters::coord::Shift;
use plotters::prelude::*;

/// "All four" as a table: one row per combination (a run not yet reached shows dashes; the
/// one in progress, what it has measured). Over several seeds each number is the median with
/// the lowest and highest run, and a sequence task's loss says how many runs learned it; a
/// tuned comparison names each row's rate.
pub fn compare_table(c: &CompareState) -> Table {
    let tuned = c.rows.iter().any(|r| r.arm.tuned());
    let mut columns = vec![
        "combination".to_string(),
        "std at the top (init)".to_string(),
        "gradient ratio ‖∂L/∂x₀‖/‖∂L/∂x_L‖ (init)".to_string(),
        format!("loss after {} steps", c.steps),
        "diverged at step".to_string(),
    ];
    if let Some(column) = rate_column(c.rows.iter().map(|r| &r.arm)) {
        columns.push(column);
    }
    let mut table = Table::new(columns);
    for CompareRow { done, run: row, arm, failed } in &c.rows {
        let done = *done;
        let several = arm.shown_done().count() > 1;
        let num = |x: f64, f: fn(&Outcome) -> f64| {
            if several {
                spread_text(&arm_spread(arm, &f))
            } else if x.is_nan() && !done {
                "…".to_string()
            } else {
                short(x)
            }
        };
        let loss = if let Some(why) = failed {
            format!("failed: {why}")
        } else if done {
            let mut cell = spread_text(&arm_spread(arm, &|o| o.final_loss));
            if row.held_out.loss.is_finite() {
                cell += &format!(" (held-out {})", spread_text(&arm_spread(arm, &|o| o.held_out.loss)));
            }
            if let Some(k) = learned_count(arm, row.config.task, |o| o.learned).filter(|_| several) {
                cell += &format!(" · {k}");
            }
            cell
        } else if row.loss.is_empty() {
            "…".into()
        } else if arm.seeds.len() > 1 {
            format!("training: {} of {} runs", arm.finished(), arm.runs.len())
        } else {
            format!("training: step {}", row.loss.len() - 1)
        };
        let diverged = match (several, row.diverged_at) {
            (true, _) => diverged_count(arm, |o| o.diverged_at.is_some()).unwrap_or_else(|| "—".into()),
            (false, Some(at)) => at.to_string(),
            (false, None) if failed.is_some() => "–".into(),
            (false, None) if done => "—".into(),
            (false, None) => "…".into(),
        };
        let mut cells = vec![
            combination_name(row.config.residual, row.config.norm),
            num(row.init_top_std, |o| o.init_top_std),
            num(row.grad_ratio, |o| o.grad_ratio),
            loss,
            diverged,
        ];
        if tuned {
            cells.push(rate_cell(arm));
        }
        table.rows.push(cells);
    }
    table
}

/// The readout of each combination at a few depths (all when there are few): one row per
/// combination (over several seeds the median with the lowest and highest run).
pub fn compare_readout_table(c: &CompareState) -> Table {
    let depth = c.config.depth;
    let mut depths: Vec<usize> =
        if depth <= 4 { (0..=depth).collect() } else { (0..=4).map(|i| i * depth / 4).collect() };
    depths.dedup();
    let mut columns = vec!["loss read out at depth".to_string()];
    columns.extend(depths.iter().map(|d| format!("x_{d}")));
    let mut table = Table::new(columns);
    for row in &c.rows {
        let several = row.arm.shown_done().count() > 1;
        let r = &row.run.readout_loss;
        let mut cells = vec![combination_name(row.run.config.residual, row.run.config.norm)];
        cells.extend(depths.iter().map(|&d| match r.get(d) {
            None => "…".to_string(),
            Some(_) if several => {
                spread_text(&arm_spread(&row.arm, &|o| o.readout_loss.get(d).copied().unwrap_or(f64::NAN)))
            }
            Some(&x) => short(x),
        }));
        table.rows.push(cells);
    }
    table
}

/// What "All four" was run on, for its caption and its chart's text alternative: its
/// progress, and each finished combination's end (over several seeds the median, how many
/// learned the task and whether the seeds disagree; when tuned, its rate).
pub fn compare_summary(c: &CompareState) -> String {
    let cfg = &c.config;
    let several = c.runs_total > c.rows.len();
    let progress = if several {
        format!("{} of {} runs", c.runs_finished, c.runs_total)
    } else {
        format!("{} of 4 trained", c.rows.iter().filter(|r| r.done).count())
    };
    let over = if cfg.seeds > 1 { format!(", {}", seeds_words(cfg)) } else { String::new() };
    let tuned = if cfg.tune { ", each at its best learning rate of ÷3, ×1 and ×3" } else { "" };
    let mut s = format!(
        "All four combinations at depth {}{} ({progress}, {} steps each{over}{tuned}, otherwise the settings of the run it was started from)",
        cfg.depth,
        crate::view::words::on_text(cfg),
        c.steps
    );
    let finished: Vec<String> = c
        .rows
        .iter()
        .filter(|r| r.done)
        .map(|CompareRow { run: r, arm, failed, .. }| {
            let mut end = match (failed, r.diverged_at, arm.seeds.len() > 1) {
                (Some(why), _, _) => format!("failed ({why})"),
                (None, _, true) => {
                    let loss = arm_spread(arm, &|o| o.final_loss);
                    let mut end = format!("loss {}", spread_text(&loss));
                    if let Some(k) = learned_count(arm, r.config.task, |o| o.learned) {
                        end += &format!(", {k}");
                        if disagree(arm, |o| o.learned) {
                            end += " (the seeds disagree)";
                        }
                    }
                    if let Some(d) = diverged_count(arm, |o| o.diverged_at.is_some()) {
                        end += &format!(", {d}");
                    }
                    end
                }
                (None, Some(at), false) => format!("diverged at step {at}"),
                (None, None, false) => format!("loss {}", short(r.final_loss)),
            };
            if let Some(rate) = rate_words(arm) {
                end += &format!(" at {rate}");
            }
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

/// The chart from its rows (in the order of `four_combinations`, a run in progress partial,
/// and whether it failed in its worker), each named as the lesson names it. A failed run's
/// curve, what it reached, says so. Over several seeds each row is its seeds' median curve
/// with a band from the lowest to the highest.
pub fn draw_rows<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: impl IntoIterator<Item = &'a CompareRow>,
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    let rows: Vec<&CompareRow> = rows.into_iter().collect();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut name = combination_name(r.run.config.residual, r.run.config.norm);
            if r.failed.is_some() {
                name += " (failed)";
            }
            if r.arm.tuned() && r.arm.done {
                name += &format!(" · lr {}", short(r.arm.rate()));
            }
            name
        })
        .collect();
    let curves: Vec<LossCurve> = rows
        .iter()
        .zip(&labels)
        .map(|(r, label)| {
            let runs: Vec<&[f64]> = r.arm.shown_done().map(|(_, o)| o.loss.as_slice()).collect();
            if runs.len() > 1 {
                LossCurve::over(&runs, label)
            } else {
                LossCurve::of(&r.run, label)
            }
        })
        .collect();
    charts::compare::draw(area, &curves, steps, theme)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(c) = &scene.shown.compare else { return Ok(()) };
    draw_rows(area, &c.rows, c.steps, theme)
}
