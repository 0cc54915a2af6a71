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
use crate::view::charts::{self, depth::DepthCurves, Pinned};
use crate::view::figures::{draw_compare, draw_sweep, held_out_parts};
use crate::view::json::{comparisons_json, frame_json, value_json};
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

    fn with_pins(
        &self,
        summary: String,
        pins: fn(&[crate::training::comparisons::PinState], &Config) -> String,
    ) -> String {
        match &self.frame {
            Some(f) if !self.shown.pins.is_empty() => {
                format!("{summary} Pinned runs: {}.", pins(&self.shown.pins, &f.config))
            }
            _ => summary,
        }
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

    /// The pins' labels, against the live run ("pinned: Residual OFF · step 500").
    #[wasm_bindgen(js_name = pinLabels)]
    pub fn pin_labels(&self) -> Vec<String> {
        let live = self.live_config();
        self.shown.pins.iter().map(|p| words::pin_label(&p.pin.config, &live)).collect()
    }

    #[wasm_bindgen(getter, js_name = hasCompare)]
    pub fn has_compare(&self) -> bool {
        self.shown.compare.is_some()
    }

    #[wasm_bindgen(getter, js_name = hasSweep)]
    pub fn has_sweep(&self) -> bool {
        self.shown.sweep.is_some()
    }

    /// A finished knockout is there to draw.
    #[wasm_bindgen(getter, js_name = hasKnockout)]
    pub fn has_knockout(&self) -> bool {
        self.shown.knockout.as_ref().is_some_and(|k| k.done)
    }

    /// All four as a table, row by row (the first is the header), 5 cells each, flattened.
    #[wasm_bindgen(js_name = compareTable)]
    pub fn compare_table(&self) -> Vec<String> {
        self.shown
            .compare
            .as_ref()
            .map_or_else(Vec::new, |c| words::compare_table(c).into_iter().flatten().collect())
    }

    /// The depth sweep as a table, row by row (the first is the header), 5 cells each, flattened.
    #[wasm_bindgen(js_name = sweepTable)]
    pub fn sweep_table(&self) -> Vec<String> {
        self.shown
            .sweep
            .as_ref()
            .map_or_else(Vec::new, |s| words::sweep_table(s).into_iter().flatten().collect())
    }

    /// The knockout as a table, row by row (the first is the header), 3 cells each, flattened.
    #[wasm_bindgen(js_name = knockoutTable)]
    pub fn knockout_table(&self) -> Vec<String> {
        words::knockout_table(self.shown.knockout.as_ref().filter(|k| k.done)).into_iter().flatten().collect()
    }

    #[wasm_bindgen(getter, js_name = compareSummary)]
    pub fn compare_summary(&self) -> String {
        self.shown.compare.as_ref().map_or_else(|| "Not run yet.".into(), words::compare_summary)
    }

    #[wasm_bindgen(getter, js_name = sweepSummary)]
    pub fn sweep_summary(&self) -> String {
        self.shown.sweep.as_ref().map_or_else(|| "Not run yet.".into(), words::sweep_summary)
    }

    #[wasm_bindgen(getter, js_name = knockoutSummary)]
    pub fn knockout_summary(&self) -> String {
        words::knockout_summary(self.shown.knockout.as_ref())
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

    /// The heading of "The model writes" (empty on the teacher task, which writes nothing).
    #[wasm_bindgen(getter, js_name = writingHeading)]
    pub fn writing_heading(&self) -> String {
        self.text(words::writing_heading)
    }

    /// What the model wrote, as pairs of strings: a part's kind (`given`, `wrote` or `wrong`)
    /// and its text, in order.
    #[wasm_bindgen(js_name = writingParts)]
    pub fn writing_parts(&self) -> Vec<String> {
        let Some(w) = self.frame.as_ref().and_then(|f| f.writing.as_ref()) else { return Vec::new() };
        words::writing_parts(w).into_iter().flat_map(|(kind, text)| [kind.to_string(), text]).collect()
    }

    /// What each pinned run wrote at its step, as pairs of strings: its label and its text.
    #[wasm_bindgen(js_name = pinWritings)]
    pub fn pin_writings(&self) -> Vec<String> {
        let live = self.live_config();
        words::pin_writings(&self.shown.pins, &live)
            .into_iter()
            .flat_map(|(label, text)| [label, text])
            .collect()
    }

    /// What each combination of All four writes once trained, as pairs of strings: its name
    /// and its text (none on the teacher task).
    #[wasm_bindgen(js_name = compareWritings)]
    pub fn compare_writings(&self) -> Vec<String> {
        let Some(c) = &self.shown.compare else { return Vec::new() };
        words::compare_writings(c).into_iter().flat_map(|(name, text)| [name, text]).collect()
    }

    /// Every sentence on screen, from the frame and the comparisons: the status line, the
    /// caption, then the summaries of the histogram, loss, per-layer, All four, sweep and
    /// knockout panels.
    pub fn texts(&self) -> Vec<String> {
        vec![
            self.status(),
            self.caption(),
            self.histogram_summary(),
            self.loss_summary(),
            self.depth_summary(),
            self.compare_summary(),
            self.sweep_summary(),
            self.knockout_summary(),
        ]
    }

    /// The frame as JSON (configuration, readouts, panel data, the bounded loss history), for
    /// scripts and tests. `readouts` leaves out the panel data: what `.value` and the events carry.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self, readouts_only: bool) -> Result<String, JsError> {
        Ok(frame_json(self.frame()?, readouts_only).to_string())
    }

    // ---- the charts ----

    #[wasm_bindgen(js_name = drawCompare)]
    pub fn draw_compare(
        &self,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: &str,
    ) -> Result<(), JsError> {
        let theme = theme(scale, dark, colours);
        let Some(c) = &self.shown.compare else { return Ok(()) };
        draw_on(canvas, |area| draw_compare(area, c.rows.iter().map(|r| &r.run), c.steps, &theme))
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
        let Some(s) = &self.shown.sweep else { return Ok(()) };
        draw_on(canvas, |area| draw_sweep(area, &s.depths, &s.series, s.steps, &theme))
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
        let Some(k) = self.shown.knockout.as_ref().filter(|k| k.done) else { return Ok(()) };
        let k = &k.result;
        draw_on(canvas, |area| charts::knockout::draw(area, k.intact_loss, &k.loss, &k.output_change, &theme))
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
                &words::shown_state(f),
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
        let (loss, floors) = held_out_parts(&f.evals, f.floors);
        let held_out = HeldOut { loss: &loss, floors: &floors };
        draw_on(canvas, |area| charts::loss::draw(area, &f.history, f.diverged_at, &pins, &held_out, &theme))
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
        let notes = words::shown_state(f);
        draw_on(canvas, |area| charts::depth::draw(area, &curves, &notes, &theme))
    }
}
