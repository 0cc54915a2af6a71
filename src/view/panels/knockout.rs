//! The layer knockout: the live run's loss with each layer taken out, and how far the output
//! moves.

use super::spread::spread_text;
use super::{times, Scene, Surface, Table};
use crate::training::comparisons::KnockoutState;
use crate::training::knockout::Knockout;
use crate::training::spread::{median, Spread};
use crate::view::charts::{self, short, ChartResult, Theme};
use crate::view::json::Json;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The median knockout over the seeds' stacks: layer by layer, the median loss and output
/// change (the first seed's alone when there is one).
pub fn median_knockout(k: &KnockoutState) -> Knockout {
    if k.seeds.len() < 2 {
        return k.result.clone();
    }
    let layers = k.seeds.iter().map(|(_, s)| s.loss.len()).min().unwrap_or(0);
    let of = |f: &dyn Fn(&Knockout) -> f64| median(&k.seeds.iter().map(|(_, s)| f(s)).collect::<Vec<_>>());
    Knockout {
        intact_loss: of(&|s| s.intact_loss),
        loss: (0..layers).map(|l| of(&|s| s.loss[l])).collect(),
        output_change: (0..layers).map(|l| of(&|s| s.output_change[l])).collect(),
    }
}

/// The knockout in one sentence, for its caption and its chart's accessible name: which
/// layer matters most, by how much, and how many layers the stack barely needs. Over several
/// seeds it is said of the medians, with how many seeds' stacks agree on the layer that
/// matters most. The numbers are in `knockout_table`.
pub fn knockout_summary(knockout: Option<&KnockoutState>) -> String {
    let Some(state) = knockout else {
        return "No layer knocked out yet: press Knock out layers to measure each layer of the trained stack.".into();
    };
    let at = state.step;
    if !state.done {
        if state.runs_total > 1 {
            return format!(
                "Knocking out each layer of {} stacks at step {at}: {} of {} runs.",
                state.runs_total,
                state.seeds.len(),
                state.runs_total
            );
        }
        return format!(
            "Knocking out each layer of the stack at step {at}: {} done.",
            state.result.loss.len()
        );
    }
    let k = &median_knockout(state);
    let n = k.loss.len();
    let Some((worst, &loss)) = k.loss.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)) else {
        return format!("The stack at step {at} has no layer to knock out.");
    };
    let doubling = k.loss.iter().filter(|&&l| l > 2.0 * k.intact_loss || l.is_nan()).count();
    let barely = k.output_change.iter().filter(|&&c| c < 0.05).count();
    let worse = if k.intact_loss > 0.0 {
        format!(", {} the intact {}", times(loss / k.intact_loss), short(k.intact_loss))
    } else {
        String::new()
    };
    let doubling = match doubling {
        d if d == n => format!("all {n} layers more than double the loss without them"),
        1 => format!("1 of {n} layers more than doubles the loss without it"),
        d => format!("{d} of {n} layers more than double the loss without them"),
    };
    let barely = match barely {
        0 => "every one moves the output by 5% or more".to_string(),
        1 => "1 moves the output by less than 5%".to_string(),
        b => format!("{b} move the output by less than 5%"),
    };
    let (seeds, agree) =
        (state.seeds.len(), state.seeds.iter().filter(|(_, s)| worst_layer(s) == Some(worst)).count());
    let over = if seeds > 1 {
        format!("Over {seeds} seeds' stacks (medians), at step {at}")
    } else {
        format!("At step {at}")
    };
    let agree = if seeds > 1 { format!(" on {agree} of {seeds} seeds") } else { String::new() };
    format!(
        "{over}, knocking out layer {worst} hurts most{agree} (loss {}{worse}); {doubling}, and {barely}.",
        short(loss)
    )
}

/// The layer whose knockout raises the loss most.
fn worst_layer(k: &Knockout) -> Option<usize> {
    k.loss.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(l, _)| l)
}

/// The knockout as a table: each layer's loss without it and how far the output moves (over
/// several seeds the median with the lowest and highest stack).
pub fn knockout_table(knockout: Option<&KnockoutState>) -> Table {
    let Some(state) = knockout else { return Table::default() };
    let k = &median_knockout(state);
    let several = state.seeds.len() > 1;
    let over = |f: &dyn Fn(&Knockout) -> f64, scale: f64| {
        let s = Spread::of(&state.seeds.iter().map(|(_, s)| scale * f(s)).collect::<Vec<_>>());
        spread_text(&s)
    };
    let mut table = Table::new(vec![
        "layer knocked out".to_string(),
        format!(
            "loss (intact {})",
            if several { over(&|s| s.intact_loss, 1.0) } else { short(k.intact_loss) }
        ),
        "output change".to_string(),
    ]);
    for (l, (loss, change)) in k.loss.iter().zip(&k.output_change).enumerate() {
        let (loss, change) = if several {
            (over(&|s| s.loss[l], 1.0), format!("{}%", over(&|s| s.output_change[l], 100.0)))
        } else {
            (short(*loss), format!("{}%", short(100.0 * change)))
        };
        table.rows.push(vec![l.to_string(), loss, change]);
    }
    table
}

/// The knockout, once every layer is measured.
pub(super) fn finished<'a>(scene: &Scene<'a>) -> Option<&'a KnockoutState> {
    scene.shown.knockout.as_ref().filter(|k| k.done)
}

pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    (knockout_summary(scene.shown.knockout.as_ref()), vec![("table", knockout_table(finished(scene)).json())])
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(state) = finished(scene) else { return Ok(()) };
    let k = median_knockout(state);
    // over several seeds, each layer's lowest and highest loss without it
    let layers = k.loss.len();
    let band: Vec<(f64, f64)> = if state.seeds.len() > 1 {
        (0..layers)
            .map(|l| {
                let s = Spread::of(&state.seeds.iter().map(|(_, s)| s.loss[l]).collect::<Vec<_>>());
                (s.min, s.max)
            })
            .collect()
    } else {
        Vec::new()
    };
    charts::knockout::draw(area, k.intact_loss, &k.loss, &k.output_change, &band, theme)
}
