//! The knockout's two tables: each layer taken out, and several layers at once.

use super::{judged, loss_name, removal_curves, stacks, KnockoutState};
use ablation_training::measures::knockout::Knockout;
use ablation_training::runs::spread::Spread;
use ablation_view::panels::spread::spread_text;
use ablation_view::panels::Table;
use ablation_words::say;

/// The knockout as a table: each layer's loss without it (and on the copy tasks the share
/// copied right) and how far the output moves (over several seeds the median with the lowest
/// and highest stack).
pub fn knockout_table(knockout: Option<&KnockoutState>) -> Table {
    let Some(state) = knockout else { return Table::default() };
    let value = judged(state.task);
    let copies = state.task.copies();
    let stacks = stacks(state);
    let over = |f: &dyn Fn(&Knockout) -> f64, scale: f64| {
        spread_text(&Spread::of(&stacks.iter().map(|s| scale * f(s)).collect::<Vec<_>>()))
    };
    let mut columns = vec![
        say!("column-knocked-out"),
        say!("column-intact", name = loss_name(state.task), intact = over(&|s| value(&s.intact), 1.0)),
    ];
    if copies {
        let intact = say!("percent", value = over(&|s| s.intact.accuracy, 100.0));
        columns.push(say!("column-intact", name = say!("column-copied"), intact = intact));
    }
    columns.push(say!("column-output-change"));
    let mut table = Table::new(columns);
    let layers = stacks.iter().map(|s| s.each.len().min(s.output_change.len())).min().unwrap_or(0);
    for l in 0..layers {
        let mut row = vec![l.to_string(), over(&|s| value(&s.each[l]), 1.0)];
        if copies {
            row.push(say!("percent", value = over(&|s| s.each[l].accuracy, 100.0)));
        }
        row.push(say!("percent", value = over(&|s| s.output_change[l], 100.0)));
        table.rows.push(row);
    }
    table
}

/// Several layers at once, as a table: for each k, the loss with the upper k removed and with
/// k at random (the median of every draw, with the lowest and highest), and on the copy tasks
/// the share copied right.
pub fn removals_table(knockout: Option<&KnockoutState>) -> Table {
    let Some(state) = knockout else { return Table::default() };
    let (name, copies) = (loss_name(state.task), state.task.copies());
    let (top, random) = removal_curves(state, judged(state.task));
    let (top_copied, random_copied) = removal_curves(state, |r| r.accuracy);
    let copied = say!("column-copied");
    let mut columns = vec![say!("column-removed"), say!("column-upper", what = name.as_str())];
    if copies {
        columns.push(say!("column-upper", what = copied.as_str()));
    }
    columns.push(say!("column-random", what = name.as_str()));
    if copies {
        columns.push(say!("column-random", what = copied.as_str()));
    }
    let mut table = Table::new(columns);
    let cell = |s: Option<&Spread>, scale: f64| {
        s.map_or("–".to_string(), |s| {
            let scaled =
                Spread { median: scale * s.median, min: scale * s.min, max: scale * s.max, runs: s.runs };
            if scale == 100.0 {
                say!("percent", value = spread_text(&scaled))
            } else {
                spread_text(&scaled)
            }
        })
    };
    let find = |curve: &[(usize, Spread)], k: usize| curve.iter().find(|(at, _)| *at == k).map(|(_, s)| *s);
    for (k, spread) in &top {
        let mut row = vec![k.to_string(), cell(Some(spread), 1.0)];
        if copies {
            row.push(cell(find(&top_copied, *k).as_ref(), 100.0));
        }
        row.push(cell(find(&random, *k).as_ref(), 1.0));
        if copies {
            row.push(cell(find(&random_copied, *k).as_ref(), 100.0));
        }
        table.rows.push(row);
    }
    table
}
