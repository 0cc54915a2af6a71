//! Data parallelism: a training step's batch split into a fixed number of shards
//! (`Config::shards`), each shard's forward and backward on a stack of its own, the shards'
//! gradients summed in one fixed order (shard 0, then 1, …), scaled by `1 / shards` (a power of
//! two, so exactly) and the update applied once, by the trainer.
//!
//! The shards are fixed by the configuration, never by the machine: one executor running every
//! shard in turn gives the bits that many give (each shard's gradient is the same numbers
//! wherever it is computed, and the sum's order does not depend on who computed what). A
//! stack's rows are independent across sequences (attention, the norms and the loss work
//! within a sequence or a token), so the shards' mean gradient is the whole batch's gradient;
//! only the order of the sums differs, which is why a run's bits depend on `shards`.
//!
//! Natively the executors are threads (`ablate --threads`). In the browser the live worker
//! runs some shards itself and sends the others to helper workers of its own (`ShardRunner`,
//! behind a `MessagePort`): a step's split (`prepare`), a helper's task (`task`), its answer
//! (`put_answer`) and the sum (`finish`) are the pieces `step` is made of, so that a step whose
//! shards crossed to other workers gives the bits one thread gives.

use ablation_core::config::Config;
use ablation_core::model::batch::{Batch, Tokens};
use ablation_core::model::param::Params;
use ablation_core::model::real::Real;
use ablation_core::model::stack::Stack;
use ablation_core::wire::{Reader, Writer};
use nalgebra::DMatrix;

/// Shard `k` of `shards` of `batch`: its sequences `k·n … (k+1)·n − 1` (rows of a token
/// matrix, a sequence's positions consecutive), into `into` (its buffers reused).
pub fn shard_of<F: Real>(batch: &Batch<F>, shards: usize, k: usize, into: &mut Batch<F>) {
    match batch {
        Batch::Tokens(t) => {
            let n = t.ids.len() / shards;
            let range = k * n..(k + 1) * n;
            let out = match into {
                Batch::Tokens(out) => out,
                _ => {
                    *into = Batch::Tokens(Tokens::default());
                    let Batch::Tokens(out) = into else { unreachable!("just made") };
                    out
                }
            };
            out.clear();
            out.ids.extend_from_slice(&t.ids[range.clone()]);
            out.next.extend_from_slice(&t.next[range.clone()]);
            if !t.scored.is_empty() {
                out.scored.extend_from_slice(&t.scored[range]);
            }
        }
        Batch::Values { x, y } => {
            let n = x.nrows() / shards;
            *into = Batch::Values { x: x.rows(k * n, n).into_owned(), y: y.rows(k * n, n).into_owned() };
        }
    }
}

/// One shard's forward and, with `gradients`, backward on `stack` (its weights the step's):
/// its loss, and whether the pass stayed finite; its gradients left in `stack`'s parameters.
pub fn shard_pass<F: Real>(stack: &mut Stack<F>, batch: &Batch<F>, gradients: bool) -> (f64, bool) {
    let loss = stack.forward_batch(batch);
    let finite = loss.is_finite() && stack.all_finite();
    if gradients && finite {
        stack.backward_gradients_batch(batch);
    }
    (loss, finite)
}

/// `shard_pass` with its gradients, if it stayed finite, copied into `out`: one shard's work
/// wherever it runs (a thread, the live worker, `Shards::step`'s executors).
fn pass_into<F: Real>(
    stack: &mut Stack<F>,
    batch: &Batch<F>,
    gradients: bool,
    out: &mut Vec<F>,
) -> (f64, bool) {
    let result = shard_pass(stack, batch, gradients);
    if gradients && result.1 {
        gradients_of(stack, out);
    }
    result
}

/// `stack`'s gradients in `visit` order, into `out`.
pub fn gradients_of<F: Real>(stack: &mut Stack<F>, out: &mut Vec<F>) {
    out.clear();
    stack.visit(&mut |p| out.extend_from_slice(p.grad.as_slice()));
}

/// The shards' gradients summed in their order and scaled by `1 / shards`, into `sum`: what
/// the update reads. Every executor's sum is this one.
pub fn combine<F: Real>(shards: &[Vec<F>], sum: &mut Vec<F>) {
    sum.clear();
    sum.extend_from_slice(&shards[0]);
    for g in &shards[1..] {
        for (s, &x) in sum.iter_mut().zip(g) {
            *s += x;
        }
    }
    let scale = F::of(1.0 / shards.len() as f64);
    sum.iter_mut().for_each(|s| *s *= scale);
}

/// Sets `stack`'s gradients from `gradients` (`visit` order).
pub fn set_gradients<F: Real>(stack: &mut Stack<F>, gradients: &[F]) {
    let mut rest = gradients;
    stack.visit(&mut |p| {
        let (these, others) = rest.split_at(p.grad.len());
        p.grad.as_mut_slice().copy_from_slice(these);
        rest = others;
    });
}

/// A sharded step's stacks and buffers, kept from step to step: one stack per executor (each
/// the shard's size), each shard's batch and gradients.
pub struct Shards<F: Real> {
    count: usize,
    stacks: Vec<Stack<F>>,
    batches: Vec<Batch<F>>,
    gradients: Vec<Vec<F>>,
    /// Each shard's (loss, finite) this step, once it is in.
    results: Vec<Option<(f64, bool)>>,
    weights: Vec<F>,
    sum: Vec<F>,
}

impl<F: Real> Shards<F> {
    /// For `config` (whose `step_shards()` is more than 1), with `executors` stacks (at most one per
    /// shard; 1 runs every shard in turn).
    pub fn new(config: &Config, executors: usize) -> Self {
        let count = config.step_shards();
        let shard = config.shard();
        let executors = executors.clamp(1, count);
        Shards {
            count,
            stacks: (0..executors).map(|_| Stack::unweighted(&shard)).collect(),
            batches: (0..count).map(|_| Batch::Tokens(Tokens::default())).collect(),
            gradients: vec![Vec::new(); count],
            results: vec![None; count],
            weights: Vec::new(),
            sum: Vec::new(),
        }
    }

    pub fn executors(&self) -> usize {
        self.stacks.len()
    }

    /// How many shards a step has.
    pub fn count(&self) -> usize {
        self.count
    }

    /// A step's first piece: `stack`'s weights kept and `batch` split, every shard's result
    /// cleared.
    pub fn prepare(&mut self, stack: &mut Stack<F>, batch: &Batch<F>) {
        self.weights.clear();
        stack.visit(&mut |p| self.weights.extend_from_slice(p.value.as_slice()));
        for (k, into) in self.batches.iter_mut().enumerate() {
            shard_of(batch, self.count, k, into);
        }
        self.results.fill(None);
    }

    /// The step on `batch` with `stack`'s weights: the mean of the shards' losses and whether
    /// every shard stayed finite; with `gradients`, `stack`'s gradients set to the shards'
    /// mean, ready for the update.
    pub fn step(&mut self, stack: &mut Stack<F>, batch: &Batch<F>, gradients: bool) -> (f64, bool) {
        self.prepare(stack, batch);
        let (weights, batches) = (&self.weights, &self.batches);
        let run = |stack: &mut Stack<F>, work: &mut [ShardWork<F>]| {
            stack.load_weights(weights).expect("a shard's stack has the stack's shapes");
            for w in work.iter_mut() {
                w.result = pass_into(stack, &batches[w.shard], gradients, w.gradients);
            }
        };
        // executor e takes the shards e, e + E, e + 2E, …
        let executors = self.stacks.len();
        let mut work: Vec<Vec<ShardWork<F>>> = (0..executors).map(|_| Vec::new()).collect();
        for (shard, gradients) in self.gradients.iter_mut().enumerate() {
            work[shard % executors].push(ShardWork { shard, gradients, result: (f64::NAN, false) });
        }
        run_executors(&mut self.stacks, &mut work, &run);
        for w in work.iter().flatten() {
            self.results[w.shard] = Some(w.result);
        }
        self.finish(stack, gradients)
    }

    /// Shard `k` of the prepared step on this thread (the first executor's stack).
    pub fn run_here(&mut self, k: usize) {
        let stack = &mut self.stacks[0];
        stack.load_weights(&self.weights).expect("a shard's stack has the stack's shapes");
        self.results[k] = Some(pass_into(stack, &self.batches[k], true, &mut self.gradients[k]));
    }

    /// Every shard's result is in.
    pub fn complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// The shards whose results are not in yet.
    pub fn missing(&self) -> Vec<usize> {
        (0..self.count).filter(|&k| self.results[k].is_none()).collect()
    }

    /// The prepared step's last piece, once every shard's result is in: the mean loss in the
    /// shards' order, whether all stayed finite, and with `gradients` their mean set on `stack`.
    pub fn finish(&mut self, stack: &mut Stack<F>, gradients: bool) -> (f64, bool) {
        let results: Vec<(f64, bool)> =
            self.results.iter().map(|r| r.expect("every shard's result is in before the sum")).collect();
        let finite = results.iter().all(|r| r.1);
        let loss = results.iter().map(|r| r.0).sum::<f64>() / self.count as f64;
        if gradients && finite {
            combine(&self.gradients, &mut self.sum);
            set_gradients(stack, &self.sum);
        }
        (loss, finite)
    }
}

/// One shard's place in a step: which it is, where its gradients go, and its (loss, finite).
struct ShardWork<'a, F> {
    shard: usize,
    gradients: &'a mut Vec<F>,
    result: (f64, bool),
}

/// Each executor's shards on its own stack: on threads natively, one after another in wasm.
#[cfg(not(target_arch = "wasm32"))]
fn run_executors<F: Real, T: Send>(
    stacks: &mut [Stack<F>],
    work: &mut [Vec<T>],
    run: &(impl Fn(&mut Stack<F>, &mut [T]) + Sync),
) {
    if stacks.len() == 1 {
        run(&mut stacks[0], &mut work[0]);
        return;
    }
    std::thread::scope(|scope| {
        for (stack, work) in stacks.iter_mut().zip(work.iter_mut()) {
            scope.spawn(move || run(stack, work));
        }
    });
}

#[cfg(target_arch = "wasm32")]
fn run_executors<F: Real, T>(
    stacks: &mut [Stack<F>],
    work: &mut [Vec<T>],
    run: &impl Fn(&mut Stack<F>, &mut [T]),
) {
    for (stack, work) in stacks.iter_mut().zip(work.iter_mut()) {
        run(stack, work);
    }
}

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
