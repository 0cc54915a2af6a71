//! What a comparison keeps of a run (`Outcome`: a few numbers, and its loss curve if asked
//! for), and many runs trained at once on threads: what the CLI's All four and depth sweep
//! are made of. The page's comparisons run the same runs as jobs (`job.rs`) in a pool.

use crate::config::Config;
use crate::training::report::{RunInProgress, TaskEnd};

/// What a comparison keeps of a finished run: a row of the lesson's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub config: Config,
    /// std of the top of the stream, `x_L`, on the probe batch at initialisation.
    pub init_top_std: f64,
    /// `‖∂L/∂x₀‖ / ‖∂L/∂x_L‖` on the probe batch at initialisation: below 1 the gradient
    /// vanishes on its way down, above 1 it grows.
    pub grad_ratio: f64,
    /// The loss after the last update: the run's last loss (NaN if it diverged, or while the
    /// run is still in progress).
    pub final_loss: f64,
    pub diverged_at: Option<usize>,
    /// Every loss of the run (`steps + 1` values once done, NaN after divergence), or empty if
    /// the queue was told not to keep curves.
    pub loss: Vec<f64>,
    /// A sequence task's end: the last held-out loss and copy accuracy (NaN otherwise), and
    /// what the trained stack writes (empty for the teacher, or while the run goes on).
    pub held_out: TaskEnd,
    /// The readout loss at every depth ℓ = 0..=L after the last step (All four's runs, once
    /// done; empty otherwise).
    pub readout_loss: Vec<f64>,
}

impl Outcome {
    /// A run not started yet: its configuration, nothing measured (NaN).
    pub fn pending(config: &Config) -> Outcome {
        Outcome {
            config: config.clone(),
            init_top_std: f64::NAN,
            grad_ratio: f64::NAN,
            final_loss: f64::NAN,
            diverged_at: None,
            loss: Vec::new(),
            held_out: TaskEnd::default(),
            readout_loss: Vec::new(),
        }
    }

    /// The outcome of a run, or what it has measured so far if it is still going on.
    pub fn of(run: &RunInProgress, keep_loss: bool) -> Outcome {
        let init = run.init();
        let top = run.config().depth;
        let last = run.loss().last().copied().filter(|_| run.is_done());
        Outcome {
            config: run.config().clone(),
            init_top_std: init.act_std[top],
            grad_ratio: init.grad_norm[0] / init.grad_norm[top],
            final_loss: last.unwrap_or(f64::NAN),
            diverged_at: run.diverged_at(),
            loss: if keep_loss { run.loss().to_vec() } else { Vec::new() },
            held_out: run.task_end(),
            readout_loss: run.readout_loss(),
        }
    }
}

/// Trains every configuration for `steps` updates on up to `threads` threads at once and gives
/// their outcomes in the order of `configs`. Each run starts from its seed and touches nothing
/// shared, so the outcomes are the same bits on any number of threads.
pub fn run_all(configs: &[Config], steps: usize, keep_loss: bool, threads: usize) -> Vec<Outcome> {
    let run = |config: &Config| {
        let run = RunInProgress::new(config, steps);
        // All four's runs keep their curve and write; the sweep's do neither
        let mut run = if keep_loss { run } else { run.without_writing() };
        run.advance(usize::MAX);
        Outcome::of(&run, keep_loss)
    };
    let threads = threads.clamp(1, configs.len().max(1));
    if threads == 1 {
        return configs.iter().map(run).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(vec![None; configs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(config) = configs.get(i) else { break };
                let outcome = run(config);
                done.lock().expect("no thread panics holding it")[i] = Some(outcome);
            });
        }
    });
    done.into_inner().expect("no thread panicked").into_iter().map(|o| o.expect("every run done")).collect()
}
