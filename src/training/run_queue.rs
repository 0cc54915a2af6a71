//! Several runs of the same length, one after another, advanced a budget of steps at a time:
//! what "All four" and the depth sweep are made of. Only the run in progress holds a stack;
//! a finished run leaves its outcome, a few numbers (and its loss curve if asked for).

use crate::config::Config;
use crate::training::report::RunInProgress;

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
        }
    }
}

pub struct RunQueue {
    configs: Vec<Config>,
    steps: usize,
    keep_loss: bool,
    current: Option<RunInProgress>,
    finished: Vec<Outcome>,
}

impl RunQueue {
    /// `configs`, each to be trained for `steps` updates, in order. `keep_loss` keeps every
    /// run's loss curve in its outcome (a sweep of many long runs need not).
    pub fn new(configs: Vec<Config>, steps: usize, keep_loss: bool) -> RunQueue {
        RunQueue { configs, steps, keep_loss, current: None, finished: Vec::new() }
    }

    /// Takes up to `max_steps` training steps across the runs (starting a run, which builds
    /// its stack and probes it, counts as one) and says whether every run is done.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        let mut budget = max_steps;
        while budget > 0 && !self.is_done() {
            let run = match &mut self.current {
                Some(run) => run,
                None => {
                    budget -= 1;
                    let config = &self.configs[self.finished.len()];
                    self.current.insert(RunInProgress::new(config, self.steps))
                }
            };
            budget -= run.advance_counting(budget);
            if run.is_done() {
                self.finished.push(Outcome::of(run, self.keep_loss));
                self.current = None; // frees the stack before the next run builds its own
            }
        }
        self.is_done()
    }

    pub fn is_done(&self) -> bool {
        self.finished.len() == self.configs.len()
    }

    /// The configurations, in the order they run.
    pub fn configs(&self) -> &[Config] {
        &self.configs
    }

    /// The outcomes of the runs finished so far, in order.
    pub fn finished(&self) -> &[Outcome] {
        &self.finished
    }

    /// The run in progress, if any (for drawing its curve as it grows).
    pub fn current(&self) -> Option<&RunInProgress> {
        self.current.as_ref()
    }

    pub fn steps(&self) -> usize {
        self.steps
    }
}
