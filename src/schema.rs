//! The parameter table as a JavaScript module (`www/schema.js`): the names, kinds, ranges,
//! choices, defaults, labels and help that the element's attributes, the More panel and the
//! message checks use, so that the page never types the list again. `tests/schema.rs` fails
//! when the file in the repository differs from what this writes (`scripts/schema.sh` rewrites it).

use crate::comparisons::page::AnyPanel;
use crate::config::messages::{
    choice_message, comparison_message, param_help_message, param_message, preset_message,
};
use crate::config::{
    format_float, AttributeKind, ParamKind, ATTRIBUTES, COMPARISONS, CONTROL_NAMES, MAX_PINS, MAX_PIN_STEPS,
    PARAMS, PIN, PRESET, PRESETS,
};

/// A JavaScript string literal.
fn js(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\\' => out += "\\\\",
            '\'' => out += "\\'",
            '\n' => out += "\\n",
            c if (c as u32) < 0x20 => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out + "'"
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

/// The words a list attribute takes: the controls, or the panels (the core's, and "writes",
/// words alone, after the live run's).
fn list_words(name: &str) -> Vec<&'static str> {
    match name {
        "controls" => CONTROL_NAMES.to_vec(),
        _ => {
            let showing =
                |shows: &'static str| AnyPanel::all().filter(move |p| p.shows() == shows).map(AnyPanel::name);
            showing("live").chain(["writes"]).chain(showing("comparisons")).collect()
        }
    }
}

/// An attribute's kind as `schema.js` writes it.
fn attribute_kind(a: &crate::config::AttributeSpec) -> String {
    match a.kind {
        AttributeKind::List => {
            format!("kind: 'list', words: {}", list(list_words(a.name).into_iter().map(js)))
        }
        AttributeKind::Flag { default_on } => format!("kind: 'flag', default: {default_on}"),
        AttributeKind::Url => "kind: 'url'".into(),
        AttributeKind::Text => "kind: 'text'".into(),
    }
}

/// The module's text.
pub fn schema_js() -> String {
    let mut s = String::from(
        "// Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.\n\
         // tests/schema.rs fails when this file is stale.\n\n",
    );
    s += "/** Every parameter, in table order: URL parameter, attribute and message field. */\n";
    s += "export const PARAMS = Object.freeze([\n";
    for p in PARAMS {
        let kind = match p.kind {
            ParamKind::Int { min, max, multiple_of } => {
                format!("kind: 'int', min: {min}, max: {max}, step: {multiple_of}")
            }
            ParamKind::Float { min, max } => format!("kind: 'float', min: {min}, max: {max}"),
            // (a switch: exactly on and off, a boolean in the notebook and the React component)
            ParamKind::Choice(options) => format!(
                "kind: 'choice', switch: {}, choices: {}, labels: {}, messages: {}",
                options.is_on_off(),
                list(options.words().map(js)),
                list(options.labels().map(js)),
                list(options.words().map(|w| js(&choice_message(p.name, w))))
            ),
            ParamKind::Seed => format!("kind: 'seed', min: 0, max: {}", js(&u64::MAX.to_string())),
            ParamKind::Text => "kind: 'text'".into(),
        };
        s += &format!(
            "  Object.freeze({{ name: {}, flag: {}, label: {}, {kind}, default: {}, restarts: {}, control: {}, help: {}, message: {}, helpMessage: {} }}),\n",
            js(p.name),
            js(p.flag),
            js(p.label),
            js(&p.default_text()),
            p.restarts,
            js(p.control.word()),
            js(p.help),
            js(&param_message(p.name)),
            js(&param_help_message(p.name))
        );
    }
    s += "]);\n\n";
    s += "/** The presets, for the menu: each sets every parameter. */\n";
    s += "export const PRESETS = Object.freeze([\n";
    for p in PRESETS {
        s += &format!(
            "  Object.freeze({{ name: {}, help: {}, message: {} }}),\n",
            js(p.name),
            js(p.help),
            js(&preset_message(p.name))
        );
    }
    s += "]);\n\n";
    s += &format!("export const PRESET = {};\nexport const PIN = {};\n", js(PRESET), js(PIN));
    s += &format!("export const MAX_PINS = {MAX_PINS};\nexport const MAX_PIN_STEPS = {MAX_PIN_STEPS};\n\n");
    {
        use crate::config::{MAX_PROMPT_CHARS, MAX_WRITE_CHARS, SAMPLE_CHARS};
        s += "/** A reader's text and prompt: the sizes the core takes (the core checks them again). */\n";
        s += &format!(
            "export const TEXT_LIMITS = Object.freeze({{ minChars: {}, maxBytes: {}, keptChars: {}, maxPromptChars: {MAX_PROMPT_CHARS}, maxWriteChars: {MAX_WRITE_CHARS}, sampleChars: {SAMPLE_CHARS} }});\n\n",
            crate::config::MIN_TEXT_CHARS,
            crate::config::MAX_TEXT_BYTES,
            crate::config::MAX_KEPT_CHARS
        );
    }
    s += "/** The comparisons: each one's panel, the element's method that starts it, the notebook's,\n";
    s += " *  its name in menus, whether the live worker starts it from its stack (else the wasm\n";
    s += " *  View's startComparison), its field in .value; its panel's markup: its button, the\n";
    s += " *  panel's button that runs it again, its chart's first accessible name, its tables by\n";
    s += " *  field (each folded under its summary, or whole: null) and its writes' group name; the\n";
    s += " *  catalogue's message that translates each of its words (language.js, tableWords). */\n";
    s += "export const COMPARISONS = Object.freeze([\n";
    for c in COMPARISONS {
        let tables: Vec<String> = c
            .tables
            .iter()
            .map(|&(field, summary)| {
                format!("{{ field: {}, summary: {} }}", js(field), summary.map_or("null".into(), js))
            })
            .collect();
        let messages: Vec<String> = c
            .words()
            .into_iter()
            .map(|(part, _)| format!("{}: {}", js(&part), js(&comparison_message(c.panel, &part))))
            .collect();
        s += &format!(
            "  Object.freeze({{ panel: {}, method: {}, python: {}, label: {}, fromLiveStack: {}, field: {}, button: {}, again: {}, chart: {}, tables: [{}], writes: {}, messages: {{ {} }} }}),\n",
            js(c.panel),
            js(c.method),
            js(c.python),
            js(c.label),
            c.from_live_stack,
            js(c.field),
            js(c.button),
            js(c.again),
            js(c.chart),
            tables.join(", "),
            c.writes.map_or("null".into(), js),
            messages.join(", ")
        );
    }
    s += "]);\n\n";
    s += "/** Every panel the core draws, in the page's order: its name (data-panel), its name in\n";
    s += " *  menus, and what it shows (the live run and its pins, or a comparison). */\n";
    s += "export const CHARTS = Object.freeze([\n";
    for p in AnyPanel::all() {
        s += &format!(
            "  Object.freeze({{ name: {}, label: {}, shows: {} }}),\n",
            js(p.name()),
            js(p.label()),
            js(p.shows())
        );
    }
    s += "]);\n\n";
    s += "/** The element's own attributes, beside the state: each one's option key (also the React\n";
    s += " *  prop; none: the playground page's URL alone), the notebook's trait, what its text is,\n";
    s += " *  whether the element observes it, and what it does. */\n";
    s += "export const ATTRIBUTES = Object.freeze([\n";
    for a in ATTRIBUTES {
        s += &format!(
            "  Object.freeze({{ name: {}, option: {}, python: {}, {}, element: {}, help: {} }}),\n",
            js(a.name),
            js(a.option),
            js(a.python),
            attribute_kind(a),
            a.element,
            js(a.help)
        );
    }
    s += "]);\n\n";
    s += "/** Every name the state takes, as attributes and messages do: the preset first (it sets\n";
    s += " *  every parameter, and the others then adjust it), the parameters, then the pins. */\n";
    s += "export const STATE_NAMES = Object.freeze([PRESET, ...PARAMS.map((p) => p.name), PIN]);\n";
    s
}

/// The parameters as TypeScript types for the npm package (`npm/params.d.ts`, which
/// `npm/index.d.ts` imports): each parameter's type in `.value` and as an attribute (a choice its
/// words, a number a number or its text, the seed its decimal text), the presets' names, and the
/// comparisons' methods, so that the declarations cannot drift from the table.
pub fn schema_ts() -> String {
    let words =
        |options: &'static dyn crate::config::Words| options.words().map(js).collect::<Vec<_>>().join(" | ");
    let doc = |p: &crate::config::ParamSpec| {
        let range = match p.kind {
            ParamKind::Int { min, max, .. } => format!(" ({min} to {max}; default {})", p.default_text()),
            ParamKind::Float { min, max } => {
                format!(" ({} to {}; default {})", format_float(min), format_float(max), p.default_text())
            }
            _ => format!(" (default {})", p.default_text()),
        };
        format!("  /** {}{range} */\n", p.help.replace("*/", "* /"))
    };
    let mut s = String::from(
        "// Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.\n\
         // tests/schema.rs fails when this file is stale.\n\n",
    );
    s += "/** A preset's name: the `preset` attribute (it sets every parameter; the others adjust it). */\n";
    s += &format!(
        "export type PresetName = {};\n\n",
        PRESETS.iter().map(|p| js(p.name)).collect::<Vec<_>>().join(" | ")
    );
    s += "/** Every parameter as `.value` holds it (and the `playground-update` event's detail, its part). */\n";
    s += "export interface AblationPlaygroundParams {\n";
    for p in PARAMS {
        let ty = match p.kind {
            ParamKind::Int { .. } | ParamKind::Float { .. } => "number".to_string(),
            ParamKind::Choice(options) => words(options),
            // a 64-bit seed is its decimal text: a number above 2**53 would be another seed
            ParamKind::Seed | ParamKind::Text => "string".to_string(),
        };
        s += &doc(p);
        s += &format!("  {}: {ty};\n", p.name);
    }
    s += "}\n\n";
    s += "/** Every parameter as an attribute of `<ablation-playground>` (and a prop of the React\n";
    s += " *  component): the URL parameters' names and values. */\n";
    s += "export interface AblationPlaygroundParamAttributes {\n";
    for p in PARAMS {
        let ty = match p.kind {
            ParamKind::Int { .. } | ParamKind::Float { .. } => "number | `${number}`".to_string(),
            ParamKind::Choice(options) => words(options),
            ParamKind::Seed => "number | bigint | `${number}`".to_string(),
            ParamKind::Text => "string".to_string(),
        };
        s += &doc(p);
        s += &format!("  {}?: {ty};\n", p.name);
    }
    s += &format!("  /** a preset's name: it sets every parameter, and the other attributes adjust it */\n  {PRESET}?: PresetName;\n");
    s += &format!("  /** pinned runs, each a state to train beside the live one: `residual:off@500;@1200` */\n  {PIN}?: string;\n");
    s += "}\n\n";
    s += "/** The element's own attributes beside the parameters. */\n";
    s += "export interface AblationPlaygroundOptions {\n";
    for a in ATTRIBUTES.iter().filter(|a| a.element) {
        let (ty, more) = match a.kind {
            AttributeKind::List => ("string".to_string(), format!(": {}", list_words(a.name).join(", "))),
            AttributeKind::Flag { .. } => {
                ("'on' | 'off' | 'true' | 'false' | 'yes' | 'no' | '1' | '0' | ''".to_string(), String::new())
            }
            AttributeKind::Url | AttributeKind::Text => ("string".to_string(), String::new()),
        };
        s += &format!("  /** {}{more} */\n", a.help.replace("*/", "* /"));
        let key = if a.name.contains('-') { js(a.name) } else { a.name.to_string() };
        s += &format!("  {key}?: {ty};\n");
    }
    s += "}\n\n";
    s += "/** The element's own attributes as the React component's props (a flag may be a boolean). */\n";
    s += "export interface AblationPlaygroundOptionProps {\n";
    for a in ATTRIBUTES.iter().filter(|a| a.element) {
        let flag = matches!(a.kind, AttributeKind::Flag { .. });
        s += &format!("  /** the `{}` attribute: {} */\n", a.name, a.help.replace("*/", "* /"));
        let ty = format!("AblationPlaygroundOptions[{}]", js(a.name));
        s += &format!("  {}?: {}{ty};\n", a.option, if flag { "boolean | " } else { "" });
    }
    s += "}\n\n";
    s += "/** The comparisons' fields of `.value`. */\n";
    s += &format!(
        "export type ComparisonField = {};\n\n",
        COMPARISONS.iter().map(|c| js(c.field)).collect::<Vec<_>>().join(" | ")
    );
    s += "/** The element's methods that start a comparison: each resolves once its runs are drawn. */\n";
    s += "export interface AblationPlaygroundComparisons {\n";
    for c in COMPARISONS {
        s += &format!(
            "  /** starts the `{}` comparison (`.value.{}`, the {} panel) */\n",
            c.method, c.field, c.panel
        );
        s += &format!("  {}(): Promise<void>;\n", c.method);
    }
    s += "}\n";
    s
}

/// The parameter names and their command-line flags for the pandoc filter
/// (`_extensions/ablation-playground/params.lua`): a div's attributes become `ablate` flags.
pub fn schema_lua() -> String {
    let mut s = String::from(
        "-- Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.\n\
         -- tests/schema.rs fails when this file is stale.\n\n\
         -- Each attribute of an ablation-playground div (the element's attribute names) and the\n\
         -- ablate flag that sets it.\n\
         return {\n",
    );
    for name in std::iter::once((PRESET, PRESET)).chain(PARAMS.iter().map(|p| (p.name, p.flag))) {
        s += &format!("  [\"{}\"] = \"{}\",\n", name.0, name.1);
    }
    s += "}\n";
    s
}

/// The parameters as the notebook widget's traits (`python/ablation_playground/_params.py`):
/// each name, its kind (`switch` for an on/off choice, a Python bool; `choice`, a string;
/// `int`, `float`, `seed`, numbers), its default and its choices.
pub fn schema_py() -> String {
    let py = |t: &str| format!("{t:?}");
    let mut s = String::from(
        "# Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.\n\
         # tests/schema.rs fails when this file is stale.\n\n\
         # (name, kind, default, choices, help) for each parameter, in the table's order.\n\
         PARAMS = [\n",
    );
    for p in PARAMS {
        let (kind, default, choices) = match p.kind {
            ParamKind::Choice(options) if options.is_on_off() => {
                ("switch", if p.default_text() == "on" { "True".into() } else { "False".into() }, "()".into())
            }
            ParamKind::Choice(options) => (
                "choice",
                py(&p.default_text()),
                format!("({},)", options.words().map(py).collect::<Vec<_>>().join(", ")),
            ),
            ParamKind::Int { .. } => ("int", p.default_text(), "()".into()),
            ParamKind::Float { .. } => ("float", p.default_text(), "()".into()),
            ParamKind::Seed => ("seed", p.default_text(), "()".into()),
            ParamKind::Text => ("text", py(&p.default_text()), "()".into()),
        };
        s += &format!("    ({}, {}, {default}, {choices}, {}),\n", py(p.name), py(kind), py(p.help));
    }
    s += "]\n\n";
    s += "# (min, max, multiple of, what the table allows) of each number, for the traits' checks.\n";
    s += "RANGES = {\n";
    for p in PARAMS {
        let range = match p.kind {
            ParamKind::Int { min, max, multiple_of } => format!("({min}, {max}, {multiple_of}"),
            ParamKind::Float { min, max } => format!("({}, {}, None", format_float(min), format_float(max)),
            ParamKind::Seed => format!("(0, {}, 1", u64::MAX),
            ParamKind::Choice(_) | ParamKind::Text => continue,
        };
        s += &format!("    {}: {range}, {}),\n", py(p.name), py(&p.allowed()));
    }
    s += "}\n\n";
    s += &format!("PRESETS = ({},)\n", PRESETS.iter().map(|p| py(p.name)).collect::<Vec<_>>().join(", "));
    s += "\n# The element's own attributes that are the notebook's traits: (trait, attribute, kind, default, help).\n";
    s += "ATTRIBUTES = [\n";
    for a in ATTRIBUTES.iter().filter(|a| !a.python.is_empty()) {
        let (kind, default) = match a.kind {
            AttributeKind::List => ("list", "None".to_string()),
            AttributeKind::Flag { default_on } => {
                ("flag", if default_on { "True" } else { "False" }.to_string())
            }
            AttributeKind::Url | AttributeKind::Text => ("text", py("")),
        };
        s += &format!("    ({}, {}, {}, {default}, {}),\n", py(a.python), py(a.name), py(kind), py(a.help));
    }
    s += "]\n";
    s += "\n# Every panel the core draws (ablate --svg's file names), in the page's order.\n";
    s += &format!("CHARTS = ({},)\n", AnyPanel::all().map(|p| py(p.name())).collect::<Vec<_>>().join(", "));
    s += "\n# The comparisons' methods, each a message to the front end.\n";
    s += &format!(
        "COMPARISONS = ({},)\n",
        COMPARISONS.iter().map(|c| py(c.python)).collect::<Vec<_>>().join(", ")
    );
    s += "\n# Each parameter's ablate flag (the static figure runs ablate with the widget's state).\n";
    s += "FLAGS = {\n";
    for p in PARAMS {
        s += &format!("    {}: {},\n", py(p.name), py(p.flag));
    }
    s += "}\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_a_label_and_strings_are_escaped() {
        for p in PARAMS {
            assert!(!p.label.is_empty(), "{}", p.name);
        }
        assert_eq!(js("it's a\\b\n"), "'it\\'s a\\\\b\\n'");
    }
}
