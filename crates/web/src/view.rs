//! On the page's thread: the latest frame of the live run and the comparisons (their jobs for
//! the pool, and the reports that come back). It draws the charts and gives the words, all
//! from that one frame and the comparisons' state.

use super::canvas::{draw_on, theme};
use super::js_error;
use super::settings::SettingsHandle;
use super::words::Spoken;
use ablation_comparisons::page::{panels_json, AnyPanel, Page};
use ablation_comparisons::{comparisons_json, knockout, value_json, ComparisonKind};
use ablation_comparisons::{Comparisons, ComparisonsState};
use ablation_training::live::frame::Frame;
use ablation_training::runs::job::Job;
use ablation_view::json_frame::frame_json;
use ablation_view::words;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

#[wasm_bindgen]
#[derive(Default)]
pub struct View {
    frame: Option<Frame>,
    comparisons: Comparisons,
    /// The comparisons' state, made again after each change of the comparisons.
    shown: ComparisonsState,
    /// The language its words are in, set by `setWords`.
    language: Spoken,
}

impl View {
    fn frame(&self) -> Result<&Frame, JsError> {
        self.frame.as_ref().ok_or_else(|| JsError::new("no frame yet"))
    }

    fn text(&self, words: fn(&Frame) -> String) -> String {
        self.worded(|| self.frame.as_ref().map_or_else(String::new, words))
    }

    /// `f` in the view's language: what the reader sees and hears (the JSON of `.value`, the
    /// reports and the downloads' data stay in English and one number format).
    fn worded<R>(&self, f: impl FnOnce() -> R) -> R {
        self.language.worded(f)
    }

    /// What the panels are drawn and told from.
    fn page(&self) -> Page<'_> {
        Page { frame: self.frame.as_ref(), shown: &self.shown }
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

    /// Words what it says in `words`' language (a widget's `Words`, shared).
    #[wasm_bindgen(js_name = setWords)]
    pub fn set_words(&mut self, words: &super::Words) {
        self.language.set(words);
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
    pub fn set_pins(&mut self, settings: &SettingsHandle) {
        self.comparisons.set_pins(&settings.inner.pins);
        self.comparisons_changed();
    }

    /// Starts the comparison of panel `name` (`schema.js`'s `COMPARISONS`, one the pool runs)
    /// at the settings' configuration, replacing one under way.
    #[wasm_bindgen(js_name = startComparison)]
    pub fn start_comparison(&mut self, name: &str, settings: &SettingsHandle) -> Result<(), JsError> {
        let kind = ComparisonKind::of_panel(name)
            .filter(|k| !k.spec().from_live_stack)
            .ok_or_else(|| JsError::new(&format!("no comparison of the pool's named {name:?}")))?;
        kind.start(&mut self.comparisons, &settings.inner.config);
        self.comparisons_changed();
        Ok(())
    }

    /// Starts the knockout of the live run from its worker's `Session.knockoutJob()`.
    #[wasm_bindgen(js_name = startKnockout)]
    pub fn start_knockout(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let (_, job) = Job::decode(bytes).map_err(js_error)?;
        knockout::start_from_stack(&mut self.comparisons, job);
        self.comparisons_changed();
        Ok(())
    }

    /// Starts fitting a tuned lens to the live run's stack, from its worker's
    /// `Session.knockoutJob()` (the same stack a knockout measures). A regression's stack has
    /// no next-token distribution to match: an error, in words.
    #[wasm_bindgen(js_name = startTunedLens)]
    pub fn start_tuned_lens(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let (_, job) = Job::decode(bytes).map_err(js_error)?;
        if job.config().task == ablation_core::config::TaskKind::Teacher {
            return Err(JsError::new(
                "the tuned lens reads a sequence task's next-token predictions; the regression has none",
            ));
        }
        self.comparisons.start_tuned_lens(job);
        self.comparisons_changed();
        Ok(())
    }

    /// Forgets the knockout and the tuned lens of a live run that has been restarted.
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
        let (id, done, report) = ablation_training::runs::job::Report::decode(bytes).map_err(js_error)?;
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
        comparisons_json(&self.shown, &self.page().scene().live_config()).to_string()
    }

    /// What `.value` and the element's events carry, as one JSON text: the settings, the
    /// readouts of the frame on screen and the comparisons.
    #[wasm_bindgen(js_name = valueJson)]
    pub fn value_json(&self, settings: &SettingsHandle) -> String {
        value_json(&settings.inner, self.frame.as_ref(), &self.shown).to_string()
    }

    /// Every panel's words as one named record (JSON): `{ status, caption, panels: { name:
    /// { shows, ready, summary, … } }, pins: [label, …], writes: { heading, parts, pins,
    /// compare } }` (`view::panels`).
    pub fn panels(&self) -> String {
        self.worded(|| panels_json(&self.page()).to_string())
    }

    /// The frame as JSON (configuration, readouts, panel data, the bounded loss history), for
    /// scripts and tests. `readouts` leaves out the panel data: what `.value` and the events carry.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self, readouts_only: bool) -> Result<String, JsError> {
        Ok(frame_json(self.frame()?, readouts_only).to_string())
    }

    // ---- the downloads ----

    /// Panel `name` as an SVG document, drawn by the code `ablate --svg` draws with, in the
    /// light or dark theme; an error if it has nothing to draw yet.
    pub fn svg(&self, name: &str, dark: bool) -> Result<String, JsError> {
        let panel = AnyPanel::named(name).ok_or_else(|| JsError::new(&format!("no panel named {name:?}")))?;
        let page = self.page();
        if !panel.ready(&page) {
            return Err(JsError::new(
                &self.worded(|| ablation_words::say!("download-not-ready", chart = name)),
            ));
        }
        let theme = if dark {
            ablation_view::charts::Theme::dark(1.0)
        } else {
            ablation_view::charts::Theme::light(1.0)
        };
        self.worded(|| super::canvas::draw_svg(panel.size(), |area| panel.draw(&page, area, &theme)))
    }

    /// The live run's loss history as CSV (`view::json::loss_csv`); empty before a frame.
    #[wasm_bindgen(js_name = lossCsv)]
    pub fn loss_csv(&self) -> String {
        self.frame.as_ref().map_or_else(String::new, |f| ablation_view::json::loss_csv(&f.history))
    }

    /// What the model wrote last, as `[prompt, continuation, characters outside the
    /// vocabulary]`: undefined before it wrote (and on the regression).
    pub fn written(&self) -> Option<Vec<String>> {
        let w = self.frame.as_ref()?.writing.as_ref()?;
        let prompt: String = w.text.chars().take(w.given).collect();
        let continuation: String = w.text.chars().skip(w.given).collect();
        Some(vec![prompt, continuation, w.outside.iter().collect()])
    }

    // ---- the charts ----

    /// Draws panel `name` (a key of `panels()`'s record) on `canvas`, at `scale` device pixels
    /// per CSS pixel, in the widget's colours (`[slot, CSS colour]` pairs, `Theme::with_css_colours`);
    /// nothing when it has nothing to draw yet.
    pub fn draw(
        &self,
        name: &str,
        canvas: HtmlCanvasElement,
        scale: f64,
        dark: bool,
        colours: js_sys::Array,
    ) -> Result<(), JsError> {
        let panel = AnyPanel::named(name).ok_or_else(|| JsError::new(&format!("no panel named {name:?}")))?;
        let theme = theme(scale, dark, &colour_pairs(&colours));
        self.worded(|| draw_on(canvas, |area| panel.draw(&self.page(), area, &theme)))
    }
}

thread_local! {
    /// A small run's first frame, for `View::warm_up`.
    static SAMPLE: View = {
        let config = ablation_core::config::Config { depth: 2, width: 8, tokens: 8, ..ablation_core::config::Config::default() };
        View { frame: Some(ablation_training::live::session::Session::new(&config).frame()), ..View::default() }
    };
}

#[wasm_bindgen]
impl View {
    /// Draws panel `name` once on `canvas` from a small run's first frame, and throws it away.
    /// V8 compiles WebAssembly lazily, function by function: a panel's first drawing spent
    /// 80–130 ms compiling (BENCHMARKS.md), so the element warms each panel at idle
    /// time, one a task, before a widget comes into view.
    #[wasm_bindgen(js_name = warmUp)]
    pub fn warm_up(name: &str, canvas: HtmlCanvasElement) -> Result<(), JsError> {
        SAMPLE.with(|view| view.draw(name, canvas, 1.0, false, js_sys::Array::new()))
    }
}

/// `[[slot, colour], …]` from the page, as text pairs (anything else is left out).
fn colour_pairs(colours: &js_sys::Array) -> Vec<(String, String)> {
    colours
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}
