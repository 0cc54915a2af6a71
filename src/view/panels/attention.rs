//! The attention maps: where each head of the chosen layer looks, on the probe's first
//! sequence, and the heads that copy or look up.

use super::{percent, Scene, Surface};
use crate::config::TaskKind;
use crate::model::lens::{AttentionMaps, Focus};
use crate::training::copy_task::CopyTask;
use crate::training::frame::Frame;
use crate::view::charts::attention::visible;
use crate::view::charts::{self, ChartResult, Theme};
use crate::view::json::Json;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Its SVG's size: four heads side by side.
pub const SIZE: (u32, u32) = (960, 300);

/// "9 positions back", "1 position back", "on its own position".
fn offset_words(offset: usize) -> String {
    match offset {
        0 => "on its own position".into(),
        1 => "1 position back".into(),
        k => format!("{k} positions back"),
    }
}

/// One sentence per head: "layer 2, head 3: 71% of its weight 9 positions back".
pub fn head_sentences(maps: &AttentionMaps) -> Vec<String> {
    (0..maps.heads)
        .map(|h| {
            let Focus { offset, share } = maps.focus(h);
            format!(
                "layer {}, head {}: {} of its weight {}",
                maps.layer,
                h + 1,
                percent(share),
                offset_words(offset)
            )
        })
        .collect()
}

/// Each heatmap's title: "head 3 · 71% at 9 back".
pub fn head_titles(maps: &AttentionMaps) -> Vec<String> {
    (0..maps.heads)
        .map(|h| {
            let Focus { offset, share } = maps.focus(h);
            format!("head {} · {} at {offset} back", h + 1, percent(share))
        })
        .collect()
}

/// The chart's title, longest first: "layer 2: where each position looks · “To be, or not”",
/// then without the sequence, then "layer 2".
pub fn attention_title(maps: &AttentionMaps) -> Vec<String> {
    let text: String = maps.tokens.iter().map(|&c| visible(c)).collect();
    let l = maps.layer;
    vec![
        format!("layer {l}: where each position looks · “{text}”"),
        format!("layer {l}: where each position looks"),
        format!("layer {l}"),
    ]
}

/// The head that copies on the copy task: the one putting the most weight `length` positions
/// back in the repeated half (where the symbol to write stands), if it is at least half.
fn copying_head(maps: &AttentionMaps, task: &CopyTask) -> Option<(usize, Focus)> {
    let length = task.length();
    (0..maps.heads)
        .map(|h| (h, maps.focus(h)))
        .filter(|(_, f)| f.offset == length && f.share >= 0.5)
        .max_by(|a, b| a.1.share.total_cmp(&b.1.share))
}

/// The panel's text: the layer, the sequence, then a sentence per head; on the copy task it
/// names the head that copies, or says none of this layer's does.
pub fn attention_summary(m: &Frame) -> String {
    let Some(maps) = &m.attention else {
        return if m.config.task == TaskKind::Teacher {
            "The attention maps belong to the sequence tasks (text, copy).".into()
        } else {
            "This stack has no attention sublayer: choose attention or block sublayers under More.".into()
        };
    };
    let mut out = format!(
        "Layer {} of the attention sublayers {} at step {}, on the held-out sequence “{}”: {}.",
        maps.layer,
        and_join(&maps.layers),
        m.step,
        maps.tokens.iter().map(|&c| visible(c)).collect::<String>(),
        head_sentences(maps).join("; ")
    );
    if m.config.task == TaskKind::Copy {
        let task = crate::training::task::copy_task(&m.config);
        out += &match copying_head(maps, &task) {
            Some((h, f)) => format!(
                " Head {} copies: in the repeated half it puts {} of its weight {}, where the symbol to write stands.",
                h + 1,
                percent(f.share),
                offset_words(task.length())
            ),
            None => format!(
                " No head of layer {} copies: none puts half its weight {} in the repeated half.",
                maps.layer,
                offset_words(task.length())
            ),
        };
    }
    if m.config.task == TaskKind::Induction {
        out += &induction_sentence(maps);
    }
    out
}

/// The share of head `h`'s weight, over the positions after the first that are not padding,
/// one position back: a previous-symbol head has most of it.
pub fn previous_share(maps: &AttentionMaps, h: usize) -> f64 {
    let (c, p) = (maps.size(), maps.head(h));
    let rows: Vec<usize> = (1..c).filter(|&q| maps.tokens[q] != '·').collect();
    rows.iter().map(|&q| f64::from(p[q * c + q - 1])).sum::<f64>() / rows.len().max(1) as f64
}

/// The share of head `h`'s weight, over the scored positions of an induction example, on the
/// position just after the current symbol's one earlier occurrence in the string (where the
/// symbol to write stands): a look-up head has most of it. None without such a position.
pub fn lookup_share(maps: &AttentionMaps, h: usize) -> Option<f64> {
    let (c, p) = (maps.size(), maps.head(h));
    let separator = maps.tokens.iter().position(|&t| t == '|')?;
    let shares: Vec<f64> = (separator + 1..c)
        .filter(|&q| maps.scored.get(q).copied().unwrap_or(false))
        .filter_map(|q| {
            let mut earlier = (0..separator).filter(|&j| maps.tokens[j] == maps.tokens[q]);
            match (earlier.next(), earlier.next()) {
                (Some(j), None) => Some(f64::from(p[q * c + j + 1])),
                _ => None,
            }
        })
        .collect();
    (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
}

/// On the induction task, the two steps where this layer's heads take them: the heads that look
/// one symbol back, and those that look just after the current symbol's earlier occurrence.
fn induction_sentence(maps: &AttentionMaps) -> String {
    let named = |share: &dyn Fn(usize) -> Option<f64>| -> Vec<String> {
        (0..maps.heads)
            .filter_map(|h| {
                share(h).filter(|s| *s >= 0.5).map(|s| format!("head {} ({})", h + 1, percent(s)))
            })
            .collect()
    };
    let previous = named(&|h| Some(previous_share(maps, h)));
    let lookup = named(&|h| lookup_share(maps, h));
    let mut out = String::new();
    if !previous.is_empty() {
        out += &format!(" Looking one symbol back, the first step: {}.", previous.join(", "));
    }
    if !lookup.is_empty() {
        out += &format!(
            " Looking just after the current symbol's earlier occurrence, where the symbol to write stands: {}.",
            lookup.join(", ")
        );
    }
    if out.is_empty() {
        out = format!(" No head of layer {} takes either step of the look-up yet.", maps.layer);
    }
    out
}

fn and_join(layers: &[usize]) -> String {
    let words: Vec<String> = layers.iter().map(usize::to_string).collect();
    match words.len() {
        0 | 1 => format!("({})", words.join("")),
        _ => format!("({} and {})", words[..words.len() - 1].join(", "), words[words.len() - 1]),
    }
}

pub(super) fn ready(scene: &Scene) -> bool {
    scene.frame.is_some_and(|f| f.attention.is_some())
}

/// The summary, a sentence per head, and which layer it shows of which.
pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    let attention = scene.frame.and_then(|f| f.attention.as_ref());
    let heads = attention.map_or_else(Vec::new, head_sentences);
    let layers =
        attention.map_or_else(Vec::new, |a| a.layers.iter().map(|&l| Json::Int(l as i128)).collect());
    (
        scene.frame.map_or_else(String::new, attention_summary),
        vec![
            ("heads", Json::Arr(heads.into_iter().map(Json::Str).collect())),
            ("layer", attention.map_or(Json::Null, |a| Json::Int(a.layer as i128))),
            ("layers", Json::Arr(layers)),
        ],
    )
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(maps) = scene.frame.and_then(|f| f.attention.as_ref()) else { return Ok(()) };
    charts::attention::draw(area, maps, &attention_title(maps), &head_titles(maps), DB::BITMAPS, theme)
}
