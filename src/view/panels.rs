//! Every panel's words as one named record, for the page: `{ status, caption, panels: { name:
//! { shows, ready, summary, … } } }`. The page writes each panel from its record by name, so a
//! new panel is added here (and in the markup), with no order or column count on either side.

use crate::config::Config;
use crate::training::comparisons::{CompareState, ComparisonsState, PinState};
use crate::training::frame::Frame;
use crate::view::charts::short;
use crate::view::json::Json;
use crate::view::lens_words::{attention_summary, head_sentences, readout_summary};
use crate::view::shape_words::{depth_width_summary, depth_width_table};
use crate::view::words::{self, combination_name};

/// A table as rows of cells, the first its header.
fn table_json<R: AsRef<[String]>>(rows: &[R]) -> Json {
    Json::Arr(
        rows.iter().map(|r| Json::Arr(r.as_ref().iter().map(|c| Json::Str(c.clone())).collect())).collect(),
    )
}

/// One panel's record: what it shows (`live`: the live run and the pins; `comparisons`),
/// whether it has something to draw, its summary, and what else it names.
fn panel(shows: &str, ready: bool, summary: String, extra: Vec<(&'static str, Json)>) -> Json {
    let mut fields = vec![
        ("shows", Json::Str(shows.into())),
        ("ready", Json::Bool(ready)),
        ("summary", Json::Str(summary)),
    ];
    fields.extend(extra);
    Json::Obj(fields)
}

fn live_panel(ready: bool, summary: String, extra: Vec<(&'static str, Json)>) -> Json {
    panel("live", ready, summary, extra)
}

fn comparison_panel(ready: bool, summary: String, extra: Vec<(&'static str, Json)>) -> Json {
    panel("comparisons", ready, summary, extra)
}

fn with_pins(
    frame: Option<&Frame>,
    pins: &[PinState],
    summary: String,
    pinned: fn(&[PinState], &Config) -> String,
) -> String {
    match frame {
        Some(f) if !pins.is_empty() => format!("{summary} Pinned runs: {}.", pinned(pins, &f.config)),
        _ => summary,
    }
}

/// The readout of each combination of All four at a few depths (all when there are few):
/// a header, then one row per combination.
pub fn compare_readout_table(c: &CompareState) -> Vec<Vec<String>> {
    let depth = c.config.depth;
    let mut depths: Vec<usize> =
        if depth <= 4 { (0..=depth).collect() } else { (0..=4).map(|i| i * depth / 4).collect() };
    depths.dedup();
    let mut header = vec!["loss read out at depth".to_string()];
    header.extend(depths.iter().map(|d| format!("x_{d}")));
    let mut rows = vec![header];
    for row in &c.rows {
        let r = &row.run.readout_loss;
        let mut cells = vec![combination_name(row.run.config.residual, row.run.config.norm)];
        cells.extend(depths.iter().map(|&d| r.get(d).map_or_else(|| "…".to_string(), |&x| short(x))));
        rows.push(cells);
    }
    rows
}

/// Pairs of text as JSON: `[[a, b], …]`.
fn pairs_json(pairs: impl IntoIterator<Item = (String, String)>) -> Json {
    Json::Arr(pairs.into_iter().map(|(a, b)| Json::Arr(vec![Json::Str(a), Json::Str(b)])).collect())
}

/// The pins' labels against the live run ("pinned: Residual OFF · step 500"), a failed one's
/// with its reason.
fn pin_labels(pins: &[PinState], live: &Config) -> Vec<String> {
    let label = |p: &PinState| {
        let label = words::pin_label(&p.pin.config, live);
        match &p.failed {
            Some(why) => format!("{label} (failed: {why})"),
            None => label,
        }
    };
    pins.iter().map(label).collect()
}

/// "The model writes": its heading (empty on the teacher task), what the live run wrote as
/// `[kind, text]` parts (`given`, `wrote` or `wrong`), and what each pin and each combination
/// of All four wrote, as `[label, text]`.
fn writes_json(frame: Option<&Frame>, shown: &ComparisonsState, live: &Config) -> Json {
    let parts = frame
        .and_then(|f| f.writing.as_ref())
        .map_or_else(Vec::new, words::writing_parts)
        .into_iter()
        .map(|(kind, text)| (kind.to_string(), text));
    Json::Obj(vec![
        ("heading", Json::Str(frame.map_or_else(String::new, words::writing_heading))),
        ("parts", pairs_json(parts)),
        ("pins", pairs_json(words::pin_writings(&shown.pins, live))),
        ("compare", pairs_json(shown.compare.as_ref().map_or_else(Vec::new, words::compare_writings))),
    ])
}

/// The record of every panel, from the frame on screen and the comparisons: each panel's
/// words, the status line and caption, the pins' labels and what the stacks write.
pub fn panels_json(frame: Option<&Frame>, shown: &ComparisonsState) -> Json {
    let text = |f: fn(&Frame) -> String| frame.map_or_else(String::new, f);
    let pins = &shown.pins;
    let attention = frame.and_then(|f| f.attention.as_ref());
    let heads = attention.map_or_else(Vec::new, head_sentences);
    let live = [
        ("histogram", live_panel(frame.is_some(), text(words::histogram_summary), vec![])),
        (
            "loss",
            live_panel(
                frame.is_some(),
                with_pins(frame, pins, text(words::loss_summary), words::pins_loss_summary),
                vec![],
            ),
        ),
        (
            "depth",
            live_panel(
                frame.is_some(),
                with_pins(frame, pins, text(words::depth_summary), words::pins_depth_summary),
                vec![],
            ),
        ),
        (
            "readout",
            live_panel(frame.is_some_and(|f| !f.now.readout_loss.is_empty()), text(readout_summary), vec![]),
        ),
        (
            "attention",
            live_panel(
                attention.is_some(),
                text(attention_summary),
                vec![
                    ("heads", Json::Arr(heads.into_iter().map(Json::Str).collect())),
                    ("layer", attention.map_or(Json::Null, |a| Json::Int(a.layer as i128))),
                    (
                        "layers",
                        Json::Arr(attention.map_or_else(Vec::new, |a| {
                            a.layers.iter().map(|&l| Json::Int(l as i128)).collect()
                        })),
                    ),
                ],
            ),
        ),
    ];
    let compare = shown.compare.as_ref();
    let knockout = shown.knockout.as_ref().filter(|k| k.done);
    let comparisons = [
        (
            "compare",
            comparison_panel(
                compare.is_some(),
                compare.map_or_else(|| "Not run yet.".into(), words::compare_summary),
                vec![
                    ("table", table_json(&compare.map_or_else(Vec::new, words::compare_table))),
                    ("readout", table_json(&compare.map_or_else(Vec::new, compare_readout_table))),
                ],
            ),
        ),
        (
            "sweep",
            comparison_panel(
                shown.sweep.is_some(),
                shown.sweep.as_ref().map_or_else(|| "Not run yet.".into(), words::sweep_summary),
                vec![("table", table_json(&shown.sweep.as_ref().map_or_else(Vec::new, words::sweep_table)))],
            ),
        ),
        (
            "depth-width",
            comparison_panel(
                shown.depth_width.is_some(),
                shown.depth_width.as_ref().map_or_else(|| "Not run yet.".into(), depth_width_summary),
                vec![(
                    "table",
                    table_json(&shown.depth_width.as_ref().map_or_else(Vec::new, depth_width_table)),
                )],
            ),
        ),
        (
            "knockout",
            comparison_panel(
                knockout.is_some(),
                words::knockout_summary(shown.knockout.as_ref()),
                vec![("table", table_json(&words::knockout_table(knockout)))],
            ),
        ),
    ];
    let live_config = frame.map(|f| f.config.clone()).unwrap_or_default();
    Json::Obj(vec![
        ("status", Json::Str(text(words::status_line))),
        ("caption", Json::Str(text(words::caption))),
        ("panels", Json::Obj(live.into_iter().chain(comparisons).collect())),
        ("pins", Json::Arr(pin_labels(pins, &live_config).into_iter().map(Json::Str).collect())),
        ("writes", writes_json(frame, shown, &live_config)),
    ])
}
