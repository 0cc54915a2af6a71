//! A frame: everything the page shows at one moment, as plain data. The session (in a Web
//! Worker, or on the main thread as a fallback) makes it; the page decodes it and draws the
//! charts and writes the words from it alone, so every number on screen comes from one frame.
//!
//! The wire form is a small binary encoding (little-endian numbers, length-prefixed lists),
//! so a frame crosses `postMessage` as one transferable byte buffer.

use crate::config::Config;
use crate::model::stats::Histogram;
use crate::training::loss_history::{Bucket, HistoryParts, LossHistory};
use crate::training::report::Snapshot;

#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The restart this frame belongs to: the page drops frames of older generations.
    pub generation: u32,
    pub config: Config,
    /// Training updates applied.
    pub step: usize,
    pub diverged_at: Option<usize>,
    /// The run stops when `step` reaches this (the `steps` parameter, raised by Play).
    pub stop_at: usize,
    /// The probe at initialisation, and now.
    pub init: Snapshot,
    pub now: Snapshot,
    /// What the readout reads on the probe batch, on the reader's axis.
    pub histogram: Histogram,
    pub history: LossHistory,
}

impl Frame {
    /// The latest training loss, or the probe loss before the first step.
    pub fn loss(&self) -> f64 {
        self.history.last().unwrap_or(self.now.probe_loss)
    }

    /// The status line's `act. std`: the std of what the readout reads on the probe batch
    /// now (after the final norm of a pre-norm stack, else the stream's top `x_L`).
    pub fn act_std(&self) -> f64 {
        self.now.readout_std
    }

    /// std of the residual stream's top `x_L` on the probe batch now.
    pub fn top_std(&self) -> f64 {
        self.now.act_std[self.config.depth]
    }

    /// Training reached its step limit (and did not diverge).
    pub fn finished(&self) -> bool {
        self.diverged_at.is_none() && self.step >= self.stop_at
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(4096));
        w.u32(MAGIC);
        w.u32(self.generation);
        w.str(&self.config.to_query());
        w.u64(self.step as u64);
        w.u64(self.diverged_at.map_or(u64::MAX, |s| s as u64));
        w.u64(self.stop_at as u64);
        for s in [&self.init, &self.now] {
            w.f64s(&s.act_std);
            w.f64s(&s.grad_norm);
            w.f64s(&s.weight_grad_norm);
            w.f64(s.readout_std);
            w.f64(s.probe_loss);
        }
        let h = &self.histogram;
        w.f64(h.lo);
        w.f64(h.hi);
        w.u64(h.counts.len() as u64);
        for &c in &h.counts {
            w.u32(c);
        }
        for c in [h.below, h.above, h.nan] {
            w.u32(c);
        }
        let p = self.history.parts();
        w.u64(p.buckets.len() as u64);
        for b in p.buckets {
            w.u64(b.start as u64);
            w.u64(b.count as u64);
            w.f64(b.min);
            w.f64(b.max);
            w.f64(b.smooth);
        }
        for n in [p.per_bucket, p.count, p.recent_at] {
            w.u64(n as u64);
        }
        for x in [p.last, p.lowest, p.log_smooth] {
            w.f64(x);
        }
        w.f64s(p.first);
        w.f64s(p.recent);
        w.0
    }

    /// Reads a frame written by `encode`; anything else is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Frame, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != MAGIC {
            return Err("not a frame".into());
        }
        let generation = r.u32()?;
        let mut config = Config::default();
        for pair in r.str()?.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or("a frame's configuration is malformed")?;
            config.set(name, value).map_err(|e| e.to_string())?;
        }
        let step = r.usize()?;
        let diverged_at = match r.u64()? {
            u64::MAX => None,
            s => Some(usize::try_from(s).map_err(|_| "step out of range")?),
        };
        let stop_at = r.usize()?;
        let snapshot = |r: &mut Reader| -> Result<Snapshot, String> {
            Ok(Snapshot {
                act_std: r.f64s()?,
                grad_norm: r.f64s()?,
                weight_grad_norm: r.f64s()?,
                readout_std: r.f64()?,
                probe_loss: r.f64()?,
            })
        };
        let init = snapshot(&mut r)?;
        let now = snapshot(&mut r)?;
        let depth = config.depth;
        for s in [&init, &now] {
            if s.act_std.len() != depth + 1
                || s.grad_norm.len() != depth + 1
                || s.weight_grad_norm.len() != depth
            {
                return Err("a frame's per-layer arrays do not match its depth".into());
            }
        }
        let (lo, hi) = (r.f64()?, r.f64()?);
        let bins = r.len(4)?;
        let counts = (0..bins).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        let histogram = Histogram { lo, hi, counts, below: r.u32()?, above: r.u32()?, nan: r.u32()? };
        let n = r.len(40)?;
        let buckets = (0..n)
            .map(|_| {
                Ok(Bucket {
                    start: r.usize()?,
                    count: r.usize()?,
                    min: r.f64()?,
                    max: r.f64()?,
                    smooth: r.f64()?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let (per_bucket, count, recent_at) = (r.usize()?, r.usize()?, r.usize()?);
        let (last, lowest, log_smooth) = (r.f64()?, r.f64()?, r.f64()?);
        let (first, recent) = (r.f64s()?, r.f64s()?);
        let history = LossHistory::from_parts(HistoryParts {
            buckets: &buckets,
            per_bucket,
            count,
            last,
            lowest,
            log_smooth,
            first: &first,
            recent: &recent,
            recent_at,
        })?;
        if r.at != bytes.len() {
            return Err("trailing bytes after a frame".into());
        }
        Ok(Frame { generation, config, step, diverged_at, stop_at, init, now, histogram, history })
    }
}

/// "APF2": an ablation-playground frame, version 2 (with the readout's std).
const MAGIC: u32 = 0x3246_5041;

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f64s(&mut self, xs: &[f64]) {
        self.u64(xs.len() as u64);
        for &x in xs {
            self.f64(x);
        }
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len()).ok_or("a frame ended early")?;
        let out = self.bytes[self.at..end].try_into().expect("N bytes");
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(self.u64()?).map_err(|_| "a count out of range".into())
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take()?))
    }
    /// A list length, checked against the bytes left (each item at least `item` bytes).
    fn len(&mut self, item: usize) -> Result<usize, String> {
        let n = self.usize()?;
        if n.checked_mul(item).is_none_or(|b| b > self.bytes.len() - self.at) {
            return Err("a frame's list is longer than the frame".into());
        }
        Ok(n)
    }
    fn f64s(&mut self) -> Result<Vec<f64>, String> {
        let n = self.len(8)?;
        (0..n).map(|_| self.f64()).collect()
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.len(1)?;
        let s = std::str::from_utf8(&self.bytes[self.at..self.at + n])
            .map_err(|_| "a frame's text is not UTF-8")?;
        self.at += n;
        Ok(s.to_string())
    }
}
