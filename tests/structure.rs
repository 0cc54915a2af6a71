//! The house as ARCHITECTURE.md says it is, checked against the code, so that neither rots:
//! - no import circle between the files of any crate (read from their `use` lines and the
//!   `crate::` paths in their code, test modules aside): the next circle fails where it is made;
//! - the crates and their floors: every workspace member is in the table of floors, and each
//!   crate depends only on crates of floors below its own (the compiler holds that the
//!   dependencies have no circle; this holds that they say what the table says);
//! - the hand-written files over 400 lines are exactly those ARCHITECTURE.md lists with its
//!   reason for each, and no more than the ceiling written here (lowered as files are split,
//!   never raised).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// At most this many hand-written files over 400 lines. Lower it when a file is split; the
/// aim is 12.
const LONG_FILES_CEILING: usize = 12;

/// Generated files (the parameter table written out by `scripts/schema.sh`), not hand-written.
const GENERATED: [&str; 4] = [
    "www/schema.js",
    "python/ablation_playground/_params.py",
    "npm/params.d.ts",
    "_extensions/ablation-playground/params.lua",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The workspace's members, from the root Cargo.toml: (member folder, package name).
fn members() -> Vec<(String, String)> {
    let manifest = read(&Path::new(ROOT).join("Cargo.toml"));
    let line = manifest.lines().find(|l| l.starts_with("members = [")).expect("a members list in Cargo.toml");
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(|dir| {
            let m = read(&Path::new(ROOT).join(dir).join("Cargo.toml"));
            let name = m
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{dir}/Cargo.toml names no package"))
                .to_string();
            (dir.to_string(), name)
        })
        .collect()
}

/// The workspace crates a member's [dependencies] name.
fn inner_dependencies(dir: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    let m = read(&Path::new(ROOT).join(dir).join("Cargo.toml"));
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in m.lines() {
        if line.starts_with('[') {
            in_deps = line.trim() == "[dependencies]";
            continue;
        }
        if in_deps {
            let name = line.split(['.', ' ', '=']).next().unwrap_or("");
            if names.contains(name) {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`, with its module path inside the crate (`lib.rs` is `[]`,
/// `a/b.rs` and `a/b/mod.rs` are `[a, b]`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(stem);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if !(stem == "mod" || (prefix.is_empty() && (stem == "lib" || stem == "main"))) {
                    p.push(stem);
                }
                out.insert(p, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// A file's code without its test module (the tests may read any file of their crate).
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests").map_or(text, |at| &text[..at])
}

/// `prefix::{a, b::{c, d}, e as f}` → `prefix::a`, `prefix::b::c`, … (the tree of a use line).
fn expand(path: &str) -> Vec<String> {
    let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = path.find('{') else {
        return vec![path.split(" as ").next().unwrap().to_string()];
    };
    let (prefix, inner) = (&path[..open], &path[open + 1..path.len() - 1]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).flat_map(|p| expand(&format!("{prefix}{p}"))).collect()
}

/// The module paths a file names: its `use crate::…` and `use super::…` trees and every
/// `crate::…` path in its code, made absolute within the crate.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let absolute = |p: &str| -> Option<Vec<String>> {
        let mut segs: Vec<&str> = p.split("::").collect();
        let mut base: Vec<String> = match segs.first() {
            Some(&"crate") => {
                segs.remove(0);
                Vec::new()
            }
            Some(&"super") => {
                let mut b = module.to_vec();
                while segs.first() == Some(&"super") {
                    segs.remove(0);
                    b.pop();
                }
                b
            }
            Some(&"self") => {
                segs.remove(0);
                module.to_vec()
            }
            _ => return None,
        };
        base.extend(segs.iter().map(|s| s.to_string()));
        Some(base)
    };
    // use lines, joined across lines up to their semicolon
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let lead = before[line_start..].trim();
        let tail = &rest[at + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        if lead.is_empty() || lead == "pub" || lead.starts_with("pub(") {
            for p in expand(&tail[..end]) {
                out.extend(absolute(&p));
            }
        }
        rest = &tail[end.min(tail.len())..];
    }
    // crate:: paths anywhere in the code (comments aside)
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let tail = &rest[at..];
            let end =
                tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
            out.extend(absolute(tail[..end].trim_end_matches(':')));
            rest = &tail[end..];
        }
    }
    out
}

/// The circles among the files of one crate's source folder, each as its files.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let mods = modules(src);
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<&Vec<String>>> = BTreeMap::new();
    for (module, path) in &mods {
        let text = read(path);
        for named in named_paths(module, without_tests(&text)) {
            // the longest prefix of the path that is a file of the crate
            let target =
                (0..=named.len()).rev().find_map(|n| mods.get_key_value(&named[..n]).map(|(k, _)| k));
            if let Some(target) = target {
                // a module naming its own parent's re-exports (lib.rs, mod.rs) is not an import
                // of the parent's code: only files below the crate root count
                if target != module && !target.is_empty() && !module.starts_with(target) {
                    edges.entry(module).or_default().insert(target);
                }
            }
        }
    }
    // Tarjan's strongly connected components
    struct State<'a> {
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(
        v: &'a Vec<String>,
        edges: &BTreeMap<&'a Vec<String>, BTreeSet<&'a Vec<String>>>,
        s: &mut State<'a>,
    ) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, edges, s);
                let lw = s.low[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                s.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(if w.is_empty() { "lib".to_string() } else { w.join("::") });
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let (index, low, on_stack) = (BTreeMap::new(), BTreeMap::new(), BTreeSet::new());
    let mut s = State { index, low, stack: Vec::new(), on_stack, found: Vec::new() };
    for v in mods.keys() {
        if !s.index.contains_key(v) {
            visit(v, &edges, &mut s);
        }
    }
    s.found
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut seen = Vec::new();
    for (dir, name) in members() {
        for circle in circles(&Path::new(ROOT).join(&dir).join("src")) {
            seen.push(format!("{name}: {}", circle.join(" ↔ ")));
        }
    }
    assert!(
        seen.is_empty(),
        "import circles (move what both sides need to a file below both):\n{}",
        seen.join("\n")
    );
}

#[test]
fn the_circle_reader_finds_a_circle() {
    // two files naming each other, in a throwaway crate folder
    let dir = std::env::temp_dir().join(format!("ap-structure-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "pub mod c;\nuse crate::b::{B, other::{X}};\n").unwrap();
    std::fs::write(dir.join("a/c.rs"), "pub struct C;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct B;\nfn f() -> crate::a::c::C { todo!() }\n").unwrap();
    let found = circles(&dir);
    assert!(found.is_empty(), "a → b → a::c is no circle: {found:?}");
    std::fs::write(dir.join("a/c.rs"), "use super::super::b::B;\npub struct C;\n").unwrap();
    let found = circles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, [vec!["a::c".to_string(), "b".to_string()]], "b → a::c → b");
}

/// The rows of the table under `heading` in ARCHITECTURE.md, as their cells.
fn table(heading: &str) -> Vec<Vec<String>> {
    let text = read(&Path::new(ROOT).join("ARCHITECTURE.md"));
    let at = text.find(heading).unwrap_or_else(|| panic!("ARCHITECTURE.md has no heading {heading:?}"));
    text[at..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().trim_matches('`').to_string()).collect())
        .collect()
}

#[test]
fn the_crates_are_the_floors_architecture_md_lists() {
    let rows = table("## The floors: one crate each");
    let floor: BTreeMap<String, (u32, String)> = rows
        .iter()
        .map(|r| {
            (r[1].clone(), (r[0].parse().unwrap_or_else(|_| panic!("a floor number: {r:?}")), r[2].clone()))
        })
        .collect();
    let members = members();
    let names: BTreeSet<String> = members.iter().map(|(_, n)| n.clone()).collect();
    let listed: BTreeSet<String> = floor.keys().cloned().collect();
    assert_eq!(listed, names, "ARCHITECTURE.md's crates (left) against Cargo.toml's members (right)");
    for (dir, name) in &members {
        assert_eq!(
            floor[name].1.trim_end_matches('/'),
            dir.as_str(),
            "ARCHITECTURE.md puts {name} in {}, Cargo.toml in {dir}",
            floor[name].1
        );
        for dep in inner_dependencies(dir, &names) {
            assert!(
                floor[&dep].0 < floor[name].0,
                "{name} (floor {}) depends on {dep} (floor {}): a crate uses only floors below it",
                floor[name].0,
                floor[&dep].0
            );
        }
    }
}

/// The repository's hand-written code and scripts, by path from the root (what git tracks).
fn hand_written() -> Vec<String> {
    let out = std::process::Command::new("git").args(["ls-files"]).current_dir(ROOT).output().expect("git");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|f| {
            [".rs", ".js", ".mjs", ".py", ".sh", ".ts", ".tsx", ".lua"].iter().any(|e| f.ends_with(e))
                && !GENERATED.contains(f)
                && !f.contains("node_modules/")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_long_files_are_those_architecture_md_gives_a_reason_for() {
    let long: BTreeSet<String> = hand_written()
        .into_iter()
        .filter(|f| Path::new(ROOT).join(f).exists() && read(&Path::new(ROOT).join(f)).lines().count() > 400)
        .collect();
    let rows = table("## Files over 400 lines");
    for r in &rows {
        assert!(r.len() >= 2 && r[1].len() > 10, "ARCHITECTURE.md gives no reason for {}", r[0]);
    }
    let listed: BTreeSet<String> = rows.iter().map(|r| r[0].clone()).collect();
    let unlisted: Vec<_> = long.difference(&listed).collect();
    let short: Vec<_> = listed.difference(&long).collect();
    assert!(
        unlisted.is_empty() && short.is_empty(),
        "over 400 lines but not in ARCHITECTURE.md's table: {unlisted:?}; in the table but not over 400 lines: {short:?}"
    );
    assert!(
        long.len() <= LONG_FILES_CEILING,
        "{} hand-written files over 400 lines, more than the ceiling of {LONG_FILES_CEILING}: split one before adding one",
        long.len()
    );
}
