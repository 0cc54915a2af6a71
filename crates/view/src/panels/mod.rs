//! One module per panel of the live run. Each holds its words (the summary, what else the page
//! writes beside the chart) and one `draw`, generic over plotters' `DrawingBackend`, that
//! gathers its chart's inputs from the `Scene`: the page draws a panel on its canvas
//! (`web::view`), the CLI every ready panel as SVG (`comparisons::page`), through the same code.
//! The comparisons' panels are their modules' (`comparisons/`); `comparisons::page` lists both
//! and writes the page's record of every panel. `spread.rs` holds the words every comparison
//! uses for an arm over seeds and rates.

pub mod attention;
pub mod depth;
pub mod histogram;
pub mod loss;
pub mod readout;
pub mod spread;
pub mod writes;

use crate::charts::{ChartResult, Pinned, Theme};
use crate::json::Json;
use crate::words;
use ablation_core::config::Config;
use ablation_training::live::frame::Frame;
use ablation_training::measures::tuned_lens::TunedLensState;
use ablation_training::runs::pinned::PinState;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What every live panel is drawn and told from: the live run's frame (none before the first),
/// the pins beside it and the tuned lens of its stack.
#[derive(Clone, Copy)]
pub struct Scene<'a> {
    pub frame: Option<&'a Frame>,
    pub pins: &'a [PinState],
    pub tuned_lens: Option<&'a TunedLensState>,
}

impl<'a> Scene<'a> {
    /// The live run's settings (the defaults before the first frame): what pins are told against.
    pub fn live_config(&self) -> Config {
        self.frame.map(|f| f.config.clone()).unwrap_or_default()
    }

    /// The pins that have something to draw, labelled against the live run, each with its frame.
    pub fn pinned(&self) -> Vec<(Pinned<'a>, &'a Frame)> {
        let live = self.live_config();
        self.pins
            .iter()
            .filter_map(|p| {
                let f = p.frame.as_ref()?; // a pin waiting for its turn has nothing to draw
                let label = words::pin_label(&p.config, &live);
                let band = pin_band(p);
                Some((
                    Pinned { label, history: &f.history, grad: &f.now.grad_norm, std: &f.now.act_std, band },
                    f,
                ))
            })
            .collect()
    }

    pub fn pins(&self) -> &'a [PinState] {
        self.pins
    }
}

/// A pin's seeds as a band: at each bucket of the first seed's loss, the lowest and highest
/// smoothed loss of the seeds that have reached it (none for one seed).
fn pin_band(p: &PinState) -> Vec<(usize, f64, f64)> {
    let frames: Vec<&Frame> = p.seeds.iter().filter_map(|(_, f)| f.as_ref()).collect();
    if p.seeds.len() < 2 || frames.len() < 2 {
        return Vec::new();
    }
    let buckets: Vec<Vec<f64>> =
        frames.iter().map(|f| f.history.buckets().iter().map(|b| b.smooth).collect()).collect();
    let first = frames[0].history.buckets();
    (0..buckets.iter().map(Vec::len).min().unwrap_or(0))
        .map(|i| {
            let s = ablation_training::runs::spread::Spread::of(
                &buckets.iter().map(|b| b[i]).collect::<Vec<_>>(),
            );
            (first[i].start + first[i].count - 1, s.min, s.max)
        })
        .filter(|b| b.1.is_finite())
        .collect()
}

/// A backend's way with heat maps: one bitmap on a canvas (fast), rectangles in SVG (which
/// keeps vectors).
/// A backend the panels draw on (the page's canvas, an SVG document).
pub trait Surface: DrawingBackend {}

impl Surface for SVGBackend<'_> {}

/// A table as the page writes it: its columns' names, then its rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(columns: Vec<String>) -> Table {
        Table { columns, rows: Vec::new() }
    }

    /// `[[column, …], [cell, …], …]`, the header first (`[]` for no table).
    pub fn json(&self) -> Json {
        let row = |r: &[String]| Json::Arr(r.iter().map(|c| Json::Str(c.clone())).collect());
        if self.columns.is_empty() {
            return Json::Arr(vec![]);
        }
        Json::Arr(std::iter::once(row(&self.columns)).chain(self.rows.iter().map(|r| row(r))).collect())
    }
}

/// The panels, in the page's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Histogram,
    Loss,
    Depth,
    Readout,
    Attention,
}

/// A chart's size in an SVG figure.
pub const SIZE: (u32, u32) = (640, 480);

impl Panel {
    pub const ALL: [Panel; 5] =
        [Panel::Histogram, Panel::Loss, Panel::Depth, Panel::Readout, Panel::Attention];

    /// Its name: the `data-panel` of its `<figure>`, its key in the record, its SVG's file name.
    pub fn name(self) -> &'static str {
        match self {
            Panel::Histogram => "histogram",
            Panel::Loss => "loss",
            Panel::Depth => "depth",
            Panel::Readout => "readout",
            Panel::Attention => "attention",
        }
    }

    /// Its name in the page's menus (the Download menu).
    pub fn label(self) -> &'static str {
        match self {
            Panel::Histogram => "Histogram",
            Panel::Loss => "Training loss",
            Panel::Depth => "Per layer",
            Panel::Readout => "Read out at every depth",
            Panel::Attention => "Attention",
        }
    }

    pub fn named(name: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its size as an SVG figure: the attention's heads side by side.
    pub fn size(self) -> (u32, u32) {
        match self {
            Panel::Attention => attention::SIZE,
            _ => SIZE,
        }
    }

    /// It has something to draw.
    pub fn ready(self, scene: &Scene) -> bool {
        match self {
            Panel::Histogram | Panel::Loss | Panel::Depth => scene.frame.is_some(),
            Panel::Readout => readout::ready(scene),
            Panel::Attention => attention::ready(scene),
        }
    }

    /// Its summary (the chart's text alternative) and what else the page writes beside it.
    pub fn words(self, scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
        match self {
            Panel::Histogram => (histogram::summary(scene), vec![]),
            Panel::Loss => (loss::summary(scene), vec![]),
            Panel::Depth => (depth::summary(scene), vec![]),
            Panel::Readout => (readout::summary(scene), vec![]),
            Panel::Attention => attention::words(scene),
        }
    }

    /// Draws it on `area`; nothing when it has nothing to draw yet.
    pub fn draw<DB: Surface>(
        self,
        scene: &Scene,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
    ) -> ChartResult {
        if !self.ready(scene) {
            return Ok(());
        }
        match self {
            Panel::Histogram => histogram::draw(scene, area, theme),
            Panel::Loss => loss::draw(scene, area, theme),
            Panel::Depth => depth::draw(scene, area, theme),
            Panel::Readout => readout::draw(scene, area, theme),
            Panel::Attention => attention::draw(scene, area, theme),
        }
    }
}

/// A live panel's summary, and the pins' numbers after it ("Pinned runs: …").
pub fn with_pins(
    scene: &Scene,
    summary: fn(&Frame) -> String,
    pinned: fn(&[PinState], &Config) -> String,
) -> String {
    match scene.frame {
        None => String::new(),
        Some(f) if scene.pins().is_empty() => summary(f),
        Some(f) => format!("{} Pinned runs: {}.", summary(f), pinned(scene.pins(), &f.config)),
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => {
            ablation_words::say!(
                "list-and",
                rest = rest.join(&ablation_words::say!("list-comma")),
                last = last.as_str()
            )
        }
    }
}

/// A ratio as words: "10×" from 10 up, "2.5×" below.
pub fn times(r: f64) -> String {
    let number = if r >= 10.0 { format!("{r:.0}") } else { format!("{r:.1}") };
    ablation_words::current().number(&number) + "×"
}

/// "71%", "4.2%", "0.31%", "∞%", in the thread's language ("4,2 %" in Spanish).
pub fn percent(ratio: f64) -> String {
    let p = 100.0 * ratio;
    let number = if p.is_finite() && p.abs() >= 10.0 {
        format!("{p:.0}")
    } else if p.is_finite() && p.abs() >= 1.0 {
        format!("{p:.1}")
    } else {
        crate::charts::short(p)
    };
    ablation_words::say!("percent", value = ablation_words::current().number(&number))
}
