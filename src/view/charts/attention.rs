//! Where each attention head looks: one heatmap per head of the chosen sublayer, on one fixed
//! held-out sequence. Row q is the query's position and column s the key's; a cell's colour
//! runs from the background (weight 0) to the accent (weight 1). The future (s > q), which a
//! causal head cannot see, is drawn in the grid's colour, so the triangle shows.

use super::{err, title_fits, ChartResult, Theme};
use crate::model::lens::AttentionMaps;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A character as an axis label: a space and a line break made visible.
pub fn visible(c: char) -> char {
    match c {
        ' ' => '␣',
        '\n' => '↵',
        c => c,
    }
}

/// `title` is the chart's, longest first (the first that fits is drawn); `titles` has one
/// title per head ("head 1 · 71% at 9 back").
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    maps: &AttentionMaps,
    title: &[String],
    titles: &[String],
    theme: &Theme,
) -> ChartResult {
    area.fill(&theme.background).map_err(err)?;
    let (w, h) = area.dim_in_pixel();
    let line = theme.px(16.0);
    let fitting = title.iter().find(|t| title_fits(area, t, theme)).or(title.last());
    let title = fitting.cloned().unwrap_or_default();
    let caption = Text::new(title, (theme.px(8.0) as i32, theme.px(3.0) as i32), theme.font(13.0));
    area.draw(&caption).map_err(err)?;
    let body = area.margin(line + theme.px(4.0), 0, 0, 0);
    // heads side by side where they fit as squares, else two by two
    let heads = maps.heads.max(1);
    let cols = if f64::from(w) / f64::from(h.max(1)) >= 2.4 || heads < 4 { heads } else { heads.div_ceil(2) };
    let rows = heads.div_ceil(cols);
    let cells = body.split_evenly((rows, cols));
    for (hd, cell) in cells.iter().enumerate().take(heads) {
        let name = titles.get(hd).cloned().unwrap_or_else(|| format!("head {}", hd + 1));
        draw_head(cell, maps, hd, &name, theme)?;
    }
    area.present().map_err(err)
}

fn draw_head<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    maps: &AttentionMaps,
    hd: usize,
    title: &str,
    theme: &Theme,
) -> ChartResult {
    let (w, h) = area.dim_in_pixel();
    let c = maps.size().max(1);
    let (label, pad, title_h) = (theme.px(11.0) as i32, theme.px(4.0) as i32, theme.px(15.0) as i32);
    // the square: what is left after the title above and a column of labels on the left and below
    let side = ((w as i32 - label - 2 * pad).min(h as i32 - title_h - label - 2 * pad)).max(c as i32);
    let cell = (side as f64 / c as f64).max(1.0);
    let x0 = label + pad;
    let y0 = title_h + pad / 2;
    let style = theme.font(10.0);
    area.draw(&Text::new(title.to_string(), (x0, pad / 2), style.clone())).map_err(err)?;
    let p = maps.head(hd);
    let (bg, accent, future) = (theme.background, theme.now, theme.grid);
    let at = |i: usize| (i as f64 * cell).round() as i32;
    for q in 0..c {
        for s in 0..c {
            let colour = if s > q {
                future
            } else {
                let wgt = f64::from(p[q * c + s]).clamp(0.0, 1.0);
                let mix = |a: u8, b: u8| (f64::from(a) * (1.0 - wgt) + f64::from(b) * wgt).round() as u8;
                RGBColor(mix(bg.0, accent.0), mix(bg.1, accent.1), mix(bg.2, accent.2))
            };
            let r =
                Rectangle::new([(x0 + at(s), y0 + at(q)), (x0 + at(s + 1), y0 + at(q + 1))], colour.filled());
            area.draw(&r).map_err(err)?;
        }
    }
    // the characters along both axes, every one that has room
    let every = ((f64::from(theme.px(8.0)) / cell).ceil() as usize).max(1);
    let small = theme.font(9.0);
    for (i, ch) in maps.tokens.iter().enumerate().step_by(every) {
        let text = visible(*ch).to_string();
        let mid = (at(i) + at(i + 1)) / 2;
        let left = small.clone().pos(Pos::new(HPos::Right, VPos::Center));
        area.draw(&Text::new(text.clone(), (x0 - 2, y0 + mid), left)).map_err(err)?;
        let below = small.clone().pos(Pos::new(HPos::Center, VPos::Top));
        area.draw(&Text::new(text, (x0 + mid, y0 + at(c) + 2), below)).map_err(err)?;
    }
    Ok(())
}
