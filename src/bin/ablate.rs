//! `ablate`: train one configuration natively and print a JSON report.
//! Run `ablate --help` for the flags; the README documents them and the JSON.

use ablation_playground::params::{find_flag, PARAMS};
use ablation_playground::report::run;
use ablation_playground::Config;
use std::process::ExitCode;

const MAX_STEPS: usize = 100_000;

fn usage() -> String {
    let mut s = String::from("usage: ablate [--FLAG VALUE]... [--steps N]\n\nflags (default in brackets):\n");
    for p in PARAMS {
        s += &format!("  --{:<11} {} [{}]; {}\n", p.flag, p.help, p.default_text(), p.allowed());
    }
    s += &format!("  --steps      training steps [500]; an integer from 0 to {MAX_STEPS}\n");
    s
}

/// Parses `--flag value` and `--flag=value` pairs into a config and a step count.
fn parse(args: &[String]) -> Result<(Config, usize), String> {
    let mut config = Config::default();
    let mut steps = 500;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(body) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument \"{arg}\"; flags look like --depth 12"));
        };
        let (flag, value) = match body.split_once('=') {
            Some((f, v)) => (f, v.to_string()),
            None => {
                i += 1;
                let v = args.get(i).ok_or_else(|| format!("--{body}: missing value"))?;
                (body, v.clone())
            }
        };
        if flag == "steps" {
            steps = value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|s| *s <= MAX_STEPS)
                .ok_or_else(|| format!("--steps: \"{value}\" is not an integer from 0 to {MAX_STEPS}"))?;
        } else {
            let spec = find_flag(flag).ok_or_else(|| format!("--{flag}: unknown flag (see --help)"))?;
            config.set(spec.name, &value).map_err(|e| format!("--{flag}: {}", e.message))?;
        }
        i += 1;
    }
    Ok((config, steps))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    match parse(&args) {
        Ok((config, steps)) => {
            println!("{}", run(&config, steps).json());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("ablate: {message}");
            ExitCode::from(2)
        }
    }
}
