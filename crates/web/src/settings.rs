//! The reader's settings on the page's thread: checks what the reader types against the one
//! parameter table, keeps the configuration and the pins, and says what each change changed.

use super::words::Spoken;
use ablation_core::config;
use ablation_words::Said;
use wasm_bindgen::prelude::*;

/// The page's handle on the core's `Settings` (JavaScript knows it as `Settings`).
#[wasm_bindgen(js_name = Settings)]
pub struct SettingsHandle {
    pub(super) inner: config::Settings,
    /// The language its errors and notices are said in, set by `setWords`.
    language: Spoken,
}

/// `said` in `language`: an error's or a notice's words.
fn say(language: &Spoken, said: &Said) -> String {
    language.worded(|| said.to_string())
}

#[wasm_bindgen(js_class = Settings)]
impl SettingsHandle {
    /// Settings from a URL query. Invalid or unknown parameters fall back to the nearest valid
    /// value or the default; `takeNotices` says which.
    #[wasm_bindgen(constructor)]
    pub fn new(query: &str) -> SettingsHandle {
        SettingsHandle { inner: config::Settings::from_query(query), language: Spoken::default() }
    }

    /// Says its errors and notices in `words`' language from now on (a notice not yet taken
    /// too: it is said when it is taken).
    #[wasm_bindgen(js_name = setWords)]
    pub fn set_words(&mut self, words: &super::Words) {
        self.language.set(words);
    }

    /// Sets one parameter by its URL name (`pin` replaces the pins, `preset` sets every
    /// parameter) and returns the names it changed. A bad value is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Vec<String>, JsError> {
        let changed = self.inner.set(name, value).map_err(|e| JsError::new(&say(&self.language, &e)))?;
        Ok(changed.into_iter().map(String::from).collect())
    }

    /// Chooses a task as the Task control does: its defaults, keeping the switches, the depth
    /// and the seed; returns the names it changed. An unknown task is an error.
    /// Takes the configuration of a weights file (`view::safetensors`): every parameter the
    /// file's run trained with. Returns the names that changed; a file that is not one of
    /// ours, or is damaged, is an error in words and changes nothing.
    #[wasm_bindgen(js_name = adoptWeights)]
    pub fn adopt_weights(&mut self, bytes: &[u8]) -> Result<Vec<String>, JsError> {
        let file =
            ablation_view::safetensors::read(bytes).map_err(|e| JsError::new(&say(&self.language, &e)))?;
        Ok(self.inner.adopt(file.config).into_iter().map(String::from).collect())
    }

    #[wasm_bindgen(js_name = chooseTask)]
    pub fn choose_task(&mut self, task: &str) -> Result<Vec<String>, JsError> {
        let changed = self.inner.choose_task(task).map_err(|e| JsError::new(&say(&self.language, &e)))?;
        Ok(changed.into_iter().map(String::from).collect())
    }

    /// Like `set`, but an invalid value falls back to the nearest valid one with a notice (a
    /// bad pin list keeps its good pins, with a notice).
    #[wasm_bindgen(js_name = setLeniently)]
    pub fn set_leniently(&mut self, name: &str, value: &str) -> Vec<String> {
        self.inner.set_leniently(name, value).into_iter().map(String::from).collect()
    }

    /// A parameter's current value as text (`pin`: the pins as one `;`-separated list).
    pub fn get(&self, name: &str) -> Option<String> {
        self.inner.get(name)
    }

    /// Every parameter as a URL query, in table order, then the pins (if any).
    pub fn query(&self) -> String {
        self.inner.query()
    }

    /// The model's configuration as bytes: what the live run's worker restarts from.
    #[wasm_bindgen(js_name = configBytes)]
    pub fn config_bytes(&self) -> Vec<u8> {
        self.inner.config.encode()
    }

    /// Pins the current settings at `step`; an error in words if that pin cannot be added.
    #[wasm_bindgen(js_name = addPin)]
    pub fn add_pin(&mut self, step: u32) -> Result<(), JsError> {
        self.inner.add_pin(step as usize).map_err(|e| JsError::new(&say(&self.language, &e)))
    }

    /// Removes pin number `index` (from 0); out of range does nothing.
    #[wasm_bindgen(js_name = removePin)]
    pub fn remove_pin(&mut self, index: u32) {
        self.inner.remove_pin(index as usize);
    }

    /// The task is a sequence task (it writes, it has attention maps and a tuned lens), not
    /// the regression.
    #[wasm_bindgen(getter, js_name = sequenceTask)]
    pub fn sequence_task(&self) -> bool {
        self.inner.config.task.is_sequence()
    }

    /// `text` names a reader's text (`TextId`'s form: its hash, characters and vocabulary), not
    /// the plays.
    #[wasm_bindgen(js_name = namesOwnText)]
    pub fn names_own_text(&self, text: &str) -> bool {
        matches!(ablation_core::config::TextId::parse(text), Some(ablation_core::config::TextId::Own { .. }))
    }

    #[wasm_bindgen(getter, js_name = pinCount)]
    pub fn pin_count(&self) -> u32 {
        self.inner.pins.len() as u32
    }

    /// Every parameter as JSON, numbers as numbers.
    pub fn json(&self) -> String {
        ablation_view::json::config_json(&self.inner.config).to_string()
    }

    /// Notices about parameters that were replaced or ignored, since the last call.
    #[wasm_bindgen(js_name = takeNotices)]
    pub fn take_notices(&mut self) -> Vec<String> {
        self.inner.take_notices().iter().map(|n| say(&self.language, n)).collect()
    }
}
