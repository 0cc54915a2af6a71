//! `--jobs-elsewhere` and `--run-job`: a comparison's jobs run by another process, as a
//! cluster's client runs them (`scripts/studies.py`). With `--jobs-elsewhere` each round of
//! jobs goes to standard output as one line, `JOBS` and each job's checked bytes in hex, and
//! the run waits for one line on standard input, `REPORTS` and each report's bytes in hex, in
//! any order; the JSON report follows as usual. `ablate --run-job` reads one job's hex on
//! standard input and writes its report's hex: the same program as the threads here run.

use ablation_playground::comparisons::elsewhere::{run_elsewhere, Elsewhere};
use ablation_playground::training::runs::job::{run_job, Job, Report};
use std::io::{BufRead, Read, Write};

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("not hexadecimal bytes".into());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// `ablate --run-job`: one job's hex in, its report's hex out.
pub fn run_one_job() -> Result<String, String> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| format!("--run-job: standard input: {e}"))?;
    let (id, job) = Job::decode(&from_hex(&text)?).map_err(|e| format!("--run-job: {e}"))?;
    let report = run_job(job).map_err(|e| format!("--run-job: {e}"))?;
    Ok(to_hex(&report.encode(id, true)))
}

/// One round handed out on standard output, its reports read back from standard input.
fn round(jobs: Vec<(u32, Job)>) -> Result<Vec<(u32, Report)>, String> {
    let line: Vec<String> = jobs.iter().map(|(id, job)| to_hex(&job.encode(*id))).collect();
    let mut out = std::io::stdout().lock();
    writeln!(out, "JOBS {}", line.join(" "))
        .and_then(|()| out.flush())
        .map_err(|e| format!("--jobs-elsewhere: {e}"))?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).map_err(|e| format!("--jobs-elsewhere: {e}"))?;
    let Some(hexes) = answer.trim_end().strip_prefix("REPORTS") else {
        return Err(format!(
            "--jobs-elsewhere: expected a REPORTS line, got {:?}",
            answer.chars().take(40).collect::<String>()
        ));
    };
    let mut reports = Vec::with_capacity(jobs.len());
    for hex in hexes.split_whitespace() {
        let (id, done, report) =
            Report::decode(&from_hex(hex)?).map_err(|e| format!("--jobs-elsewhere: {e}"))?;
        if !done || !jobs.iter().any(|(j, _)| *j == id) {
            return Err(format!("--jobs-elsewhere: a report for job {id}, which this round did not hand out or did not finish"));
        }
        reports.push((id, report));
    }
    if reports.len() != jobs.len() {
        return Err(format!("--jobs-elsewhere: {} reports for {} jobs", reports.len(), jobs.len()));
    }
    Ok(reports)
}

/// From now on the comparisons' rounds go out on standard output (see the module's words).
pub fn hand_out_jobs() {
    let run: Elsewhere = Box::new(round);
    run_elsewhere(run);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_goes_there_and_back() {
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(from_hex(&to_hex(&bytes)).unwrap(), bytes);
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").is_err());
    }
}
