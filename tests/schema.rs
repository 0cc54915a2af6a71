//! `www/schema.js` is the parameter table as the page's JavaScript reads it: it must be what the
//! table writes now. Run `scripts/schema.sh` after changing the table.

use ablation_playground::config::{schema_js, schema_lua, schema_py};

#[test]
fn the_pages_schema_is_the_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/schema.js");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    if std::env::var_os("WRITE_SCHEMA").is_some() {
        std::fs::write(path, schema_js()).unwrap();
        return;
    }
    assert!(
        on_disk == schema_js(),
        "www/schema.js is stale: the parameter table changed; run scripts/schema.sh to regenerate it"
    );
}

#[test]
fn the_pandoc_filters_flags_are_the_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/_extensions/ablation-playground/params.lua");
    if std::env::var_os("WRITE_SCHEMA").is_some() {
        std::fs::write(path, schema_lua()).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == schema_lua(),
        "_extensions/ablation-playground/params.lua is stale: the parameter table changed; run scripts/schema.sh"
    );
}

#[test]
fn the_notebook_widgets_traits_are_the_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/ablation_playground/_params.py");
    if std::env::var_os("WRITE_SCHEMA").is_some() {
        std::fs::write(path, schema_py()).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == schema_py(),
        "python/ablation_playground/_params.py is stale: the parameter table changed; run scripts/schema.sh"
    );
}
