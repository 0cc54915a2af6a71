//! The attention maps: where each head of the chosen layer looks, on the probe's first
//! sequence, and the heads that copy or look up.

use super::{and_list, percent, Scene, Surface};
use crate::charts::attention::visible;
use crate::charts::{self, ChartResult, Theme};
use crate::json::Json;
use crate::words::{split_words, sublayer_words};
use ablation_core::config::{Config, TaskKind};
use ablation_core::model::lens::{AttentionMaps, Focus};
use ablation_training::live::frame::Frame;
use ablation_training::tasks::copy_task::CopyTask;
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Its SVG's size: four heads side by side.
pub const SIZE: (u32, u32) = (960, 300);

/// "9 positions back", "1 position back", "on its own position".
fn offset_words(offset: isize) -> String {
    say!("attention-offset", direction = direction(offset), n = offset.unsigned_abs())
}

fn direction(offset: isize) -> &'static str {
    match offset {
        0 => "own",
        k if k < 0 => "ahead",
        _ => "back",
    }
}

/// A heatmap title's offset: "9 back", "1 ahead".
fn offset_short(offset: isize) -> String {
    say!("attention-offset-short", direction = direction(offset), n = offset.unsigned_abs())
}

/// Where the symbol to write stands, as a cross-attention sentence says it: "the mirrored
/// source position" on reverse, "the source position it copies" on copy.
fn answer_words(task: TaskKind) -> String {
    say!("attention-answer", answer = if task == TaskKind::Reverse { "reverse" } else { "copy" })
}

/// One sentence per head: "layer 2, head 3: 71% of its weight 9 positions back"; for
/// cross-attention "decoder layer 1, cross-attention, head 3: 96% of its weight on the
/// mirrored source position".
pub fn head_sentences(maps: &AttentionMaps, config: &Config) -> Vec<String> {
    let name = sublayer_words(config, maps.layer);
    (0..maps.heads)
        .map(|h| match maps.answer_share(h).filter(|_| maps.is_cross()) {
            Some(share) => say!(
                "attention-head-answer",
                name = name.as_str(),
                head = h + 1,
                share = percent(share),
                answer = answer_words(config.task)
            ),
            None => {
                let Focus { offset, share } = maps.focus(h);
                say!(
                    "attention-head",
                    name = name.as_str(),
                    head = h + 1,
                    share = percent(share),
                    offset = offset_words(offset)
                )
            }
        })
        .collect()
}

/// Each heatmap's title: "head 3 · 71% at 9 back"; for cross-attention "head 3 · 96% mirrored"
/// (reverse) or "head 3 · 96% on its symbol" (copy).
pub fn head_titles(maps: &AttentionMaps, config: &Config) -> Vec<String> {
    (0..maps.heads)
        .map(|h| match maps.answer_share(h).filter(|_| maps.is_cross()) {
            Some(share) => {
                let task = if config.task == TaskKind::Reverse { "reverse" } else { "copy" };
                say!("attention-head-title-answer", head = h + 1, share = percent(share), task = task)
            }
            None => {
                let Focus { offset, share } = maps.focus(h);
                say!(
                    "attention-head-title",
                    head = h + 1,
                    share = percent(share),
                    offset = offset_short(offset)
                )
            }
        })
        .collect()
}

/// The chart's title, longest first: "layer 2: where each position looks · “To be, or not”",
/// then without the sequence, then "layer 2". Cross-attention: "decoder layer 1,
/// cross-attention: where each target position looks in the source".
pub fn attention_title(maps: &AttentionMaps, config: &Config) -> Vec<String> {
    let text: String = maps.tokens.iter().map(|&c| visible(c)).collect();
    let name = sublayer_words(config, maps.layer);
    let looks = say!("attention-looks", cross = if maps.is_cross() { "yes" } else { "no" });
    vec![
        say!("attention-title-text", name = name.as_str(), looks = looks.as_str(), text = text),
        say!("attention-title", name = name.as_str(), looks = looks),
        name,
    ]
}

/// The head of a cross-attention map (or of a decoder-only stack's map on reverse) that reads
/// the symbol to write: the one with the largest share on its position, if at least half.
fn reading_head(maps: &AttentionMaps) -> Option<(usize, f64)> {
    (0..maps.heads)
        .filter_map(|h| maps.answer_share(h).map(|s| (h, s)))
        .filter(|(_, s)| *s >= 0.5)
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// Capitalised: "Decoder layer 1, cross-attention".
fn capital(words: &str) -> String {
    ablation_words::capitalised(words)
}

/// The head that copies on the copy task: the one putting the most weight `length` positions
/// back in the repeated half (where the symbol to write stands), if it is at least half.
fn copying_head(maps: &AttentionMaps, task: &CopyTask) -> Option<(usize, Focus)> {
    let length = task.length();
    (0..maps.heads)
        .map(|h| (h, maps.focus(h)))
        .filter(|(_, f)| f.offset == length as isize && f.share >= 0.5)
        .max_by(|a, b| a.1.share.total_cmp(&b.1.share))
}

/// The panel's text: the layer, the sequence, then a sentence per head; on the copy task it
/// names the head that copies, or says none of this layer's does.
pub fn attention_summary(m: &Frame) -> String {
    let Some(maps) = &m.attention else {
        return if m.config.task == TaskKind::Teacher {
            say!("attention-none-teacher")
        } else {
            say!("attention-none")
        };
    };
    let mut sentences = vec![say!(
        "attention-summary",
        name = capital(&sublayer_words(&m.config, maps.layer)),
        layers = and_join(&maps.layers),
        step = m.step,
        text = maps.tokens.iter().map(|&c| visible(c)).collect::<String>(),
        heads = head_sentences(maps, &m.config).join(&say!("attention-head-join"))
    )];
    sentences.extend(split_words(&m.config).map(|split| say!("attention-stack", split = split)));
    if maps.is_cross() || (m.config.task == TaskKind::Reverse) {
        let name = sublayer_words(&m.config, maps.layer);
        let answer = if maps.is_cross() {
            answer_words(m.config.task)
        } else {
            say!("attention-answer", answer = "mirrored")
        };
        sentences.push(match reading_head(maps) {
            Some((h, share)) => {
                say!("attention-reads", head = h + 1, share = percent(share), answer = answer)
            }
            None => say!("attention-reads-none", name = name, answer = answer),
        });
    } else if m.config.task == TaskKind::Copy {
        let task = ablation_training::tasks::task::copy_task(&m.config);
        let back = offset_words(task.length() as isize);
        sentences.push(match copying_head(maps, &task) {
            Some((h, f)) => say!("attention-copies", head = h + 1, share = percent(f.share), offset = back),
            None => say!("attention-copies-none", layer = maps.layer, offset = back),
        });
    }
    if m.config.task == TaskKind::Induction {
        sentences.extend(induction_sentences(maps));
    }
    sentences.join(&say!("sentence-join"))
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
fn induction_sentences(maps: &AttentionMaps) -> Vec<String> {
    let named = |share: &dyn Fn(usize) -> Option<f64>| -> Vec<String> {
        (0..maps.heads)
            .filter_map(|h| {
                share(h)
                    .filter(|s| *s >= 0.5)
                    .map(|s| say!("attention-named-head", head = h + 1, share = percent(s)))
            })
            .collect()
    };
    let comma = say!("list-comma");
    let previous = named(&|h| Some(previous_share(maps, h)));
    let lookup = named(&|h| lookup_share(maps, h));
    let mut out = vec![];
    if !previous.is_empty() {
        out.push(say!("attention-previous", heads = previous.join(&comma)));
    }
    if !lookup.is_empty() {
        out.push(say!("attention-lookup", heads = lookup.join(&comma)));
    }
    if out.is_empty() {
        out.push(say!("attention-lookup-none", layer = maps.layer));
    }
    out
}

/// "(3)", "(1 and 3)", "(1, 3 and 5)".
fn and_join(layers: &[usize]) -> String {
    say!("attention-layers", layers = and_list(&layers.iter().map(usize::to_string).collect::<Vec<_>>()))
}

pub(super) fn ready(scene: &Scene) -> bool {
    scene.frame.is_some_and(|f| f.attention.is_some())
}

/// The summary, a sentence per head, and which layer it shows of which.
pub(super) fn words(scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
    let attention = scene.frame.and_then(|f| f.attention.as_ref());
    let config = scene.frame.map(|f| &f.config);
    let heads = attention.zip(config).map_or_else(Vec::new, |(a, c)| head_sentences(a, c));
    let layers =
        attention.map_or_else(Vec::new, |a| a.layers.iter().map(|&l| Json::Int(l as i128)).collect());
    let names = attention
        .zip(config)
        .map_or_else(Vec::new, |(a, c)| a.layers.iter().map(|&l| Json::Str(sublayer_words(c, l))).collect());
    (
        scene.frame.map_or_else(String::new, attention_summary),
        vec![
            ("heads", Json::Arr(heads.into_iter().map(Json::Str).collect())),
            ("layer", attention.map_or(Json::Null, |a| Json::Int(a.layer as i128))),
            ("layers", Json::Arr(layers)),
            ("layer_names", Json::Arr(names)),
        ],
    )
}

pub(super) fn draw<DB: Surface>(scene: &Scene, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
    let Some(frame) = scene.frame else { return Ok(()) };
    let Some(maps) = frame.attention.as_ref() else { return Ok(()) };
    let (title, heads) = (attention_title(maps, &frame.config), head_titles(maps, &frame.config));
    charts::attention::draw(area, maps, &title, &heads, theme.bitmaps, theme)
}
