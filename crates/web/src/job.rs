//! One job of the comparisons, in a worker of the pool: started from its bytes (`View.job`),
//! advanced in slices, reporting what it has so far (`View.report`).

use super::js_error;
use ablation_training::runs::job::{self, JobRunner};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `performance.now()` where the job runs (a worker of the pool, or the page): the clock of
/// depth or width's times.
fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or(f64::NAN, |p| p.now())
}

#[wasm_bindgen]
pub struct Job {
    id: u32,
    runner: JobRunner,
}

#[wasm_bindgen]
impl Job {
    /// Starts the job these bytes describe; damaged bytes are an error.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8]) -> Result<Job, JsError> {
        let (id, job) = job::Job::decode(bytes).map_err(js_error)?;
        super::check_text(job.config())?;
        Ok(Job { id, runner: JobRunner::with_clock(job, now).map_err(js_error)? })
    }

    #[wasm_bindgen(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Takes up to `max_steps` more steps (a knockout: layers); true once done.
    pub fn advance(&mut self, max_steps: u32) -> bool {
        self.runner.advance(max_steps as usize)
    }

    /// Its reports part way show something (a curve growing, a pin training): a sweep's runs
    /// keep no curve, so only their end is worth a report.
    #[wasm_bindgen(getter)]
    pub fn progressive(&self) -> bool {
        self.runner.progressive()
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.runner.is_done()
    }

    /// What the job has given so far, encoded for `View.report`.
    pub fn report(&mut self) -> Vec<u8> {
        self.runner.encoded_report(self.id)
    }
}
