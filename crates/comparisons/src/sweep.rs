//! The depth sweep: the four combinations at each of a list of depths, trained for the same
//! steps over their seeds and rates; their loss after those steps and their gradient ratio at
//! initialisation, against depth.

use super::runs::{here, no_clock, Comparisons, Group};
use super::{Comparison, ComparisonKind};
use ablation_core::config::{ComparisonSpec, Config, SWEEP};
use ablation_training::runs::all_four::{comparison_steps, four_combinations};
use ablation_training::runs::arm::Arm;
use ablation_training::runs::job::Job;
use ablation_training::runs::outcome::Outcome;
use ablation_training::runs::spread::Spread;
use ablation_training::runs::sweep::{check_depths, default_sweep_depths, SweepSeries};
use ablation_view::charts::number;
use ablation_view::charts::{self, sweep::SweepCurve, ChartResult, Theme};
use ablation_view::json::{step_json, switches_json, Json};
use ablation_view::json_arms::tuning_json;
use ablation_view::panels::spread::{
    arm_spread, diverged_count, learned_count, limit_word, plateau_words, progress_words, rate_words,
    seeds_words, spread_text, tuning_words,
};
use ablation_view::panels::{and_list, times, Scene, Surface, Table};
use ablation_view::words::combination_name;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct DepthSweep;

#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    pub config: Config,
    pub steps: usize,
    pub depths: Vec<usize>,
    pub runs_finished: usize,
    pub runs_total: usize,
    /// While an arm's setting is being chosen: the round of its search and how many it plans.
    pub round: Option<(usize, usize)>,
    /// Each combination over the depths from the shallowest up to the first not finished.
    pub series: Vec<SweepSeries>,
}

impl Comparison for DepthSweep {
    const KIND: ComparisonKind = ComparisonKind::DepthSweep;
    const SPEC: &'static ComparisonSpec = &SWEEP;
    /// Its two charts side by side.
    const SIZE: (u32, u32) = (ablation_view::panels::SIZE.0 * 2, ablation_view::panels::SIZE.1);
    const RANK: u8 = 3;
    type State = SweepState;

    fn start(comparisons: &mut Comparisons, config: &Config) {
        start(comparisons, config);
    }

    fn state(g: &Group) -> SweepState {
        let depths: Vec<usize> = g.arms.iter().step_by(4).map(|c| c.depth).collect();
        let series = (0..4)
            .map(|combination| {
                // the depths up to the first whose runs of this combination are not all done
                let arms = (combination..g.arms.len())
                    .step_by(4)
                    .map(|a| g.arm::<Outcome>(a).0)
                    .take_while(|arm| arm.done);
                SweepSeries::of(&g.arms[combination], arms)
            })
            .collect();
        let (runs_finished, runs_total) = g.progress();
        let round = g.tuning_round();
        SweepState {
            config: g.config.clone(),
            steps: g.steps,
            depths,
            runs_finished,
            runs_total,
            round,
            series,
        }
    }

    fn value(s: &SweepState) -> Json {
        let Json::Obj(mut fields) = sweep_json(&s.depths, &s.series) else { unreachable!("an object") };
        fields.extend([
            ("steps", Json::Int(s.steps as i128)),
            ("runs_finished", Json::Int(s.runs_finished as i128)),
            ("runs_total", Json::Int(s.runs_total as i128)),
        ]);
        Json::Obj(fields)
    }

    fn report(s: &SweepState) -> Json {
        sweep_json(&s.depths, &s.series)
    }

    fn words(state: Option<&SweepState>, _scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
        panel_words(state)
    }

    fn draw<DB: Surface>(s: &SweepState, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
        draw_series(area, &s.depths, &s.series, s.steps, theme)
    }
}

/// Starts the depth sweep of `config` over the default depths (replacing one under way).
pub fn start(comparisons: &mut Comparisons, config: &Config) {
    start_over(comparisons, config, default_sweep_depths(config), comparison_steps(config.task));
}

/// `start` over `depths`, each run trained for `steps` (the CLI's `--sweep`, `--steps`).
pub fn start_over(comparisons: &mut Comparisons, config: &Config, depths: &[usize], steps: usize) {
    let arms =
        depths.iter().flat_map(|&depth| four_combinations(&Config { depth, ..config.clone() })).collect();
    // a sweep keeps four numbers per run, not its curve
    let job = |config, steps| Job::Run { config, steps, keep_loss: false };
    comparisons.start::<DepthSweep>(config, steps, arms, job);
}

/// The depth sweep of `config` over `depths`, each run trained for `steps`, here.
pub fn sweep_here(
    config: &Config,
    depths: &[usize],
    steps: usize,
    threads: usize,
) -> Result<SweepState, String> {
    check_depths(depths).map_err(|e| e.message())?;
    here::<DepthSweep>(threads, no_clock, |c| start_over(c, config, depths, steps))
}

/// The depth sweep as JSON: the depths, and per combination its numbers over them (the first
/// seed's, at each depth's chosen rate), each seed's, and the medians.
pub fn sweep_json(depths: &[usize], series: &[SweepSeries]) -> Json {
    let runs = series.iter().map(|s| {
        let mut fields = Vec::from(switches_json(s.residual, s.norm));
        fields.extend([
            ("final_loss", Json::nums(&s.final_loss)),
            ("grad_ratio", Json::nums(&s.grad_ratio)),
            ("diverged_at", Json::Arr(s.diverged_at.iter().map(|&d| step_json(d)).collect())),
        ]);
        let seeds = s.arms.first().map_or(0, |a| a.seeds.len());
        let per_seed = (0..seeds).map(|k| {
            let run = |a: &Arm<Outcome>| a.shown()[k].clone();
            let runs: Vec<Option<Outcome>> = s.arms.iter().map(run).collect();
            let each = |f: fn(&Outcome) -> Json| {
                Json::Arr(runs.iter().map(|r| r.as_ref().map_or(Json::Null, f)).collect())
            };
            Json::Obj(vec![
                ("seed", Json::Int(s.arms[0].seeds[k].into())),
                ("lr", Json::nums(&s.rates())),
                ("final_loss", each(|o| Json::Num(o.final_loss))),
                ("diverged_at", each(|o| step_json(o.diverged_at))),
            ])
        });
        fields.push(("seeds", Json::Arr(per_seed.collect())));
        let medians: Vec<f64> = s.final_spread().iter().map(|m| m.median).collect();
        fields.push(("median_final_loss", Json::nums(&medians)));
        if let Some(t) = s.arms.first().and_then(|a| a.tuning.as_ref()) {
            fields.push(("lr_grid", Json::nums(&t.lrs)));
            fields.push(("lr", Json::nums(&s.rates())));
            let tuning =
                s.arms.iter().map(|a| a.tuning.as_ref().map_or(Json::Null, |t| tuning_json(t, &a.seeds)));
            fields.push(("tuning", Json::Arr(tuning.collect())));
        }
        let converged = |a: &Arm<Outcome>| {
            Json::Arr(
                a.shown()
                    .iter()
                    .map(|r| r.as_ref().and_then(|r| r.converged).map_or(Json::Null, Json::Bool))
                    .collect(),
            )
        };
        fields.push(("converged", Json::Arr(s.arms.iter().map(converged).collect())));
        Json::Obj(fields)
    });
    Json::Obj(vec![
        ("depths", Json::Arr(depths.iter().map(|&d| Json::Int(d as i128)).collect())),
        ("runs", Json::Arr(runs.collect())),
    ])
}

/// The depth sweep in one sentence, for its caption and its chart's accessible name: at the
/// deepest depth swept so far, which combination ends lowest and by how much, and from which
/// depth each other one falls five times behind it or diverges. The numbers are in
/// `sweep_table`.
pub fn sweep_summary(s: &SweepState) -> String {
    let progress = format!(
        "{}{}{}",
        progress_words(s.runs_finished, s.runs_total, s.round),
        ablation_view::words::on_text(&s.config),
        tuning_words(&s.config)
    );
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
        return say!("sweep-none", steps = s.steps, progress = progress);
    }
    let deepest = reached - 1;
    let mut order: Vec<&SweepSeries> = s.series.iter().collect();
    ablation_core::order::sort_by(&mut order, |a, b| ended(a, deepest).total_cmp(&ended(b, deepest)));
    let (best, next) = (order[0], order.get(1));
    let at = s.depths[deepest];
    let over = if s.config.seeds > 1 {
        say!("shapes-medians", seeds = seeds_words(&s.config))
    } else {
        String::new()
    };
    let mut below = String::new();
    if let Some(next) = next {
        let (b, n) = (ended(best, deepest), ended(next, deepest));
        if n.is_finite() && b > 0.0 {
            below = say!("sweep-below", times = times(n / b), name = name(next));
        }
    }
    let mut out = say!(
        "sweep-lowest",
        steps = s.steps,
        over = over,
        depth = at,
        name = name(best),
        loss = number(ended(best, deepest)),
        below = below
    );
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
    ablation_core::order::sort_by_key(&mut breaks, |(d, _, _)| *d);
    let said: Vec<String> = breaks
        .into_iter()
        .map(|(d, diverged, names)| {
            say!(
                "sweep-breaks",
                names = and_list(&names),
                n = names.len(),
                how = if diverged { "diverges" } else { "behind" },
                depth = s.depths[d]
            )
        })
        .collect();
    if !said.is_empty() {
        out = say!("sweep-said", sentence = out, breaks = said.join(&say!("end-join")));
    }
    say!("sweep-summary", sentence = out, progress = progress)
}

/// The depth sweep as a table: a row per depth swept so far, each combination's loss after
/// the steps (✕ and the step if it diverged) and gradient ratio; over several seeds the
/// median loss with the lowest and highest run and how many diverged, and a tuned sweep's rate.
pub fn sweep_table(s: &SweepState) -> Table {
    let mut columns = vec![say!("column-depth")];
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
                let mut cell = say!(
                    "sweep-cell",
                    loss = spread_text(&arm_spread(arm, &|o| o.final_loss)),
                    ratio = number(x.grad_ratio[i])
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
                    Some(at) => say!(
                        "sweep-cell",
                        loss = say!("sweep-cell-diverged", step = at),
                        ratio = number(x.grad_ratio[i])
                    ),
                    None => {
                        say!("sweep-cell", loss = number(x.final_loss[i]), ratio = number(x.grad_ratio[i]))
                    }
                }
            };
            if let Some(rate) = rate_words(arm) {
                cell += &format!(" · {rate}");
            }
            if let Some(limit) = arm.tuning.as_ref().and_then(|t| t.limit) {
                cell = say!("rate-cell-limit", cell = cell, limit = limit_word(limit));
            }
            if let Some(plateau) = plateau_words(arm, |o| o.converged) {
                cell += &format!(" · {plateau}");
            }
            row.push(cell);
        }
        table.rows.push(row);
    }
    table
}

fn panel_words(s: Option<&SweepState>) -> (String, Vec<(&'static str, Json)>) {
    (
        s.map_or_else(|| say!("not-run-yet"), sweep_summary),
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
