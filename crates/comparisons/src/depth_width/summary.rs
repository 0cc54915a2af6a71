//! Depth or width's sentence: which shape ends lowest, over how many seeds, and what depth costs
//! in latency.

use super::shapes::{head_dim, is_control};
use super::{judged, judged_spread, points_of, DepthWidthState};
use ablation_core::config::{Config, TaskKind};
use ablation_training::measures::depth_width::{non_embedding_parameters, ShapeOutcome};
use ablation_view::charts::number;
use ablation_view::panels::spread::{
    limit_words, progress_words, rate_words, seeds_words, summary_sentence, tuning_words,
};
use ablation_words::say;

/// One sentence: which shape ends lowest (over several seeds by the median, and on how many
/// seeds it is lowest), and what depth costs in latency.
pub fn depth_width_summary(d: &DepthWidthState) -> String {
    let done: Vec<&ShapeOutcome> = d.rows.iter().filter(|(done, _)| *done).map(|(_, r)| r).collect();
    if done.len() < d.rows.len() {
        let several = d.runs_total > d.rows.len();
        let (finished, total) =
            if several { (d.runs_finished, d.runs_total) } else { (done.len(), d.rows.len()) };
        let progress = match (several, d.round) {
            (true, round) => progress_words(finished, total, round),
            (false, _) => say!("progress-done", finished = finished, total = total),
        };
        return say!(
            "shapes-training",
            n = d.rows.len(),
            on = ablation_view::words::on_text(&d.config),
            tuned = tuning_words(&d.config),
            progress = progress
        );
    }
    let medians: Vec<f64> = d.arms.iter().map(|a| judged_spread(a).median).collect();
    let control = |i: usize| is_control(&d.rows[i].1.config, &d.config);
    let Some(best) = (0..d.rows.len())
        .filter(|&i| medians[i].is_finite() && !control(i))
        .min_by(|&a, &b| medians[a].total_cmp(&medians[b]))
    else {
        return say!("shapes-none");
    };
    let which = which_loss(&d.config);
    let several = d.config.seeds > 1;
    let over = if several { say!("shapes-medians", seeds = seeds_words(&d.config)) } else { String::new() };
    let shape = |i: usize| shape_of(&d.rows[i].1.config);
    let mut on_seeds = String::new();
    if several {
        // on how many seeds the same shape is lowest
        let seeds = d.arms[best].seeds.len();
        let lowest_on = (0..seeds)
            .filter(|&k| {
                let at = |i: usize| {
                    d.arms[i].shown().get(k).and_then(|r| r.as_ref()).map_or(f64::INFINITY, judged)
                };
                (0..d.rows.len()).all(|i| i == best || at(best) < at(i))
            })
            .count();
        on_seeds = say!("clause", text = say!("shapes-lowest-on", k = lowest_on, n = seeds));
    }
    let rate = rate_words(&d.arms[best]).map_or_else(String::new, |rate| say!("end-at-rate", rate = rate));
    let mut out = say!(
        "shapes-lowest",
        steps = d.steps,
        over = over,
        tuned = tuning_words(&d.config),
        shape = shape(best),
        which = which,
        loss = number(medians[best]),
        seeds = on_seeds,
        rate = rate
    );
    let others: Vec<String> = (0..d.rows.len())
        .filter(|&i| i != best && !control(i))
        .map(|i| say!("shape-loss", shape = shape(i), loss = number(medians[i])))
        .collect();
    if !others.is_empty() {
        out = say!("shapes-against", sentence = out, others = others.join(&say!("list-comma")));
    }
    out = say!(
        "shapes-budget",
        sentence = out,
        params = number(non_embedding_parameters(&d.config) as f64),
        features = head_dim(&d.config)
    );
    if let Some(c) = (0..d.rows.len()).find(|&i| control(i)) {
        out = say!(
            "shapes-control",
            sentence = out,
            shape = shape(c),
            params = number(non_embedding_parameters(&d.rows[c].1.config) as f64),
            loss = number(medians[c])
        );
    }
    if let Some((at, lowest, loss)) = at_equal_time(d, &control) {
        out = say!(
            "shapes-equal-time",
            sentence = out,
            ms = number(at),
            steps = d.steps,
            shape = lowest,
            loss = loss
        );
    }
    let (deep, wide) = (done[0], done[done.len() - 1]);
    if deep.ms_per_char.is_finite() && wide.ms_per_char.is_finite() && deep.config != wide.config {
        out = say!(
            "shapes-latency",
            sentence = out,
            ratio = number(deep.ms_per_char / wide.ms_per_char),
            deep = deep.config.depth,
            wide = wide.config.depth,
            deep_ms = number(deep.ms_per_char),
            wide_ms = number(wide.ms_per_char)
        );
    }
    let shapes = d.rows.iter().map(|(_, r)| shape_of(&r.config));
    summary_sentence(out, &[], &limit_words(shapes.zip(&d.arms)))
}

/// "12 × 64": a shape's depth and width.
pub(super) fn shape_of(c: &Config) -> String {
    format!("{} × {}", c.depth, c.width)
}

/// What a shape is judged on, as the messages select it: the teacher's `loss`, a sequence
/// task's `held-out` loss.
pub(super) fn which_loss(c: &Config) -> &'static str {
    if c.task == TaskKind::Teacher {
        "loss"
    } else {
        "held-out"
    }
}

/// Each on-budget shape's loss at equal time: at the time `t` the fastest shape takes for all
/// its steps, each shape read at the last measurement it reached by then (`t / ms per step`
/// steps). Returns `t`, the lowest shape and its loss; none without timings.
fn at_equal_time(d: &DepthWidthState, control: &dyn Fn(usize) -> bool) -> Option<(f64, String, String)> {
    let on_budget: Vec<&ShapeOutcome> =
        (0..d.rows.len()).filter(|&i| !control(i)).map(|i| &d.rows[i].1).collect();
    let t = on_budget
        .iter()
        .map(|r| r.ms_per_step * d.steps as f64)
        .filter(|t| t.is_finite() && *t > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !t.is_finite() || on_budget.iter().any(|r| !r.ms_per_step.is_finite()) {
        return None;
    }
    let read = |r: &ShapeOutcome| {
        let reached = t / r.ms_per_step;
        points_of(r).into_iter().rfind(|&(step, _)| step as f64 <= reached).map(|(_, l)| l)
    };
    let (best, loss) = on_budget
        .iter()
        .filter_map(|r| Some((*r, read(r)?)))
        .filter(|(_, l)| l.is_finite())
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((t, shape_of(&best.config), number(loss)))
}
