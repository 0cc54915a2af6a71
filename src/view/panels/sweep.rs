//! The depth sweep: the four combinations' loss after a number of steps, and their gradient
//! ratio at initialisation, against depth.

use super::{and_list, times, Scene, Surface, Table};
use crate::training::comparisons::SweepState;
use crate::training::sweep::SweepSeries;
use crate::view::charts::{self, short, sweep::SweepCurve, ChartResult, Theme};
use crate::view::json::Json;
use crate::view::words::combination_name;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The depth sweep in one sentence, for its caption and its chart's accessible name: at the
/// deepest depth swept so far, which combination ends lowest and by how much, and from which
/// depth each other one falls five times behind it or diverges. The numbers are in
/// `sweep_table`.
pub fn sweep_summary(s: &SweepState) -> String {
    let progress = format!("{} of {} runs", s.runs_finished, s.runs_total());
    let reached = s.series.iter().map(|x| x.final_loss.len()).min().unwrap_or(0);
    let ended =
        |x: &SweepSeries, i: usize| if x.diverged_at[i].is_some() { f64::INFINITY } else { x.final_loss[i] };
    let name = |x: &SweepSeries| combination_name(x.residual, x.norm);
    if reached == 0 {
        return format!("Loss after {} steps and initial gradient ratio against depth: {progress} done, none at every combination yet.", s.steps);
    }
    let deepest = reached - 1;
    let mut order: Vec<&SweepSeries> = s.series.iter().collect();
    crate::order::sort_by(&mut order, |a, b| ended(a, deepest).total_cmp(&ended(b, deepest)));
    let (best, next) = (order[0], order.get(1));
    let at = s.depths[deepest];
    let mut out = format!(
        "After {} steps at depth {at}, {} ends lowest ({}",
        s.steps,
        name(best),
        short(best.final_loss[deepest])
    );
    if let Some(next) = next {
        let (b, n) = (ended(best, deepest), ended(next, deepest));
        if n.is_finite() && b > 0.0 {
            out += &format!(", {} below {}", times(n / b), name(next));
        }
    }
    out += ")";
    // where each other one breaks: diverges, or falls five times behind the best, grouped
    let mut breaks: Vec<(usize, bool, Vec<String>)> = Vec::new();
    for x in &order[1..] {
        let broken = |i: usize| x.diverged_at[i].is_some() || ended(x, i) >= 5.0 * ended(best, i);
        let Some(first) = (0..reached).find(|&i| broken(i)) else { continue };
        let diverged = x.diverged_at[first].is_some();
        match breaks.iter_mut().find(|(d, v, _)| *d == first && *v == diverged) {
            Some((_, _, names)) => names.push(name(x)),
            None => breaks.push((first, diverged, vec![name(x)])),
        }
    }
    crate::order::sort_by_key(&mut breaks, |(d, _, _)| *d);
    let said: Vec<String> = breaks
        .into_iter()
        .map(|(d, diverged, names)| {
            let how = match (diverged, names.len() == 1) {
                (true, true) => "diverges",
                (true, false) => "diverge",
                (false, true) => "falls 5× behind it",
                (false, false) => "fall 5× behind it",
            };
            format!("{} {how} from depth {}", and_list(&names), s.depths[d])
        })
        .collect();
    if !said.is_empty() {
        out += &format!("; {}", said.join("; "));
    }
    format!("{out} ({progress} done).")
}

/// The depth sweep as a table: a row per depth swept so far, each
/// combination's loss after the steps (✕ and the step if it diverged) and gradient ratio.
pub fn sweep_table(s: &SweepState) -> Table {
    let mut columns = vec!["depth".to_string()];
    columns.extend(s.series.iter().map(|x| combination_name(x.residual, x.norm)));
    let mut table = Table::new(columns);
    for (i, d) in s.depths.iter().enumerate() {
        if s.series.iter().all(|x| x.final_loss.len() <= i) {
            break;
        }
        let mut row = vec![d.to_string()];
        for x in &s.series {
            row.push(match (x.final_loss.get(i), x.diverged_at.get(i)) {
                (_, Some(Some(at))) => format!("✕ diverged at step {at}, {}", short(x.grad_ratio[i])),
                (Some(l), _) => format!("{}, {}", short(*l), short(x.grad_ratio[i])),
                _ => "…".into(),
            });
        }
        table.rows.push(row);
    }
    table
}

pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    let s = scene.shown.sweep.as_ref();
    (
        s.map_or_else(|| "Not run yet.".into(), sweep_summary),
        vec![("table", s.map_or_else(Table::default, sweep_table).json())],
    )
}

/// The sweep's two charts from its series, each named as the lesson names it.
pub fn draw_series<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    depths: &[usize],
    series: &[SweepSeries],
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    let labels: Vec<String> = series.iter().map(|s| combination_name(s.residual, s.norm)).collect();
    let curves: Vec<SweepCurve> =
        series.iter().zip(&labels).map(|(s, label)| SweepCurve::of(s, label)).collect();
    charts::sweep::draw(area, depths, &curves, steps, theme)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(s) = &scene.shown.sweep else { return Ok(()) };
    draw_series(area, &s.depths, &s.series, s.steps, theme)
}
