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

use crate::config::{add_pin, parse_pins, pins_text, Config, Pin, MAX_PINS, PARAMS, PIN, PRESETS};
use crate::training::frame::Frame;
use crate::training::lab::{Lab, LabState};
use crate::training::session;
use crate::view::charts::{self, depth::DepthCurves, Pinned, Theme};
use crate::view::json::{config_json, frame_json, lab_json};
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
    let (config, _, notices) = lenient_with_pins(query);
    (config, notices)
}

/// `lenient`, and the pins the query names (`pin=…`, possibly several): a bad pin is dropped
/// with a notice, the others kept, at most `MAX_PINS`.
fn lenient_with_pins(query: &str) -> (Config, Vec<Pin>, Vec<String>) {
    let pairs = query_pairs(query);
    let mut config = Config::default();
    let mut notices =
        config.apply_leniently(pairs.iter().filter(|(k, _)| k != PIN).map(|(k, v)| (k.as_str(), v.as_str())));
    let (pins, pin_notices) = lenient_pins(pairs.iter().filter(|(k, _)| k == PIN).map(|(_, v)| v.as_str()));
    notices.extend(pin_notices);
    (config, pins, notices)
}

/// Pins from one or more `;`-separated lists, leniently: a bad pin is dropped with a notice, the
/// others kept, at most `MAX_PINS`.
fn lenient_pins<'a>(lists: impl IntoIterator<Item = &'a str>) -> (Vec<Pin>, Vec<String>) {
    let (mut pins, mut notices) = (Vec::new(), Vec::new());
    for text in lists.into_iter().flat_map(|l| l.split(';')) {
        match parse_pins(text) {
            Ok(p) => pins.extend(p),
            Err(e) => notices.push(format!("{e}; ignored")),
        }
    }
    if pins.len() > MAX_PINS {
        notices.push(format!("pin: {} pins; kept the first {MAX_PINS}", pins.len()));
        pins.truncate(MAX_PINS);
    }
    (pins, notices)
}

/// The reader's configuration, checked against the one parameter table.
#[wasm_bindgen]
pub struct Settings {
    config: Config,
    pins: Vec<Pin>,
    notices: Vec<String>,
}

#[wasm_bindgen]
impl Settings {
    /// Settings from a URL query. Invalid or unknown parameters fall back to the nearest valid
    /// value or the default; `takeNotices` says which.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Settings {
        let (config, pins, notices) = lenient_with_pins(query);
        Settings { config, pins, notices }
    }

    /// Every parameter's URL name, in table order.
    pub fn names() -> Vec<String> {
        PARAMS.iter().map(|p| p.name.to_string()).collect()
    }

    /// The presets, for the menu: `name`, then what it shows, for each.
    pub fn presets() -> Vec<String> {
        PRESETS.iter().flat_map(|p| [p.name.to_string(), p.help.to_string()]).collect()
    }

    /// Sets one parameter by its URL name (`pin` replaces the pins). A bad value is an error
    /// and changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), JsError> {
        if name == PIN {
            self.pins = parse_pins(value).map_err(|e| JsError::new(&e.to_string()))?;
            return Ok(());
        }
        self.config.set(name, value).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Like `set`, but an invalid value falls back to the nearest valid one with a notice (a
    /// bad pin list is ignored, with a notice).
    #[wasm_bindgen(js_name = setLeniently)]
    pub fn set_leniently(&mut self, name: &str, value: &str) {
        if name == PIN {
            let (pins, notices) = lenient_pins([value]);
            self.pins = pins;
            self.notices.extend(notices);
            return;
        }
        let notices = self.config.apply_leniently([(name, value)]);
        self.notices.extend(notices);
    }

    /// A parameter's current value as text (`pin`: the pins as one `;`-separated list).
    pub fn get(&self, name: &str) -> Option<String> {
        if name == PIN {
            return Some(pins_text(&self.pins));
        }
        self.config.get(name)
    }

    /// Every parameter as a URL query, in table order, then the pins (if any).
    pub fn query(&self) -> String {
        let mut q = self.config.to_query();
        if !self.pins.is_empty() {
            q += &format!("&{PIN}={}", pins_text(&self.pins));
        }
        q
    }

    /// The model's parameters alone as a URL query: what the engine restarts from.
    #[wasm_bindgen(js_name = runQuery)]
    pub fn run_query(&self) -> String {
        self.config.to_query()
    }

    /// Pins the current settings at `step`; an error if that pin cannot be added (`add_pin`).
    #[wasm_bindgen(js_name = addPin)]
    pub fn add_pin(&mut self, step: u32) -> Result<(), JsError> {
        add_pin(&mut self.pins, &self.config, step as usize).map_err(|e| JsError::new(&e))
    }

    /// Removes pin number `index` (from 0); out of range does nothing.
    #[wasm_bindgen(js_name = removePin)]
    pub fn remove_pin(&mut self, index: u32) {
        if (index as usize) < self.pins.len() {
            self.pins.remove(index as usize);
        }
    }

    #[wasm_bindgen(getter, js_name = pinCount)]
    pub fn pin_count(&self) -> u32 {
        self.pins.len() as u32
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
    /// The comparisons the page asked for: pins, All four, the depth sweep.
    lab: Lab,
}

#[wasm_bindgen]
impl Session {
    /// A session for a query (canonical from `Settings.query()`; anything else is read leniently).
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str, generation: u32) -> Session {
        Session {
            inner: session::Session::new(&lenient(query).0).with_generation(generation),
            lab: Lab::default(),
        }
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

    /// Starts knocking out each layer of the stack as trained so far; training waits for it.
    #[wasm_bindgen(js_name = startKnockout)]
    pub fn start_knockout(&mut self) {
        self.inner.start_knockout();
    }

    #[wasm_bindgen(getter)]
    pub fn knocking(&self) -> bool {
        self.inner.knocking()
    }

    /// Knocks out up to `layers` more layers; true when every layer is done.
    #[wasm_bindgen(js_name = advanceKnockout)]
    pub fn advance_knockout(&mut self, layers: u32) -> bool {
        self.inner.advance_knockout(layers as usize)
    }

    /// Keeps exactly these pins (`Settings.get('pin')`'s text); a bad list is an error.
    #[wasm_bindgen(js_name = setPins)]
    pub fn set_pins(&mut self, text: &str) -> Result<(), JsError> {
        let pins = parse_pins(text).map_err(|e| JsError::new(&e.to_string()))?;
        self.lab.set_pins(&pins);
        Ok(())
    }

    /// Starts "All four" at the live run's settings.
    #[wasm_bindgen(js_name = startCompare)]
    pub fn start_compare(&mut self, query: &str) {
        self.lab.start_compare(&lenient(query).0);
    }

    /// Starts the depth sweep at the live run's settings.
    #[wasm_bindgen(js_name = startSweep)]
    pub fn start_sweep(&mut self, query: &str) {
        self.lab.start_sweep(&lenient(query).0);
    }

    #[wasm_bindgen(getter, js_name = labBusy)]
    pub fn lab_busy(&self) -> bool {
        self.lab.busy()
    }

    /// Takes up to `steps` steps of the comparisons; returns whether any are left.
    #[wasm_bindgen(js_name = advanceLab)]
    pub fn advance_lab(&mut self, steps: u32) -> bool {
        self.lab.advance(steps as usize)
    }

    /// The comparisons as they stand, encoded for `View.loadLab`.
    #[wasm_bindgen(js_name = labState)]
    pub fn lab_state(&mut self) -> Vec<u8> {
        self.lab.state().encode()
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
    lab: LabState,
}

impl View {
    fn frame(&self) -> Result<&Frame, JsError> {
        self.frame.as_ref().ok_or_else(|| JsError::new("no frame yet"))
    }

    fn text(&self, words: fn(&Frame) -> String) -> String {
        self.frame.as_ref().map_or_else(String::new, words)
    }

    /// The live run's settings (the defaults before the first frame): what pins are told against.
    fn live_config(&self) -> Config {
        self.frame.as_ref().map(|f| f.config.clone()).unwrap_or_default()
    }

    /// The pins, for the loss and per-layer charts, labelled against the live run.
    fn pinned(&self) -> Vec<Pinned<'_>> {
        let live = self.live_config();
        self.lab
            .pins
            .iter()
            .filter_map(|p| {
                let f = p.frame.as_ref()?; // a pin waiting for its turn has nothing to draw
                Some(Pinned {
                    label: words::pin_label(&p.pin.config, &live),
                    history: &f.history,
                    grad: &f.now.grad_norm,
                    std: &f.now.act_std,
                })
            })
            .collect()
    }

    fn with_pins(
        &self,
        summary: String,
        pins: fn(&[crate::training::lab::PinState], &Config) -> String,
    ) -> String {
        match &self.frame {
            Some(f) if !self.lab.pins.is_empty() => {
                format!("{summary} Pinned runs: {}.", pins(&self.lab.pins, &f.config))
            }
            _ => summary,
        }
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
        self.with_pins(self.text(words::loss_summary), words::pins_loss_summary)
    }

    #[wasm_bindgen(getter, js_name = depthSummary)]
    pub fn depth_summary(&self) -> String {
        self.with_pins(self.text(words::depth_summary), words::pins_depth_summary)
    }

    /// Takes the comparisons' latest state (`Session.labState`); a malformed one is an error
    /// and keeps the previous.
    #[wasm_bindgen(js_name = loadLab)]
    pub fn load_lab(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        self.lab = LabState::decode(bytes).map_err(|e| JsError::new(&e))?;
        Ok(())
    }

    /// The pins' labels, against the live run ("pinned: Residual OFF · step 500").
    #[wasm_bindgen(js_name = pinLabels)]
    pub fn pin_labels(&self) -> Vec<String> {
        let live = self.live_config();
        self.lab.pins.iter().map(|p| words::pin_label(&p.pin.config, &live)).collect()
    }

    #[wasm_bindgen(getter, js_name = hasCompare)]
    pub fn has_compare(&self) -> bool {
        self.lab.compare.is_some()
    }

    #[wasm_bindgen(getter, js_name = hasSweep)]
    pub fn has_sweep(&self) -> bool {
        self.lab.sweep.is_some()
    }

    #[wasm_bindgen(getter, js_name = hasKnockout)]
    pub fn has_knockout(&self) -> bool {
        self.frame.as_ref().is_some_and(|f| f.knockout.is_some())
    }

    /// All four as a table, row by row (the first is the header), 5 cells each, flattened.
    #[wasm_bindgen(js_name = compareTable)]
    pub fn compare_table(&self) -> Vec<String> {
        self.lab
            .compare
            .as_ref()
            .map_or_else(Vec::new, |c| words::compare_table(c).into_iter().flatten().collect())
    }

    #[wasm_bindgen(getter, js_name = compareSummary)]
    pub fn compare_summary(&self) -> String {
        self.lab.compare.as_ref().map_or_else(|| "Not run yet.".into(), words::compare_summary)
    }

    #[wasm_bindgen(getter, js_name = sweepSummary)]
    pub fn sweep_summary(&self) -> String {
        self.lab.sweep.as_ref().map_or_else(|| "Not run yet.".into(), words::sweep_summary)
    }

    #[wasm_bindgen(getter, js_name = knockoutSummary)]
    pub fn knockout_summary(&self) -> String {
        self.text(words::knockout_summary)
    }

    /// The comparisons as JSON (pins, All four, the sweep): what `.value` and the events carry.
    #[wasm_bindgen(js_name = labJson)]
    pub fn lab_json(&self) -> String {
        let live = self.live_config();
        lab_json(&self.lab, &live).to_string()
    }

    #[wasm_bindgen(js_name = drawCompare)]
    pub fn draw_compare(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let theme = theme(scale, dark, colours);
        let Some(c) = &self.lab.compare else { return Ok(()) };
        let labels: Vec<String> = c
            .rows
            .iter()
            .map(|r| words::combination_name(r.run.config.residual, r.run.config.norm))
            .collect();
        let curves: Vec<charts::compare::LossCurve> = c
            .rows
            .iter()
            .zip(&labels)
            .map(|(r, label)| charts::compare::LossCurve::of(&r.run, label))
            .collect();
        draw_on(canvas, |area| charts::compare::draw(area, &curves, c.steps, &theme))
    }

    #[wasm_bindgen(js_name = drawSweep)]
    pub fn draw_sweep(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let theme = theme(scale, dark, colours);
        let Some(s) = &self.lab.sweep else { return Ok(()) };
        let labels: Vec<String> =
            s.series.iter().map(|x| words::combination_name(x.residual, x.norm)).collect();
        let curves: Vec<charts::sweep::SweepCurve> =
            s.series.iter().zip(&labels).map(|(x, label)| charts::sweep::SweepCurve::of(x, label)).collect();
        draw_on(canvas, |area| charts::sweep::draw(area, &s.depths, &curves, s.steps, &theme))
    }

    #[wasm_bindgen(js_name = drawKnockout)]
    pub fn draw_knockout(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let theme = theme(scale, dark, colours);
        let Some((_, k)) = self.frame.as_ref().and_then(|f| f.knockout.as_ref()) else { return Ok(()) };
        draw_on(canvas, |area| charts::knockout::draw(area, k.intact_loss, &k.loss, &k.output_change, &theme))
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
        let pins = self.pinned();
        draw_on(canvas, |area| charts::loss::draw(area, &f.history, f.diverged_at, &pins, &theme))
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
            pins: &self.pinned(),
        };
        draw_on(canvas, |area| charts::depth::draw(area, &curves, &theme))
    }
}
