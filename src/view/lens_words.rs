//! The words of the lens panels: what each layer would predict, how much each changes the
//! stream, and where each head looks. Every number comes from the frame.

use crate::config::TaskKind;
use crate::model::lens::{AttentionMaps, Focus};
use crate::training::copy_task::CopyTask;
use crate::training::frame::Frame;
use crate::training::report::Snapshot;
use crate::training::task::TaskFloors;
use crate::training::train::Eval;
use crate::view::charts::attention::visible;
use crate::view::charts::readout::ReadoutCurves;
use crate::view::charts::short;

/// The share of the way from the start line to the final loss that the summary looks for.
const MOST_OF_THE_WAY: f64 = 0.8;

/// The floors the readout chart draws, as (name, loss): the text's unigram and bigram lines,
/// the copy task's chance; none for the teacher.
pub fn readout_floors(floors: Option<TaskFloors>) -> Vec<(String, f64)> {
    match floors {
        Some(TaskFloors::Text(f)) => vec![("unigram".into(), f.unigram), ("bigram".into(), f.bigram)],
        Some(TaskFloors::Chance { chance }) => vec![("chance".into(), chance)],
        None => vec![],
    }
}

/// Where and when the readout was measured, for the chart's title, longest first: at the last
/// held-out measurement (`last_eval`, a sequence task's), else on the probe batch at `step`.
pub fn readout_notes(last_eval: Option<&Eval>, step: usize) -> Vec<String> {
    match last_eval {
        Some(e) => vec![format!("held-out, step {}", e.step), format!("step {}", e.step)],
        None => vec![format!("probe batch, step {step}"), format!("step {step}")],
    }
}

/// The readout chart's curves from the probe at initialisation and at the moment shown, with
/// the floors of the task and the pins' readouts.
pub fn readout_curves<'a>(
    init: &'a Snapshot,
    now: &'a Snapshot,
    floors: &'a [(String, f64)],
    pins: &'a [(String, &'a [f64])],
) -> ReadoutCurves<'a> {
    ReadoutCurves {
        readout_init: &init.readout_loss,
        readout_now: &now.readout_loss,
        ratio_init: &init.update_ratio,
        ratio_now: &now.update_ratio,
        floors,
        pins,
    }
}

/// "71%", "4.2%", "0.31%", "∞%".
fn percent(ratio: f64) -> String {
    let p = 100.0 * ratio;
    if p.is_finite() && p.abs() >= 10.0 {
        format!("{p:.0}%")
    } else if p.is_finite() && p.abs() >= 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{}%", short(p))
    }
}

fn median(xs: &[f64]) -> f64 {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    crate::order::sort_by(&mut v, f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The panel's text: where the readout loss falls, how far up the stack most of the final
/// loss is reached (from the unigram line on the text, chance on copy, `x₀`'s readout on the
/// teacher), and how much the lower and upper layers change the stream.
pub fn readout_summary(m: &Frame) -> String {
    let r = &m.now.readout_loss;
    let depth = r.len().saturating_sub(1);
    if r.is_empty() {
        return "Not measured yet.".into();
    }
    let source = match m.evals.last() {
        Some(e) => format!("Read out on the held-out set at step {}", e.step),
        None => format!("Read out on the probe batch at step {}", m.step),
    };
    let (start_name, start) = match m.floors {
        Some(TaskFloors::Text(f)) => ("the unigram line".to_string(), f.unigram),
        Some(TaskFloors::Chance { chance }) => ("chance".to_string(), chance),
        None => ("the input's own readout".to_string(), r[0]),
    };
    let last = r[depth];
    let mut out = format!("{source}: the input x₀ gives {}, the top x_{depth} {}.", short(r[0]), short(last));
    if last.is_nan() || last >= start || depth == 0 {
        out += &format!(" No layer's stream reads out below {start_name} ({}) yet.", short(start));
    } else {
        let reached =
            (0..=depth).find(|&l| start - r[l] >= MOST_OF_THE_WAY * (start - last)).unwrap_or(depth);
        let (drop_at, _) = (0..depth)
            .map(|l| (l, r[l] - r[l + 1]))
            .filter(|(_, d)| d.is_finite())
            .fold((0, f64::NEG_INFINITY), |best, x| if x.1 > best.1 { x } else { best });
        out += &format!(
            " After {reached} of {depth} layers the readout already gets {} of the way from {start_name} ({}) to the final loss; layer {drop_at} lowers it most ({} → {}).",
            percent(MOST_OF_THE_WAY),
            short(start),
            short(r[drop_at]),
            short(r[drop_at + 1]),
        );
    }
    out + &update_sentence(&m.init.update_ratio, &m.now.update_ratio)
}

/// How much the layers change the stream: the median now and at initialisation, and the
/// medians of the lower and upper halves of the stack now.
fn update_sentence(init: &[f64], now: &[f64]) -> String {
    if now.is_empty() {
        return String::new();
    }
    let half = now.len() / 2;
    let mut out = format!(
        " A layer changes the stream by {} of its size (median; {} at initialisation)",
        percent(median(now)),
        percent(median(init)),
    );
    if half > 0 {
        out += &format!(
            "; the lower half of the layers by {}, the upper half by {}",
            percent(median(&now[..half])),
            percent(median(&now[half..]))
        );
    }
    out + "."
}

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
