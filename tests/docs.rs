//! The README and the docs' Markdown: every relative link reaches a file of the repository, and
//! every `#anchor` into a Markdown page one of its headings (slugged as MkDocs' table of
//! contents does). `scripts/build.sh` also builds the docs with `mkdocs --strict`, and the
//! browser tests check the built site's links; this is the same check on the sources, as
//! a reader of the repository follows them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The targets of a page's Markdown links and images, outside code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // drop code spans, whose brackets are not links
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let end = tail.find(')').unwrap_or(tail.len());
            out.push(tail[..end].split_whitespace().next().unwrap_or("").to_string());
            rest = &tail[end..];
        }
    }
    out
}

/// A heading's anchor as Python-Markdown's `toc` makes it: word characters, spaces and hyphens
/// kept, lower case, runs of spaces and hyphens one hyphen.
fn slug(heading: &str) -> String {
    let kept: String =
        heading.chars().filter(|c| c.is_alphanumeric() || *c == '_' || *c == ' ' || *c == '-').collect();
    let mut out = String::new();
    for c in kept.trim().to_lowercase().chars() {
        if c == ' ' || c == '-' {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn anchors(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every broken link of the page at `path` (from the repository root).
fn broken(path: &str) -> Vec<String> {
    let page = PathBuf::from(ROOT).join(path);
    let text = std::fs::read_to_string(&page).unwrap();
    let mut bad = Vec::new();
    for link in links(&text) {
        if link.contains("://") || link.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
        let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
        if !target.exists() {
            bad.push(format!("{path}: {link} (no such file)"));
        } else if !anchor.is_empty()
            && target.extension().is_some_and(|e| e == "md")
            && !anchors(&target).contains(&anchor.to_string())
        {
            bad.push(format!("{path}: {link} (no heading #{anchor})"));
        }
    }
    bad
}

#[test]
fn the_readmes_and_the_docs_links_resolve() {
    let mut pages = vec!["README.md".to_string()];
    for entry in std::fs::read_dir(PathBuf::from(ROOT).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    assert!(pages.len() >= 10, "the docs' pages were found: {pages:?}");
    let bad: Vec<String> = pages.iter().flat_map(|p| broken(p)).collect();
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
    let readme = std::fs::read_to_string(PathBuf::from(ROOT).join("README.md")).unwrap();
    assert!(links(&readme).len() >= 10, "the README's links were read");
}

#[test]
fn the_readme_fits_on_a_few_screens_and_shows_the_widget() {
    let readme = std::fs::read_to_string(PathBuf::from(ROOT).join("README.md")).unwrap();
    assert!(readme.lines().count() <= 200, "the README has {} lines", readme.lines().count());
    let picture = links(&readme).into_iter().find(|l| l.ends_with(".png")).expect("a picture of the widget");
    let png = std::fs::read(PathBuf::from(ROOT).join(&picture)).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "{picture} is a real screenshot");
}

#[test]
fn slugs_and_links_are_read_as_mkdocs_and_markdown_read_them() {
    assert_eq!(
        slug(" The lesson's story in three clicks: `break-and-heal`"),
        "the-lessons-story-in-three-clicks-break-and-heal"
    );
    assert_eq!(slug(" What really happens (the default recipe)"), "what-really-happens-the-default-recipe");
    assert_eq!(links("see [a](b.md#c) and `[x](not-a-link)` [d](e.png \"t\")"), ["b.md#c", "e.png"]);
    assert!(links("```\n[a](inside-code)\n```\n").is_empty());
}

/// A page's code spans that could name a file: no spaces, no `<placeholder>`, glob or
/// `NAME`/`FEATURE` stand-in. Each test below says which of them it holds to be paths.
fn path_like_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| !span.contains([' ', '<', '*']) && !span.contains("NAME") && !span.contains("FEATURE"))
}

/// Where a path ARCHITECTURE.md names is: from the root, or a module's path inside its crate
/// (`training/runs/job.rs` is `crates/training/src/runs/job.rs`, `config/settings.rs` is
/// `crates/config/src/settings.rs`),
/// or a file of the page (`www/`), the tests, the scripts or the top crate's `src/`.
fn resolves(path: &str) -> bool {
    let root = Path::new(ROOT);
    let (first, rest) = path.split_once('/').unwrap_or((path, ""));
    let mut candidates: Vec<PathBuf> =
        vec![root.join(path), root.join("src").join(path), root.join("www").join(path)];
    for dir in [
        "tests",
        "tests/e2e",
        "scripts",
        "python",
        "crates/core/src",
        "crates/core/src/model",
        "crates/view/src",
    ] {
        candidates.push(root.join(dir).join(path));
    }
    match first {
        "training" | "view" | "comparisons" | "config" | "web" => {
            candidates.push(root.join("crates").join(first).join("src").join(rest))
        }
        "language.rs" => candidates.push(root.join("crates/words/src/lib.rs")),
        _ => {}
    }
    candidates.iter().any(|c| c.exists())
}

#[test]
fn every_path_architecture_md_names_is_there() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let exts = [".rs", ".js", ".mjs", ".py", ".sh", ".toml", ".md", ".ftl", ".json", ".html", ".css"];
    let mut missing = BTreeSet::new();
    for span in path_like_spans(&text) {
        // a bare file name is named by its context (a crate's row); a build's output is not a
        // file of the repository
        let looks_like_path = span.contains('/')
            && !span.starts_with("dist/")
            && !span.starts_with("DIR/")
            && !span.contains("::")
            && (exts.iter().any(|e| span.ends_with(e)) || (span.ends_with('/') && span.len() > 1));
        if looks_like_path && !resolves(span.trim_start_matches("./")) {
            missing.insert(span.to_string());
        }
    }
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that are not in the repository: {missing:?}");
}

/// The README's and the docs' own paths into the repository (those that start at its root:
/// `src/`, `crates/`, `tests/`, `scripts/`, `www/`, `python/`, `npm/`) are there.
#[test]
fn every_repository_path_the_docs_name_is_there() {
    let root = Path::new(ROOT);
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") && !path.is_symlink() {
            pages.push(path);
        }
    }
    let starts = ["src/", "crates/", "tests/", "scripts/", "www/", "python/", "npm/"];
    // a path in a host's own project, not ours (Docusaurus's src/, docs/embedding.md)
    let hosts_own = ["src/ablation-playground.js"];
    let mut missing = BTreeSet::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for span in path_like_spans(&text) {
            let span = span.trim_end_matches([':', ',', '.']);
            let plain = !span.contains(['{', '$']);
            let ours = starts.iter().any(|s| span.starts_with(s)) && !hosts_own.contains(&span);
            if plain && ours && !root.join(span).exists() {
                missing.insert(format!("{}: {span}", page.file_name().unwrap().to_string_lossy()));
            }
        }
    }
    assert!(missing.is_empty(), "the docs name paths that are not in the repository: {missing:?}");
}
