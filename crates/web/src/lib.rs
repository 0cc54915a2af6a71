//! The one crate that knows about the browser: thin wasm-bindgen handles over the floors
//! below, for the page, its workers and the element (the page's `cdylib`, the top crate,
//! re-exports it as `ablation_playground::web`).
//!
//! - `Settings` (settings.rs): the reader's configuration and pins, on the page's thread.
//! - `Session` (session.rs): the live run, in its own Web Worker; it trains and encodes frames.
//! - `Job` (job.rs): one job of the comparisons, in a worker of the pool.
//! - `View` (view.rs): on the page's thread, the latest frame and the comparisons' jobs and
//!   reports; it draws the charts (on canvas.rs's backend) and gives the words.
//! - `Words` (words.rs): a widget's language, for its markup and its `View`.
//!
//! JavaScript holds these opaque handles and moves bytes between them; it does no maths.
//!
//! A crate of its own so that it is built for size (the `site` profile's libraries' level): the
//! functions wasm-bindgen exports, with what they inline, were 125 KB of the page's code at
//! full speed, and nothing of theirs runs per step (the step, the split step's shards and the
//! jobs are the training crate's, at full speed). BENCHMARKS.md, "Issue 69, third sitting".
//! Natively the crate is empty: the browser's alone.
#![cfg(target_arch = "wasm32")]

mod canvas;
mod job;
mod session;
mod settings;
mod shards;
mod view;
mod words;

pub use job::Job;
pub use session::SessionHandle;
pub use settings::SettingsHandle;
pub use shards::ShardHelper;
pub use view::View;
pub use words::Words;

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

/// The `WebAssembly.Module` these bindings were initialised with: on the playground page Trunk's
/// loader compiles it, and the page's workers boot from it (`assets.js`, `useCompiled`) instead
/// of fetching and compiling the wasm a second time.
#[wasm_bindgen(js_name = compiledModule)]
pub fn compiled_module() -> JsValue {
    wasm_bindgen::module()
}

/// Makes the fetched bytes of the shipped text (`data/shakespeare.txt`) the text task's text;
/// an error in words if they are not the shipped ones (their length and hash are checked).
#[wasm_bindgen(js_name = installText)]
pub fn install_text(bytes: &[u8]) -> Result<(), JsError> {
    ablation_training::tasks::corpus::install_text(bytes).map_err(js_error)
}

/// Whether this worker's wasm holds the text (fetched once, then kept across task switches).
#[wasm_bindgen(js_name = textInstalled)]
pub fn text_installed() -> bool {
    ablation_training::tasks::corpus::text().is_some()
}

/// The text a configuration (`Settings.configBytes`) or, with `job`, a job's bytes (`View.job`) needs that is not here yet: `plays` (the worker fetches
/// it) or a reader's text's id (the page sends its bytes); undefined if none is missing.
#[wasm_bindgen(js_name = missingText)]
pub fn missing_text(bytes: &[u8], job: bool) -> Option<String> {
    let config = if job {
        ablation_training::runs::job::Job::config_in(bytes)
    } else {
        ablation_core::config::Config::decode(bytes)
    };
    config.ok().filter(lacks_text).map(|c| c.text.text())
}

/// How many shards a configuration's (`Settings.configBytes`) step is split into (`shards`, or
/// what 0 chose: `Config::step_shards`): 1 for one that is not, or for damaged bytes. The page
/// starts helper workers for a split step.
#[wasm_bindgen(js_name = configShards)]
pub fn config_shards(bytes: &[u8]) -> u32 {
    ablation_core::config::Config::decode(bytes).map_or(1, |c| c.step_shards() as u32)
}

/// Checks a reader's text (its bytes, as dropped, pasted or fetched) and holds it for the runs
/// that name it: `[its id (the text_id parameter), what the sentence about it says (JSON:
/// `Words.textWords` says it)]`, or an error in words (empty, too short or long, not UTF-8, a
/// PDF or web page) and nothing held.
#[wasm_bindgen(js_name = installOwnText)]
pub fn install_own_text(bytes: &[u8]) -> Result<Vec<String>, JsError> {
    // (the reason as its message, said on the page in the reader's language: `Words.sayReason`)
    let corpus = ablation_training::tasks::corpus::install_own(bytes)
        .map_err(|e| JsError::new(&words::said_json(&e)))?;
    Ok(vec![corpus.id.text(), ablation_view::text_facts::TextFacts::of(&corpus).json().to_string()])
}

/// The text a weights file's run trained on (its `text_id`): the page checks that it has a
/// reader's text before taking the file's configuration. A damaged file is an error in words.
#[wasm_bindgen(js_name = weightsTextId)]
pub fn weights_text_id(bytes: &[u8]) -> Result<String, JsError> {
    // (the reason as its message, said on the page in the reader's language: `Words.sayReason`)
    let file = ablation_view::safetensors::read(bytes).map_err(|e| JsError::new(&words::said_json(&e)))?;
    Ok(if file.config.task == ablation_core::config::TaskKind::Text {
        file.config.text.text()
    } else {
        "plays".into()
    })
}

/// `config` is on the text task, and this wasm does not hold its text.
fn lacks_text(config: &ablation_core::config::Config) -> bool {
    config.task == ablation_core::config::TaskKind::Text
        && ablation_training::tasks::corpus::corpus(config.text).is_none()
}

/// An error for a configuration that needs the text when it is not here (never a panic).
pub(crate) fn check_text(config: &ablation_core::config::Config) -> Result<(), JsError> {
    if lacks_text(config) {
        return Err(JsError::new("the text task's text has not been loaded"));
    }
    Ok(())
}

/// The widget's colours in a host that does not theme it: from the text colour it inherits, the
/// computed backgrounds of its ancestors (nearest first) and the page's canvas colour, as
/// `color-scheme:dark;--ap-i-bg:#…;…` (view/theme.rs).
#[wasm_bindgen(js_name = hostTheme)]
pub fn host_theme(inherited: &str, backgrounds: Vec<String>, canvas: &str) -> String {
    let backgrounds: Vec<&str> = backgrounds.iter().map(String::as_str).collect();
    ablation_view::theme::host_theme(inherited, ablation_view::theme::painted(&backgrounds, canvas)).css()
}

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}
