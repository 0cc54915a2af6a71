//! A trained stack as a safetensors file, the format PyTorch, JAX and numpy load through the
//! `safetensors` package: 8 bytes of little-endian header length, a JSON header naming each
//! tensor's dtype, shape and byte range, then the tensors' bytes. Written and read here (the
//! format is that small) rather than through the crate and serde, which would grow the wasm.
//!
//! One tensor per parameter, float32, named as `Params::names` names it
//! (`layers.3.attention.q.weight`), in the orientation the maths uses: a (rows, cols) matrix as
//! shape `[rows, cols]`, row-major, so that a linear map is `y = x @ weight + bias`; a tensor of
//! one row (a bias, γ, β) as one dimension. The header's `__metadata__` carries the run's
//! configuration (the report's `config` object, as JSON text, with `final_norm` saying whether
//! the file has a final norm), every update the weights had (`step`), the producer and, for
//! the text task, the vocabulary (a JSON list of the characters in id order).
//! docs/cli.md, "The weights file", says what every tensor means.
//!
//! Reading checks everything before anything changes: the lengths, the JSON, the configuration
//! (through the parameter table), that every tensor the configuration's stack has is there with
//! its shape and nothing else is, and that the ranges lie inside the file without overlapping.

use crate::json::{config_json, Json};
use crate::json_parse::Parsed;
use ablation_core::config::{Config, TaskKind, PARAMS};
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::param::Params;
use ablation_core::model::stack::{outputs, Stack};
use ablation_training::step::train::Trainer;
use ablation_training::tasks::corpus::corpus;
use ablation_training::tasks::data::Teacher;
use ablation_words::{Arg, Said};
use nalgebra::DMatrix;

/// The largest header read (the format's own limit).
const MAX_HEADER: u64 = 100_000_000;

/// Parameters added after weights files were first written, whose default is how every earlier
/// run trained (`schedule`: constant): a file without one is read with that default.
const ADDED_SINCE_FILES: &[&str] = &["schedule"];

/// One tensor's name and shape, in `visit` order.
fn tensors(stack: &mut Stack<f32>) -> Vec<(String, usize, usize)> {
    let mut names = Vec::new();
    stack.names("", &mut names);
    let mut shapes = Vec::new();
    stack.visit(&mut |p| shapes.push((p.value.nrows(), p.value.ncols())));
    assert_eq!(names.len(), shapes.len(), "a name for every parameter");
    names.into_iter().zip(shapes).map(|(n, (r, c))| (n, r, c)).collect()
}

/// The file of `stack`, a stack of `config` whose weights have had `updates` updates in all
/// (a run started from a file counts the file's: `Trainer::updates`).
pub fn write(config: &Config, updates: usize, stack: &mut Stack<f32>) -> Vec<u8> {
    let tensors = tensors(stack);
    let mut metadata = metadata(config, updates);
    if let Some(text) = (config.task == TaskKind::Text).then(|| corpus(config.text)).flatten() {
        // the characters in id order (the last the unknown symbol, if the text has one)
        let chars = Json::Arr(text.vocab.iter().map(|c| Json::Str(c.to_string())).collect());
        metadata.push(("vocab", Json::Str(chars.to_string())));
    }
    let entries: Vec<Entry> =
        tensors.iter().map(|(name, r, c)| Entry::new(name, "F32", vec![*r, *c], r * c * 4)).collect();
    let mut out = begin_file(metadata, &entries);
    stack.visit(&mut |p| row_major(&p.value, &mut out));
    out
}

/// What every file of this playground says of its run: the configuration as stored, every
/// update its weights had, the producer.
fn metadata(config: &Config, updates: usize) -> Vec<(&'static str, Json)> {
    vec![
        ("config", Json::Str(config_json(&as_stored(config)).to_string())),
        ("step", Json::Str(updates.to_string())),
        ("producer", Json::Str(format!("ablation-playground {}", env!("CARGO_PKG_VERSION")))),
    ]
}

/// `config` as a file says it: `final_norm` as the file holds it (a post-norm or DeepNorm
/// stack, or one without norms, has no final norm, whatever the setting, which only pre-norm
/// and sandwich read).
fn as_stored(config: &Config) -> Config {
    Config { final_norm: config.has_final_norm(), ..config.clone() }
}

/// One tensor's header entry: its name, dtype, shape and size in bytes.
struct Entry {
    name: String,
    dtype: &'static str,
    shape: Vec<usize>,
    bytes: usize,
}

impl Entry {
    /// A tensor; a matrix of one row is written as one dimension (a bias, γ, β).
    fn new(name: &str, dtype: &'static str, mut shape: Vec<usize>, bytes: usize) -> Entry {
        if shape.len() == 2 && shape[0] == 1 {
            shape.remove(0);
        }
        Entry { name: name.to_string(), dtype, shape, bytes }
    }
}

/// A file's length, header and padding, for the tensors' bytes to follow in `entries`' order.
fn begin_file(metadata: Vec<(&'static str, Json)>, entries: &[Entry]) -> Vec<u8> {
    let mut header = format!("{{\"__metadata__\":{}", Json::Obj(metadata));
    let mut offset = 0;
    for e in entries {
        let shape = e.shape.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        header += &format!(
            ",{}:{{\"dtype\":\"{}\",\"shape\":[{shape}],\"data_offsets\":[{offset},{}]}}",
            Json::Str(e.name.clone()),
            e.dtype,
            offset + e.bytes
        );
        offset += e.bytes;
    }
    header.push('}');
    // the data begins 8-byte aligned, the header padded with spaces as the format allows
    while !header.len().is_multiple_of(8) {
        header.push(' ');
    }
    let mut out = Vec::with_capacity(8 + header.len() + offset);
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out
}

/// One of a batch's lists of token ids (`ids`, `next`).
type Field = fn(&Tokens) -> &Vec<u32>;

/// A matrix's values row-major (nalgebra keeps them by columns), as little-endian float32 bytes.
fn row_major(m: &DMatrix<f32>, out: &mut Vec<u8>) {
    for r in 0..m.nrows() {
        for c in 0..m.ncols() {
            out.extend_from_slice(&m[(r, c)].to_le_bytes());
        }
    }
}

/// The batches a run's losses are measured on, as a safetensors file (`ablate
/// --save-eval-batch`; docs/cli.md, "The batches a loss is measured on"), with the losses the
/// run measured on them last: `probe_loss` on the probe batch and, on a sequence task,
/// `val_loss` on the held-out set (the mean of its batches' losses). A sequence task's batch
/// is `ids` (the inputs), `next` (the token each position predicts) and `scored` (whether the
/// loss counts the position), the held-out set's as [batches, tokens]; the regression's probe
/// batch is `probe.inputs` and `probe.targets`, with the teacher `A` (`targets = inputs @ A`).
pub fn eval_batches(trainer: &Trainer<f32>, probe_loss: f64, val_loss: Option<f64>) -> Vec<u8> {
    let config = &trainer.config;
    let mut metadata = metadata(config, trainer.updates());
    metadata.push(("probe_loss", Json::Str(Json::Num(probe_loss).to_string())));
    if let Some(v) = val_loss {
        metadata.push(("val_loss", Json::Str(Json::Num(v).to_string())));
    }
    let mut entries = Vec::new();
    let mut data = Vec::new();
    match trainer.probe_batch() {
        Batch::Values { x, y } => {
            let a = Teacher::<f32>::new(config.seed, config.width, outputs(config)).a;
            for (name, m) in [("probe.inputs", x), ("probe.targets", y), ("teacher", &a)] {
                entries.push(Entry::new(name, "F32", vec![m.nrows(), m.ncols()], m.len() * 4));
                row_major(m, &mut data);
            }
        }
        Batch::Tokens(probe) => {
            let held_out: Vec<&Tokens> = trainer
                .held_out()
                .iter()
                .map(|b| match b {
                    Batch::Tokens(t) => t,
                    Batch::Values { .. } => unreachable!("a sequence task's held-out batch"),
                })
                .collect();
            for (prefix, batches, shape) in [
                ("probe", vec![probe], vec![probe.ids.len()]),
                ("held_out", held_out.clone(), vec![held_out.len(), probe.ids.len()]),
            ] {
                let n: usize = shape.iter().product();
                let fields: [(&str, Field); 2] = [("ids", |t| &t.ids), ("next", |t| &t.next)];
                for (field, of) in fields {
                    let name = format!("{prefix}.{field}");
                    entries.push(Entry { name, dtype: "U32", shape: shape.clone(), bytes: n * 4 });
                    batches.iter().flat_map(|t| of(t)).for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                }
                entries.push(Entry { name: format!("{prefix}.scored"), dtype: "BOOL", shape, bytes: n });
                for t in &batches {
                    data.extend((0..t.ids.len()).map(|i| u8::from(t.is_scored(i))));
                }
            }
        }
    }
    let mut out = begin_file(metadata, &entries);
    out.extend_from_slice(&data);
    out
}

/// Whether weights of a stack of `theirs` load into a stack of `ours`: the same tensors, by
/// name and shape (the other settings, Residual say, may differ).
pub fn fits(theirs: &Config, ours: &Config) -> bool {
    tensors(&mut Stack::unweighted(theirs)) == tensors(&mut Stack::unweighted(ours))
}

/// A weights file read: the configuration it was trained with, its step, and the parameters
/// in `Params::visit` order (as `Stack::load_weights` takes them).
#[derive(Debug)]
pub struct WeightsFile {
    pub config: Config,
    pub step: usize,
    pub weights: Vec<f32>,
}

/// The configuration in a header's metadata, every value through the parameter table.
fn config_of(text: &str) -> Result<Config, Said> {
    let parsed = Parsed::parse(text).map_err(|e| Said::new("file-config-json").arg("detail", e))?;
    let Parsed::Obj(fields) = parsed else { return Err(Said::new("file-config-object")) };
    let mut config = Config::default();
    for (name, value) in &fields {
        if !PARAMS.iter().any(|p| p.name == name) {
            return Err(Said::new("file-config-unknown").arg("name", format!("{name:?}")));
        }
        let text = match value {
            Parsed::Str(s) => s.clone(),
            Parsed::Num(n) => n.clone(),
            _ => return Err(Said::new("file-config-kind").arg("name", name.as_str())),
        };
        config.set(name, &text).map_err(|e| Said::new("file-config-bad").arg("error", e.sentence()))?;
    }
    // (a parameter added since a file was written is missing from it: its default is what that
    // file's run trained with)
    let missing = |p: &&ablation_core::config::ParamSpec| {
        !ADDED_SINCE_FILES.contains(&p.name) && !fields.iter().any(|(n, _)| n == p.name)
    };
    if let Some(p) = PARAMS.iter().find(missing) {
        return Err(Said::new("file-config-missing").arg("name", p.name));
    }
    config.check_together().map_err(|e| Said::new("file-config-bad").arg("error", e.sentence()))?;
    Ok(config)
}

/// Reads a weights file, checked; an error in words (said in the thread's language, English
/// for `ablate`) for a file that is not one, is damaged or truncated, or does not fit its own
/// configuration.
pub fn read(bytes: &[u8]) -> Result<WeightsFile, Said> {
    let refuse = |why: Said| Said::new("file-refused").arg("why", why);
    let size = |n: usize| Arg::Text(n.to_string());
    let Some(len) = bytes.get(..8) else { return Err(refuse(Said::new("file-bytes").arg("n", bytes.len()))) };
    let n = u64::from_le_bytes(len.try_into().expect("8 bytes"));
    if n > MAX_HEADER || n > (bytes.len() - 8) as u64 {
        let why = Said::new("file-header-size").arg("n", n.to_string()).arg("size", size(bytes.len()));
        return Err(refuse(why));
    }
    let header =
        std::str::from_utf8(&bytes[8..8 + n as usize]).map_err(|_| refuse(Said::new("file-header-utf8")))?;
    let data = &bytes[8 + n as usize..];
    let parsed = Parsed::parse(header).map_err(|e| refuse(Said::new("file-header-json").arg("detail", e)))?;
    let Parsed::Obj(entries) = &parsed else { return Err(refuse(Said::new("file-header-object"))) };
    let metadata = parsed.get("__metadata__").ok_or_else(|| refuse(Said::new("file-no-metadata")))?;
    let config_text =
        metadata.get("config").and_then(Parsed::as_str).ok_or_else(|| refuse(Said::new("file-no-config")))?;
    let config = config_of(config_text).map_err(refuse)?;
    let step = metadata.get("step").and_then(Parsed::as_str).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut stack = Stack::<f32>::unweighted(&config);
    let expected = tensors(&mut stack);
    if entries.len() != expected.len() + 1 {
        let why = Said::new("file-tensor-count").arg("n", entries.len() - 1).arg("expected", expected.len());
        return Err(refuse(why));
    }
    let mut weights = Vec::with_capacity(expected.iter().map(|(_, r, c)| r * c).sum());
    let mut ranges = Vec::with_capacity(expected.len());
    for (name, rows, cols) in &expected {
        let named = |said: Said| refuse(said.arg("name", name.as_str()));
        let t = parsed.get(name).ok_or_else(|| named(Said::new("file-no-tensor")))?;
        if t.get("dtype").and_then(Parsed::as_str) != Some("F32") {
            return Err(named(Said::new("file-not-f32")));
        }
        let shape: Option<Vec<u64>> = match t.get("shape") {
            Some(Parsed::Arr(dims)) => dims.iter().map(Parsed::as_u64).collect(),
            _ => None,
        };
        let want: Vec<u64> = if *rows == 1 { vec![*cols as u64] } else { vec![*rows as u64, *cols as u64] };
        if shape.as_ref() != Some(&want) {
            let why = Said::new("file-shape")
                .arg("name", name.as_str())
                .arg("shape", format!("{shape:?}"))
                .arg("want", format!("{want:?}"));
            return Err(refuse(why));
        }
        let range = match t.get("data_offsets") {
            Some(Parsed::Arr(o)) if o.len() == 2 => o[0].as_u64().zip(o[1].as_u64()),
            _ => None,
        };
        let Some((begin, end)) = range.filter(|&(b, e)| b <= e && e <= data.len() as u64) else {
            return Err(named(Said::new("file-outside")));
        };
        if end - begin != (rows * cols * 4) as u64 {
            return Err(named(Said::new("file-range")));
        }
        ranges.push((begin, end));
        let bytes = &data[begin as usize..end as usize];
        let values: Vec<f32> =
            bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().expect("4"))).collect();
        // back to the column-major order the stack keeps
        for c in 0..*cols {
            for r in 0..*rows {
                weights.push(values[r * cols + c]);
            }
        }
    }
    ablation_core::order::sort_by_key(&mut ranges, |r| *r); // as many as the stack's tensors
    if ranges.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err(refuse(Said::new("file-overlap")));
    }
    if ranges.last().is_some_and(|r| r.1 != data.len() as u64) {
        return Err(refuse(Said::new("file-trailing")));
    }
    if let Some(bad) = weights.iter().position(|w| !w.is_finite()) {
        return Err(refuse(Said::new("file-not-finite").arg("index", bad.to_string())));
    }
    Ok(WeightsFile { config, step, weights })
}
