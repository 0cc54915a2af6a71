//! `ablate`: train one configuration natively and print a JSON report.
//! Run `ablate --help` for the flags; the README documents them and the JSON.

use ablation_playground::config::{find_flag, preset_choices, PARAMS, PRESET, PRESETS};
use ablation_playground::training::report::{run, Run};
use ablation_playground::view::figures::panels_svg;
use ablation_playground::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const MAX_STEPS: usize = 100_000;

fn usage() -> String {
    let mut s = String::from(
        "usage: ablate [--preset NAME] [--FLAG VALUE]... [--steps N]\n\nflags (default in brackets):\n",
    );
    s += &format!("  --{PRESET:<11} sets every flag at once, before the others; {}:\n", preset_choices());
    for p in PRESETS {
        s += &format!("                 {:<20} {}\n", p.name, p.help);
    }
    for p in PARAMS.iter().filter(|p| p.name != "steps") {
        s += &format!("  --{:<11} {} [{}]; {}\n", p.flag, p.help, p.default_text(), p.allowed());
    }
    s += &format!("  --steps      training steps [500]; an integer from 0 to {MAX_STEPS}\n");
    s += "  --svg DIR    also write the three panels as DIR/histogram.svg, DIR/loss.svg, DIR/depth.svg\n";
    s += "  --dark       draw the SVG panels in the dark theme\n";
    s
}

struct Options {
    config: Config,
    steps: usize,
    svg_dir: Option<PathBuf>,
    dark: bool,
}

/// Parses `--flag value` and `--flag=value` pairs. A `--preset` applies first, wherever it
/// stands, and the other flags adjust it.
fn parse(args: &[String]) -> Result<Options, String> {
    let mut config = Config::default();
    let mut params: Vec<(&str, String)> = Vec::new();
    let mut steps = 500;
    let mut svg_dir = None;
    let mut dark = false;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(body) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument \"{arg}\"; flags look like --depth 12"));
        };
        if body == "dark" {
            dark = true;
            i += 1;
            continue;
        }
        let (flag, value) = match body.split_once('=') {
            Some((f, v)) => (f, v.to_string()),
            None => {
                i += 1;
                let v = args.get(i).ok_or_else(|| format!("--{body}: missing value"))?;
                (body, v.clone())
            }
        };
        if flag == "svg" {
            if value.is_empty() {
                return Err("--svg: missing directory".into());
            }
            svg_dir = Some(PathBuf::from(value));
        } else if flag == "steps" {
            steps = value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|s| *s <= MAX_STEPS)
                .ok_or_else(|| format!("--steps: \"{value}\" is not an integer from 0 to {MAX_STEPS}"))?;
        } else if flag == PRESET {
            config.set(PRESET, &value).map_err(|e| format!("--{flag}: {}", e.message))?;
        } else {
            let spec = find_flag(flag).ok_or_else(|| format!("--{flag}: unknown flag (see --help)"))?;
            spec.check(&value).map_err(|e| format!("--{flag}: {}", e.message))?;
            params.push((spec.name, value));
        }
        i += 1;
    }
    for (name, value) in params {
        config.set(name, &value).expect("checked above");
    }
    config.steps = steps;
    Ok(Options { config, steps, svg_dir, dark })
}

fn write_svgs(dir: &Path, run: &Run, dark: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--svg: cannot create {}: {e}", dir.display()))?;
    for (name, svg) in panels_svg(run, dark).map_err(|e| format!("--svg: drawing failed: {e}"))? {
        let path = dir.join(format!("{name}.svg"));
        std::fs::write(&path, svg).map_err(|e| format!("--svg: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let options = match parse(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("ablate: {message}");
            return ExitCode::from(2);
        }
    };
    let report = run(&options.config, options.steps);
    if let Some(dir) = &options.svg_dir {
        if let Err(message) = write_svgs(dir, &report, options.dark) {
            eprintln!("ablate: {message}");
            return ExitCode::from(1);
        }
    }
    println!("{}", report.json());
    ExitCode::SUCCESS
}
