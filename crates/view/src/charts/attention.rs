//! Where each attention head looks: one heatmap per head of the chosen sublayer, on one fixed
//! held-out sequence. Row q is the query's position and column s the key's; a cell's colour
//! runs from the background (weight 0) to the accent (weight 1). The future (s > q), which a
//! causal head cannot see, is drawn in the grid's colour, so the triangle shows; without the
//! mask it fills in. Cross-attention's map is the target's rows against the source's columns.

use super::{err, title_fits, ChartResult, Theme};
use ablation_core::model::lens::AttentionMaps;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// A character as an axis label: a space and a line break made visible.
pub fn visible(c: char) -> char {
    match c {
        ' ' => '␣',
        '\n' => '↵',
        c => c,
    }
}

/// `title` is the chart's, longest first (the first that fits is drawn); `titles` has one
/// title per head ("head 1 · 71% at 9 back"). `bitmap`: each head as one picture through the
/// backend's `blit_bitmap` (the canvas's one call), else a rectangle per cell (SVG).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    maps: &AttentionMaps,
    title: &[String],
    titles: &[String],
    bitmap: bool,
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
        let name = titles.get(hd).cloned().unwrap_or_else(|| say!("head-number", head = hd + 1));
        draw_head(cell, maps, hd, &name, bitmap, theme)?;
    }
    area.present().map_err(err)
}

fn draw_head<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    maps: &AttentionMaps,
    hd: usize,
    title: &str,
    bitmap: bool,
    theme: &Theme,
) -> ChartResult {
    let (w, h) = area.dim_in_pixel();
    let (r, c) = maps.shape();
    let (r, c) = (r.max(1), c.max(1));
    let (label, pad, title_h) = (theme.px(11.0) as i32, theme.px(4.0) as i32, theme.px(15.0) as i32);
    // square cells in what is left after the title above and a column of labels on the left and below
    let (room_w, room_h) =
        ((w as i32 - label - 2 * pad).max(1), (h as i32 - title_h - label - 2 * pad).max(1));
    let (ri, ci) = (r as i64, c as i64);
    let (width, height) = if i64::from(room_w) * ri <= i64::from(room_h) * ci {
        (room_w, (i64::from(room_w) * ri / ci).max(1) as i32)
    } else {
        ((i64::from(room_h) * ci / ri).max(1) as i32, room_h)
    };
    let cell = f64::from(width) / c as f64;
    let x0 = label + pad;
    let y0 = title_h + pad / 2;
    let style = theme.font(10.0);
    area.draw(&Text::new(title.to_string(), (x0, pad / 2), style.clone())).map_err(err)?;
    let p = maps.head(hd);
    let (bg, accent, future) = (theme.background, theme.now, theme.grid);
    let shade = |wgt: f32| {
        let wgt = f64::from(wgt).clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (f64::from(a) * (1.0 - wgt) + f64::from(b) * wgt).round() as u8;
        RGBColor(mix(bg.0, accent.0), mix(bg.1, accent.1), mix(bg.2, accent.2))
    };
    // a causal head's future: the key after the query's position
    let (q0, k0) = (maps.queries.start, maps.keys.start);
    let unseen = |q: usize, s: usize| maps.masked && k0 + s > q0 + q;
    let at = |i: usize| (i as f64 * cell).round() as i32;
    if bitmap {
        // one picture of width × height pixels, each the largest weight of the cells it covers
        // (a sharp head stays visible when the cells are smaller than a pixel), put down in one call
        let (nw, nh) = (width as usize, height as usize);
        let span =
            |i: usize, n: usize, of: usize| (i * of / n)..((i + 1) * of).div_ceil(n).max(i * of / n + 1);
        let mut rgb = Vec::with_capacity(nw * nh * 3);
        for py in 0..nh {
            for px in 0..nw {
                let (rows, cols) = (span(py, nh, r), span(px, nw, c));
                let colour = if unseen(rows.end - 1, cols.start) {
                    future
                } else {
                    let most = rows.flat_map(|q| {
                        cols.clone().filter(move |&s| !unseen(q, s)).map(move |s| p[q * c + s])
                    });
                    shade(most.fold(0.0, f32::max))
                };
                rgb.extend_from_slice(&[colour.0, colour.1, colour.2]);
            }
        }
        area.draw(&Bitmap { pos: (x0, y0), size: (nw as u32, nh as u32), rgb }).map_err(err)?;
    } else {
        for q in 0..r {
            for s in 0..c {
                let colour = if unseen(q, s) { future } else { shade(p[q * c + s]) };
                let corners = [(x0 + at(s), y0 + at(q)), (x0 + at(s + 1), y0 + at(q + 1))];
                area.draw(&Rectangle::new(corners, colour.filled())).map_err(err)?;
            }
        }
    }
    // the characters along both axes (the queries' down the left, the keys' below), every one that has room
    let every = ((f64::from(theme.px(8.0)) / cell).ceil() as usize).max(1);
    let small = theme.font(9.0);
    let chars = |range: &std::ops::Range<usize>| maps.tokens[range.clone()].to_vec();
    for (i, ch) in chars(&maps.queries).iter().enumerate().step_by(every) {
        let mid = (at(i) + at(i + 1)) / 2;
        let left = small.clone().pos(Pos::new(HPos::Right, VPos::Center));
        area.draw(&Text::new(visible(*ch).to_string(), (x0 - 2, y0 + mid), left)).map_err(err)?;
    }
    for (i, ch) in chars(&maps.keys).iter().enumerate().step_by(every) {
        let mid = (at(i) + at(i + 1)) / 2;
        let below = small.clone().pos(Pos::new(HPos::Center, VPos::Top));
        area.draw(&Text::new(visible(*ch).to_string(), (x0 + mid, y0 + at(r) + 2), below)).map_err(err)?;
    }
    Ok(())
}

/// An RGB picture put down by the backend's `blit_bitmap` at `pos` (plotters' own bitmap
/// element needs its bitmap backend, a crate this would pull in for one call).
struct Bitmap {
    pos: (i32, i32),
    size: (u32, u32),
    rgb: Vec<u8>,
}

impl<'a> PointCollection<'a, (i32, i32)> for &'a Bitmap {
    type Point = &'a (i32, i32);
    type IntoIter = std::iter::Once<&'a (i32, i32)>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.pos)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Bitmap {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match pos.next() {
            Some(at) => backend.blit_bitmap(at, self.size, &self.rgb),
            None => Ok(()),
        }
    }
}
