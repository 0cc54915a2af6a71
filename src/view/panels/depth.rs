//! The per-layer panel: the gradient norm and the stream's std at every depth, at
//! initialisation and now, with the pins'.

use super::{with_pins, Scene, Surface};
use crate::config::Config;
use crate::training::comparisons::PinState;
use crate::training::frame::Frame;
use crate::view::charts::{self, depth::DepthCurves, short, ChartResult, Pinned, Theme};
use crate::view::words::{pin_description, shown_state, shown_state_sentence};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Text alternative for the per-depth panel.
pub fn depth_summary(m: &Frame) -> String {
    let (init, now) = (&m.init, &m.now);
    let top = now.grad_norm.len() - 1;
    format!(
        "{}Gradient norm ‖∂L/∂x‖ at layer 0: {} now ({} at initialisation); at the top, layer {top}: {} now ({} at initialisation). \
         Activation std from {} at the input to {} at the top now ({} at initialisation).",
        shown_state_sentence(m),
        short(now.grad_norm[0]),
        short(init.grad_norm[0]),
        short(now.grad_norm[top]),
        short(init.grad_norm[top]),
        short(now.act_std[0]),
        short(now.act_std[top]),
        short(init.act_std[top]),
    )
}

/// The pins' numbers for the per-layer panel's text alternative.
pub fn pins_depth_summary(pins: &[PinState], live: &Config) -> String {
    let each =
        pins.iter().enumerate().filter_map(|(i, p)| Some((i, p, &p.frame.as_ref()?.now))).map(|(i, p, s)| {
            let top = s.grad_norm.len() - 1;
            format!(
                "pin {} ({}): gradient norm at layer 0 {}, at layer {top} {}; std at the top {}",
                i + 1,
                pin_description(&p.pin.config, live),
                short(s.grad_norm[0]),
                short(s.grad_norm[top]),
                short(s.act_std[top])
            )
        });
    each.collect::<Vec<_>>().join("; ")
}

pub(super) fn summary(scene: &Scene) -> String {
    with_pins(scene, depth_summary, pins_depth_summary)
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(f) = scene.frame else { return Ok(()) };
    let pins: Vec<Pinned> = scene.pinned().into_iter().map(|(p, _)| p).collect();
    let curves = DepthCurves {
        grad_init: &f.init.grad_norm,
        grad_now: &f.now.grad_norm,
        std_init: &f.init.act_std,
        std_now: &f.now.act_std,
        pins: &pins,
    };
    charts::depth::draw(area, &curves, &shown_state(f), theme)
}
