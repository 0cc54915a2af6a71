//! The one module that knows about the browser: thin wasm-bindgen handles over the core.
//!
//! - `Settings` (settings.rs): the reader's configuration and pins, on the page's thread.
//! - `Session` (session.rs): the live run, in its own Web Worker; it trains and encodes frames.
//! - `Job` (job.rs): one job of the comparisons, in a worker of the pool.
//! - `View` (view.rs): on the page's thread, the latest frame and the comparisons' jobs and
//!   reports; it draws the charts (on canvas.rs's backend) and gives the words.
//!
//! JavaScript holds these opaque handles and moves bytes between them; it does no maths.

mod canvas;
mod job;
mod session;
mod settings;
mod view;

pub use job::Job;
pub use session::Session;
pub use settings::Settings;
pub use view::View;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Bytes of this wasm instance's linear memory (it never shrinks): for the benchmark's check
/// that long runs stay bounded.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}
