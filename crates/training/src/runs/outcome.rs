//! What a comparison keeps of a run (`Outcome`: a few numbers, and its loss curve if asked
//! for). The comparisons run their runs as jobs (`job.rs`), in the page's pool or on the CLI's
//! threads (`Comparisons::run_here`).

use crate::runs::spread::{learned, tail_loss};
use crate::step::report::{RunInProgress, TaskEnd};
use ablation_core::config::Config;

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
    /// The mean training loss over the run's last tenth (`spread::tail_loss`; infinity if it
    /// diverged, NaN while in progress): the score a tuned comparison's trials give a run
    /// (`trial::TrialRun`), bit for bit.
    pub tail: f64,
    /// A sequence task's run learned the task by its end (`spread::learned`); `None` on the
    /// regression or while in progress.
    pub learned: Option<bool>,
    /// The run had plateaued by its end (`spread::plateaued`); `None` while in progress.
    pub converged: Option<bool>,
    /// The updates it made: its steps, or fewer where it plateaued (`until=plateau`).
    pub steps: usize,
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
            tail: f64::NAN,
            learned: None,
            converged: None,
            steps: 0,
        }
    }

    /// The outcome of a run, or what it has measured so far if it is still going on.
    pub fn of(run: &RunInProgress, keep_loss: bool) -> Outcome {
        let init = run.init();
        let top = run.config().depth;
        let last = run.loss().last().copied().filter(|_| run.is_done());
        let held_out = run.task_end();
        let done = run.is_done();
        Outcome {
            config: run.config().clone(),
            init_top_std: init.act_std[top],
            grad_ratio: init.grad_norm[0] / init.grad_norm[top],
            final_loss: last.unwrap_or(f64::NAN),
            diverged_at: run.diverged_at(),
            loss: if keep_loss { run.loss().to_vec() } else { Vec::new() },
            readout_loss: run.readout_loss(),
            tail: if done { tail_loss(run.loss()) } else { f64::NAN },
            learned: if done { learned(run.config(), held_out.loss, held_out.accuracy) } else { None },
            converged: done.then(|| run.converged()),
            steps: run.loss().len().saturating_sub(1),
            held_out,
        }
    }
}
