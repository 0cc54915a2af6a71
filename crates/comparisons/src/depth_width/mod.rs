//! Depth or width: stacks of about the same parameters, deep and narrow to shallow and wide
//! (`training/measures/depth_width.rs` chooses them), trained alike over their seeds and rates and
//! timed; each shape's label, the panel's sentence, its table and its chart.

use super::runs::{here, Comparisons, Group};
use super::{Comparison, ComparisonKind};
use ablation_core::config::{ComparisonSpec, Config, TaskKind, DEPTH_WIDTH};
use ablation_training::live::loss_history::LossHistory;
pub mod shapes;

use ablation_training::measures::depth_width::{non_embedding_parameters, Clock, ShapeOutcome};
use ablation_training::runs::arm::Arm;
use ablation_training::runs::job::Job;
use ablation_training::runs::spread::Spread;
use ablation_view::charts::number;
use ablation_view::charts::{self, depth_width::ShapeCurve, ChartResult, Theme};
use ablation_view::json::{step_json, Json};
use ablation_view::json_arms::arm_fields;
use ablation_view::panels::spread::arm_spread;
use ablation_view::panels::{Scene, Surface, Table};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;
use shapes::{depth_width_applies, head_dim, shapes};

mod summary;
mod table;
pub use summary::depth_width_summary;
use summary::shape_of;
use table::depth_width_table;

pub struct DepthOrWidth;

/// Depth or width: each shape as far as it got (`done` once its runs and their timing are).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthWidthState {
    pub config: Config,
    pub steps: usize,
    /// Each shape's first seed at its chosen rate, as far as it got.
    pub rows: Vec<(bool, ShapeOutcome)>,
    /// Each shape's runs over its seeds and rates.
    pub arms: Vec<Arm<ShapeOutcome>>,
    pub runs_finished: usize,
    pub runs_total: usize,
    /// While an arm's setting is being chosen: the round of its search and how many it plans.
    pub round: Option<(usize, usize)>,
}

impl Comparison for DepthOrWidth {
    const KIND: ComparisonKind = ComparisonKind::DepthOrWidth;
    const SPEC: &'static ComparisonSpec = &DEPTH_WIDTH;
    const SIZE: (u32, u32) = (ablation_view::panels::SIZE.0 * 3 / 2, ablation_view::panels::SIZE.1);
    const RANK: u8 = 2;
    type State = DepthWidthState;

    fn start(comparisons: &mut Comparisons, config: &Config) {
        start(comparisons, config);
    }

    fn state(g: &Group) -> DepthWidthState {
        let (mut rows, mut arms) = (Vec::new(), Vec::new());
        for a in 0..g.arms.len() {
            let (arm, first, failed) = g.arm::<ShapeOutcome>(a);
            let run = first.unwrap_or_else(|| {
                ShapeOutcome::pending(&Config { seed: arm.seeds[0], ..arm.config.clone() })
            });
            rows.push((arm.done || failed.is_some(), run));
            arms.push(arm);
        }
        let (runs_finished, runs_total) = g.progress();
        let round = g.tuning_round();
        DepthWidthState {
            config: g.config.clone(),
            steps: g.steps,
            rows,
            arms,
            runs_finished,
            runs_total,
            round,
        }
    }

    fn value(d: &DepthWidthState) -> Json {
        Json::Obj(vec![
            ("steps", Json::Int(d.steps as i128)),
            ("done", Json::Bool(d.rows.iter().all(|(done, _)| *done))),
            ("runs", depth_width_json(d)),
            ("runs_finished", Json::Int(d.runs_finished as i128)),
            ("runs_total", Json::Int(d.runs_total as i128)),
        ])
    }

    fn report(d: &DepthWidthState) -> Json {
        depth_width_json(d)
    }

    fn words(state: Option<&DepthWidthState>, scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
        panel_words(state, scene)
    }

    fn draw<DB: Surface>(d: &DepthWidthState, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
        let seeds = d.arms.iter().map(|a| a.shown_done().map(|(_, r)| r).collect());
        draw_shapes(area, d.rows.iter().map(|(_, r)| r).zip(seeds), d.steps, theme)
    }
}

/// Starts depth or width at `config`: its shapes (`depth_width::shapes`), each trained for the
/// configuration's own steps (replacing one under way); nothing where it does not apply.
pub fn start(comparisons: &mut Comparisons, config: &Config) {
    if depth_width_applies(config).is_err() {
        return;
    }
    let arms = shapes(config);
    let steps = arms.first().map_or(config.steps, |a| a.steps);
    let job = |config, steps| Job::Shape { config, steps };
    comparisons.start::<DepthOrWidth>(config, steps, arms, job);
}

/// Depth or width of `config`, here: every shape timed by `clock`, one after another.
pub fn depth_width_here(config: &Config, clock: Clock) -> Result<DepthWidthState, String> {
    here::<DepthOrWidth>(1, clock, |c| start(c, config))
}

/// Depth or width as JSON: one object per shape, deepest first (a number not reached yet is
/// NaN, so `null`): the first seed's numbers at the chosen rate, then its runs.
pub fn depth_width_json(state: &DepthWidthState) -> Json {
    let row = |(o, arm): (&ShapeOutcome, &Arm<ShapeOutcome>)| {
        let mut fields = vec![
            ("depth", Json::Int(o.config.depth as i128)),
            ("width", Json::Int(o.config.width as i128)),
            ("params", Json::Int(o.params as i128)),
            ("non_embedding_params", Json::Int(non_embedding_parameters(&o.config) as i128)),
            ("heads", Json::Int(o.config.heads as i128)),
            ("head_dim", Json::Int(head_dim(&o.config) as i128)),
            ("final_loss", Json::Num(o.final_loss())),
        ];
        if o.config.task != TaskKind::Teacher {
            fields.push(("val_loss", Json::Num(o.val_loss())));
        }
        fields.extend([
            ("ms_per_step", Json::Num(o.ms_per_step)),
            ("ms_per_char", Json::Num(o.ms_per_char)),
            ("diverged_at", step_json(o.diverged_at)),
        ]);
        if !o.config.tune {
            fields.push(("lr", Json::Num(arm.rate()))); // tuned, arm_fields gives the rate chosen
        }
        fields.extend(arm_fields(arm, |r: &ShapeOutcome| {
            (
                r.final_loss(),
                r.val_loss(),
                r.diverged_at,
                r.converged,
                r.loss.len().saturating_sub(1),
                f64::NAN,
                f64::NAN,
            )
        }));
        Json::Obj(fields)
    };
    Json::Arr(state.rows.iter().map(|(_, o)| o).zip(&state.arms).map(row).collect())
}

/// "47 × 16: 75k params, 0.92 ms/step, 0.21 ms/char" (the parameters without the embeddings,
/// the budget held fixed; "control" for the shape off it).
pub fn shape_label(r: &ShapeOutcome) -> String {
    let params = number(non_embedding_parameters(&r.config) as f64);
    let mut label = say!("shape-label", shape = shape_of(&r.config), params = params);
    if r.ms_per_step.is_finite() {
        label += &say!("clause", text = say!("shape-ms-step", ms = number(r.ms_per_step)));
    }
    if r.ms_per_char.is_finite() {
        label += &say!("clause", text = say!("shape-ms-char", ms = number(r.ms_per_char)));
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

/// The loss a shape is judged by over its seeds: the median, with the lowest and highest run.
fn judged_spread(arm: &Arm<ShapeOutcome>) -> Spread {
    arm_spread(arm, &judged)
}

fn panel_words(d: Option<&DepthWidthState>, scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    (
        d.map_or_else(
            || match scene.frame.map(|f| depth_width_applies(&f.config)) {
                Some(Err(why)) => say!("not-run", why = why.to_string()),
                _ => say!("not-run-yet"),
            },
            depth_width_summary,
        ),
        vec![("table", d.map_or_else(Table::default, depth_width_table).json())],
    )
}

/// A shape's curve: its held-out loss on a sequence task, its smoothed training loss on the
/// regression.
fn points_of(r: &ShapeOutcome) -> Vec<(usize, f64)> {
    if r.config.task != TaskKind::Teacher {
        r.evals.iter().map(|e| (e.step, e.loss)).collect()
    } else {
        let history: LossHistory = r.loss.iter().copied().collect();
        history.buckets().iter().map(|b| (b.start + b.count - 1, b.smooth)).collect()
    }
}

/// The chart from its shapes' runs (deepest first, a run in progress partial, and over
/// several seeds each shape's finished runs): held-out loss on a sequence task, the smoothed
/// training loss on the regression; over several seeds the median with its band.
pub fn draw_shapes<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: impl IntoIterator<Item = (&'a ShapeOutcome, Vec<&'a ShapeOutcome>)>,
    steps: usize,
    theme: &Theme,
) -> ChartResult {
    let (rows, seeds): (Vec<&ShapeOutcome>, Vec<Vec<&ShapeOutcome>>) = rows.into_iter().unzip();
    let sequence = rows.first().is_some_and(|r| r.config.task != TaskKind::Teacher);
    let curves: Vec<ShapeCurve> = rows
        .iter()
        .zip(&seeds)
        .map(|(r, seeds)| {
            if seeds.len() < 2 {
                return ShapeCurve { label: shape_label(r), points: points_of(r), band: Vec::new() };
            }
            let lines: Vec<Vec<(usize, f64)>> = seeds.iter().map(|s| points_of(s)).collect();
            let n = lines.iter().map(Vec::len).min().unwrap_or(0);
            let (mut points, mut band) = (Vec::new(), Vec::new());
            for i in 0..n {
                let spread = Spread::of(&lines.iter().map(|l| l[i].1).collect::<Vec<_>>());
                points.push((lines[0][i].0, spread.median));
                band.push((lines[0][i].0, spread.min, spread.max));
            }
            ShapeCurve { label: shape_label(r), points, band }
        })
        .collect();
    let params = rows.first().map_or(0, |r| non_embedding_parameters(&r.config));
    let what = if sequence { "held-out" } else { "training" };
    // the longest title that fits (a phone's is narrow)
    let titles = [
        say!("shapes-chart-title", what = what, params = number(params as f64)),
        say!("shapes-chart-title-short", what = what),
        say!("shapes-chart-loss", what = what),
    ];
    let title =
        ablation_view::charts::fitted_titles(area, &titles.each_ref().map(String::as_str), &[], theme);
    charts::depth_width::draw(area, &title, &curves, steps, theme)
}
