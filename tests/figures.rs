//! The committed static figures (www/figures/, the lesson's fallbacks) are what `ablate --svg`
//! draws today: regenerated here and compared byte for byte (runs are deterministic).

use std::process::Command;

#[test]
fn committed_figures_are_up_to_date() {
    let root = env!("CARGO_MANIFEST_DIR");
    let list = std::fs::read_to_string(format!("{root}/www/figures/list.txt")).unwrap();
    let mut checked = 0;
    for line in list.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let flags: Vec<&str> = words.collect();
        let dir = std::env::temp_dir().join(format!("ablate-figures-{}-{name}", std::process::id()));
        // as scripts/figures.sh: 500 steps and seed 1 unless the line says otherwise
        let out = Command::new(env!("CARGO_BIN_EXE_ablate"))
            .args(["--steps", "500", "--seed", "1"])
            .args(&flags)
            .args(["--svg", dir.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        // every panel it draws: the live run's four, and the attention maps of a stack with attention
        // (the charts; --svg also writes the status line, status.txt)
        let mut panels: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().to_string_lossy().strip_suffix(".svg").map(String::from))
            .collect();
        panels.sort();
        for panel in ["depth", "histogram", "loss", "readout"] {
            assert!(panels.iter().any(|p| p == panel), "{name}: ablate --svg writes {panel}.svg");
        }
        for panel in &panels {
            let fresh = std::fs::read(dir.join(format!("{panel}.svg"))).unwrap();
            let committed =
                std::fs::read(format!("{root}/www/figures/{name}/{panel}.svg")).unwrap_or_else(|_| {
                    panic!("www/figures/{name}/{panel}.svg is missing: run scripts/figures.sh")
                });
            assert!(fresh == committed, "www/figures/{name}/{panel}.svg is stale: run scripts/figures.sh");
            checked += 1;
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(checked >= 28, "the list names at least seven figures");
}
