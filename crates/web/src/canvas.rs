//! plotters' canvas backend, measuring text on the canvas itself, and the charts' theme from
//! what the page's CSS resolved.

use ablation_view::charts::{self, Theme};
use ablation_view::panels::Surface;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// The charts' theme: light or dark, sized for the device-pixel ratio `scale`, in the colours
/// the page computed from its CSS (`Theme::with_css_colours`; none keeps the defaults).
pub(super) fn theme(scale: f64, dark: bool, colours: &[(String, String)]) -> Theme {
    let scale = if scale.is_finite() { scale.clamp(0.5, 4.0) } else { 1.0 };
    let theme = if dark { Theme::dark(scale) } else { Theme::light(scale) };
    Theme { bitmaps: true, measures_text: true, ..theme.with_css_colours(colours) }
}

/// Where a panel is drawn on the page: a canvas, through plotters' canvas backend measuring
/// text on the canvas itself, or an SVG document (the Download menu's), through plotters' SVG
/// backend as `ablate --svg` draws. One type for both, so that the panels' drawing code is
/// compiled once into the wasm, not once per backend (the SVG export cost 46 KB gzipped so).
///
/// plotters' own text measurement on the web appends a styled `<span>` to the document's body
/// (the host's page, for the element) and forces a layout for every label: a strict
/// Content-Security-Policy forbids the inline style, and the layouts made the legend of the
/// per-layer panel cost 3.5 ms a frame.
pub(super) enum Canvas<'a> {
    Screen { inner: CanvasBackend, context: CanvasRenderingContext2d },
    Svg(SVGBackend<'a>),
}

impl Surface for Canvas<'_> {}

type ScreenError = <CanvasBackend as DrawingBackend>::ErrorType;
pub(super) type Failure = DrawingErrorKind<ScreenError>;

/// An SVG backend's failure, as the canvas's kind of error. Its backend writes into a
/// `String`, which does not fail; the `io::Error` is not kept, so that its formatting (about
/// 3 KB) stays out of the wasm.
fn svg_failure(e: DrawingErrorKind<std::io::Error>) -> Failure {
    match e {
        DrawingErrorKind::DrawingError(_) => DrawingErrorKind::FontError(Box::new(SvgFailed)),
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

#[derive(Debug)]
struct SvgFailed;

impl std::fmt::Display for SvgFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the SVG could not be written")
    }
}

impl std::error::Error for SvgFailed {}

/// The same call on either backend.
macro_rules! either {
    ($self:expr, $b:ident => $call:expr) => {
        match $self {
            Canvas::Screen { inner: $b, .. } => $call,
            Canvas::Svg($b) => $call.map_err(svg_failure),
        }
    };
}

impl DrawingBackend for Canvas<'_> {
    type ErrorType = ScreenError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Canvas::Screen { inner, .. } => inner.get_size(),
            Canvas::Svg(svg) => svg.get_size(),
        }
    }
    fn ensure_prepared(&mut self) -> Result<(), Failure> {
        either!(self, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Result<(), Failure> {
        either!(self, b => b.present())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failure> {
        either!(self, b => b.draw_pixel(point, color))
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failure> {
        either!(self, b => b.draw_line(from, to, style))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        either!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failure> {
        either!(self, b => b.draw_path(path, style))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Failure> {
        either!(self, b => b.fill_polygon(vert, style))
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        either!(self, b => b.draw_circle(center, radius, style, fill))
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Failure> {
        either!(self, b => b.draw_text(text, style, pos))
    }
    /// One `putImageData` for the whole picture (plotters' default puts it pixel by pixel).
    fn blit_bitmap(&mut self, (x, y): BackendCoord, (w, h): (u32, u32), src: &[u8]) -> Result<(), Failure> {
        let context = match self {
            Canvas::Screen { context, .. } => context,
            Canvas::Svg(svg) => return svg.blit_bitmap((x, y), (w, h), src).map_err(svg_failure),
        };
        let mut rgba = Vec::with_capacity(src.len() / 3 * 4);
        for px in src.chunks_exact(3) {
            rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
        }
        let failed = |e: JsValue| -> Failure {
            DrawingErrorKind::FontError(format!("the bitmap could not be drawn: {e:?}").into())
        };
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h).map_err(failed)?;
        context.put_image_data(&image, f64::from(x), f64::from(y)).map_err(failed)
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), Failure> {
        let context = match self {
            Canvas::Screen { context, .. } => context,
            Canvas::Svg(svg) => return svg.estimate_text_size(text, style).map_err(svg_failure),
        };
        // the font string plotters-canvas draws with
        let font = format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str());
        context.set_font(&font);
        let width = context.measure_text(text).map_or(0.0, |m| m.width());
        Ok((width.ceil() as u32, style.size().ceil() as u32))
    }
}

pub(super) type Area<'a> = DrawingArea<Canvas<'a>, plotters::coord::Shift>;

pub(super) fn draw_on(
    canvas: HtmlCanvasElement,
    draw: impl FnOnce(&Area<'_>) -> charts::ChartResult,
) -> Result<(), JsError> {
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| JsError::new("no 2D canvas context"))?;
    let inner =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D canvas context"))?;
    draw(&Canvas::Screen { inner, context }.into_drawing_area()).map_err(|e| JsError::new(&e))
}

/// `draw` into an SVG document of `size` pixels: its text.
pub(super) fn draw_svg(
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> charts::ChartResult,
) -> Result<String, JsError> {
    let mut svg = String::new();
    {
        let area = Canvas::Svg(SVGBackend::with_string(&mut svg, size)).into_drawing_area();
        draw(&area).map_err(|e| JsError::new(&e))?;
        area.present().map_err(|e| JsError::new(&e.to_string()))?;
    }
    Ok(svg)
}
