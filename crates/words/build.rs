//! English's catalogue as the crate embeds it: `www/i18n/en.ftl` without its comment lines
//! (the translators' notes, about 2.4 KB of the page's wasm gzipped). A line that starts with
//! `#` is always a comment in Fluent (a pattern's continuation lines are indented), so the
//! messages are the file's, byte for byte.

use std::path::Path;

fn main() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/i18n/en.ftl");
    println!("cargo::rerun-if-changed={}", source.display());
    let text = std::fs::read_to_string(&source).expect("www/i18n/en.ftl");
    let kept: String = text.split_inclusive('\n').filter(|line| !line.starts_with('#')).collect();
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("en.ftl");
    std::fs::write(out, kept).expect("the catalogue without its comments");
}
