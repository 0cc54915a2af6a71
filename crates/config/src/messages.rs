//! The catalogue messages that translate the parameter table's words: each parameter's label
//! and help, each choice's label, each preset's help and each comparison's words. Their English
//! is the table's own (`ablation_words::Language::say_or` falls back to it); `schema.js`
//! carries the same ids beside it, so the page asks for no id of its own making.

use super::{ParamKind, COMPARISONS, PARAMS, PRESETS};

/// The message that translates parameter `name`'s label (`param-depth`).
pub fn param_message(name: &str) -> String {
    format!("param-{name}")
}

/// The message that translates parameter `name`'s help, the tooltip (`param-depth-help`).
pub fn param_help_message(name: &str) -> String {
    format!("param-{name}-help")
}

/// The message that translates choice `word` of parameter `name` (`choice-task-text`): a
/// message's id has letters, digits, `-` and `_` only, so `lr,warmup,beta2` is `lr-warmup-beta2`.
pub fn choice_message(name: &str, word: &str) -> String {
    let word: String =
        word.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
    format!("choice-{name}-{word}")
}

/// The message that translates part `part` of comparison `panel`'s words (`button`, `again`,
/// `chart`, `writes`, `summary-N`): `comparison-sweep-button`.
pub fn comparison_message(panel: &str, part: &str) -> String {
    format!("comparison-{panel}-{part}")
}

/// The message that translates preset `name`'s help (`preset-text-help`; its name is a word
/// of the URL's, not translated).
pub fn preset_message(name: &str) -> String {
    format!("preset-{name}-help")
}

/// The catalogue messages that translate the parameter table's words (`Language::say_or`), with
/// their English: each parameter's label and help, each choice's label, each preset's help and
/// each comparison's button, its button again, its chart's name, what its runs write and its
/// tables' summaries. `schema.js` names the same ids, so the page asks for no id of its own.
pub fn table_message_ids() -> Vec<(String, String)> {
    let mut out = vec![];
    for p in PARAMS {
        out.push((param_message(p.name), p.label.to_string()));
        out.push((param_help_message(p.name), p.help.to_string()));
        if let ParamKind::Choice(options) = p.kind {
            for (word, label) in options.words().zip(options.labels()) {
                out.push((choice_message(p.name, word), label.to_string()));
            }
        }
    }
    for p in PRESETS {
        out.push((preset_message(p.name), p.help.to_string()));
    }
    for spec in COMPARISONS {
        for (part, english) in spec.words() {
            out.push((comparison_message(spec.panel, &part), english.to_string()));
        }
    }
    out
}
