//! The layer knockout: per layer ℓ, a bar for the probe loss with ℓ replaced by the identity
//! (against a line at the intact stack's loss), and below it a bar for how far the output
//! moved, `‖x_L' − x_L‖ / ‖x_L‖`. Log axes: a knocked-out layer of a plain stack can cost
//! orders of magnitude more than one of a residual stack.

use super::{err, layer_chart, log_range, short, ChartResult, LayerChart, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;

/// `loss` and `output_change` have one value per layer knocked out so far; `band`, over
/// several seeds, each layer's lowest and highest loss (a whisker on its bar), or empty.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    intact_loss: f64,
    loss: &[f64],
    output_change: &[f64],
    band: &[(f64, f64)],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 / 2);
    let layers = loss.len().max(output_change.len()).max(1);
    let title_loss = format!("probe loss with layer ℓ knocked out · intact {}", short(intact_loss));
    let whiskers = band.iter().flat_map(|&(a, b)| [a, b]);
    let loss_range = log_range(loss.iter().copied().chain([intact_loss]).chain(whiskers));
    let upper = bars(&top, title_loss, loss, loss_range, layers, theme.now, theme)?;
    for (l, &(low, high)) in band.iter().enumerate() {
        let (lo, hi) = loss_range;
        let (low, high) = (low.clamp(lo, hi), if high.is_finite() { high.min(hi) } else { hi });
        let x = l as f64;
        let whisker = PathElement::new(vec![(x, low), (x, high)], theme.text.stroke_width(theme.px(1.5)));
        upper.plotting_area().draw(&whisker).map_err(err)?;
    }
    // the intact loss as a line across the upper panel, the level each bar is measured against
    if intact_loss.is_finite() && intact_loss > 0.0 {
        let line = PathElement::new(
            vec![(-0.5, intact_loss), (layers as f64 - 0.5, intact_loss)],
            theme.text.stroke_width(theme.px(1.5)),
        );
        upper.plotting_area().draw(&line).map_err(err)?;
    }
    let change_range = log_range(output_change.iter().copied());
    let title_change = "output change ‖x_L′ − x_L‖ / ‖x_L‖ with layer ℓ knocked out".to_string();
    bars(&bottom, title_change, output_change, change_range, layers, theme.other, theme)?;
    area.present().map_err(err)
}

/// One panel: a bar per layer from the bottom of the log axis up to its value; a value that
/// is not a positive number gets a cross at the top instead.
fn bars<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: String,
    values: &[f64],
    (lo, hi): (f64, f64),
    layers: usize,
    colour: RGBColor,
    theme: &Theme,
) -> Result<LayerChart<'a, DB>, String> {
    let chart = layer_chart(area, title, layers, (lo, hi), theme)?;
    let half_width = 0.4;
    for (l, &v) in values.iter().enumerate() {
        let x = l as f64;
        if v.is_finite() && v > 0.0 {
            let bar = Rectangle::new([(x - half_width, lo), (x + half_width, v)], colour.filled());
            chart.plotting_area().draw(&bar).map_err(err)?;
        } else if !v.is_finite() {
            let cross = Text::new("✕", (x, hi), theme.font(11.0).color(&theme.alert));
            chart.plotting_area().draw(&cross).map_err(err)?;
        }
    }
    Ok(chart)
}
