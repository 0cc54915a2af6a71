//! Where the CLI's comparisons run their jobs: on its own threads, or handed to whoever runs
//! `ablate --jobs-elsewhere` (a cluster's client, `scripts/studies.py`). A comparison wants
//! its jobs in rounds (a tuned arm's search asks for its next round once a round is in), and
//! each round's jobs are independent: so a round goes out whole, as the jobs' checked bytes,
//! and comes back as their reports' bytes, the same bits as if run here (`run_job` is the one
//! program either way). Depth or width's timed shapes are never handed out.

use ablation_training::runs::job::{Job, Report};
use std::sync::Mutex;

/// Runs one round of jobs somewhere else and returns each one's report.
pub type Elsewhere = Box<dyn FnMut(Vec<(u32, Job)>) -> Result<Vec<(u32, Report)>, String> + Send>;

static ELSEWHERE: Mutex<Option<Elsewhere>> = Mutex::new(None);

/// From now on this process's comparisons hand their rounds to `run` instead of their threads.
pub fn run_elsewhere(run: Elsewhere) {
    *ELSEWHERE.lock().expect("no thread panics holding it") = Some(run);
}

/// `jobs` run by what `run_elsewhere` installed, or `None` if nothing was (run them here).
pub(crate) fn handed_out(jobs: &[(u32, Job)]) -> Option<Result<Vec<(u32, Report)>, String>> {
    let mut elsewhere = ELSEWHERE.lock().expect("no thread panics holding it");
    let run = elsewhere.as_mut()?;
    Some(run(jobs.to_vec()))
}
