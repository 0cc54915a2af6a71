//! The records as JSON: the CLI's report, the page's `.value` and frames, the comparisons'
//! arms (the writer itself is `json_value.rs`).

pub use crate::json_value::Json;

use ablation_core::config::{Config, MaskKind, NormPlacement, Part, StackKind, TaskKind, Value, PARAMS};
use ablation_core::model::lens::AttentionMaps;
use ablation_core::model::stats::Histogram;
use ablation_training::live::frame::Frame;
use ablation_training::live::loss_history::{Bucket, LossHistory};
use ablation_training::live::writing::Prompt;
use ablation_training::measures::per_matrix::MatrixGradients;
use ablation_training::runs::all_four::switch_words;
use ablation_training::step::report::{Run, Snapshot, TaskRecord};
use ablation_training::step::train::Eval;
use ablation_training::tasks::corpus::{corpus, Corpus};
use ablation_training::tasks::task::TaskFloors;

/// A record of a lower floor's as JSON: the types are the training crate's, their JSON this
/// crate's (bring the trait into scope to call `.json()`).
pub trait ToJson {
    fn json(&self) -> Json;
}

/// A record whose JSON says its numbers in the words of the task it was measured on.
pub trait ToJsonFor {
    fn json(&self, task: TaskKind) -> Json;
}

/// The report's fields, for a report that adds its own (the CLI's comparisons, the wasm tests).
pub trait RunFields {
    fn json_fields(&self) -> Vec<(&'static str, Json)>;
}

impl ToJson for Snapshot {
    fn json(&self) -> Json {
        Json::Obj(vec![
            ("act_std", Json::nums(&self.act_std)),
            ("readout_std", Json::Num(self.readout_std)),
            ("grad_norm", Json::nums(&self.grad_norm)),
            ("weight_grad_norm", Json::nums(&self.weight_grad_norm)),
            ("probe_loss", Json::Num(self.probe_loss)),
            ("readout_loss", Json::nums(&self.readout_loss)),
            ("update_ratio", Json::nums(&self.update_ratio)),
        ])
    }
}

/// The configuration as JSON, keyed by the parameter table's names, numbers as numbers.
pub fn config_json(config: &Config) -> Json {
    config_fields(config, |seed| Json::Int(seed.into()))
}

/// Each parameter's value as JSON, a choice as its word, the seed as `seed` writes it.
pub(crate) fn config_fields(config: &Config, seed: fn(u64) -> Json) -> Json {
    Json::Obj(
        PARAMS
            .iter()
            .map(|p| {
                let value = match p.value(config) {
                    Value::Int(i) => Json::Int(i.into()),
                    Value::Float(x) => Json::Num(x),
                    choice @ Value::Choice(_) => Json::Str(p.text(choice)),
                    text @ Value::Text(_) => Json::Str(p.text(text)),
                    Value::Seed(s) => seed(s),
                };
                (p.name, value)
            })
            .collect(),
    )
}

pub fn histogram_json(h: &Histogram) -> Json {
    Json::Obj(vec![
        ("lo", Json::Num(h.lo)),
        ("hi", Json::Num(h.hi)),
        ("counts", Json::Arr(h.counts.iter().map(|&c| Json::Int(c.into())).collect())),
        ("below", Json::Int(h.below.into())),
        ("above", Json::Int(h.above.into())),
        ("nan", Json::Int(h.nan.into())),
    ])
}

impl ToJson for Run {
    fn json(&self) -> Json {
        Json::Obj(self.json_fields())
    }
}

impl RunFields for Run {
    fn json_fields(&self) -> Vec<(&'static str, Json)> {
        vec![
            ("config", config_json(&self.config)),
            ("step_shards", Json::Int(self.config.step_shards() as i128)),
            ("init", self.init.json()),
            ("final", self.last.json()),
            ("loss", Json::nums(&self.loss)),
            ("diverged_at", step_json(self.diverged_at)),
            ("histogram", histogram_json(&self.histogram)),
            ("task", task_json(&self.config, self.task.as_ref())),
            ("layers", layers_json(&self.init, &self.last)),
        ]
    }
}

/// The page's run as `ablate`'s report has it, from the live run's frame and its every held-out
/// measurement (the frame carries a thinned list): the same fields, `final` the state now and
/// `step` the updates so far. The page keeps a bounded loss history: `loss` is every step's
/// loss while each of its buckets holds one step (runs of up to 512 steps), else null, and
/// `loss_history` has the buckets either way (`step`, `steps`, `min`, `max`, `smooth`).
pub fn frame_report_json(frame: &Frame, evals: &[Eval]) -> Json {
    let history = &frame.history;
    let exact = history.per_bucket() == 1;
    let loss = if exact {
        Json::nums(&history.buckets().iter().map(|b| b.min).collect::<Vec<_>>())
    } else {
        Json::Null
    };
    let task = frame.floors.map(|floors| TaskRecord {
        floors,
        evals: evals.to_vec(),
        writing: frame.writing.clone().unwrap_or_default(),
    });
    let mut fields = vec![
        ("config", config_json(&frame.config)),
        ("step_shards", Json::Int(frame.config.step_shards() as i128)),
        ("step", Json::Int(frame.step as i128)),
        ("init", frame.init.json()),
        ("final", frame.now.json()),
        ("loss", loss),
        ("loss_history", loss_history_json(history)),
        ("diverged_at", step_json(frame.diverged_at)),
        ("histogram", histogram_json(&frame.histogram)),
        ("task", task_json(&frame.config, task.as_ref())),
        ("layers", with_matrices(layers_json(&frame.init, &frame.now), frame)),
    ];
    // what the text stack wrote last, as `--prompt` reports it
    if let Some(w) = frame.writing.as_ref().filter(|_| frame.config.task == TaskKind::Text) {
        let prompt =
            Prompt { text: w.text.chars().take(w.given).collect(), chars: w.text.chars().count() - w.given };
        let continuation: String = w.text.chars().skip(w.given).collect();
        fields.push(("writing", writing_json(&prompt, &continuation, &w.outside)));
    }
    Json::Obj(fields)
}

/// The loss history's buckets: each `steps` consecutive steps from `step`, their lowest and
/// highest loss and the moving average after the last.
fn loss_history_json(history: &LossHistory) -> Json {
    let bucket = |b: &Bucket| {
        Json::Obj(vec![
            ("step", Json::Int(b.start as i128)),
            ("steps", Json::Int(b.count as i128)),
            ("min", Json::Num(b.min)),
            ("max", Json::Num(b.max)),
            ("smooth", Json::Num(b.smooth)),
        ])
    };
    Json::Arr(history.buckets().iter().map(bucket).collect())
}

/// The loss history as CSV, one bucket a line (a step each for runs of up to 512 steps):
/// `step,steps,min,max,smooth`, empty fields for non-finite losses.
pub fn loss_csv(history: &LossHistory) -> String {
    let num = |x: f64| if x.is_finite() { format!("{x:?}") } else { String::new() };
    let mut out = String::from("step,steps,min,max,smooth\n");
    for b in history.buckets() {
        out += &format!("{},{},{},{},{}\n", b.start, b.count, num(b.min), num(b.max), num(b.smooth));
    }
    out
}

/// The lens at initialisation and at the end (or now): the readout loss at every depth
/// ℓ = 0..=L, how much each layer changes the stream, and each sublayer's `‖∂L/∂W_ℓ‖`.
pub fn layers_json(init: &Snapshot, last: &Snapshot) -> Json {
    let pair = |f: fn(&Snapshot) -> &Vec<f64>| {
        Json::Obj(vec![("init", Json::nums(f(init))), ("final", Json::nums(f(last)))])
    };
    Json::Obj(vec![
        ("readout_loss", pair(|s| &s.readout_loss)),
        ("update_ratio", pair(|s| &s.update_ratio)),
        ("weight_grad_norm", pair(|s| &s.weight_grad_norm)),
    ])
}

/// The matrices' view's measure (`LayerView::Matrices`) as `layers.xiong_grad_norm`: each
/// sublayer's Xiong matrix, its name and its gradient at initialisation averaged over
/// `batches` of `of` batches (the CLI's `--grad-batches` gives every matrix's).
pub fn matrices_json(m: &MatrixGradients) -> Json {
    Json::Obj(vec![
        ("batches", Json::Int(m.batches as i128)),
        ("of", Json::Int(m.of as i128)),
        ("names", Json::Arr(m.names.iter().map(|n| Json::Str(n.clone())).collect())),
        ("values", Json::nums(&m.values)),
    ])
}

/// `layers` with the frame's matrices' measure, when it has one.
pub(crate) fn with_matrices(layers: Json, f: &Frame) -> Json {
    match (layers, &f.matrices) {
        (Json::Obj(mut fields), Some(m)) => {
            fields.push(("xiong_grad_norm", matrices_json(m)));
            Json::Obj(fields)
        }
        (layers, _) => layers,
    }
}

/// Attention maps as the CLI's `--attention` reports them: the fixed sequence's characters and,
/// per attention sublayer, each head's rows (row q: where position q looks). For an
/// encoder–decoder `tokens` are the target's (the decoder's rows) and `source_tokens` the
/// source's; each map says its kind (`self` or `cross`) and its part (`encoder` or `decoder`):
/// an encoder map is the source's rows and columns, a cross map the target's rows and the
/// source's columns.
pub fn attention_json(maps: &[AttentionMaps], config: &Config) -> Json {
    // the characters of `part`'s positions in the sequence
    let chars = |part: Part| {
        Json::Str(
            maps.first().map_or_else(String::new, |m| m.tokens[config.part_positions(part)].iter().collect()),
        )
    };
    let mut fields = match config.stack {
        StackKind::EncoderDecoder => {
            vec![("tokens", chars(Part::Decoder)), ("source_tokens", chars(Part::Encoder))]
        }
        StackKind::Decoder => vec![("tokens", chars(Part::Whole))],
    };
    let map = |m: &AttentionMaps| {
        let c = m.shape().1;
        let heads = (0..m.heads).map(|h| {
            let rows = m
                .head(h)
                .chunks(c.max(1))
                .map(|row| Json::Arr(row.iter().map(|&x| Json::Num(f64::from(x))).collect()));
            Json::Arr(rows.collect())
        });
        let part = if config.part(m.layer) == Part::Encoder { "encoder" } else { "decoder" };
        Json::Obj(vec![
            ("layer", Json::Int(m.layer as i128)),
            ("kind", Json::Str(if m.is_cross() { "cross" } else { "self" }.into())),
            ("part", Json::Str(part.into())),
            ("masked", Json::Bool(m.masked)),
            ("heads", Json::Arr(heads.collect())),
        ])
    };
    fields.push(("maps", Json::Arr(maps.iter().map(map).collect())));
    Json::Obj(fields)
}

/// The report's `task`: its name and, for a sequence task, the vocabulary, the floors, the
/// held-out loss (and the copy task's accuracy) at each measured step, and what it writes.
pub fn task_json(config: &Config, record: Option<&TaskRecord>) -> Json {
    let name = ("name", Json::Str(config.get("task").unwrap_or_default()));
    let Some(r) = record else { return Json::Obj(vec![name]) };
    let pairs = |f: fn(&Eval) -> f64| {
        Json::Arr(
            r.evals.iter().map(|e| Json::Arr(vec![Json::Int(e.step as i128), Json::Num(f(e))])).collect(),
        )
    };
    let floors = match r.floors {
        TaskFloors::Text(f) => vec![("unigram", Json::Num(f.unigram)), ("bigram", Json::Num(f.bigram))],
        TaskFloors::Chance { chance } => vec![("chance", Json::Num(chance))],
    };
    let mut fields = vec![
        name,
        ("vocab", Json::Int(config.vocab() as i128)),
        ("floors", Json::Obj(floors)),
        ("val_loss", pairs(|e| e.loss)),
    ];
    if let Some(text) = (config.task == TaskKind::Text).then(|| corpus(config.text)).flatten() {
        fields.push(("text", text_json(&text)));
    }
    if config.mask == MaskKind::None {
        // the same weights with the mask on: what the stack scores when it writes
        fields.push(("loss_future_hidden", pairs(|e| e.future_hidden.unwrap_or(f64::NAN))));
    }
    if config.task.copies() {
        fields.push(("accuracy", pairs(|e| e.accuracy)));
    }
    fields.push(("sample", Json::Str(r.writing.text.clone())));
    Json::Obj(fields)
}

/// The report's `task.text`: which text, by its identity (`config.text`), SHA-256 and length,
/// its vocabulary, the characters that became the unknown symbol, and its floors.
pub fn text_json(text: &Corpus) -> Json {
    let floors = text.floors();
    Json::Obj(vec![
        ("id", Json::Str(text.id.text())),
        ("chars", Json::Int(text.chars as i128)),
        ("sha256", Json::Str(ablation_core::config::hex(&text.sha256))),
        ("vocab", Json::Int(text.vocab.len() as i128)),
        ("replaced", Json::Int(text.replaced as i128)),
        ("held_out_chars", Json::Int(text.held_out().len() as i128)),
        (
            "floors",
            Json::Obj(vec![("unigram", Json::Num(floors.unigram)), ("bigram", Json::Num(floors.bigram))]),
        ),
    ])
}

/// The report's `writing`: a prompt, what the stack wrote after it, and the prompt's
/// characters outside the text's vocabulary.
pub fn writing_json(prompt: &Prompt, continuation: &str, outside: &[char]) -> Json {
    Json::Obj(vec![
        ("prompt", Json::Str(prompt.text.clone())),
        ("chars", Json::Int(prompt.chars as i128)),
        ("continuation", Json::Str(continuation.into())),
        ("outside_vocab", Json::Str(outside.iter().collect())),
    ])
}

/// A step, or `null` for none.
pub fn step_json(step: Option<usize>) -> Json {
    step.map_or(Json::Null, |s| Json::Int(s as i128))
}

/// `"residual"` and `"norm"` as the parameter table spells them ("on", "pre", …).
pub fn switches_json(residual: bool, norm: NormPlacement) -> [(&'static str, Json); 2] {
    let (residual, norm) = switch_words(residual, norm);
    [("residual", Json::Str(residual)), ("norm", Json::Str(norm))]
}
