//! Every panel of the page, the live run's (`view::panels::Panel`) and the comparisons' (the
//! registry's `ComparisonKind`), by name and in the page's order: the page's record of them all
//! (`View.panels()`), its canvases (`web::view`) and the SVG figures (`ablate --svg`) draw and
//! tell each through the same code.

use super::{ComparisonKind, ComparisonsState};
use ablation_training::live::frame::Frame;
use ablation_view::charts::{ChartResult, Theme};
use ablation_view::json::Json;
use ablation_view::panels::{writes, Panel, Scene, Surface};
use ablation_view::words;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the panels are drawn and told from: the live run's frame (none before the first) and
/// the comparisons.
#[derive(Clone, Copy)]
pub struct Page<'a> {
    pub frame: Option<&'a Frame>,
    pub shown: &'a ComparisonsState,
}

impl<'a> Page<'a> {
    /// What the live panels read of it.
    pub fn scene(&self) -> Scene<'a> {
        Scene { frame: self.frame, pins: &self.shown.pins, tuned_lens: self.shown.tuned_lens.as_ref() }
    }
}

/// One panel of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPanel {
    Live(Panel),
    Comparison(ComparisonKind),
}

impl AnyPanel {
    /// Every panel, in the page's order: the live run's, then the comparisons'.
    pub fn all() -> impl Iterator<Item = AnyPanel> {
        Panel::ALL
            .into_iter()
            .map(AnyPanel::Live)
            .chain(ComparisonKind::ALL.iter().copied().map(AnyPanel::Comparison))
    }

    pub fn named(name: &str) -> Option<AnyPanel> {
        Panel::named(name)
            .map(AnyPanel::Live)
            .or_else(|| ComparisonKind::of_panel(name).map(AnyPanel::Comparison))
    }

    /// Its name: the `data-panel` of its `<figure>`, its key in the record, its SVG's file name.
    pub fn name(self) -> &'static str {
        match self {
            AnyPanel::Live(p) => p.name(),
            AnyPanel::Comparison(k) => k.spec().panel,
        }
    }

    /// Its name in the page's menus.
    pub fn label(self) -> &'static str {
        match self {
            AnyPanel::Live(p) => p.label(),
            AnyPanel::Comparison(k) => k.spec().label,
        }
    }

    /// What it shows: the live run and its pins, or a comparison.
    pub fn shows(self) -> &'static str {
        match self {
            AnyPanel::Live(_) => "live",
            AnyPanel::Comparison(_) => "comparisons",
        }
    }

    /// Its size as an SVG figure.
    pub fn size(self) -> (u32, u32) {
        match self {
            AnyPanel::Live(p) => p.size(),
            AnyPanel::Comparison(k) => k.size(),
        }
    }

    /// It has something to draw.
    pub fn ready(self, page: &Page) -> bool {
        match self {
            AnyPanel::Live(p) => p.ready(&page.scene()),
            AnyPanel::Comparison(k) => k.ready(page.shown),
        }
    }

    /// Its record: what it shows, whether it is ready, its summary and the rest of its words.
    pub fn record(self, page: &Page) -> Json {
        let (summary, extra) = match self {
            AnyPanel::Live(p) => p.words(&page.scene()),
            AnyPanel::Comparison(k) => k.words(page.shown, &page.scene()),
        };
        let mut fields = vec![
            ("shows", Json::Str(self.shows().into())),
            ("ready", Json::Bool(self.ready(page))),
            ("summary", Json::Str(summary)),
        ];
        fields.extend(extra);
        Json::Obj(fields)
    }

    /// Draws it on `area`; nothing when it has nothing to draw yet.
    pub fn draw<DB: Surface>(self, page: &Page, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
        match self {
            AnyPanel::Live(p) => p.draw(&page.scene(), area, theme),
            AnyPanel::Comparison(k) => k.draw(page.shown, area, theme),
        }
    }
}

/// The record of every panel, from the frame on screen and the comparisons: each panel's
/// words, the status line and caption, the pins' labels and what the stacks write.
pub fn panels_json(page: &Page) -> Json {
    let text = |f: fn(&Frame) -> String| page.frame.map_or_else(String::new, f);
    let scene = page.scene();
    let live = scene.live_config();
    let comparisons_wrote: Vec<(&'static str, Vec<(String, String)>)> =
        ComparisonKind::ALL.iter().map(|k| (k.spec().field, k.writings(page.shown))).collect();
    Json::Obj(vec![
        ("status", Json::Str(text(words::status_line))),
        ("caption", Json::Str(text(words::caption))),
        ("panels", Json::Obj(AnyPanel::all().map(|p| (p.name(), p.record(page))).collect())),
        ("pins", Json::Arr(writes::pin_labels(scene.pins(), &live).into_iter().map(Json::Str).collect())),
        ("writes", writes::json(&scene, &live, &comparisons_wrote)),
    ])
}

fn theme(dark: bool) -> Theme {
    if dark {
        Theme::dark(1.0)
    } else {
        Theme::light(1.0)
    }
}

/// One panel as an SVG document.
pub fn panel_svg(panel: AnyPanel, page: &Page, dark: bool) -> Result<String, String> {
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, panel.size()).into_drawing_area();
    panel.draw(page, &area, &theme(dark))?;
    drop(area);
    Ok(svg)
}

/// Every panel that has something to draw, as `(name, SVG document)` in the page's order.
pub fn svgs(
    frame: Option<&Frame>,
    shown: &ComparisonsState,
    dark: bool,
) -> Result<Vec<(&'static str, String)>, String> {
    let page = Page { frame, shown };
    AnyPanel::all().filter(|p| p.ready(&page)).map(|p| Ok((p.name(), panel_svg(p, &page, dark)?))).collect()
}
