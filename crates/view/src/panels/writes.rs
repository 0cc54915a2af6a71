//! "The model writes", and the pins' list: what the live run, each pin and each combination
//! of All four wrote, and the pins' labels.

use super::Scene;
use crate::json::Json;
use crate::words::{float_words, pin_label};
use ablation_core::config::{Config, TaskKind};
use ablation_training::live::frame::Frame;
use ablation_training::live::writing::Writing;
use ablation_training::runs::pinned::PinState;
use ablation_words::say;

/// What the model wrote, in runs of one kind: `given` (the prompt), `wrote`, or `wrong` (a
/// copied symbol that is not the string's).
pub fn writing_parts(w: &Writing) -> Vec<(&'static str, String)> {
    let mut parts: Vec<(&'static str, String)> = Vec::new();
    for (i, c) in w.text.chars().enumerate() {
        let kind = if i < w.given {
            "given"
        } else if w.wrong.contains(&(i as u32)) {
            "wrong"
        } else {
            "wrote"
        };
        match parts.last_mut() {
            Some((k, text)) if *k == kind && kind != "wrong" => text.push(c),
            _ => parts.push((kind, c.to_string())),
        }
    }
    parts
}

/// What each pinned run wrote at its step (a sequence task's): pairs of its label and text.
pub fn pin_writings(pins: &[PinState], live: &Config) -> Vec<(String, String)> {
    pins.iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let w = p.frame.as_ref()?.writing.as_ref()?;
            let label = say!("writes-pin", pin = i + 1, label = pin_label(&p.config, live), step = w.step);
            Some((label, w.text.clone()))
        })
        .collect()
}

/// What the model writes, for the panel's heading: whose weights, at which temperature.
pub fn writing_heading(m: &Frame) -> String {
    match (&m.writing, m.config.task) {
        (None, _) | (_, TaskKind::Teacher) => String::new(),
        (Some(w), task) if task.copies() => say!("writes-heading-copies", step = w.step),
        (Some(w), _) => {
            let prompt: String = w.text.chars().take(w.given).collect();
            let temperature = float_words(m.config.temperature);
            let prompt = format!("{prompt:?}");
            if w.outside.is_empty() {
                say!("writes-heading", step = w.step, prompt = prompt, temperature = temperature)
            } else {
                let outside = format!("{:?}", w.outside.iter().collect::<String>());
                say!(
                    "writes-heading-outside",
                    step = w.step,
                    prompt = prompt,
                    outside = outside,
                    temperature = temperature
                )
            }
        }
    }
}

/// The pins' labels against the live run ("pinned: Residual OFF · step 500"), a failed one's
/// with its reason.
pub fn pin_labels(pins: &[PinState], live: &Config) -> Vec<String> {
    let label = |p: &PinState| {
        let label = pin_label(&p.config, live);
        match &p.failed {
            Some(why) => say!("pin-failed", label = label, why = why.as_str()),
            None => label,
        }
    };
    pins.iter().map(label).collect()
}

/// Pairs of text as JSON: `[[a, b], …]`.
fn pairs_json(pairs: impl IntoIterator<Item = (String, String)>) -> Json {
    Json::Arr(pairs.into_iter().map(|(a, b)| Json::Arr(vec![Json::Str(a), Json::Str(b)])).collect())
}

/// Its heading (empty on the teacher task), what the live run wrote as `[kind, text]` parts
/// (`given`, `wrote` or `wrong`), what each pin wrote and what each comparison's runs wrote
/// (`comparisons`: its field and its `(label, text)` pairs), as `[label, text]`.
pub fn json(scene: &Scene, live: &Config, comparisons: &[(&'static str, Vec<(String, String)>)]) -> Json {
    let frame = scene.frame;
    let parts = frame
        .and_then(|f| f.writing.as_ref())
        .map_or_else(Vec::new, writing_parts)
        .into_iter()
        .map(|(kind, text)| (kind.to_string(), text));
    let mut fields = vec![
        ("heading", Json::Str(frame.map_or_else(String::new, writing_heading))),
        ("parts", pairs_json(parts)),
        ("pins", pairs_json(pin_writings(scene.pins(), live))),
    ];
    fields.extend(comparisons.iter().map(|(field, w)| (*field, pairs_json(w.clone()))));
    Json::Obj(fields)
}
