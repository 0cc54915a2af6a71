//! The records as JSON: the CLI's report, the page's `.value` and frames, the comparisons'
//! arms (the writer itself is `json_value.rs`).

pub use crate::json_value::Json;

use crate::words::pin_label;
use ablation_core::config::{
    Config, MaskKind, NormPlacement, Part, Settings, StackKind, TaskKind, Value, PARAMS, PIN,
};
use ablation_core::model::lens::AttentionMaps;
use ablation_core::model::stats::Histogram;
use ablation_training::arm::Arm;
use ablation_training::compare::switch_words;
use ablation_training::corpus::{corpus, Corpus};
use ablation_training::frame::Frame;
use ablation_training::knockout::{Healing, Knockout, Removal};
use ablation_training::loss_history::{Bucket, LossHistory};
use ablation_training::outcome::Outcome;
use ablation_training::per_matrix::MatrixGradients;
use ablation_training::pinned::PinState;
use ablation_training::report::{Run, Snapshot, TaskRecord};
use ablation_training::spread::median;
use ablation_training::task::TaskFloors;
use ablation_training::train::Eval;
use ablation_training::tuned_lens::TunedLensState;
use ablation_training::tuner::{Limit, Tuned};
use ablation_training::writing::Prompt;

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
fn config_fields(config: &Config, seed: fn(u64) -> Json) -> Json {
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
fn with_matrices(layers: Json, f: &Frame) -> Json {
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

/// A row of "All four" (the CLI's and the page's): the switches and what the run measured
/// (a number not reached yet is NaN, so `null`).
pub fn outcome_fields(o: &Outcome) -> Vec<(&'static str, Json)> {
    let mut fields = Vec::from(switches_json(o.config.residual, o.config.norm));
    fields.extend([
        ("init_top_std", Json::Num(o.init_top_std)),
        ("grad_ratio", Json::Num(o.grad_ratio)),
        ("final_loss", Json::Num(o.final_loss)),
        ("diverged_at", step_json(o.diverged_at)),
        ("readout_loss", Json::nums(&o.readout_loss)),
    ]);
    if o.config.task != TaskKind::Teacher {
        fields.push(("val_loss", Json::Num(o.held_out.loss)));
        if o.config.task.copies() {
            fields.push(("accuracy", Json::Num(o.held_out.accuracy)));
        }
        fields.push(("sample", Json::Str(o.held_out.sample.clone())));
    }
    fields
}

/// An arm's runs shown, one per seed: `[{seed, lr, final_loss, val_loss, diverged_at,
/// converged}, …]` (a run not done yet is left out), the median of their final losses and
/// whether each plateaued (`converged`, per seed shown, `null` for one not done); with tuning the
/// rates tried (`lr_grid`), the chosen rate (`lr`) and the search (`tuning`, `tuning_json`).
pub fn arm_fields<T>(arm: &Arm<T>, run: fn(&T) -> RunEnd) -> Vec<(&'static str, Json)> {
    let runs: Vec<(u64, RunEnd)> = arm.shown_done().map(|(s, r)| (s, run(r))).collect();
    let entries = runs.iter().map(
        |&(seed, (final_loss, val_loss, diverged_at, converged, steps, accuracy, hidden))| {
            let mut fields = vec![
                ("seed", Json::Int(seed.into())),
                ("lr", Json::Num(arm.rate())),
                ("final_loss", Json::Num(final_loss)),
                ("val_loss", Json::Num(val_loss)),
                ("diverged_at", step_json(diverged_at)),
                ("converged", converged.map_or(Json::Null, Json::Bool)),
                ("steps", Json::Int(steps as i128)),
            ];
            if !accuracy.is_nan() {
                fields.push(("accuracy", Json::Num(accuracy)));
            }
            if !hidden.is_nan() {
                fields.push(("loss_future_hidden", Json::Num(hidden)));
            }
            Json::Obj(fields)
        },
    );
    let finals: Vec<f64> = runs.iter().map(|(_, r)| r.0).collect();
    let converged =
        arm.shown().iter().map(|r| r.as_ref().and_then(|r| run(r).3).map_or(Json::Null, Json::Bool));
    let mut fields = vec![
        ("runs", Json::Arr(entries.collect())),
        ("median_final_loss", Json::Num(median(&finals))),
        ("converged", Json::Arr(converged.collect())),
    ];
    if let Some(t) = &arm.tuning {
        fields.push(("lr_grid", Json::nums(&t.lrs)));
        fields.push(("lr", t.chosen.map_or(Json::Null, |c| Json::Num(c.0))));
        fields.push(("tuning", tuning_json(t, &arm.seeds)));
    }
    fields
}

/// A tuned arm's search, as the report's `tuning`: `{grid: {lr, warmup, beta2}, chosen: {lr,
/// warmup, beta2} | null, bracketed: {lr} | null, limit: "lowest" | "highest" | null,
/// choosing_seeds, reporting_seeds, rounds: [{candidates, steps}], planned_rounds}`.
pub fn tuning_json(t: &Tuned, reporting_seeds: &[u64]) -> Json {
    let seeds = |s: &[u64]| Json::Arr(s.iter().map(|&s| Json::Int(s.into())).collect());
    let ints = |xs: &[usize]| Json::Arr(xs.iter().map(|&x| Json::Int(x as i128)).collect());
    let rounds = t.rounds.iter().map(|r| {
        Json::Obj(vec![
            ("candidates", Json::Int(r.candidates as i128)),
            ("steps", Json::Int(r.steps as i128)),
        ])
    });
    Json::Obj(vec![
        (
            "grid",
            Json::Obj(vec![
                ("lr", Json::nums(&t.lrs)),
                ("warmup", ints(&t.warmups)),
                ("beta2", Json::nums(&t.beta2s)),
            ]),
        ),
        (
            "chosen",
            t.chosen.map_or(Json::Null, |(lr, warmup, beta2)| {
                Json::Obj(vec![
                    ("lr", Json::Num(lr)),
                    ("warmup", Json::Int(warmup as i128)),
                    ("beta2", Json::Num(beta2)),
                ])
            }),
        ),
        (
            "bracketed",
            if t.chosen.is_some() { Json::Obj(vec![("lr", Json::Bool(t.bracketed))]) } else { Json::Null },
        ),
        (
            "limit",
            match t.limit {
                Some(Limit::Lowest) => Json::Str("lowest".into()),
                Some(Limit::Highest) => Json::Str("highest".into()),
                None => Json::Null,
            },
        ),
        ("choosing_seeds", seeds(&t.choosing_seeds)),
        ("reporting_seeds", seeds(reporting_seeds)),
        ("rounds", Json::Arr(rounds.collect())),
        ("planned_rounds", Json::Int(t.planned_rounds as i128)),
    ])
}

/// A run's end for `arm_fields`: its final loss, its held-out loss, where it diverged and
/// whether it had plateaued.
/// What a comparison's run reports of its end: (final loss, held-out loss, diverged at,
/// plateaued, steps trained, held-out accuracy on a copying task or NaN, held-out loss with the
/// future hidden for a stack without the mask or NaN).
pub type RunEnd = (f64, f64, Option<usize>, Option<bool>, usize, f64, f64);

/// An outcome's numbers for `arm_fields`.
pub fn outcome_run(o: &Outcome) -> RunEnd {
    (
        o.final_loss,
        o.held_out.loss,
        o.diverged_at,
        o.converged,
        o.steps,
        o.held_out.accuracy,
        o.held_out.future_hidden,
    )
}

/// The pins for `.value`: each one's text, its label against `live`, how far its runs got.
pub fn pins_json(pins: &[PinState], live: &Config) -> Json {
    let pins = pins.iter().map(|p| {
        Json::Obj(vec![
            ("pin", Json::Str(p.pin.text())),
            ("label", Json::Str(pin_label(&p.config, live))),
            ("step", p.frame.as_ref().map_or(Json::Null, |f| Json::Int(f.step as i128))),
            ("loss", p.frame.as_ref().and_then(|f| f.history.last()).map_or(Json::Null, Json::Num)),
            ("diverged_at", step_json(p.frame.as_ref().and_then(|f| f.diverged_at))),
            ("done", Json::Bool(p.done)),
            ("failed", p.failed.as_ref().map_or(Json::Null, |why| Json::Str(why.clone()))),
            ("seeds", pin_seeds_json(p)),
            ("lr", Json::Num(p.config.learning_rate)),
            (
                "tuning",
                p.tuning
                    .as_ref()
                    .map_or(Json::Null, |t| tuning_json(t, &ablation_training::spread::seeds(&p.config))),
            ),
        ])
    });
    Json::Arr(pins.collect())
}

/// The tuned lens for `.value` (`null` before it starts).
pub fn tuned_lens_json(lens: Option<&TunedLensState>) -> Json {
    lens.map_or(Json::Null, |l| {
        Json::Obj(vec![
            ("step", Json::Int(l.step as i128)),
            ("done", Json::Bool(l.done)),
            ("fit_steps", Json::Int(l.fit_steps as i128)),
            ("readout_loss", if l.done && l.failed.is_none() { Json::nums(&l.losses) } else { Json::Null }),
            ("failed", l.failed.as_ref().map_or(Json::Null, |why| Json::Str(why.clone()))),
        ])
    })
}

/// A removal's numbers after its own (`k`, `draws`): the probe loss, and on a sequence task
/// the held-out loss (and on the copy tasks the accuracy).
fn removal_fields(r: &Removal, sequence: bool, copies: bool) -> Vec<(&'static str, Json)> {
    let mut fields = vec![("loss", Json::Num(r.loss))];
    if sequence {
        fields.push(("val_loss", Json::Num(r.val_loss)));
    }
    if copies {
        fields.push(("accuracy", Json::Num(r.accuracy)));
    }
    fields
}

impl ToJsonFor for Knockout {
    /// On `task`: the per-layer lists, the top k, and k at random (each k's median over its draws).
    fn json(&self, task: TaskKind) -> Json {
        let (sequence, copies) = (task != TaskKind::Teacher, task.copies());
        let removal = |k: usize, r: &Removal, draws: Option<usize>| {
            let mut fields = vec![("k", Json::Int(k as i128))];
            fields.extend(removal_fields(r, sequence, copies));
            if let Some(n) = draws {
                fields.push(("draws", Json::Int(n as i128)));
            }
            Json::Obj(fields)
        };
        let random = self
            .random_k
            .iter()
            .map(|(k, draws)| removal(*k, &Removal::median(draws.iter()), Some(draws.len())));
        let mut fields = vec![
            ("intact_loss", Json::Num(self.intact_loss)),
            ("loss", Json::nums(&self.loss)),
            ("output_change", Json::nums(&self.output_change)),
        ];
        if sequence {
            fields.push(("intact_val_loss", Json::Num(self.intact.val_loss)));
            fields.push(("val_loss", Json::Arr(self.each.iter().map(|r| Json::Num(r.val_loss)).collect())));
        }
        if copies {
            fields.push(("intact_accuracy", Json::Num(self.intact.accuracy)));
            fields.push(("accuracy", Json::Arr(self.each.iter().map(|r| Json::Num(r.accuracy)).collect())));
        }
        fields.push((
            "top_k",
            Json::Arr(self.top_k.iter().enumerate().map(|(i, r)| removal(i + 1, r, None)).collect()),
        ));
        fields.push(("random_k", Json::Arr(random.collect())));
        fields.push((
            "below_top_k",
            Json::Arr(self.below_top_k.iter().enumerate().map(|(i, r)| removal(i + 1, r, None)).collect()),
        ));
        let gromov = self.gromov.iter().enumerate().map(|(i, (start, distance, r))| {
            let mut fields = vec![
                ("k", Json::Int(i as i128 + 1)),
                ("start", Json::Int(*start as i128)),
                ("angular_distance", Json::Num(*distance)),
            ];
            fields.extend(removal_fields(r, sequence, copies));
            Json::Obj(fields)
        });
        fields.push(("gromov", Json::Arr(gromov.collect())));
        Json::Obj(fields)
    }
}

impl ToJsonFor for Healing {
    /// `{steps, intact: {…}, gromov: [{k, start, …}]}`, each removal's numbers as the
    /// knockout's.
    fn json(&self, task: TaskKind) -> Json {
        let (sequence, copies) = (task != TaskKind::Teacher, task.copies());
        let gromov = self.gromov.iter().enumerate().map(|(i, (start, r))| {
            let mut fields = vec![("k", Json::Int(i as i128 + 1)), ("start", Json::Int(*start as i128))];
            fields.extend(removal_fields(r, sequence, copies));
            Json::Obj(fields)
        });
        Json::Obj(vec![
            ("steps", Json::Int(self.steps as i128)),
            ("intact", Json::Obj(removal_fields(&self.intact, sequence, copies))),
            ("gromov", Json::Arr(gromov.collect())),
        ])
    }
}

/// A pin's seeds: each one's step, last loss and divergence so far.
fn pin_seeds_json(p: &PinState) -> Json {
    let seed = |(seed, frame): &(u64, Option<Frame>)| {
        Json::Obj(vec![
            ("seed", Json::Int((*seed).into())),
            ("step", frame.as_ref().map_or(Json::Null, |f| Json::Int(f.step as i128))),
            ("loss", frame.as_ref().and_then(|f| f.history.last()).map_or(Json::Null, Json::Num)),
            ("diverged_at", step_json(frame.as_ref().and_then(|f| f.diverged_at))),
        ])
    };
    Json::Arr(p.seeds.iter().map(seed).collect())
}

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
