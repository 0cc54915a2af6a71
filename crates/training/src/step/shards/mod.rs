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

mod helpers;
pub use helpers::{FillGradients, LoadWeights, ShardRunner};

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
/// the update reads. Every executor's sum is this one (`update::mean_of`, in the core).
pub fn combine<F: Real>(shards: &[Vec<F>], sum: &mut Vec<F>) {
    ablation_core::model::update::mean_of(shards, sum)
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

impl Shards<f32> {
    /// `run_here` of the page's `f32` stacks, compiled in this crate. A generic method is
    /// compiled in the crate that names its type: called from the page's binding, `run_here`
    /// and the whole forward and backward pass under it were a second copy in the page's wasm
    /// (BENCHMARKS.md, "Issue 69, third sitting"). `inline(never)` keeps the call a call.
    #[inline(never)]
    pub fn run_here_f32(&mut self, k: usize) {
        self.run_here(k);
    }
}
