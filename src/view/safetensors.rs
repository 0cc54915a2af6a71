//! A trained stack as a safetensors file, the format PyTorch, JAX and numpy load through the
//! `safetensors` package: 8 bytes of little-endian header length, a JSON header naming each
//! tensor's dtype, shape and byte range, then the tensors' bytes. Written and read here (the
//! format is that small) rather than through the crate and serde, which would grow the wasm.
//!
//! One tensor per parameter, float32, named as `Params::names` names it
//! (`layers.3.attention.q.weight`), in the orientation the maths uses: a (rows, cols) matrix as
//! shape `[rows, cols]`, row-major, so that a linear map is `y = x @ weight + bias`; a tensor of
//! one row (a bias, γ, β) as one dimension. The header's `__metadata__` carries the run's
//! configuration (the report's `config` object, as JSON text), its step, the producer and, for
//! the text task, the vocabulary (a JSON list of the characters in id order).
//! docs/cli.md, "The weights file", says what every tensor means.
//!
//! Reading checks everything before anything changes: the lengths, the JSON, the configuration
//! (through the parameter table), that every tensor the configuration's stack has is there with
//! its shape and nothing else is, and that the ranges lie inside the file without overlapping.

use crate::config::{Config, TaskKind, PARAMS};
use crate::model::param::Params;
use crate::model::stack::Stack;
use crate::training::corpus::corpus;
use crate::view::json::{config_json, Json};
use crate::view::json_parse::Parsed;

/// The largest header read (the format's own limit).
const MAX_HEADER: u64 = 100_000_000;

/// One tensor's name and shape, in `visit` order.
fn tensors(stack: &mut Stack<f32>) -> Vec<(String, usize, usize)> {
    let mut names = Vec::new();
    stack.names("", &mut names);
    let mut shapes = Vec::new();
    stack.visit(&mut |p| shapes.push((p.value.nrows(), p.value.ncols())));
    assert_eq!(names.len(), shapes.len(), "a name for every parameter");
    names.into_iter().zip(shapes).map(|(n, (r, c))| (n, r, c)).collect()
}

fn shape_json(rows: usize, cols: usize) -> String {
    if rows == 1 {
        format!("[{cols}]")
    } else {
        format!("[{rows},{cols}]")
    }
}

/// The file of `stack`, a stack of `config` after `step` updates.
pub fn write(config: &Config, step: usize, stack: &mut Stack<f32>) -> Vec<u8> {
    let tensors = tensors(stack);
    let mut metadata = vec![
        ("config", Json::Str(config_json(config).to_string())),
        ("step", Json::Str(step.to_string())),
        ("producer", Json::Str(format!("ablation-playground {}", env!("CARGO_PKG_VERSION")))),
    ];
    if let Some(text) = (config.task == TaskKind::Text).then(|| corpus(config.text)).flatten() {
        // the characters in id order (the last the unknown symbol, if the text has one)
        let chars = Json::Arr(text.vocab.iter().map(|c| Json::Str(c.to_string())).collect());
        metadata.push(("vocab", Json::Str(chars.to_string())));
    }
    let metadata = Json::Obj(metadata);
    let mut header = format!("{{\"__metadata__\":{metadata}");
    let mut offset = 0;
    for (name, rows, cols) in &tensors {
        let bytes = rows * cols * 4;
        header += &format!(
            ",{}:{{\"dtype\":\"F32\",\"shape\":{},\"data_offsets\":[{offset},{}]}}",
            Json::Str(name.clone()),
            shape_json(*rows, *cols),
            offset + bytes
        );
        offset += bytes;
    }
    header.push('}');
    // the data begins 8-byte aligned, the header padded with spaces as the format allows
    while !header.len().is_multiple_of(8) {
        header.push(' ');
    }
    let mut out = Vec::with_capacity(8 + header.len() + offset);
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    stack.visit(&mut |p| {
        // row-major: the matrix is stored by columns
        let (rows, cols) = (p.value.nrows(), p.value.ncols());
        for r in 0..rows {
            for c in 0..cols {
                out.extend_from_slice(&p.value[(r, c)].to_le_bytes());
            }
        }
    });
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
fn config_of(text: &str) -> Result<Config, String> {
    let parsed = Parsed::parse(text).map_err(|e| format!("its configuration is not JSON ({e})"))?;
    let Parsed::Obj(fields) = parsed else { return Err("its configuration is not a JSON object".into()) };
    let mut config = Config::default();
    for (name, value) in &fields {
        if !PARAMS.iter().any(|p| p.name == name) {
            return Err(format!("its configuration has {:?}, which is no parameter of this version", name));
        }
        let text = match value {
            Parsed::Str(s) => s.clone(),
            Parsed::Num(n) => n.clone(),
            _ => return Err(format!("its configuration's {name} is neither a number nor a word")),
        };
        config.set(name, &text).map_err(|e| format!("its configuration's {e}"))?;
    }
    if let Some(p) = PARAMS.iter().find(|p| !fields.iter().any(|(n, _)| n == p.name)) {
        return Err(format!("its configuration has no {}", p.name));
    }
    config.check_together().map_err(|e| format!("its configuration's {e}"))?;
    Ok(config)
}

/// Reads a weights file, checked; an error in words for a file that is not one, is damaged or
/// truncated, or does not fit its own configuration.
pub fn read(bytes: &[u8]) -> Result<WeightsFile, String> {
    let refuse = |why: String| format!("not a weights file of this playground: {why}");
    let Some(len) = bytes.get(..8) else { return Err(refuse(format!("{} bytes", bytes.len()))) };
    let n = u64::from_le_bytes(len.try_into().expect("8 bytes"));
    if n > MAX_HEADER || n > (bytes.len() - 8) as u64 {
        return Err(refuse(format!("its header would be {n} bytes of a file of {}", bytes.len())));
    }
    let header = std::str::from_utf8(&bytes[8..8 + n as usize])
        .map_err(|_| refuse("its header is not UTF-8".into()))?;
    let data = &bytes[8 + n as usize..];
    let parsed = Parsed::parse(header).map_err(|e| refuse(format!("its header is not JSON ({e})")))?;
    let Parsed::Obj(entries) = &parsed else { return Err(refuse("its header is not a JSON object".into())) };
    let metadata = parsed.get("__metadata__").ok_or_else(|| refuse("it has no __metadata__".into()))?;
    let config_text = metadata
        .get("config")
        .and_then(Parsed::as_str)
        .ok_or_else(|| refuse("its __metadata__ has no config".into()))?;
    let config = config_of(config_text).map_err(refuse)?;
    let step = metadata.get("step").and_then(Parsed::as_str).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut stack = Stack::<f32>::unweighted(&config);
    let expected = tensors(&mut stack);
    if entries.len() != expected.len() + 1 {
        return Err(refuse(format!(
            "it has {} tensors; a stack of its configuration has {}",
            entries.len() - 1,
            expected.len()
        )));
    }
    let mut weights = Vec::with_capacity(expected.iter().map(|(_, r, c)| r * c).sum());
    let mut ranges = Vec::with_capacity(expected.len());
    for (name, rows, cols) in &expected {
        let t = parsed.get(name).ok_or_else(|| refuse(format!("it has no tensor {name}")))?;
        if t.get("dtype").and_then(Parsed::as_str) != Some("F32") {
            return Err(refuse(format!("{name} is not float32 (F32)")));
        }
        let shape: Option<Vec<u64>> = match t.get("shape") {
            Some(Parsed::Arr(dims)) => dims.iter().map(Parsed::as_u64).collect(),
            _ => None,
        };
        let want: Vec<u64> = if *rows == 1 { vec![*cols as u64] } else { vec![*rows as u64, *cols as u64] };
        if shape.as_ref() != Some(&want) {
            return Err(refuse(format!(
                "{name} has the shape {shape:?}, not {want:?} as its configuration says"
            )));
        }
        let range = match t.get("data_offsets") {
            Some(Parsed::Arr(o)) if o.len() == 2 => o[0].as_u64().zip(o[1].as_u64()),
            _ => None,
        };
        let Some((begin, end)) = range.filter(|&(b, e)| b <= e && e <= data.len() as u64) else {
            return Err(refuse(format!("{name}'s bytes are not inside the file (truncated?)")));
        };
        if end - begin != (rows * cols * 4) as u64 {
            return Err(refuse(format!("{name}'s byte range does not hold its shape")));
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
    ranges.sort_unstable();
    if ranges.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err(refuse("two tensors share bytes".into()));
    }
    if ranges.last().is_some_and(|r| r.1 != data.len() as u64) {
        return Err(refuse("it has bytes after its last tensor".into()));
    }
    if let Some(bad) = weights.iter().position(|w| !w.is_finite()) {
        return Err(refuse(format!("its weight {bad} is not a finite number")));
    }
    Ok(WeightsFile { config, step, weights })
}
