//! The layer knockout: the live run's loss with each layer taken out, and how far the output
//! moves.

use super::{times, Scene, Surface, Table};
use crate::training::comparisons::KnockoutState;
use crate::view::charts::{self, short, ChartResult, Theme};
use crate::view::json::Json;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The knockout in one sentence, for its caption and its chart's accessible name: which
/// layer matters most, by how much, and how many layers the stack barely needs. The numbers
/// are in `knockout_table`.
pub fn knockout_summary(knockout: Option<&KnockoutState>) -> String {
    let Some(KnockoutState { step: at, done, result: k }) = knockout else {
        return "No layer knocked out yet: press Knock out layers to measure each layer of the trained stack.".into();
    };
    if !done {
        return format!("Knocking out each layer of the stack at step {at}: {} done.", k.loss.len());
    }
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
    format!(
        "At step {at}, knocking out layer {worst} hurts most (loss {}{worse}); {doubling}, and {barely}.",
        short(loss)
    )
}

/// The knockout as a table: each layer's loss without it and how far the
/// output moves.
pub fn knockout_table(knockout: Option<&KnockoutState>) -> Table {
    let Some(KnockoutState { result: k, .. }) = knockout else { return Table::default() };
    let mut table = Table::new(vec![
        "layer knocked out".to_string(),
        format!("loss (intact {})", short(k.intact_loss)),
        "output change".to_string(),
    ]);
    for (l, (loss, change)) in k.loss.iter().zip(&k.output_change).enumerate() {
        table.rows.push(vec![l.to_string(), short(*loss), format!("{}%", short(100.0 * change))]);
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
    let Some(k) = finished(scene) else { return Ok(()) };
    let k = &k.result;
    charts::knockout::draw(area, k.intact_loss, &k.loss, &k.output_change, theme)
}
