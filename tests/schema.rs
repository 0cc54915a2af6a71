//! The files generated from the parameter table must be what the table writes now: the page's
//! `www/schema.js`, the pandoc filter's `params.lua`, the notebook widget's `_params.py`, the npm
//! package's TypeScript declarations (`npm/params.d.ts`) and the docs' reference page, `docs/reference.md`.
//! Run `scripts/schema.sh` after changing the table.

use ablation_playground::schema::{schema_js, schema_lua, schema_py, schema_ts};

/// `path` (from the repository root) holds `text`; with `WRITE_SCHEMA` set, it is written.
fn generated(path: &str, text: String) {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("WRITE_SCHEMA").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{path} is stale: the parameter table changed; run scripts/schema.sh to regenerate it"
    );
}

#[test]
fn the_pages_schema_is_the_tables() {
    generated("www/schema.js", schema_js());
}

#[test]
fn the_pandoc_filters_flags_are_the_tables() {
    generated("_extensions/ablation-playground/params.lua", schema_lua());
}

#[test]
fn the_notebook_widgets_traits_are_the_tables() {
    generated("python/ablation_playground/_params.py", schema_py());
}

#[test]
fn the_packages_typescript_declarations_are_the_tables() {
    generated("npm/params.d.ts", schema_ts());
}

#[test]
fn the_reference_page_is_the_tables() {
    generated("docs/reference.md", ablation_playground::view::reference::reference_md());
}

/// Every row of the table reaches every generated surface through the generators alone: the
/// page's schema (URL parameters, attributes, the More panel), the pandoc filter's flags, the
/// notebook's traits and the reference, each with its default. A parameter added to the table
/// needs nothing else typed (the browser tests then set each through the URL and the element's
/// attributes, `every parameter of the table reaches the URL…` in tests/e2e/embed-tests.mjs).
#[test]
fn every_parameter_reaches_every_generated_surface() {
    use ablation_playground::config::PARAMS;
    let (js, lua, py) = (schema_js(), schema_lua(), schema_py());
    let reference = ablation_playground::view::reference::reference_md();
    for p in PARAMS {
        let default = p.default_text();
        assert!(
            js.contains(&format!("{{ name: '{}', flag: '{}', label: ", p.name, p.flag))
                && js.contains(&format!("default: '{default}'")),
            "schema.js lacks {}",
            p.name
        );
        assert!(lua.contains(&format!("[\"{}\"] = \"{}\"", p.name, p.flag)), "params.lua lacks {}", p.name);
        assert!(py.contains(&format!("    (\"{}\", \"", p.name)), "_params.py lacks {}", p.name);
        assert!(
            reference.contains(&format!("| `{}` | `--{}` |", p.name, p.flag)),
            "reference.md lacks the row of {}",
            p.name
        );
    }
}

/// Each comparison of the list names an `ablate` flag the CLI's docs describe and a field
/// its report and `.value` carry.
#[test]
fn every_comparison_is_a_flag_and_a_field_of_the_docs() {
    let cli = std::fs::read_to_string(format!("{}/docs/cli.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let embedding =
        std::fs::read_to_string(format!("{}/docs/embedding.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let help = ablation_playground::view::reference::reference_md();
    for c in ablation_playground::config::COMPARISONS {
        assert!(help.contains(&format!("`--{}", c.flag)), "the reference lacks --{}", c.flag);
        assert!(cli.contains(&format!("\"{}\"", c.field)), "docs/cli.md lacks the report's {}", c.field);
        assert!(
            embedding.contains(&format!("`{}`", c.field)),
            "docs/embedding.md lacks .value's {}",
            c.field
        );
        assert!(
            embedding.contains(&format!("{}()", c.method)),
            "docs/embedding.md lacks the method {}()",
            c.method
        );
    }
}

/// The markup has a `<figure data-panel>` for every panel the core draws and tells (and one
/// more, "The model writes", which is words alone; the comparisons' panels are written from
/// their table, `comparisonPanel`), and a swatch for every colour a page may set: the page
/// reaches each by the name the core gives it.
#[test]
fn the_markup_has_every_panel_and_every_colour_of_the_core() {
    use ablation_playground::comparisons::page::AnyPanel;
    use ablation_playground::view::charts::Theme;
    let template =
        std::fs::read_to_string(format!("{}/www/template.js", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut in_markup: Vec<&str> = template
        .split("data-panel=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| !name.starts_with("${"))
        .collect();
    assert!(
        template.contains("data-panel=\"${c.panel}\"")
            && template.contains("${COMPARISONS.map(comparisonPanel)"),
        "the comparisons' panels are written from their table"
    );
    in_markup.extend(ablation_playground::config::COMPARISONS.iter().map(|c| c.panel));
    let drawn: Vec<&str> = AnyPanel::all().map(|p| p.name()).collect();
    let mut expected = drawn.clone();
    expected.push("writes");
    let mut sorted = in_markup.clone();
    sorted.sort_unstable();
    expected.sort_unstable();
    assert_eq!(sorted, expected, "the markup's panels {in_markup:?}, the core's {drawn:?} and writes");
    for slot in Theme::SLOTS {
        assert!(template.contains(&format!("data-colour=\"{slot}\"")), "no swatch for the colour {slot:?}");
    }
    for panel in AnyPanel::all() {
        assert_eq!(AnyPanel::named(panel.name()), Some(panel), "{panel:?}");
    }
}
