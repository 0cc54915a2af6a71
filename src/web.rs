//! The one file that knows about the browser: thin wasm-bindgen handles over the core.
//!
//! - `Settings`: the parameter table, on the page's thread: validates what the reader types,
//!   keeps the configuration and answers `get` at once.
//! - `Session`: the live run, in the Web Worker (or on the page's thread as a fallback); it
//!   trains and encodes frames.
//! - `View`: the latest frame, on the page's thread; it draws the charts and gives the words,
//!   all from that one frame.
//!
//! JavaScript holds these opaque handles and moves bytes between them; it does no maths.

use crate::config::{Config, PARAMS, PRESETS};
use crate::training::frame::Frame;
use crate::training::session;
use crate::view::charts::{self, depth::DepthCurves, Theme};
use crate::view::json::{config_json, frame_json};
use crate::view::words;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Bytes of this wasm instance's linear memory (it never shrinks): for the benchmark's check
/// that long runs stay bounded.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// `name=value` pairs of a URL query (`?depth=12&residual=off`), percent-decoded.
fn query_pairs(query: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let bytes = s.replace('+', " ").into_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            match (bytes[i], bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (b'%', Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                }
                (b, _, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// A configuration from a URL query, leniently, with the notices for what was replaced.
fn lenient(query: &str) -> (Config, Vec<String>) {
    let mut config = Config::default();
    let notices = config.apply_leniently(query_pairs(query).iter().map(|(k, v)| (k.as_str(), v.as_str())));
    (config, notices)
}

/// The reader's configuration, checked against the one parameter table.
#[wasm_bindgen]
pub struct Settings {
    config: Config,
    notices: Vec<String>,
}

#[wasm_bindgen]
impl Settings {
    /// Settings from a URL query. Invalid or unknown parameters fall back to the nearest valid
    /// value or the default; `takeNotices` says which.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Settings {
        let (config, notices) = lenient(query);
        Settings { config, notices }
    }

    /// Every parameter's URL name, in table order.
    pub fn names() -> Vec<String> {
        PARAMS.iter().map(|p| p.name.to_string()).collect()
    }

    /// The presets, for the menu: `name`, then what it shows, for each.
    pub fn presets() -> Vec<String> {
        PRESETS.iter().flat_map(|p| [p.name.to_string(), p.help.to_string()]).collect()
    }

    /// Sets one parameter by its URL name. A bad value is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), JsError> {
        self.config.set(name, value).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Like `set`, but an invalid value falls back to the nearest valid one with a notice.
    #[wasm_bindgen(js_name = setLeniently)]
    pub fn set_leniently(&mut self, name: &str, value: &str) {
        let notices = self.config.apply_leniently([(name, value)]);
        self.notices.extend(notices);
    }

    /// A parameter's current value as text.
    pub fn get(&self, name: &str) -> Option<String> {
        self.config.get(name)
    }

    /// Every parameter as a URL query, in table order.
    pub fn query(&self) -> String {
        self.config.to_query()
    }

    /// Every parameter as JSON, numbers as numbers.
    pub fn json(&self) -> String {
        config_json(&self.config).to_string()
    }

    /// Notices about parameters that were replaced or ignored, since the last call.
    #[wasm_bindgen(js_name = takeNotices)]
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }
}

/// The live run: trains and encodes frames. Lives in the worker.
#[wasm_bindgen]
pub struct Session {
    inner: session::Session,
}

#[wasm_bindgen]
impl Session {
    /// A session for a query (canonical from `Settings.query()`; anything else is read leniently).
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str, generation: u32) -> Session {
        Session { inner: session::Session::new(&lenient(query).0).with_generation(generation) }
    }

    /// Starts again from the seed with this configuration, as restart number `generation`.
    pub fn restart(&mut self, query: &str, generation: u32) {
        self.inner.restart(&lenient(query).0, generation);
    }

    /// Trains up to `max_steps` steps while the run goes on; returns how many it took.
    pub fn train(&mut self, max_steps: u32) -> u32 {
        let mut steps = 0;
        while steps < max_steps && self.inner.train_step() {
            steps += 1;
        }
        steps
    }

    /// One step even at the step limit (the Step button); none after a divergence.
    pub fn step(&mut self) -> bool {
        self.inner.single_step()
    }

    /// Play on a finished run continues it for another `steps` steps.
    #[wasm_bindgen(js_name = continueRun)]
    pub fn continue_run(&mut self) {
        self.inner.continue_run();
    }

    /// Not diverged and below the step limit.
    #[wasm_bindgen(getter)]
    pub fn running(&self) -> bool {
        self.inner.running()
    }

    pub fn rescale(&mut self) {
        self.inner.rescale();
    }

    #[wasm_bindgen(js_name = resetScale)]
    pub fn reset_scale(&mut self) {
        self.inner.reset_scale();
    }

    /// Measures the probe batch and encodes what the page shows now.
    pub fn frame(&mut self) -> Vec<u8> {
        self.inner.frame().encode()
    }
}

/// The charts' theme: light or dark, sized for the device-pixel ratio `scale`, in the colours
/// the page computed from its CSS (`Theme::with_css_colours`; empty keeps the defaults).
fn theme(scale: f64, dark: bool, colours: &str) -> Theme {
    let scale = if scale.is_finite() { scale.clamp(0.5, 4.0) } else { 1.0 };
    let theme = if dark { Theme::dark(scale) } else { Theme::light(scale) };
    theme.with_css_colours(colours)
}

/// plotters' canvas backend, measuring text on the canvas itself. plotters' own measurement on
/// the web appends a styled `<span>` to the document's body (the host's page, for the element)
/// and forces a layout for every label: a strict Content-Security-Policy forbids the inline
/// style, and the layouts made the legend of the per-layer panel cost 3.5 ms a frame.
struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

type Failure = DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>;

impl DrawingBackend for Canvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), Failure> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), Failure> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failure> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failure> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failure> {
        self.inner.draw_path(path, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Failure> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Failure> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), Failure> {
        // the font string plotters-canvas draws with
        let font = format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str());
        self.context.set_font(&font);
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        Ok((width.ceil() as u32, style.size().ceil() as u32))
    }
}

type Area = DrawingArea<Canvas, plotters::coord::Shift>;

fn draw_on(
    canvas: HtmlCanvasElement,
    draw: impl FnOnce(&Area) -> charts::ChartResult,
) -> Result<(), JsError> {
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| JsError::new("no 2D canvas context"))?;
    let inner =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D canvas context"))?;
    draw(&Canvas { inner, context }.into_drawing_area()).map_err(|e| JsError::new(&e))
}

/// The latest frame on the page's thread: its words and its charts.
#[wasm_bindgen]
#[derive(Default)]
pub struct View {
    frame: Option<Frame>,
}

impl View {
    fn frame(&self) -> Result<&Frame, JsError> {
        self.frame.as_ref().ok_or_else(|| JsError::new("no frame yet"))
    }

    fn text(&self, words: fn(&Frame) -> String) -> String {
        self.frame.as_ref().map_or_else(String::new, words)
    }
}

#[wasm_bindgen]
impl View {
    #[wasm_bindgen(constructor)]
    pub fn new() -> View {
        View::default()
    }

    /// Takes an encoded frame unless it belongs to a restart before `generation`; returns
    /// whether it was taken. A malformed frame is an error and keeps the previous one.
    pub fn load(&mut self, bytes: &[u8], generation: u32) -> Result<bool, JsError> {
        let frame = Frame::decode(bytes).map_err(|e| JsError::new(&e))?;
        if frame.generation < generation {
            return Ok(false);
        }
        self.frame = Some(frame);
        Ok(true)
    }

    #[wasm_bindgen(getter, js_name = hasFrame)]
    pub fn has_frame(&self) -> bool {
        self.frame.is_some()
    }

    #[wasm_bindgen(getter)]
    pub fn generation(&self) -> u32 {
        self.frame.as_ref().map_or(0, |f| f.generation)
    }

    /// Training updates applied.
    #[wasm_bindgen(getter)]
    pub fn step(&self) -> u32 {
        self.frame.as_ref().map_or(0, |f| f.step as u32)
    }

    #[wasm_bindgen(getter, js_name = divergedAt)]
    pub fn diverged_at(&self) -> Option<u32> {
        self.frame.as_ref().and_then(|f| f.diverged_at).map(|s| s as u32)
    }

    /// The run reached its step limit.
    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> bool {
        self.frame.as_ref().is_some_and(Frame::finished)
    }

    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        self.text(words::status_line)
    }

    #[wasm_bindgen(getter)]
    pub fn caption(&self) -> String {
        self.text(words::caption)
    }

    #[wasm_bindgen(getter, js_name = histogramSummary)]
    pub fn histogram_summary(&self) -> String {
        self.text(words::histogram_summary)
    }

    #[wasm_bindgen(getter, js_name = lossSummary)]
    pub fn loss_summary(&self) -> String {
        self.text(words::loss_summary)
    }

    #[wasm_bindgen(getter, js_name = depthSummary)]
    pub fn depth_summary(&self) -> String {
        self.text(words::depth_summary)
    }

    /// The frame as JSON (configuration, readouts, panel data, the bounded loss history), for
    /// scripts and tests. `readouts` leaves out the panel data: what `.value` and the events carry.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self, readouts_only: bool) -> Result<String, JsError> {
        Ok(frame_json(self.frame()?, readouts_only).to_string())
    }

    #[wasm_bindgen(js_name = drawHistogram)]
    pub fn draw_histogram(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let (f, theme) = (self.frame()?, theme(scale, dark, colours));
        draw_on(canvas, |area| {
            charts::histogram::draw(
                area,
                &f.histogram,
                &words::histogram_subject(&f.config),
                f.act_std(),
                &theme,
            )
        })
    }

    #[wasm_bindgen(js_name = drawLoss)]
    pub fn draw_loss(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let (f, theme) = (self.frame()?, theme(scale, dark, colours));
        draw_on(canvas, |area| charts::loss::draw(area, &f.history, f.diverged_at, &theme))
    }

    #[wasm_bindgen(js_name = drawDepth)]
    pub fn draw_depth(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let (f, theme) = (self.frame()?, theme(scale, dark, colours));
        let curves = DepthCurves {
            grad_init: &f.init.grad_norm,
            grad_now: &f.now.grad_norm,
            std_init: &f.init.act_std,
            std_now: &f.now.act_std,
        };
        draw_on(canvas, |area| charts::depth::draw(area, &curves, &theme))
    }
}
