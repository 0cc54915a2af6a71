//! The depth sweep: the four combinations' loss after a number of steps, and their gradient
//! ratio at initialisation, against depth.

use super::spread::{arm_spread, diverged_count, learned_count, rate_words, seeds_words, spread_text};
use super::{and_list, times, Scene, Surface, Table};
use crate::training::comparisons::SweepState;
use crate::training::spread::Spread;
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
    let progress =
        format!("{} of {} runs{}", s.runs_finished, s.runs_total, crate::view::words::on_text(&s.config));
    let reached = s.series.iter().map(|x| x.final_loss.len()).min().unwrap_or(0);
    // over several seeds, the median (∞ once most diverged)
    let medians: Vec<Vec<f64>> =
        s.series.iter().map(|x| x.final_spread().iter().map(|m| m.median).collect()).collect();
    let index =
        |x: &SweepSeries| s.series.iter().position(|y| std::ptr::eq(x, y)).expect("one of the series");
    let ended = |x: &SweepSeries, i: usize| {
        if s.config.seeds > 1 {
            medians[index(x)][i]
        } else if x.diverged_at[i].is_some() {
            f64::INFINITY
        } else {
            x.final_loss[i]
        }
    };
    let diverged = |x: &SweepSeries, i: usize| ended(x, i).is_infinite();
    let name = |x: &SweepSeries| combination_name(x.residual, x.norm);
    if reached == 0 {
        return format!("Loss after {} steps and initial gradient ratio against depth: {progress} done, none at every combination yet.", s.steps);
    }
    let deepest = reached - 1;
    let mut order: Vec<&SweepSeries> = s.series.iter().collect();
    crate::order::sort_by(&mut order, |a, b| ended(a, deepest).total_cmp(&ended(b, deepest)));
    let (best, next) = (order[0], order.get(1));
    let at = s.depths[deepest];
    let over =
        if s.config.seeds > 1 { format!(" (medians {})", seeds_words(&s.config)) } else { String::new() };
    let mut out = format!(
        "After {} steps{over} at depth {at}, {} ends lowest ({}",
        s.steps,
        name(best),
        short(ended(best, deepest))
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
        let broken = |i: usize| diverged(x, i) || ended(x, i) >= 5.0 * ended(best, i);
        let Some(first) = (0..reached).find(|&i| broken(i)) else { continue };
        let diverged = diverged(x, first);
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

/// The depth sweep as a table: a row per depth swept so far, each combination's loss after
/// the steps (✕ and the step if it diverged) and gradient ratio; over several seeds the
/// median loss with the lowest and highest run and how many diverged, and a tuned sweep's rate.
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
            let Some(arm) = x.arms.get(i) else {
                row.push("…".into());
                continue;
            };
            let mut cell = if arm.seeds.len() > 1 {
                let mut cell = format!(
                    "{}, {}",
                    spread_text(&arm_spread(arm, &|o| o.final_loss)),
                    short(x.grad_ratio[i])
                );
                if let Some(d) = diverged_count(arm, |o| o.diverged_at.is_some()) {
                    cell += &format!(" · {d}");
                }
                if let Some(k) = learned_count(arm, s.config.task, |o| o.learned) {
                    cell += &format!(" · {k}");
                }
                cell
            } else {
                match x.diverged_at[i] {
                    Some(at) => format!("✕ diverged at step {at}, {}", short(x.grad_ratio[i])),
                    None => format!("{}, {}", short(x.final_loss[i]), short(x.grad_ratio[i])),
                }
            };
            if let Some(rate) = rate_words(arm) {
                cell += &format!(" · {rate}");
            }
            row.push(cell);
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
    // over several seeds, the median line and the band from the lowest to the highest run
    let several = series.iter().any(|s| s.arms.iter().any(|a| a.seeds.len() > 1));
    let spreads: Vec<Vec<Spread>> = series.iter().map(SweepSeries::final_spread).collect();
    let medians: Vec<Vec<f64>> = spreads.iter().map(|s| s.iter().map(|m| m.median).collect()).collect();
    let bands: Vec<Vec<(f64, f64)>> =
        spreads.iter().map(|s| s.iter().map(|m| (m.min, m.max)).collect()).collect();
    let curves: Vec<SweepCurve> = series
        .iter()
        .zip(&labels)
        .enumerate()
        .map(|(i, (s, label))| {
            let curve = SweepCurve::of(s, label);
            if several {
                SweepCurve { final_loss: &medians[i], band: &bands[i], ..curve }
            } else {
                curve
            }
        })
        .collect();
    charts::sweep::draw(area, depths, &curves, steps, theme)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(s) = &scene.shown.sweep else { return Ok(()) };
    draw_series(area, &s.depths, &s.series, s.steps, theme)
}
