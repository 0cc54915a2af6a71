//! The one file that knows about the browser: a thin wasm-bindgen handle over the core.
//! JavaScript holds an opaque `Playground`, calls small methods and reads numbers back;
//! it does no maths of its own.

use crate::params::PARAMS;
use crate::report::run;
use crate::Config;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The full `ablate` JSON report for a configuration given as a URL query
/// (`depth=12&residual=off`), computed in the browser.
#[wasm_bindgen(js_name = reportJson)]
pub fn report_json(query: &str, steps: usize) -> Result<String, JsError> {
    let config = config_from_query(query).map_err(|e| JsError::new(&e))?;
    Ok(run(&config, steps).json().to_string())
}

fn config_from_query(query: &str) -> Result<Config, String> {
    let mut config = Config::default();
    for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if PARAMS.iter().any(|p| p.name == name) {
            config.set(name, value).map_err(|e| e.to_string())?;
        }
    }
    Ok(config)
}
