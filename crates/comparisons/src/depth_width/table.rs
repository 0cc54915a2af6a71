//! Depth or width's table: one row per shape.

use super::shapes::{head_dim, is_control};
use super::summary::{shape_of, which_loss};
use super::{judged, judged_spread, DepthWidthState};
use ablation_training::measures::depth_width::non_embedding_parameters;
use ablation_training::runs::arm::Arm;
use ablation_view::charts::number;
use ablation_view::panels::spread::{
    choosing_words, learned_count, plateau_cell, rate_cell, rate_column, spread_text, until_word,
};
use ablation_view::panels::Table;
use ablation_words::say;

/// The table: one row per shape (a number not reached yet is "…"); over several seeds the
/// median with the lowest and highest run and how many learned the task, and a tuned
/// comparison's rate.
pub fn depth_width_table(d: &DepthWidthState) -> Table {
    let tuned = d.arms.iter().any(Arm::tuned);
    let mut columns = vec![
        say!("column-shape"),
        say!("column-heads"),
        say!("column-parameters"),
        say!(
            "column-shape-loss",
            which = which_loss(&d.config),
            until = until_word(d.config.until),
            steps = d.steps
        ),
        say!("column-ms-step"),
        say!("column-ms-char"),
        say!("column-plateaued"),
    ];
    if let Some(column) = rate_column(&d.arms) {
        columns.push(column);
    }
    let mut table = Table::new(columns);
    for ((done, r), arm) in d.rows.iter().zip(&d.arms) {
        let cell = |x: f64| {
            if x.is_nan() && !done {
                "…".to_string()
            } else if x.is_nan() {
                "–".to_string()
            } else {
                number(x)
            }
        };
        let loss = if let Some(choosing) = choosing_words(arm) {
            choosing
        } else if *done && arm.seeds.len() > 1 {
            let mut cell = spread_text(&judged_spread(arm));
            if let Some(k) = learned_count(arm, d.config.task, |o| o.learned) {
                cell += &format!(" · {k}");
            }
            cell
        } else {
            cell(if *done { judged(r) } else { f64::NAN })
        };
        let shape = if is_control(&r.config, &d.config) {
            say!("shape-control", shape = shape_of(&r.config))
        } else {
            shape_of(&r.config)
        };
        let mut cells = vec![
            shape,
            say!("heads-cell", heads = r.config.heads, features = head_dim(&r.config)),
            format!("{} ({})", non_embedding_parameters(&r.config), r.params),
            loss,
            cell(r.ms_per_step),
            cell(r.ms_per_char),
            plateau_cell(arm, |o| o.converged),
        ];
        if tuned {
            cells.push(rate_cell(arm));
        }
        table.rows.push(cells);
    }
    table
}
