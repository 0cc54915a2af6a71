//! The words of "depth or width": each shape's label, the panel's sentence and its table.

use crate::config::TaskKind;
use crate::training::comparisons::DepthWidthState;
use crate::training::depth_width::ShapeOutcome;
use crate::view::charts::short;

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

/// The table: a header, then one row per shape (a number not reached yet is "…").
pub fn depth_width_table(d: &DepthWidthState) -> Vec<Vec<String>> {
    let which = if d.config.task == TaskKind::Teacher { "loss" } else { "held-out loss" };
    let mut rows = vec![vec![
        "depth × width".to_string(),
        "parameters".to_string(),
        format!("{which} after {} steps", d.steps),
        "ms per step".to_string(),
        "ms per character".to_string(),
    ]];
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
        rows.push(vec![
            format!("{} × {}", r.config.depth, r.config.width),
            r.params.to_string(),
            num(if *done { judged(r) } else { f64::NAN }),
            num(r.ms_per_step),
            num(r.ms_per_char),
        ]);
    }
    rows
}
