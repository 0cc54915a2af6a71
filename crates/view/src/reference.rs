//! The reference an author reads: every parameter with its names (URL, attribute, message,
//! notebook trait, `ablate` flag), range, default and help, the presets and what each sets,
//! and the flags of `ablate` beyond the table, all from the one parameter table. `ablate
//! --help` prints the same flags from here, and `docs/reference.md` is what `reference_md`
//! writes (`tests/schema.rs` fails when it is stale; `scripts/schema.sh` rewrites it).

use ablation_core::config::{find, Config, ParamKind, ParamSpec, PARAMS, PIN, PRESET, PRESETS};

pub use crate::cli_flags::{
    cli_flags, cli_steps_allowed, cli_steps_help, comparison_steps_by_task, steps_by_task, CliFlag,
    CLI_MAX_STEPS, CLI_MAX_THREADS,
};

/// A table cell: pipes escaped, so that help text cannot break the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// `a`, `b`, `c`: the words as code.
fn code_list<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words.map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
}

/// A parameter's allowed values, for a table: the table's own words (`ParamSpec::allowed`),
/// with a choice's words as code.
fn allowed(p: &ParamSpec) -> String {
    match p.kind {
        ParamKind::Choice(options) => code_list(options.words()),
        _ => p.allowed(),
    }
}

/// The parameters a preset sets away from the defaults, as `name=value`.
fn preset_changes(config: &Config) -> String {
    let default = Config::default();
    let changed: Vec<String> = PARAMS
        .iter()
        .filter(|p| p.value(config) != p.value(&default))
        .map(|p| format!("`{}={}`", p.name, p.text_of(config)))
        .collect();
    if changed.is_empty() {
        "(the defaults)".into()
    } else {
        changed.join(" ")
    }
}

/// The page `docs/reference.md`.
pub fn reference_md() -> String {
    let mut s = String::from(
        "<!-- Generated from the parameter table (crates/config/src/table.rs) by scripts/schema.sh: do not edit.\n     \
         tests/schema.rs fails when this page is stale. -->\n\n# Reference\n\n",
    );
    s += "Every parameter has one name, the same everywhere: the URL parameter (`?depth=48`), the \
          element's attribute (`<ablation-playground depth=\"48\">`), the field of an iframe's \
          `ablation-playground:set` message and of `element.value`, the notebook widget's trait \
          (`w.depth`; an on/off switch is a Python bool there) and the pandoc filter's div \
          attribute. `ablate` takes it as the flag beside it. A value out of range falls back to \
          the nearest valid one, and one that cannot be read to the default, with a notice on the \
          page; `ablate` refuses either with one line naming the flag.\n\n";
    s += "## Parameters\n\n| name | `ablate` flag | on the page | allowed | default | what it sets |\n\
          |---|---|---|---|---|---|\n";
    for p in PARAMS {
        let on_page = match p.kind {
            ParamKind::Choice(options) if options.has_own_labels() => format!(
                "{}: {}",
                p.label,
                options
                    .words()
                    .zip(options.labels())
                    .map(|(w, l)| format!("{l} (`{w}`)"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => p.label.to_string(),
        };
        s += &format!(
            "| `{}` | `--{}` | {} | {} | `{}` | {} |\n",
            p.name,
            p.flag,
            cell(&on_page),
            cell(&allowed(p)),
            p.default_text(),
            cell(p.help)
        );
    }
    s += &format!(
        "\n`{PRESET}` (flag `--{PRESET}`) sets every parameter to a preset's first, wherever it \
         stands; the other parameters then adjust it (`?preset=explode&depth=24`). `{PIN}` holds \
         the pinned runs (see [Using the page](using.md#comparing)); `ablate` has no pins. \
         `steps` counts to {} on the page and {CLI_MAX_STEPS} in `ablate`; choosing a task or a \
         preset sets it to that task's own count ({}).\n\n",
        find("steps").map_or(0, |p| match p.kind {
            ParamKind::Int { max, .. } => max,
            _ => 0,
        }),
        steps_by_task()
    );
    s += "## Presets\n\n| preset | what the reader sees | what it sets (beside the defaults) |\n|---|---|---|\n";
    for p in PRESETS {
        s += &format!("| `{}` | {} | {} |\n", p.name, cell(p.help), preset_changes(&(p.config)()));
    }
    s += "\n## The command line's flags\n\n\
          `ablate [--preset NAME] [--FLAG VALUE]...` (see [the command line](cli.md)); every flag is \
          optional, `--flag value` and `--flag=value` both work, and the default is in brackets.\n\n\
          | flag | meaning | allowed |\n|---|---|---|\n";
    s += &format!(
        "| `--{PRESET}` | set every flag to a preset's first, wherever it stands; the other flags adjust it | {} |\n",
        code_list(PRESETS.iter().map(|p| p.name))
    );
    for p in PARAMS {
        let help =
            if p.name == "steps" { cli_steps_help() } else { format!("{} [{}]", p.help, p.default_text()) };
        let accepts = if p.name == "steps" { cli_steps_allowed() } else { allowed(p) };
        s += &format!("| `--{}` | {} | {} |\n", p.flag, cell(&help), cell(&accepts));
    }
    for f in cli_flags() {
        let name =
            if f.value.is_empty() { format!("--{}", f.flag) } else { format!("--{} {}", f.flag, f.value) };
        let help =
            if f.comparison { format!("{} (a comparison, added to the report)", f.help) } else { f.help };
        s += &format!("| `{name}` | {} | {} |\n", cell(&help), cell(&f.allowed));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_names_what_it_changes_and_nothing_else() {
        assert_eq!(preset_changes(&Config::default()), "(the defaults)");
        let deep = Config { depth: 48, ..Config::default() };
        assert_eq!(preset_changes(&deep), "`depth=48`");
    }

    #[test]
    fn a_pipe_in_help_cannot_break_a_row() {
        assert_eq!(cell("a | b"), "a \\| b");
    }
}
