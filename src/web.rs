//! The one file that knows about the browser: a thin wasm-bindgen handle over the core.
//! JavaScript holds an opaque `Playground`, calls small methods and reads numbers and words
//! back; it does no maths of its own. Charts are drawn here, straight onto the page's canvases.

use crate::model::stats::{histogram, Histogram, Range};
use crate::training::initial_layers::InitialLayers;
use crate::training::report::{Snapshot, HISTOGRAM_BINS, HISTOGRAM_RANGE};
use crate::view::charts::{self, depth::DepthCurves, Theme};
use crate::view::json::Json;
use crate::view::json::{config_json, histogram_json};
use crate::view::words::{self, Measured};
use crate::{Config, Trainer};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
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

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or_else(js_sys::Date::now, |p| p.now())
}

#[wasm_bindgen]
pub struct Playground {
    trainer: Trainer<f32>,
    /// The probe at initialisation, and now.
    init: Snapshot,
    now: Snapshot,
    /// The histogram's axis: fixed while the reader drags, until they rescale.
    range: (f64, f64),
    hist: Histogram,
    notices: Vec<String>,
    /// The stack's activations are the probe's (no training step since the last probe).
    probed: bool,
    /// Initial layers kept across depth changes.
    initial: InitialLayers<f32>,
}

impl Playground {
    /// A fresh start from the seed, drawing layers from `initial` where it has them.
    fn build(
        config: Config,
        range: (f64, f64),
        notices: Vec<String>,
        mut initial: InitialLayers<f32>,
    ) -> Playground {
        let mut trainer = Trainer::with_stack(&config, initial.stack(&config));
        let init = Snapshot::take(&mut trainer);
        let hist = axis_histogram(&trainer, range);
        Playground { trainer, now: init.clone(), init, range, hist, notices, probed: true, initial }
    }

    /// Restarts training from the seed with `config`, keeping the axis, notices and initial layers.
    fn restart(&mut self, config: Config) {
        let (notices, initial) = (std::mem::take(&mut self.notices), std::mem::take(&mut self.initial));
        *self = Playground::build(config, self.range, notices, initial);
    }

    fn measured(&self) -> Measured<'_> {
        Measured {
            config: &self.trainer.config,
            losses: &self.trainer.losses,
            diverged_at: self.trainer.diverged_at,
            init: &self.init,
            now: &self.now,
        }
    }

    fn theme(scale: f64, dark: bool) -> Theme {
        let scale = if scale.is_finite() { scale.clamp(0.5, 4.0) } else { 1.0 };
        if dark {
            Theme::dark(scale)
        } else {
            Theme::light(scale)
        }
    }
}

/// The final activations (the probe's, after `measure`) on the reader's fixed axis.
fn axis_histogram(trainer: &Trainer<f32>, (lo, hi): (f64, f64)) -> Histogram {
    histogram(trainer.stack.output().as_slice(), HISTOGRAM_BINS, Range::Fixed(lo, hi))
}

type Area = DrawingArea<CanvasBackend, plotters::coord::Shift>;

fn draw_on(
    canvas: HtmlCanvasElement,
    draw: impl FnOnce(&Area) -> charts::ChartResult,
) -> Result<(), JsError> {
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D canvas context"))?;
    draw(&backend.into_drawing_area()).map_err(|e| JsError::new(&e))
}

#[wasm_bindgen]
impl Playground {
    /// A playground for the configuration in a URL query. Invalid or unknown parameters fall
    /// back to the nearest valid value or the default; `takeNotices` says which.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> Playground {
        let pairs = query_pairs(query);
        let mut config = Config::default();
        let notices = config.apply_leniently(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let (lo, hi) = match HISTOGRAM_RANGE {
            Range::Fixed(lo, hi) => (lo, hi),
            Range::Auto => (-4.0, 4.0),
        };
        Playground::build(config, (lo, hi), notices, InitialLayers::default())
    }

    /// Sets one parameter (by its URL name) and restarts training from the seed.
    /// A bad value is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), JsError> {
        let mut config = self.trainer.config.clone();
        config.set(name, value).map_err(|e| JsError::new(&e.to_string()))?;
        if config != self.trainer.config {
            self.restart(config);
        }
        Ok(())
    }

    /// Like `set`, but an invalid value falls back to the nearest valid one with a notice.
    #[wasm_bindgen(js_name = setLeniently)]
    pub fn set_leniently(&mut self, name: &str, value: &str) {
        let mut config = self.trainer.config.clone();
        let notices = config.apply_leniently([(name, value)]);
        self.notices.extend(notices);
        if config != self.trainer.config {
            self.restart(config);
        }
    }

    /// A parameter's current value as text.
    pub fn get(&self, name: &str) -> Option<String> {
        self.trainer.config.get(name)
    }

    /// Every parameter as a URL query, in table order.
    pub fn query(&self) -> String {
        self.trainer.config.to_query()
    }

    /// Notices about parameters that were replaced or ignored, since the last call.
    #[wasm_bindgen(js_name = takeNotices)]
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Restarts training from the seed.
    pub fn reset(&mut self) {
        self.restart(self.trainer.config.clone());
    }

    /// Trains until `budget_ms` has passed or `max_steps` steps are done (at least one step,
    /// unless diverged). Returns the number of steps taken.
    pub fn train(&mut self, budget_ms: f64, max_steps: u32) -> u32 {
        let start = now_ms();
        let mut steps = 0;
        while steps < max_steps && self.trainer.diverged_at.is_none() {
            self.trainer.one_step(true);
            self.probed = false;
            steps += 1;
            if now_ms() - start >= budget_ms {
                break;
            }
        }
        steps
    }

    /// Measures the probe batch with the current weights: activations, gradients, histogram.
    pub fn measure(&mut self) {
        if self.trainer.diverged_at.is_none() && !self.probed {
            self.now = Snapshot::take(&mut self.trainer);
            self.probed = true;
        }
        self.hist = axis_histogram(&self.trainer, self.range);
    }

    /// Fits the histogram's axis to the current activations; it then stays fixed again.
    pub fn rescale(&mut self) {
        let auto = histogram(self.trainer.stack.output().as_slice(), HISTOGRAM_BINS, Range::Auto);
        let half = auto.lo.abs().max(auto.hi.abs()).max(1e-6);
        self.range = (-half, half);
        self.measure();
    }

    /// Back to the default axis.
    #[wasm_bindgen(js_name = resetScale)]
    pub fn reset_scale(&mut self) {
        if let Range::Fixed(lo, hi) = HISTOGRAM_RANGE {
            self.range = (lo, hi);
        }
        self.measure();
    }

    /// Training steps taken (updates applied).
    #[wasm_bindgen(getter)]
    pub fn step(&self) -> u32 {
        self.trainer.step as u32
    }

    /// The latest training loss (the probe's loss before the first step).
    #[wasm_bindgen(getter)]
    pub fn loss(&self) -> f64 {
        self.measured().loss()
    }

    /// std of the final activations on the probe batch.
    #[wasm_bindgen(getter, js_name = actStd)]
    pub fn act_std(&self) -> f64 {
        self.measured().act_std()
    }

    #[wasm_bindgen(getter, js_name = divergedAt)]
    pub fn diverged_at(&self) -> Option<u32> {
        self.trainer.diverged_at.map(|s| s as u32)
    }

    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        words::status_line(&self.measured())
    }

    #[wasm_bindgen(getter)]
    pub fn caption(&self) -> String {
        words::caption(&self.measured())
    }

    #[wasm_bindgen(getter, js_name = histogramSummary)]
    pub fn histogram_summary(&self) -> String {
        words::histogram_summary(&self.hist, self.act_std())
    }

    #[wasm_bindgen(getter, js_name = lossSummary)]
    pub fn loss_summary(&self) -> String {
        words::loss_summary(&self.trainer.losses, self.trainer.diverged_at)
    }

    #[wasm_bindgen(getter, js_name = depthSummary)]
    pub fn depth_summary(&self) -> String {
        words::depth_summary(&self.init, &self.now)
    }

    /// The training losses so far (one copy).
    #[wasm_bindgen(getter)]
    pub fn losses(&self) -> Vec<f64> {
        self.trainer.losses.clone()
    }

    /// Configuration, readouts and panel data as JSON, for scripts and tests.
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self) -> String {
        Json::Obj(vec![
            ("config", config_json(&self.trainer.config)),
            ("step", Json::Int(self.trainer.step as i128)),
            ("loss", Json::Num(self.loss())),
            ("act_std", Json::Num(self.act_std())),
            ("diverged_at", self.trainer.diverged_at.map_or(Json::Null, |s| Json::Int(s as i128))),
            ("losses", Json::nums(&self.trainer.losses)),
            ("init", self.init.json()),
            ("now", self.now.json()),
            ("histogram", histogram_json(&self.hist)),
        ])
        .to_string()
    }

    #[wasm_bindgen(js_name = drawHistogram)]
    pub fn draw_histogram(&self, canvas: HtmlCanvasElement, scale: f64, dark: bool) -> Result<(), JsError> {
        let theme = Self::theme(scale, dark);
        draw_on(canvas, |area| charts::histogram::draw(area, &self.hist, self.act_std(), &theme))
    }

    #[wasm_bindgen(js_name = drawLoss)]
    pub fn draw_loss(&self, canvas: HtmlCanvasElement, scale: f64, dark: bool) -> Result<(), JsError> {
        let theme = Self::theme(scale, dark);
        let t = &self.trainer;
        draw_on(canvas, |area| charts::loss::draw(area, &t.losses, t.diverged_at, &theme))
    }

    #[wasm_bindgen(js_name = drawDepth)]
    pub fn draw_depth(&self, canvas: HtmlCanvasElement, scale: f64, dark: bool) -> Result<(), JsError> {
        let theme = Self::theme(scale, dark);
        let curves = DepthCurves {
            grad_init: &self.init.grad_norm,
            grad_now: &self.now.grad_norm,
            std_init: &self.init.act_std,
            std_now: &self.now.act_std,
        };
        draw_on(canvas, |area| charts::depth::draw(area, &curves, &theme))
    }
}
