//! A frame as JSON, and what `.value` and the element's events carry.

use crate::json::*;
use ablation_core::config::{Settings, PIN};
use ablation_training::live::frame::Frame;
use ablation_training::tasks::task::TaskFloors;

/// A sequence task's readouts: the last held-out loss (`val_loss`) and copy accuracy
/// (`accuracy`, the copy task only), a stack without the mask's loss with the future hidden
/// (`loss_future_hidden`), the floors, and what the model wrote (`sample`); `null` where there
/// are none (the teacher, or before the first frame).
fn task_readouts(frame: Option<&Frame>) -> [(&'static str, Json); 5] {
    let last = frame.and_then(|f| f.evals.last());
    let num = |x: Option<f64>| x.filter(|x| x.is_finite()).map_or(Json::Null, Json::Num);
    let floors = match frame.and_then(|f| f.floors) {
        None => Json::Null,
        Some(TaskFloors::Text(f)) => {
            Json::Obj(vec![("unigram", Json::Num(f.unigram)), ("bigram", Json::Num(f.bigram))])
        }
        Some(TaskFloors::Chance { chance }) => Json::Obj(vec![("chance", Json::Num(chance))]),
    };
    let sample = frame.and_then(|f| f.writing.as_ref()).map_or(Json::Null, |w| Json::Str(w.text.clone()));
    [
        ("val_loss", num(last.map(|e| e.loss))),
        ("accuracy", num(last.map(|e| e.accuracy))),
        ("loss_future_hidden", num(last.and_then(|e| e.future_hidden))),
        ("floors", floors),
        ("sample", sample),
    ]
}

/// The lens of the frame on screen (`null` before the first): the readout loss at every depth
/// and the update ratios, at initialisation and now (`final`, as the CLI names the end), and
/// the attention panel's layer with where each of its heads looks (`null` without one).
fn lens_readouts(frame: Option<&Frame>) -> [(&'static str, Json); 2] {
    let Some(f) = frame else { return [("layers", Json::Null), ("attention", Json::Null)] };
    let attention = f.attention.as_ref().map_or(Json::Null, |m| {
        let heads = (0..m.heads).map(|h| {
            let focus = m.focus(h);
            let mut head =
                vec![("offset", Json::Int(focus.offset as i128)), ("share", Json::Num(focus.share))];
            if let Some(share) = m.answer_share(h) {
                head.push(("answer_share", Json::Num(share)));
            }
            Json::Obj(head)
        });
        Json::Obj(vec![
            ("layer", Json::Int(m.layer as i128)),
            ("name", Json::Str(f.config.sublayer_name(m.layer))),
            ("kind", Json::Str(if m.is_cross() { "cross" } else { "self" }.into())),
            ("tokens", Json::Str(m.tokens.iter().collect())),
            ("heads", Json::Arr(heads.collect())),
        ])
    });
    [("layers", with_matrices(layers_json(&f.init, &f.now), f)), ("attention", attention)]
}

/// A frame as JSON: the configuration and readouts, and unless `readouts_only` the panel data
/// (the probe at initialisation and now, the histogram, the bounded loss history as
/// `[start, count, min, max, smoothed]` buckets).
pub fn frame_json(f: &Frame, readouts_only: bool) -> Json {
    let opt = |s: Option<usize>| s.map_or(Json::Null, |s| Json::Int(s as i128));
    let mut fields = vec![
        ("config", config_json(&f.config)),
        ("generation", Json::Int(f.generation.into())),
        ("step", Json::Int(f.step as i128)),
        ("loss", Json::Num(f.loss())),
        ("act_std", Json::Num(f.act_std())),
        ("diverged_at", opt(f.diverged_at)),
        ("finished", Json::Bool(f.finished())),
        ("stop_at", Json::Int(f.stop_at as i128)),
    ];
    fields.extend(task_readouts(Some(f)));
    if !readouts_only {
        let h = &f.history;
        let buckets = h
            .buckets()
            .iter()
            .map(|b| Json::nums(&[b.start as f64, b.count as f64, b.min, b.max, b.smooth]))
            .collect();
        fields.extend([
            ("init", f.init.json()),
            ("now", f.now.json()),
            ("layers", with_matrices(layers_json(&f.init, &f.now), f)),
            ("histogram", histogram_json(&f.histogram)),
            (
                "loss_history",
                Json::Obj(vec![
                    ("count", Json::Int(h.len() as i128)),
                    ("per_bucket", Json::Int(h.per_bucket() as i128)),
                    ("first", h.first().map_or(Json::Null, Json::Num)),
                    ("last", h.last().map_or(Json::Null, Json::Num)),
                    ("buckets", Json::Arr(buckets)),
                ]),
            ),
        ]);
    }
    Json::Obj(fields)
}

/// What `.value` and the element's events carry: every parameter (the 64-bit seed as text, which
/// survives JavaScript's doubles), the pins as their text, the live run's readouts from `frame`
/// (none before the first), and the fields of `comparisons` (`comparisons::comparisons_json`).
pub fn value_json(settings: &Settings, frame: Option<&Frame>, comparisons: Json) -> Json {
    let Json::Obj(mut fields) = config_fields(&settings.config, |seed| Json::Str(seed.to_string())) else {
        unreachable!("an object")
    };
    fields.push(("pin", Json::Str(settings.get(PIN).unwrap_or_default())));
    let opt = |s: Option<usize>| s.map_or(Json::Null, |s| Json::Int(s as i128));
    fields.extend(match frame {
        Some(f) => [
            ("step", Json::Int(f.step as i128)),
            ("loss", Json::Num(f.loss())),
            ("act_std", Json::Num(f.act_std())),
            ("diverged_at", opt(f.diverged_at)),
            ("finished", Json::Bool(f.finished())),
        ],
        None => [
            ("step", Json::Int(0)),
            ("loss", Json::Null),
            ("act_std", Json::Null),
            ("diverged_at", Json::Null),
            ("finished", Json::Bool(false)),
        ],
    });
    fields.extend(task_readouts(frame));
    fields.extend(lens_readouts(frame));
    let Json::Obj(comparisons) = comparisons else { unreachable!("an object") };
    fields.extend(comparisons);
    Json::Obj(fields)
}
