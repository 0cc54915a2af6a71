//! Charts that take plain data and draw on any plotters `DrawingBackend`: a `<canvas>` in the
//! browser, SVG natively (tests, static figures). One file per chart, each a `draw` that follows
//! the same steps: fill, `ChartBuilder`, mesh, series, `present`.

pub mod all_four;
pub mod attention;
pub mod axis;
pub mod depth;
pub mod depth_width;
pub mod histogram;
pub mod knockout;
pub mod loss;
pub mod readout;
pub mod sweep;

pub use axis::{Axis, Chart};

use ablation_training::live::loss_history::LossHistory;
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::RGBColor;

/// Colours and sizes of one rendering. `scale` multiplies every size in pixels (the canvas's
/// device-pixel ratio), so text and lines stay crisp on high-DPI screens.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// The current state.
    pub now: RGBColor,
    /// The state at initialisation.
    pub init: RGBColor,
    /// A second quantity (activation std in the per-depth panel).
    pub other: RGBColor,
    /// Warnings: overflow counts, divergence.
    pub alert: RGBColor,
    pub scale: f64,
    /// The attention maps as one bitmap each (the page's canvas), or as rectangles (SVG).
    pub bitmaps: bool,
    /// The backend measures text as it draws it (the page's canvas, by `measureText`): titles
    /// and legends are fitted to the measured words, in any language; elsewhere (SVG, `ablate`)
    /// a width is estimated from the characters, the same on every machine.
    pub measures_text: bool,
}

// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);

impl Theme {
    pub fn light(scale: f64) -> Theme {
        Theme {
            background: RGBColor(0xFF, 0xFF, 0xFF),
            text: RGBColor(0x22, 0x22, 0x22),
            grid: RGBColor(0xE4, 0xE4, 0xE4),
            now: BLUE,
            init: PURPLE,
            other: ORANGE,
            alert: VERMILLION,
            scale,
            bitmaps: false,
            measures_text: false,
        }
    }

    pub fn dark(scale: f64) -> Theme {
        Theme {
            background: RGBColor(0x1B, 0x1D, 0x21),
            text: RGBColor(0xE8, 0xE8, 0xE8),
            grid: RGBColor(0x3A, 0x3D, 0x44),
            now: SKY,
            init: PURPLE,
            other: ORANGE,
            alert: VERMILLION,
            scale,
            bitmaps: false,
            measures_text: false,
        }
    }

    /// The colours a page may set, by the names its palette gives them (`data-colour` in
    /// `www/template.js`).
    pub const SLOTS: [&'static str; 5] = ["background", "text", "grid", "now", "alert"];

    fn slot(&mut self, name: &str) -> Option<&mut RGBColor> {
        match name {
            "background" => Some(&mut self.background),
            "text" => Some(&mut self.text),
            "grid" => Some(&mut self.grid),
            "now" => Some(&mut self.now),
            "alert" => Some(&mut self.alert),
            _ => None,
        }
    }

    /// This theme with the colours a page computed for the widget (its CSS custom properties,
    /// resolved by the browser), as `(slot, colour)` pairs, slots named as in `SLOTS`, each
    /// colour `rgb(r, g, b)`, `rgba(…)` or `color(srgb r g b)`. A slot not named, a name not
    /// known or a colour that does not parse keeps the theme's.
    pub fn with_css_colours<S: AsRef<str>>(mut self, colours: &[(S, S)]) -> Theme {
        for (name, text) in colours {
            if let (Some(c), Some(slot)) = (parse_css_colour(text.as_ref()), self.slot(name.as_ref())) {
                *slot = c;
            }
        }
        self
    }

    pub fn px(&self, size: f64) -> u32 {
        (size * self.scale).round().max(1.0) as u32
    }

    pub fn font(&self, size: f64) -> TextStyle<'static> {
        (FontFamily::SansSerif, size * self.scale).into_font().color(&self.text)
    }
}

/// `rgb(0, 114, 178)`, `rgba(0, 114, 178, 0.5)` (alpha ignored) or `color(srgb 0 0.45 0.7)`,
/// the forms in which browsers report a computed colour.
pub fn parse_css_colour(text: &str) -> Option<RGBColor> {
    let t = text.trim();
    let (body, scale) = if let Some(b) = t.strip_prefix("rgba(").or_else(|| t.strip_prefix("rgb(")) {
        (b, 1.0)
    } else if let Some(b) = t.strip_prefix("color(srgb ") {
        (b, 255.0)
    } else {
        return None;
    };
    let body = body.strip_suffix(')')?.split('/').next()?;
    let parts: Vec<f64> = body
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .take(3)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    let channel = |v: f64| (v * scale).round().clamp(0.0, 255.0) as u8;
    match parts[..] {
        [r, g, b] => Some(RGBColor(channel(r), channel(g), channel(b))),
        _ => None,
    }
}

/// The frame's geometry in unscaled pixels: `frame` builds every chart with it, and the
/// legend's and the title's room are computed from the same numbers.
struct Geometry;

impl Geometry {
    /// Around the chart, on every side but the right.
    const MARGIN: f64 = 8.0;
    /// On the right, where the last x label's text runs past the plot.
    const MARGIN_RIGHT: f64 = 18.0;
    /// Below the plot, for the x labels; and a line more for an axis's name under them.
    const X_LABELS: f64 = 26.0;
    const X_DESC: f64 = 14.0;
    /// Left of the plot, for the y labels.
    const Y_LABELS: f64 = 46.0;
    /// The title's text size, and the height plotters gives its line.
    const TITLE_SIZE: f64 = 13.0;
    const TITLE_LINE: f64 = 22.0;
    /// About a character's width of sans-serif text at `TITLE_SIZE` and at the legend's 10 px.
    const TITLE_CHAR: f64 = 6.6;
    const LEGEND_CHAR: f64 = 5.6;
}

/// The frame every chart shares: its title, margins and label areas.
pub fn frame<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: String,
    theme: &Theme,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(title, theme.font(Geometry::TITLE_SIZE))
        .margin(theme.px(Geometry::MARGIN))
        .margin_right(theme.px(Geometry::MARGIN_RIGHT))
        .x_label_area_size(theme.px(Geometry::X_LABELS))
        .y_label_area_size(theme.px(Geometry::Y_LABELS));
    builder
}

/// Whether a chart title fits across `area`.
pub fn title_fits<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, title: &str, theme: &Theme) -> bool {
    let room = f64::from(area.dim_in_pixel().0) / theme.scale - 2.0 * Geometry::MARGIN;
    text_width(area, title, Geometry::TITLE_SIZE, Geometry::TITLE_CHAR, theme) <= room
}

/// `text`'s width in unscaled pixels at font `size`: measured where the backend measures
/// (`Theme::measures_text`), else `char_width` a character.
fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
    char_width: f64,
    theme: &Theme,
) -> f64 {
    let estimate = text.chars().count() as f64 * char_width;
    if !theme.measures_text {
        return estimate;
    }
    area.estimate_text_size(text, &theme.font(size)).map_or(estimate, |(w, _)| f64::from(w) / theme.scale)
}

/// The first of `titles` (longest first) that fits across `area` with one of `notes`
/// (`fitted_title`), else the last title fitted so.
pub fn fitted_titles<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    titles: &[&str],
    notes: &[String],
    theme: &Theme,
) -> String {
    let fitted: Vec<String> = titles.iter().map(|t| fitted_title(area, t, notes, theme)).collect();
    let first = fitted.iter().find(|t| title_fits(area, t, theme));
    first.or(fitted.last()).cloned().unwrap_or_default()
}

/// `title`, followed by the first of `notes` (longest first) with which it fits across
/// `area`, or by the last (shortest) if none does; `title` alone without notes.
pub fn fitted_title<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    notes: &[String],
    theme: &Theme,
) -> String {
    let fits = |t: &str| title_fits(area, t, theme);
    let with = |note: &String| format!("{title} · {note}");
    match notes.iter().map(with).find(|t| fits(t)) {
        Some(t) => t,
        None => notes.last().map_or_else(|| title.to_string(), with),
    }
}

/// Of `ticks` (each a value and its x in the backend's pixels, in order), those whose labels
/// (`label`, at the mesh's 11 px) stand apart with a gap: the last always (the deepest, the
/// end the reader reads to), then from the first on each that clears those kept. A phone's
/// narrow plot of many depths shows every other one instead of running them together.
pub fn spaced_ticks<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    ticks: &[(f64, i32)],
    label: impl Fn(f64) -> String,
    theme: &Theme,
) -> Vec<f64> {
    let span = |&(v, x): &(f64, i32)| {
        let half = theme.scale * (text_width(area, &label(v), 11.0, 6.2, theme) / 2.0 + 3.0);
        (f64::from(x) - half, f64::from(x) + half)
    };
    let mut kept: Vec<(f64, (f64, f64))> = ticks.last().map(|t| (t.0, span(t))).into_iter().collect();
    for tick in &ticks[..ticks.len().saturating_sub(1)] {
        let (a, b) = span(tick);
        if kept.iter().all(|(_, (c, d))| b <= *c || a >= *d) {
            kept.push((tick.0, (a, b)));
        }
    }
    kept.into_iter().map(|(v, _)| v).collect()
}

/// The grid and axis style every chart shares.
pub fn style_mesh<DB: DrawingBackend>(mesh: &mut MeshStyle<'_, '_, Axis, Axis, DB>, theme: &Theme) {
    mesh.max_light_lines(2)
        .light_line_style(theme.grid)
        .bold_line_style(theme.grid)
        .axis_style(theme.text)
        .label_style(theme.font(11.0));
}

/// The four switch combinations' colours, in the order of `compare::four_combinations`
/// (both off, norm alone, residual alone, both on), the same in every comparison chart. The
/// theme's own colours, so a page's CSS colours carry over: warning-red for the stack that
/// fails, the accent for the one that trains.
pub fn combination_colours(theme: &Theme) -> [RGBColor; 4] {
    [theme.alert, theme.other, theme.init, theme.now]
}

/// A pinned run, drawn under the live one in a quiet style and numbered from 1.
pub struct Pinned<'a> {
    /// "pinned: Residual OFF · step 500"
    pub label: String,
    pub history: &'a LossHistory,
    /// `‖∂L/∂x_ℓ‖` and the stream's std at the pinned step, ℓ = 0..=L.
    pub grad: &'a [f64],
    pub std: &'a [f64],
    /// Over a pin's several seeds, the lowest and highest seed's smoothed loss at each of the
    /// first seed's buckets (else empty).
    pub band: Vec<(usize, f64, f64)>,
}

/// The pins' quiet colour: the text colour, faded.
pub fn pinned_colour(theme: &Theme) -> RGBColor {
    let (t, b) = (theme.text, theme.background);
    let mix = |x: u8, y: u8| ((f64::from(x) * 0.45 + f64::from(y) * 0.55).round()) as u8;
    RGBColor(mix(t.0, b.0), mix(t.1, b.1), mix(t.2, b.2))
}

/// The pins' legend entries: "1 pinned: Residual OFF · step 500".
pub fn pinned_legend(pins: &[Pinned], theme: &Theme) -> Vec<(RGBColor, String)> {
    pins.iter().enumerate().map(|(i, p)| (pinned_colour(theme), format!("{} {}", i + 1, p.label))).collect()
}

/// A legend box wide enough for its longest label (in unscaled pixels, at 10 px text).
pub fn legend_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(RGBColor, String)],
    theme: &Theme,
) -> f64 {
    let width = |(_, label): &(RGBColor, String)| text_width(area, label, 10.0, Geometry::LEGEND_CHAR, theme);
    let longest: f64 = entries.iter().map(width).fold(0.0, f64::max);
    (40.0 + longest).max(150.0)
}

/// Where a legend goes: a top corner of the plot that the chart's series leave empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    TopLeft,
    TopRight,
}

/// The room a legend of `rows` entries, `width` px wide (unscaled), takes in the plot of a
/// chart on `area` drawn by `frame`: its width and height as fractions of the plot's. The
/// plot's size is estimated from `frame`'s margins and label areas, a little small, so that
/// the fractions err on the large side.
fn legend_fractions<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: usize,
    width: f64,
    theme: &Theme,
) -> (f64, f64) {
    let (w, h) = area.dim_in_pixel();
    let s = theme.scale;
    let g = (Geometry::MARGIN, Geometry::MARGIN_RIGHT, Geometry::X_LABELS, Geometry::Y_LABELS);
    let plot_w = (f64::from(w) - s * (g.0 + g.1 + g.3)) * 0.97;
    let plot_h = (f64::from(h) - s * (2.0 * g.0 + g.2 + Geometry::TITLE_LINE)) * 0.95;
    // the box: 6 px from the plot's edge, 6 px of padding, 13 px a row (as `legend` draws it)
    let box_w = s * (width + 6.0 + 4.0);
    let box_h = s * (6.0 + 6.0 + 13.0 * rows as f64 + 4.0);
    ((box_w / plot_w.max(1.0)).min(1.0), (box_h / plot_h.max(1.0)).min(0.8))
}

/// Where a legend goes so that it covers no data: the first of `corners` that none of
/// `points` (x and y as fractions of the plot, y upwards, 0..=1) falls in; if every corner is
/// taken, the first, with the top `free` fraction of the plot left to it: the caller raises
/// its y axis so that the data end below (`raised_top`). Returns (corner, free).
pub fn place_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: usize,
    width: f64,
    points: &[(f64, f64)],
    corners: &[Corner],
    theme: &Theme,
) -> (Corner, f64) {
    let (fw, fh) = legend_fractions(area, rows, width, theme);
    let inside = |corner: Corner, (x, y): (f64, f64)| {
        let across = match corner {
            Corner::TopLeft => x <= fw,
            Corner::TopRight => x >= 1.0 - fw,
        };
        across && y >= 1.0 - fh
    };
    for &corner in corners {
        if !points.iter().any(|&p| inside(corner, p)) {
            return (corner, 0.0);
        }
    }
    (corners[0], fh + 0.02)
}

/// The top of a log axis over `lo..hi` raised so that `hi` sits `free` (a fraction of the
/// height) below it.
pub fn raised_top(lo: f64, hi: f64, free: f64) -> f64 {
    if free <= 0.0 {
        return hi;
    }
    let (l, h) = (lo.ln(), hi.ln());
    (l + (h - l) / (1.0 - free).max(0.2)).exp()
}

/// A series' points as fractions of a plot over `x` (a function to 0..=1) and the log axis
/// `lo..hi`, with three more points on each segment between them (a line between two points
/// can cross a corner that both points miss).
pub fn plot_fractions(points: &[(f64, f64)], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let (l, span) = (lo.ln(), (hi.ln() - lo.ln()).max(1e-12));
    let at = |(x, y): (f64, f64)| (x, ((y.ln() - l) / span).clamp(0.0, 1.0));
    let mut out = Vec::with_capacity(points.len() * 4);
    for (i, &p) in points.iter().enumerate() {
        out.push(at(p));
        if let Some(&q) = points.get(i + 1) {
            for k in 1..4 {
                let t = f64::from(k) / 4.0;
                // between the points in log space, as the log axis draws the line
                let y = (p.1.ln() * (1.0 - t) + q.1.ln() * t).exp();
                out.push(at((p.0 + (q.0 - p.0) * t, y)));
            }
        }
    }
    out
}

/// The value above which a log axis is cut so that comparable series stay readable: when,
/// in order of their largest values, one series runs more than a hundredfold past the ones
/// below it, the axis ends at those below (their largest value); None when all are
/// comparable. `maxima` are the series' largest finite values.
pub fn comparable_top(maxima: impl Iterator<Item = f64>) -> Option<f64> {
    let mut m: Vec<f64> = maxima.filter(|v| v.is_finite() && *v > 0.0).collect();
    ablation_core::order::sort_by(&mut m, f64::total_cmp);
    let mut top = *m.first()?;
    for &x in &m[1..] {
        if x > top * 100.0 {
            return Some(top);
        }
        top = x;
    }
    None
}

/// The mark where a series leaves the cut axis, at its top, in the series' colour: "↑ 3.4e31",
/// its largest value. A legend names the series with the same value ("residual alone:
/// 3.4e31 ↑"), `beyond_label`.
pub fn beyond_mark(largest: f64) -> String {
    format!("↑ {}", number(largest))
}

/// Draws `text` (a `beyond_mark`) in `colour` just under the cut at pixel `at`, where a series
/// first reaches it: the `row`-th such mark a line under the one before, and to the left of
/// `at` when `right` (past the plot's middle), so that it stays inside the plot.
pub fn draw_beyond<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    row: usize,
    right: bool,
    text: String,
    colour: RGBColor,
    theme: &Theme,
) -> ChartResult {
    let side = if right { HPos::Right } else { HPos::Left };
    let at = (x, y + theme.px(4.0) as i32 + theme.px(13.0) as i32 * row as i32);
    let style = theme.font(11.0).color(&colour).pos(Pos::new(side, VPos::Top));
    area.draw(&Text::new(text, at, style)).map_err(err)
}

/// A legend's name for a series past the cut axis: "residual alone: 3.4e31 ↑".
pub fn beyond_label(name: &str, largest: f64) -> String {
    format!("{name}: {} ↑", number(largest))
}

/// A legend in a top corner of the plotting area `plot` (its pixel ranges): one line swatch
/// and label per entry, drawn by hand in pixels as in `depth.rs` (plotters' series labels
/// are slow on a canvas).
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    corner: Corner,
    entries: &[(RGBColor, String)],
    width: f64,
    theme: &Theme,
) -> ChartResult {
    let (xs, ys) = plot;
    let (line, pad, width) = (theme.px(13.0) as i32, theme.px(6.0) as i32, theme.px(width) as i32);
    let swatch_width = theme.px(16.0) as i32;
    let x0 = match corner {
        Corner::TopLeft => xs.start + pad,
        Corner::TopRight => xs.end - width - pad,
    };
    let y0 = ys.start + pad;
    let rows = entries.len() as i32;
    let box_ =
        Rectangle::new([(x0, y0), (x0 + width, y0 + pad + line * rows)], theme.background.mix(0.85).filled());
    area.draw(&box_).map_err(err)?;
    for (i, (colour, label)) in entries.iter().enumerate() {
        let y = y0 + pad / 2 + line * i as i32 + line / 2;
        let swatch = PathElement::new(
            vec![(x0 + pad, y), (x0 + pad + swatch_width, y)],
            colour.stroke_width(theme.px(2.0)),
        );
        area.draw(&swatch).map_err(err)?;
        let at = (x0 + pad * 2 + swatch_width, y - line / 2 + theme.px(1.0) as i32);
        area.draw(&Text::new(label.as_str(), at, theme.font(10.0))).map_err(err)?;
    }
    Ok(())
}

/// A per-depth series' points that a log axis can show: (ℓ, value) for the finite, positive values.
pub fn log_points(values: &[f64]) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
    values.iter().enumerate().filter(|(_, v)| v.is_finite() && **v > 0.0).map(|(i, &v)| (i as f64, v))
}

/// A chart with one slot per layer across (`-0.5 .. layers − 0.5`) and a log axis up with
/// chosen labels (the knockout's bars and the update ratios) over `lo..hi`, its mesh drawn.
pub fn layer_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    title: String,
    layers: usize,
    (lo, hi): (f64, f64),
    theme: &Theme,
) -> Result<Chart<'a, DB>, String> {
    let mut chart = frame(area, title, theme)
        .build_cartesian_2d(Axis::linear(-0.5..layers as f64 - 0.5), Axis::log_at(lo..hi, log_ticks(lo, hi)))
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    style_mesh(&mut mesh, theme);
    mesh.x_labels(layers.min(12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| number(*y))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// Any chart's error, as text (the backends' error types differ).
pub type ChartResult = Result<(), String>;

pub fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// `lo..hi` around the finite, positive values, padded to whole decades, for a log axis.
pub fn log_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        return (0.1, 10.0);
    }
    let (lo, hi) = (10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil()));
    if lo == hi {
        (lo / 10.0, hi * 10.0)
    } else {
        (lo, hi)
    }
}

/// Where to put the labels of a log axis over `lo..hi`, from whole decades as `log_range` gives
/// (a top raised for a legend, `raised_top`, may end between them: no label above it):
/// at 1, 2 and 5 in each decade when the axis spans one or two decades (plotters' own choice
/// leaves a one-decade axis with a single label), else at every decade, or every few: at most
/// about seven labels, which a half-height panel on a phone still separates.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let first = lo.log10().round() as i32;
    let decades = ((hi / lo).log10().round() as i32).max(1);
    if decades <= 2 {
        let mut ticks: Vec<f64> =
            (first..first + decades).flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e))).collect();
        ticks.push(10f64.powi(first + decades));
        ticks.retain(|&t| t <= hi * 1.0001);
        ticks
    } else {
        let every = (decades as usize).div_ceil(6);
        (first..=first + decades)
            .step_by(every)
            .map(|e| 10f64.powi(e))
            .filter(|&t| t <= hi * 1.0001)
            .collect()
    }
}

/// A number as the reader reads it, on an axis or in a sentence: `short`'s text in the thread's
/// language's convention (`0,50` in Spanish).
pub fn number(x: f64) -> String {
    ablation_words::number(&short(x))
}

/// Short, readable number: 0.012, 0.123, 1.23, 123, 1.2e5. The precision is chosen after
/// rounding to three significant digits, so 0.99998 reads 1.00, not 1.000.
pub fn short(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let r: f64 = format!("{x:.2e}").parse().unwrap_or(x);
    let a = r.abs();
    if a != 0.0 && !(1e-3..1e4).contains(&a) {
        format!("{r:.1e}")
    } else if a >= 100.0 {
        format!("{r:.0}")
    } else if a >= 1.0 || a == 0.0 {
        format!("{r:.2}")
    } else if a >= 0.01 {
        format!("{r:.3}")
    } else {
        // two significant digits, as above 0.01: 0.00125 is 0.0013, not 0.001
        format!("{r:.4}")
    }
}

/// An encoder–decoder's split on a per-layer chart: a line at the pixel column `x` down the
/// plot (`plot`, its pixel ranges), "encoder" left of it and "decoder" right, at the plot's foot.
pub fn mark_split<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x: i32,
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    theme: &Theme,
) -> ChartResult {
    let (_, ys) = plot;
    let line =
        PathElement::new(vec![(x, ys.start), (x, ys.end)], theme.text.mix(0.5).stroke_width(theme.px(1.0)));
    area.draw(&line).map_err(err)?;
    let (pad, foot) = (theme.px(4.0) as i32, ys.end - theme.px(3.0) as i32);
    let font = theme.font(10.0);
    let left = font.clone().pos(Pos::new(HPos::Right, VPos::Bottom));
    area.draw(&Text::new("encoder", (x - pad, foot), left)).map_err(err)?;
    let right = font.pos(Pos::new(HPos::Left, VPos::Bottom));
    area.draw(&Text::new("decoder", (x + pad, foot), right)).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn titles_and_legends_are_fitted_to_the_backends_measure_where_it_measures() {
        use super::{fitted_title, legend_width, title_fits, Theme};
        use plotters::prelude::*;
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (640, 480)).into_drawing_area();
        // natively the SVG backend's measure is plotters' estimate (0.7 em a byte): a title of
        // 40 Chinese characters, 120 bytes, measures about 1090 px, against 264 px estimated
        // from its characters
        let title = "训练损失".repeat(10);
        let estimated = Theme::light(1.0);
        let measured = Theme { measures_text: true, ..Theme::light(1.0) };
        assert!(title_fits(&area, &title, &estimated));
        assert!(!title_fits(&area, &title, &measured));
        let notes = vec!["一个很长的注释".repeat(8), "短".into()];
        assert!(fitted_title(&area, "训练损失", &notes, &measured).ends_with(" · 短"));
        let entries = vec![(RGBColor(0, 0, 0), "留出集".repeat(20))];
        assert!(legend_width(&area, &entries, &measured) > 2.0 * legend_width(&area, &entries, &estimated));
    }

    #[test]
    fn computed_css_colours_parse() {
        use super::{parse_css_colour, Theme};
        use plotters::style::RGBColor;
        assert_eq!(parse_css_colour("rgb(0, 114, 178)"), Some(RGBColor(0, 114, 178)));
        assert_eq!(parse_css_colour(" rgba(255, 0, 10, 0.5) "), Some(RGBColor(255, 0, 10)));
        assert_eq!(parse_css_colour("color(srgb 0 0.5 1)"), Some(RGBColor(0, 128, 255)));
        assert_eq!(parse_css_colour("color(srgb 1 1 1 / 0.4)"), Some(RGBColor(255, 255, 255)));
        for bad in ["", "red", "rgb(1, 2)", "rgb(a, b, c)", "hsl(1, 2%, 3%)"] {
            assert_eq!(parse_css_colour(bad), None, "{bad}");
        }
        // in any order, by name: an unknown name or an unparsable colour keeps the theme's
        let t = Theme::light(1.0).with_css_colours(&[
            ("alert", "rgb(10, 11, 12)"),
            ("text", "bogus"),
            ("background", "rgb(1, 2, 3)"),
            ("accent", "rgb(99, 99, 99)"),
            ("now", "rgb(7, 8, 9)"),
            ("grid", "rgb(4, 5, 6)"),
        ]);
        assert_eq!(t.background, RGBColor(1, 2, 3));
        assert_eq!(t.text, Theme::light(1.0).text, "an unparsable colour keeps the theme's");
        assert_eq!((t.grid, t.now, t.alert), (RGBColor(4, 5, 6), RGBColor(7, 8, 9), RGBColor(10, 11, 12)));
        let light = Theme::light(1.0);
        assert_eq!(Theme::light(1.0).with_css_colours::<&str>(&[]).init, light.init, "none: the theme");
        for name in Theme::SLOTS {
            let t = Theme::light(1.0).with_css_colours(&[(name, "rgb(1, 2, 3)")]);
            let set = [t.background, t.text, t.grid, t.now, t.alert]
                .iter()
                .filter(|&&c| c == RGBColor(1, 2, 3))
                .count();
            assert_eq!(set, 1, "{name} names one slot");
        }
    }

    #[test]
    fn short_numbers_round_before_choosing_their_precision() {
        assert_eq!(short(0.99998), "1.00");
        assert_eq!(short(1.0), "1.00");
        assert_eq!(short(0.0123456), "0.012");
        assert_eq!(short(0.123456), "0.123");
        assert_eq!(short(0.0012521), "0.0013");
        assert_eq!(short(0.001), "0.0010");
        assert_eq!(short(99.996), "100");
        assert_eq!(short(9999.6), "1.0e4");
        assert_eq!(short(2.5e31), "2.5e31");
        assert_eq!(short(0.0), "0.00");
        assert_eq!(short(-3.456), "-3.46");
        assert_eq!(short(f64::NAN), "NaN");
        assert_eq!(short(f64::INFINITY), "∞");
    }
}
