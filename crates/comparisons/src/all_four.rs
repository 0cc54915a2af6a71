//! "All four": the four switch combinations at the live run's settings, each trained for the
//! same steps (`comparison_steps`) over its seeds and rates, side by side: the lesson's table
//! live (std at the top and the gradient ratio at initialisation, the loss after N steps,
//! where a run diverged), its loss curves, and on a sequence task what each wrote.

use super::runs::{here, no_clock, Comparisons, Group};
use super::{Comparison, ComparisonKind};
use ablation_core::config::{ComparisonSpec, Config, COMPARE};
use ablation_training::runs::all_four::{comparison_steps, four_combinations};
use ablation_training::runs::arm::Arm;
use ablation_training::runs::job::Job;
use ablation_training::runs::outcome::Outcome;
use ablation_view::charts::{self, all_four::LossCurve, ChartResult, Theme};
use ablation_view::json::Json;
use ablation_view::json_arms::{arm_fields, outcome_fields, outcome_run};
use ablation_view::panels::spread::{
    arm_spread, choosing_words, disagree, diverged_count, learned_count, limit_words, plateau_cell,
    progress_words, rate_cell, rate_column, rate_words, seeds_words, spread_text, summary_sentence,
    tuning_words, until_word,
};
use ablation_view::panels::{Scene, Surface, Table};
use ablation_view::words::{self, combination_name};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

pub struct AllFour;

/// One row of "All four": an arm's runs (finished, in progress or not started; then `done` is
/// false and the numbers the run has not reached yet are NaN).
#[derive(Clone, Debug, PartialEq)]
pub struct AllFourRow {
    /// Every run of the arm is done.
    pub done: bool,
    /// The first seed's run at the arm's chosen rate, as far as it got.
    pub run: Outcome,
    /// Every seed's run at every rate.
    pub arm: Arm<Outcome>,
    /// Why one of its runs failed, if one did (then `done`, with what it had reached).
    pub failed: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AllFourState {
    pub config: Config,
    pub steps: usize,
    /// The four combinations in the order of `four_combinations`, as far as they got.
    pub rows: Vec<AllFourRow>,
    pub runs_finished: usize,
    pub runs_total: usize,
    /// While an arm's setting is being chosen: the round of its search and how many it plans.
    pub round: Option<(usize, usize)>,
}

impl Comparison for AllFour {
    const KIND: ComparisonKind = ComparisonKind::AllFour;
    const SPEC: &'static ComparisonSpec = &COMPARE;
    const RANK: u8 = 1;
    type State = AllFourState;

    fn start(comparisons: &mut Comparisons, config: &Config) {
        start(comparisons, config);
    }

    fn state(g: &Group) -> AllFourState {
        let rows = (0..g.arms.len())
            .map(|a| {
                let (arm, first, failed) = g.arm::<Outcome>(a);
                let run = first.unwrap_or_else(|| {
                    Outcome::pending(&Config { seed: arm.seeds[0], ..arm.config.clone() })
                });
                AllFourRow { done: arm.done || failed.is_some(), run, arm, failed }
            })
            .collect();
        let both_on = &four_combinations(&g.config)[3];
        let (runs_finished, runs_total) = g.progress();
        let round = g.tuning_round();
        AllFourState { config: both_on.clone(), steps: g.steps, rows, runs_finished, runs_total, round }
    }

    fn value(c: &AllFourState) -> Json {
        let rows = c.rows.iter().map(|r| {
            let mut fields = all_four_row_fields(r, false); // final_loss is NaN (null) until done
            fields.push(("done", Json::Bool(r.done)));
            fields.push(("failed", r.failed.as_ref().map_or(Json::Null, |why| Json::Str(why.clone()))));
            Json::Obj(fields)
        });
        Json::Obj(vec![
            ("depth", Json::Int(c.config.depth as i128)),
            ("steps", Json::Int(c.steps as i128)),
            ("runs", Json::Arr(rows.collect())),
            ("runs_finished", Json::Int(c.runs_finished as i128)),
            ("runs_total", Json::Int(c.runs_total as i128)),
            ("round", c.round.map_or(Json::Null, |(r, _)| Json::Int(r as i128))),
            ("rounds", c.round.map_or(Json::Null, |(_, n)| Json::Int(n as i128))),
        ])
    }

    /// One object per combination, in the order they ran.
    fn report(state: &AllFourState) -> Json {
        Json::Arr(state.rows.iter().map(|r| Json::Obj(all_four_row_fields(r, true))).collect())
    }

    fn words(state: Option<&AllFourState>, _scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
        panel_words(state)
    }

    fn draw<DB: Surface>(c: &AllFourState, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
        draw_rows(area, &c.rows, c.steps, theme)
    }

    fn writings(c: &AllFourState) -> Vec<(String, String)> {
        all_four_writings(c)
    }
}

/// Starts All four at `config`, each run trained for the page's steps for its task (replacing
/// one under way).
pub fn start(comparisons: &mut Comparisons, config: &Config) {
    start_for(comparisons, config, comparison_steps(config.task));
}

/// `start` with each run trained for `steps` (the CLI's `--steps`).
pub fn start_for(comparisons: &mut Comparisons, config: &Config, steps: usize) {
    let arms = four_combinations(config).to_vec();
    let job = |config, steps| Job::Run { config, steps, keep_loss: true };
    comparisons.start::<AllFour>(config, steps, arms, job);
}

/// All four of `config`, each run trained for `steps`, here on up to `threads` threads.
pub fn all_four_here(config: &Config, steps: usize, threads: usize) -> Result<AllFourState, String> {
    here::<AllFour>(threads, no_clock, |c| start_for(c, config, steps))
}

/// The combinations of `four_combinations`' order `only` (indices 0..4), as `all_four_here`
/// trains them (`ablate --compare-arms`: a study of two placements' both-on arms tunes and
/// trains only those).
pub fn all_four_arms_here(
    config: &Config,
    steps: usize,
    threads: usize,
    only: &[usize],
) -> Result<AllFourState, String> {
    here::<AllFour>(threads, no_clock, |c| {
        let four = four_combinations(config);
        let arms = only.iter().map(|&i| four[i].clone()).collect();
        let job = |config, steps| Job::Run { config, steps, keep_loss: true };
        c.start::<AllFour>(config, steps, arms, job);
    })
}

/// A row of "All four" with its seeds: the first seed's numbers (at the chosen rate) as one
/// seed's were, its curve if `curve`, then its runs.
fn all_four_row_fields(r: &AllFourRow, curve: bool) -> Vec<(&'static str, Json)> {
    let mut fields = outcome_fields(&r.run);
    if curve {
        fields.push(("loss", Json::nums(&r.run.loss)));
    }
    fields.extend(arm_fields(&r.arm, outcome_run));
    fields
}

/// What each combination of All four writes once trained (a sequence task's): pairs of its
/// name and its text.
pub fn all_four_writings(c: &AllFourState) -> Vec<(String, String)> {
    c.rows
        .iter()
        .filter(|r| r.done && !r.run.held_out.sample.is_empty())
        .map(|r| (combination_name(r.run.config.residual, r.run.config.norm), r.run.held_out.sample.clone()))
        .collect()
}

/// "All four" as a table: one row per combination (a run not yet reached shows dashes; the
/// one in progress, what it has measured). Over several seeds each number is the median with
/// the lowest and highest run, and a sequence task's loss says how many runs learned it; a
/// tuned comparison names each row's rate.
pub fn all_four_table(c: &AllFourState) -> Table {
    let tuned = c.rows.iter().any(|r| r.arm.tuned());
    let mut columns = vec![
        say!("column-combination"),
        say!("column-top-std"),
        say!("column-gradient-ratio"),
        say!("column-loss", until = until_word(c.config.until), steps = c.steps),
        say!("column-diverged"),
        say!("column-plateaued"),
    ];
    if let Some(column) = rate_column(c.rows.iter().map(|r| &r.arm)) {
        columns.push(column);
    }
    let mut table = Table::new(columns);
    for AllFourRow { done, run: row, arm, failed } in &c.rows {
        let done = *done;
        let several = arm.shown_done().count() > 1;
        let num = |x: f64, f: fn(&Outcome) -> f64| {
            if several {
                spread_text(&arm_spread(arm, &f))
            } else if x.is_nan() && !done {
                "…".to_string()
            } else {
                charts::number(x)
            }
        };
        let loss = if let Some(why) = failed {
            say!("cell-failed", why = why.as_str())
        } else if done {
            let mut cell = spread_text(&arm_spread(arm, &|o| o.final_loss));
            if row.held_out.loss.is_finite() {
                let held_out = spread_text(&arm_spread(arm, &|o| o.held_out.loss));
                cell = say!("cell-held-out", loss = cell, held_out = held_out);
            }
            if let Some(k) = learned_count(arm, row.config.task, |o| o.learned).filter(|_| several) {
                cell += &format!(" · {k}");
            }
            cell
        } else if let Some(choosing) = choosing_words(arm) {
            choosing
        } else if row.loss.is_empty() {
            "…".into()
        } else if arm.seeds.len() > 1 {
            say!("cell-training-runs", finished = arm.finished(), total = arm.runs.len())
        } else {
            say!("cell-training-step", step = row.loss.len() - 1)
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
            plateau_cell(arm, |o| o.converged),
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
pub fn all_four_readout_table(c: &AllFourState) -> Table {
    let depth = c.config.depth;
    let mut depths: Vec<usize> =
        if depth <= 4 { (0..=depth).collect() } else { (0..=4).map(|i| i * depth / 4).collect() };
    depths.dedup();
    let mut columns = vec![say!("column-readout")];
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
            Some(&x) => charts::number(x),
        }));
        table.rows.push(cells);
    }
    table
}

/// What "All four" was run on, for its caption and its chart's text alternative: its
/// progress, and each finished combination's end (over several seeds the median, how many
/// learned the task and whether the seeds disagree; when tuned, its rate).
pub fn all_four_summary(c: &AllFourState) -> String {
    let cfg = &c.config;
    let several = c.runs_total > c.rows.len();
    let progress = if several {
        progress_words(c.runs_finished, c.runs_total, c.round)
    } else {
        say!("compare-trained", k = c.rows.iter().filter(|r| r.done).count())
    };
    let over = if cfg.seeds > 1 { say!("clause", text = seeds_words(cfg)) } else { String::new() };
    let head = say!(
        "compare-summary",
        depth = cfg.depth,
        on = words::on_text(cfg),
        progress = progress,
        steps = c.steps,
        until = until_word(cfg.until),
        over = over,
        tuned = tuning_words(cfg)
    );
    let finished: Vec<String> = c
        .rows
        .iter()
        .filter(|r| r.done)
        .map(|AllFourRow { run: r, arm, failed, .. }| {
            let mut end = match (failed, r.diverged_at, arm.seeds.len() > 1) {
                (Some(why), _, _) => say!("end-failed", why = why.as_str()),
                (None, _, true) => {
                    let loss = arm_spread(arm, &|o| o.final_loss);
                    let mut end = say!("end-loss", loss = spread_text(&loss));
                    if let Some(k) = learned_count(arm, r.config.task, |o| o.learned) {
                        end += &say!("clause", text = k);
                        if disagree(arm, |o| o.learned) {
                            end += &say!("end-disagree");
                        }
                    }
                    if let Some(d) = diverged_count(arm, |o| o.diverged_at.is_some()) {
                        end += &say!("clause", text = d);
                    }
                    end
                }
                (None, Some(at), false) => say!("end-diverged", step = at),
                (None, None, false) => say!("end-loss", loss = charts::number(r.final_loss)),
            };
            if let Some(rate) = rate_words(arm) {
                end += &say!("end-at-rate", rate = rate);
            }
            say!("end", name = combination_name(r.config.residual, r.config.norm), end = end)
        })
        .collect();
    let limits = limit_words(
        c.rows.iter().map(|r| (combination_name(r.run.config.residual, r.run.config.norm), &r.arm)),
    );
    summary_sentence(head, &finished, &limits)
}

fn panel_words(c: Option<&AllFourState>) -> (String, Vec<(&'static str, Json)>) {
    (
        c.map_or_else(|| say!("not-run-yet"), all_four_summary),
        vec![
            ("table", c.map_or_else(Table::default, all_four_table).json()),
            ("readout", c.map_or_else(Table::default, all_four_readout_table).json()),
        ],
    )
}

/// The chart from its rows (in the order of `four_combinations`, a run in progress partial,
/// and whether it failed in its worker), each named as the lesson names it. A failed run's
/// curve, what it reached, says so. Over several seeds each row is its seeds' median curve
/// with a band from the lowest to the highest.
pub fn draw_rows<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: impl IntoIterator<Item = &'a AllFourRow>,
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    let rows: Vec<&AllFourRow> = rows.into_iter().collect();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut name = combination_name(r.run.config.residual, r.run.config.norm);
            if r.failed.is_some() {
                name = say!("label-failed", name = name);
            }
            if r.arm.tuned() && r.arm.chosen() {
                name = say!("label-rate", name = name, lr = charts::number(r.arm.rate()));
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
    charts::all_four::draw(area, &curves, steps, theme)
}
