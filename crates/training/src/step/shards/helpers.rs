//! The split step across workers: a helper's task and answer in their binary form
//! (`Shards::task`, `Shards::put_answer`) and the helper's side (`ShardRunner`).

use super::{shard_pass, Shards};
use ablation_core::config::Config;
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::param::Params;
use ablation_core::model::stack::Stack;
use ablation_core::wire::{Reader, Writer};
use nalgebra::DMatrix;

/// A helper's task: "APH1".
const TASK_MAGIC: u32 = u32::from_le_bytes(*b"APH1");
/// A helper's answer: "APA1".
const ANSWER_MAGIC: u32 = u32::from_le_bytes(*b"APA1");

// A task and its answer are small (the configuration, the shards' batches, their losses): the
// weights and the gradients, tens of megabytes at the largest settings, travel beside them as
// plain arrays, each copied once out of one wasm memory and once into the other's parameters
// (`web::shards`), never encoded.

/// Fills a helper's answer's `i`-th shard's gradients into a buffer of the stack's length.
pub type FillGradients<'a> = dyn FnMut(usize, &mut [f32]) -> Result<(), String> + 'a;
/// Sets a task's weights (this many) on a helper's stack.
pub type LoadWeights<'a> = dyn FnMut(&mut Stack<f32>, usize) -> Result<(), String> + 'a;

impl Shards<f32> {
    /// The prepared step's weights (`Params::visit` order): what a helper's task travels with.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The task for a helper worker: the prepared step's `shards` and `config` (the whole
    /// stack's), numbered `step` (its answer names it).
    pub fn task(&self, config: &Config, step: u64, shards: &[usize]) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(256));
        w.u32(TASK_MAGIC);
        w.u64(step);
        config.write(&mut w);
        w.u64(self.weights.len() as u64);
        w.u64(shards.len() as u64);
        for &k in shards {
            w.u64(k as u64);
            write_batch(&mut w, &self.batches[k]);
        }
        w.0
    }

    /// A helper's answer to the task numbered `step`: its shards' results kept, and each
    /// finite one's gradients filled by `fill(i, into)` (the answer's `i`-th shard's, into a
    /// buffer of the stack's length). An answer to another step, or for shards not awaited, is
    /// an error that changes nothing.
    pub fn put_answer(&mut self, step: u64, bytes: &[u8], fill: &mut FillGradients) -> Result<(), String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != ANSWER_MAGIC {
            return Err("not a shard's answer".into());
        }
        if r.u64()? != step {
            return Err("an answer to another step".into());
        }
        let n = r.len(8)?;
        let mut answers: Vec<(usize, (f64, bool))> = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.usize()?;
            let result = (r.f64()?, r.u32()? != 0);
            if k >= self.count || self.results[k].is_some() || answers.iter().any(|a| a.0 == k) {
                return Err(format!("an answer for shard {k}, which is not awaited"));
            }
            answers.push((k, result));
        }
        r.done()?;
        let len = self.weights.len();
        for (i, &(k, (_, finite))) in answers.iter().enumerate() {
            if finite {
                self.gradients[k].resize(len, 0.0);
                fill(i, &mut self.gradients[k])?;
            }
        }
        for (k, result) in answers {
            self.results[k] = Some(result);
        }
        Ok(())
    }
}

/// A helper worker's side: runs the shards a task names on a stack of the shard's size (kept
/// while the configuration stays) and answers with their losses; their gradients stay in the
/// stack for the caller to copy out, one shard at a time.
#[derive(Default)]
pub struct ShardRunner {
    config: Option<Config>,
    stack: Option<Stack<f32>>,
}

impl ShardRunner {
    /// The answer to `task` (`Shards::task`'s bytes), its shards run on the stack after
    /// `load` has set the step's weights on it, and `gradients(i, stack)` called after the
    /// task's `i`-th shard's backward (a finite one's); an error for bytes that are not a task.
    pub fn run(
        &mut self,
        task: &[u8],
        load: &mut LoadWeights,
        gradients: &mut dyn FnMut(usize, &mut Stack<f32>),
    ) -> Result<Vec<u8>, String> {
        let mut r = Reader { bytes: task, at: 0 };
        if r.u32()? != TASK_MAGIC {
            return Err("not a shard's task".into());
        }
        let step = r.u64()?;
        let config = Config::read(&mut r)?;
        if config.step_shards() < 2 {
            return Err("a shard's task for a step that is not split".into());
        }
        let weights = r.usize()?;
        let n = r.len(8)?;
        let mut batches = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.usize()?;
            let batch = read_batch(&mut r)?;
            check_batch(&batch, &config)?;
            batches.push((k, batch));
        }
        r.done()?;
        if self.config.as_ref() != Some(&config) {
            self.stack = Some(Stack::unweighted(&config.shard()));
            self.config = Some(config);
        }
        let stack = self.stack.as_mut().expect("made above");
        let mut len = 0;
        stack.visit(&mut |p| len += p.value.len());
        if len != weights {
            return Err("a task's weights of another length than its stack's".into());
        }
        load(stack, len)?;
        let mut w = Writer(Vec::with_capacity(32 + 24 * n));
        w.u32(ANSWER_MAGIC);
        w.u64(step);
        w.u64(n as u64);
        for (i, (k, batch)) in batches.iter().enumerate() {
            let (loss, finite) = shard_pass(stack, batch, true);
            w.u64(*k as u64);
            w.f64(loss);
            w.u32(u32::from(finite));
            if finite {
                gradients(i, stack);
            }
        }
        Ok(w.0)
    }

    /// `run` with the weights and gradients as slices (natively, and in tests): the answer and
    /// the shards' gradients one after another (a non-finite shard's left zero).
    pub fn run_slices(&mut self, task: &[u8], weights: &[f32]) -> Result<(Vec<u8>, Vec<f32>), String> {
        let mut out: Vec<f32> = Vec::new();
        let answer = self.run(
            task,
            &mut |stack, len| {
                if weights.len() != len {
                    return Err("the weights of another length than the task says".into());
                }
                stack.load_weights(weights)
            },
            &mut |i, stack| {
                out.resize((i + 1) * weights.len(), 0.0);
                let mut at = i * weights.len();
                stack.visit(&mut |p| {
                    out[at..at + p.grad.len()].copy_from_slice(p.grad.as_slice());
                    at += p.grad.len();
                });
            },
        )?;
        Ok((answer, out))
    }
}

fn write_batch(w: &mut Writer, batch: &Batch<f32>) {
    match batch {
        Batch::Tokens(t) => {
            w.u32(0);
            w.u64(t.ids.len() as u64);
            t.ids.iter().for_each(|&x| w.u32(x));
            t.next.iter().for_each(|&x| w.u32(x));
            w.u64(t.scored.len() as u64);
            w.0.extend(t.scored.iter().map(|&s| u8::from(s)));
        }
        Batch::Values { x, y } => {
            w.u32(1);
            for m in [x, y] {
                w.u64(m.nrows() as u64);
                w.u64(m.ncols() as u64);
                w.f32s(m.as_slice());
            }
        }
    }
}

fn read_batch(r: &mut Reader) -> Result<Batch<f32>, String> {
    match r.u32()? {
        0 => {
            let n = r.len(8)?;
            let ids = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
            let next = (0..n).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
            let scored_n = r.len(1)?;
            if scored_n != 0 && scored_n != n {
                return Err("a batch's scored positions of another length".into());
            }
            let scored =
                (0..scored_n).map(|_| r.take::<1>().map(|b| b[0] != 0)).collect::<Result<Vec<_>, _>>()?;
            Ok(Batch::Tokens(Tokens { ids, next, scored }))
        }
        1 => {
            let mut matrix = || -> Result<DMatrix<f32>, String> {
                let (rows, cols) = (r.usize()?, r.usize()?);
                let values = r.f32s()?;
                if rows.checked_mul(cols) != Some(values.len()) {
                    return Err("a batch's matrix of another size than it says".into());
                }
                Ok(DMatrix::from_vec(rows, cols, values))
            };
            let x = matrix()?;
            let y = matrix()?;
            if x.nrows() != y.nrows() {
                return Err("a batch's inputs and targets of other lengths".into());
            }
            Ok(Batch::Values { x, y })
        }
        _ => Err("not a batch".into()),
    }
}

/// A batch a shard's stack of `config` can take: its inputs in range and of the shard's size
/// (a helper never indexes outside its tables, whatever bytes come).
fn check_batch(batch: &Batch<f32>, config: &Config) -> Result<(), String> {
    let shard = config.shard();
    let ok = match batch {
        Batch::Tokens(t) => {
            let vocab = shard.vocab();
            t.ids.len() == shard.tokens && t.ids.iter().chain(&t.next).all(|&x| (x as usize) < vocab)
        }
        Batch::Values { x, y } => {
            x.nrows() == shard.tokens
                && x.ncols() == shard.width
                && y.ncols() == ablation_core::model::stack::outputs(&shard)
        }
    };
    if ok {
        Ok(())
    } else {
        Err("a shard's batch that does not fit its configuration".into())
    }
}
