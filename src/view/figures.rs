//! Static figures: the three panels of a finished run as SVG, through the same chart code
//! the page draws on its canvases (for `<noscript>`, print, and lesson images).

use crate::training::loss_history::LossHistory;
use crate::training::report::Run;
use crate::view::charts::{self, depth::DepthCurves, Theme};
use crate::view::words::histogram_subject;
use plotters::prelude::*;

pub const SIZE: (u32, u32) = (640, 480);

/// The three panels as SVG documents: `[("histogram", svg), ("loss", svg), ("depth", svg)]`.
pub fn panels_svg(run: &Run, dark: bool) -> Result<Vec<(&'static str, String)>, String> {
    let theme = if dark { Theme::dark(1.0) } else { Theme::light(1.0) };
    let mut out = Vec::new();
    let mut svg = String::new();
    charts::histogram::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &run.histogram,
        &histogram_subject(&run.config),
        run.last.readout_std,
        &theme,
    )?;
    out.push(("histogram", std::mem::take(&mut svg)));
    charts::loss::draw(
        &SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &run.loss.iter().copied().collect::<LossHistory>(),
        run.diverged_at,
        &theme,
    )?;
    out.push(("loss", std::mem::take(&mut svg)));
    let curves = DepthCurves {
        grad_init: &run.init.grad_norm,
        grad_now: &run.last.grad_norm,
        std_init: &run.init.act_std,
        std_now: &run.last.act_std,
    };
    charts::depth::draw(&SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(), &curves, &theme)?;
    out.push(("depth", svg));
    Ok(out)
}
