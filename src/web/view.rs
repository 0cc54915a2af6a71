//! On the page's thread: the latest frame of the live run and the comparisons (their jobs for
//! the pool, and the reports that come back). It draws the charts and gives the words, all
//! from that one frame and the comparisons' state.

use super::canvas::{draw_on, theme};
use super::js_error;
use super::settings::Settings;
use crate::config::Config;
use crate::training::comparisons::{Comparisons, ComparisonsState};
use crate::training::frame::Frame;
use crate::training::job::Job;
use crate::view::charts::loss::HeldOut;
use crate::view::charts::Theme;
use crate::view::charts::{self, depth::DepthCurves, Pinned};
use crate::view::figures::{draw_compare, draw_depth_width, draw_sweep, held_out_parts};
use crate::view::json::{comparisons_json, frame_json, value_json};
use crate::view::lens_words::{attention_title, head_titles, readout_curves, readout_floors, readout_notes};
use crate::view::panels::panels_json;
use crate::view::words;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

#[wasm_bindgen]
#[derive(Default)]
pub struct View {
    frame: Option<Frame>,
    comparisons: Comparisons,
    /// The comparisons' state, made again after each change of the comparisons.
    shown: ComparisonsState,
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
        self.shown
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

    fn comparisons_changed(&mut self) {
        self.shown = self.comparisons.state();
    }
}

#[wasm_bindgen]
impl View {
    #[wasm_bindgen(constructor)]
    pub fn new() -> View {
        View::default()
    }

    /// Takes an encoded frame unless it answers a desired state from before `generation` (the
    /// page's last restart); returns whether it was taken. A malformed frame is an error and
    /// keeps the previous one.
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

    /// The desired state the frame on screen answers.
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

    // ---- the comparisons: what the page asks for, the jobs for the pool, their reports ----

    /// Keeps exactly the settings' pins (a pin that stays keeps what it has computed).
    #[wasm_bindgen(js_name = setPins)]
    pub fn set_pins(&mut self, settings: &Settings) {
        self.comparisons.set_pins(&settings.inner.pins);
        self.comparisons_changed();
    }

    /// Starts "All four" at the settings' configuration.
    #[wasm_bindgen(js_name = startCompare)]
    pub fn start_compare(&mut self, settings: &Settings) {
        self.comparisons.start_compare(&settings.inner.config);
        self.comparisons_changed();
    }

    /// Starts the depth sweep at the settings' configuration.
    #[wasm_bindgen(js_name = startSweep)]
    pub fn start_sweep(&mut self, settings: &Settings) {
        self.comparisons.start_sweep(&settings.inner.config);
        self.comparisons_changed();
    }

    /// Starts "depth or width" at the settings' configuration.
    #[wasm_bindgen(js_name = startDepthWidth)]
    pub fn start_depth_width(&mut self, settings: &Settings) {
        self.comparisons.start_depth_width(&settings.inner.config);
        self.comparisons_changed();
    }

    /// Starts the knockout of the live run from its worker's `Session.knockoutJob()`.
    #[wasm_bindgen(js_name = startKnockout)]
    pub fn start_knockout(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let (_, job) = Job::decode(bytes).map_err(js_error)?;
        self.comparisons.start_knockout(job);
        self.comparisons_changed();
        Ok(())
    }

    /// Forgets the knockout of a live run that has been restarted.
    #[wasm_bindgen(js_name = clearKnockout)]
    pub fn clear_knockout(&mut self) {
        self.comparisons.clear_knockout();
        self.comparisons_changed();
    }

    /// The ids of the jobs still wanted, in the order they should run.
    pub fn wanted(&self) -> Vec<u32> {
        self.comparisons.wanted()
    }

    /// Job `id`, encoded for a worker (empty if it is no longer wanted).
    pub fn job(&self, id: u32) -> Vec<u8> {
        self.comparisons.job(id).unwrap_or_default()
    }

    /// Job `id` failed in its worker (`reason`: its error): it is not handed out again, and its
    /// row, pin or table says so. Returns whether it was still wanted (a failure counts once).
    pub fn fail(&mut self, id: u32, reason: &str) -> bool {
        let taken = self.comparisons.fail(id, reason);
        if taken {
            self.comparisons_changed();
        }
        taken
    }

    /// Takes a job's report (`Job.report()`); returns 0 if it was no longer wanted, 1 if it was
    /// a pin's (drawn in the live run's panels), 2 for the other comparisons. Damaged bytes are
    /// an error and change nothing.
    pub fn report(&mut self, bytes: &[u8]) -> Result<u32, JsError> {
        let (id, done, report) = crate::training::job::Report::decode(bytes).map_err(js_error)?;
        let pin = self.comparisons.is_pin(id);
        if !self.comparisons.take_report(id, done, report).map_err(js_error)? {
            return Ok(0);
        }
        self.comparisons_changed();
        Ok(if pin { 1 } else { 2 })
    }

    /// The comparisons as JSON (pins, All four, the sweep, the knockout): what `.value` and the
    /// events carry.
    #[wasm_bindgen(js_name = comparisonsJson)]
    pub fn comparisons_json(&self) -> String {
        comparisons_json(&self.shown, &self.live_config()).to_string()
    }

    /// What `.value` and the element's events carry, as one JSON text: the settings, the
    /// readouts of the frame on screen and the comparisons.
    #[wasm_bindgen(js_name = valueJson)]
    pub fn value_json(&self, settings: &Settings) -> String {
        value_json(&settings.inner, self.frame.as_ref(), &self.shown).to_string()
    }

    /// Every panel's words as one named record (JSON): `{ status, caption, panels: { name:
    /// { shows, ready, summary, … } }, pins: [label, …], writes: { heading, parts, pins,
    /// compare } }` (`view::panels`).
    pub fn panels(&self) -> String {
        panels_json(self.frame.as_ref(), &self.shown).to_string()
    }

    /// The frame as JSON (configuration, readouts, panel data, the bounded loss history), for
    /// scripts and tests. `readouts` leaves out the panel data: what `.value` and the events carry.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self, readouts_only: bool) -> Result<String, JsError> {
        Ok(frame_json(self.frame()?, readouts_only).to_string())
    }

    // ---- the charts ----

    /// Draws panel `name` (a key of `panels()`'s record) on `canvas`, at `scale` device pixels
    /// per CSS pixel, in the widget's colours; nothing when it has nothing to draw yet.
    pub fn draw(
        &self,
        name: &str,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let theme = theme(scale, dark, colours);
        match name {
            "compare" => self.draw_compare(canvas, &theme),
            "sweep" => self.draw_sweep(canvas, &theme),
            "knockout" => self.draw_knockout(canvas, &theme),
            "depth-width" => self.draw_depth_width(canvas, &theme),
            "histogram" => self.draw_histogram(canvas, &theme),
            "loss" => self.draw_loss(canvas, &theme),
            "depth" => self.draw_depth(canvas, &theme),
            "readout" => self.draw_readout(canvas, &theme),
            "attention" => self.draw_attention(canvas, &theme),
            _ => Err(JsError::new(&format!("no panel named {name:?}"))),
        }
    }
}

impl View {
    fn draw_compare(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let Some(c) = &self.shown.compare else { return Ok(()) };
        draw_on(canvas, |area| {
            draw_compare(area, c.rows.iter().map(|r| (&r.run, r.failed.is_some())), c.steps, theme)
        })
    }

    fn draw_sweep(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let Some(s) = &self.shown.sweep else { return Ok(()) };
        draw_on(canvas, |area| draw_sweep(area, &s.depths, &s.series, s.steps, theme))
    }

    fn draw_depth_width(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let Some(d) = &self.shown.depth_width else { return Ok(()) };
        draw_on(canvas, |area| draw_depth_width(area, d.rows.iter().map(|(_, r)| r), d.steps, theme))
    }

    fn draw_knockout(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let Some(k) = self.shown.knockout.as_ref().filter(|k| k.done) else { return Ok(()) };
        let k = &k.result;
        draw_on(canvas, |area| charts::knockout::draw(area, k.intact_loss, &k.loss, &k.output_change, theme))
    }

    fn draw_histogram(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let f = self.frame()?;
        draw_on(canvas, |area| {
            charts::histogram::draw(
                area,
                &f.histogram,
                &words::histogram_subject(&f.config),
                f.act_std(),
                &words::shown_state(f),
                theme,
            )
        })
    }

    fn draw_loss(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let f = self.frame()?;
        let pins = self.pinned();
        let (loss, floors) = held_out_parts(&f.evals, f.floors);
        let held_out = HeldOut { loss: &loss, floors: &floors };
        draw_on(canvas, |area| charts::loss::draw(area, &f.history, f.diverged_at, &pins, &held_out, theme))
    }

    fn draw_depth(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let f = self.frame()?;
        let curves = DepthCurves {
            grad_init: &f.init.grad_norm,
            grad_now: &f.now.grad_norm,
            std_init: &f.init.act_std,
            std_now: &f.now.act_std,
            pins: &self.pinned(),
        };
        let notes = words::shown_state(f);
        draw_on(canvas, |area| charts::depth::draw(area, &curves, &notes, theme))
    }

    fn draw_readout(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let f = self.frame()?;
        let floors = readout_floors(f.floors);
        let pins: Vec<(String, &[f64])> = self
            .pinned()
            .into_iter()
            .zip(self.shown.pins.iter().filter_map(|p| p.frame.as_ref()))
            .map(|(p, frame)| (p.label, frame.now.readout_loss.as_slice()))
            .collect();
        let curves = readout_curves(&f.init, &f.now, &floors, &pins);
        let notes = readout_notes(f.evals.last(), f.step);
        draw_on(canvas, |area| charts::readout::draw(area, &curves, &notes, theme))
    }

    fn draw_attention(&self, canvas: HtmlCanvasElement, theme: &Theme) -> Result<(), JsError> {
        let Some(maps) = self.frame()?.attention.as_ref() else { return Ok(()) };
        draw_on(canvas, |area| {
            charts::attention::draw(area, maps, &attention_title(maps), &head_titles(maps), true, theme)
        })
    }
}
