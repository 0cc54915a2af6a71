//! A frame: everything the page shows at one moment, as plain data. The session (in a Web
//! Worker, or on the main thread as a fallback) makes it; the page decodes it and draws the
//! charts and writes the words from it alone, so every number on screen comes from one frame.
//!
//! The wire form is a small binary encoding (little-endian numbers, length-prefixed lists),
//! so a frame crosses `postMessage` as one transferable byte buffer.

use crate::live::loss_history::LossHistory;
use crate::live::writing::Writing;
use crate::measures::per_matrix::MatrixGradients;
use crate::step::report::Snapshot;
use crate::step::train::{read_evals, write_evals, Eval};
use crate::tasks::corpus::Floors;
use crate::tasks::task::TaskFloors;
use ablation_core::config::Config;
use ablation_core::model::lens::AttentionMaps;
use ablation_core::model::stats::Histogram;
use ablation_core::wire::{Reader, Writer};

#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The page's desired state this frame answers: the page drops frames from before its
    /// last restart.
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
    /// The same at initialisation, on the same axis: what the reader compares it with.
    pub init_histogram: Histogram,
    /// The RMS of the learned scale γ of the norm the readout reads through (the final norm,
    /// or a post-norm stack's last), now: NaN without one. What moves `act. std` from 1.00.
    pub readout_unscaled_std: f64,
    /// The state the histogram and the per-layer panel show (`now`).
    pub shows: Shows,
    pub history: LossHistory,
    /// A sequence task's held-out measurements so far (at most `FRAME_EVALS`, evenly spaced).
    pub evals: Vec<Eval>,
    pub floors: Option<TaskFloors>,
    /// What the model wrote last.
    pub writing: Option<Writing>,
    /// The heads of the attention sublayer the reader chose, on the probe's first sequence
    /// (a sequence task's stack with attention; one layer's maps, the one drawn).
    pub attention: Option<AttentionMaps>,
    /// The matrices' view's measure so far (`LayerView::Matrices`): none in the other views
    /// and before its first batch.
    pub matrices: Option<MatrixGradients>,
}

/// Which state a frame's histogram and per-layer panel show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// The weights as trained so far.
    Now,
    /// After a divergence: the last finite state, the weights after this many updates (the
    /// step before the divergence).
    LastFinite(usize),
    /// After a divergence, while the session replays the run from the seed to reach the last
    /// finite state: the last state probed before it.
    Finding,
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
        self.config.write(&mut w);
        w.u64(self.step as u64);
        w.opt_usize(self.diverged_at);
        w.u64(self.stop_at as u64);
        for s in [&self.init, &self.now] {
            w.f64s(&s.act_std);
            w.f64s(&s.grad_norm);
            w.f64s(&s.weight_grad_norm);
            w.f64(s.readout_std);
            w.f64(s.probe_loss);
            w.f64s(&s.readout_loss);
            w.f64s(&s.update_ratio);
        }
        write_histogram(&mut w, &self.histogram);
        write_histogram(&mut w, &self.init_histogram);
        w.f64(self.readout_unscaled_std);
        match self.shows {
            Shows::Now => w.u32(0),
            Shows::LastFinite(step) => {
                w.u32(1);
                w.u64(step as u64);
            }
            Shows::Finding => w.u32(2),
        }
        self.history.write(&mut w);
        write_evals(&mut w, &self.evals);
        match self.floors {
            None => w.u32(0),
            Some(TaskFloors::Text(f)) => {
                w.u32(1);
                w.f64(f.unigram);
                w.f64(f.bigram);
            }
            Some(TaskFloors::Chance { chance }) => {
                w.u32(2);
                w.f64(chance);
            }
        }
        match &self.writing {
            None => w.u32(0),
            Some(wr) => {
                w.u32(1);
                w.u64(wr.step as u64);
                w.str(&wr.text);
                w.u64(wr.given as u64);
                w.u64(wr.wrong.len() as u64);
                wr.wrong.iter().for_each(|&i| w.u32(i));
                w.str(&wr.outside.iter().collect::<String>());
            }
        }
        match &self.attention {
            None => w.u32(0),
            Some(a) => {
                w.u32(1);
                w.u64(a.layer as u64);
                w.u64(a.layers.len() as u64);
                a.layers.iter().for_each(|&l| w.u64(l as u64));
                w.str(&a.tokens.iter().collect::<String>());
                w.u64(a.scored.len() as u64);
                a.scored.iter().for_each(|&s| w.u32(u32::from(s)));
                w.u64(a.heads as u64);
                for r in [&a.queries, &a.keys] {
                    w.u64(r.start as u64);
                    w.u64(r.end as u64);
                }
                w.u32(u32::from(a.masked));
                w.u64(a.answers.len() as u64);
                a.answers.iter().for_each(|&p| w.u32(p.map_or(u32::MAX, |p| p as u32)));
                w.f32s(&a.weights);
            }
        }
        match &self.matrices {
            None => w.u32(0),
            Some(m) => {
                w.u32(1);
                w.str(&m.names.join(" ")); // (a matrix's name has no space)
                w.f64s(&m.values);
                w.u64(m.batches as u64);
                w.u64(m.of as u64);
            }
        }
        w.0
    }

    /// Reads a frame written by `encode`; anything else is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Frame, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != MAGIC {
            return Err("not a frame".into());
        }
        let generation = r.u32()?;
        let config = Config::read(&mut r)?;
        let step = r.usize()?;
        let diverged_at = r.opt_usize()?;
        let stop_at = r.usize()?;
        let snapshot = |r: &mut Reader| -> Result<Snapshot, String> {
            Ok(Snapshot {
                act_std: r.f64s()?,
                grad_norm: r.f64s()?,
                weight_grad_norm: r.f64s()?,
                readout_std: r.f64()?,
                probe_loss: r.f64()?,
                readout_loss: r.f64s()?,
                update_ratio: r.f64s()?,
            })
        };
        let init = snapshot(&mut r)?;
        let now = snapshot(&mut r)?;
        let depth = config.depth;
        for s in [&init, &now] {
            if s.act_std.len() != depth + 1
                || s.grad_norm.len() != depth + 1
                || s.weight_grad_norm.len() != depth
                || ![0, depth + 1].contains(&s.readout_loss.len())
                || s.update_ratio.len() != depth
            {
                return Err("a frame's per-layer arrays do not match its depth".into());
            }
        }
        let (histogram, init_histogram) = (read_histogram(&mut r)?, read_histogram(&mut r)?);
        let readout_unscaled_std = r.f64()?;
        let shows = match r.u32()? {
            0 => Shows::Now,
            1 => Shows::LastFinite(r.usize()?),
            2 => Shows::Finding,
            _ => return Err("a frame's shown state is of no known kind".into()),
        };
        let history = LossHistory::read(&mut r)?;
        let evals = read_evals(&mut r)?;
        let floors = match r.u32()? {
            0 => None,
            1 => Some(TaskFloors::Text(Floors { unigram: r.f64()?, bigram: r.f64()? })),
            2 => Some(TaskFloors::Chance { chance: r.f64()? }),
            _ => return Err("a frame's floors are of no known kind".into()),
        };
        let writing = match r.u32()? {
            0 => None,
            1 => {
                let (step, text, given) = (r.usize()?, r.str()?, r.usize()?);
                let n = r.len(4)?;
                let wrong = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
                let outside = r.str()?.chars().collect();
                Some(Writing { step, text, given, wrong, outside })
            }
            _ => return Err("a frame's writing is of no known kind".into()),
        };
        let attention = match r.u32()? {
            0 => None,
            1 => {
                let layer = r.usize()?;
                let n = r.len(8)?;
                let layers = (0..n).map(|_| r.usize()).collect::<Result<Vec<_>, _>>()?;
                let tokens: Vec<char> = r.str()?.chars().collect();
                let n = r.len(4)?;
                let scored = (0..n).map(|_| r.u32().map(|s| s != 0)).collect::<Result<Vec<_>, _>>()?;
                let heads = r.usize()?;
                let queries = r.usize()?..r.usize()?;
                let keys = r.usize()?..r.usize()?;
                let masked = r.u32()? != 0;
                let n = r.len(4)?;
                let answers = (0..n)
                    .map(|_| r.u32().map(|p| (p != u32::MAX).then_some(p as usize)))
                    .collect::<Result<Vec<_>, _>>()?;
                let weights = r.f32s()?;
                let c = tokens.len();
                let fits = |r: &std::ops::Range<usize>| r.start < r.end && r.end <= c;
                if scored.len() != c
                    || answers.len() != c
                    || answers.iter().flatten().any(|&p| p >= c)
                    || !fits(&queries)
                    || !fits(&keys)
                    || heads.checked_mul(queries.len() * keys.len()) != Some(weights.len())
                    || !layers.contains(&layer)
                {
                    return Err("a frame's attention maps do not match their sequence".into());
                }
                Some(AttentionMaps {
                    layer,
                    layers,
                    tokens,
                    scored,
                    heads,
                    queries,
                    keys,
                    masked,
                    answers,
                    weights,
                })
            }
            _ => return Err("a frame's attention is of no known kind".into()),
        };
        let matrices = match r.u32()? {
            0 => None,
            1 => {
                let names: Vec<String> = r.str()?.split(' ').map(String::from).collect();
                let values = r.f64s()?;
                let (batches, of) = (r.usize()?, r.usize()?);
                if names.len() != depth || values.len() != depth || batches == 0 || batches > of {
                    return Err("a frame's matrices do not match its depth".into());
                }
                Some(MatrixGradients { names, values, batches, of })
            }
            _ => return Err("a frame's matrices are of no known kind".into()),
        };
        if r.at != bytes.len() {
            return Err("trailing bytes after a frame".into());
        }
        Ok(Frame {
            generation,
            config,
            step,
            diverged_at,
            stop_at,
            init,
            now,
            histogram,
            init_histogram,
            readout_unscaled_std,
            shows,
            history,
            evals,
            floors,
            writing,
            attention,
            matrices,
        })
    }
}

/// "APFA": an ablation-playground frame, version 10 (the matrices' view's measure).
const MAGIC: u32 = u32::from_le_bytes(*b"APFA");

fn write_histogram(w: &mut Writer, h: &Histogram) {
    w.f64(h.lo);
    w.f64(h.hi);
    w.u64(h.counts.len() as u64);
    for &c in &h.counts {
        w.u32(c);
    }
    for c in [h.below, h.above, h.nan] {
        w.u32(c);
    }
}

fn read_histogram(r: &mut Reader) -> Result<Histogram, String> {
    let (lo, hi) = (r.f64()?, r.f64()?);
    let bins = r.len(4)?;
    let counts = (0..bins).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
    Ok(Histogram { lo, hi, counts, below: r.u32()?, above: r.u32()?, nan: r.u32()? })
}
