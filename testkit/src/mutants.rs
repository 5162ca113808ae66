//! The classic wrong solutions run as programs (`grader mutant`), as `grader fuzz` finds
//! them: for the benches of the fuzzer's power.

use std::path::Path;
use std::process::Command;

/// The run (from 1) of the first finding of `grader fuzz` on the mutant `name` of
/// `problem` run as a program (`--cmd 'grader mutant PROBLEM NAME'`), with seed `seed`,
/// no regressions file and no shrinking; `None` when there is none within `runs`.
pub fn runs_to_finding(
    grader: &Path,
    problem: &str,
    name: &str,
    seed: u64,
    runs: u64,
) -> Option<u64> {
    let line = format!("{} mutant {problem} {name}", grader.display());
    let output = Command::new(grader)
        .args(["fuzz", problem, "--cmd", &line])
        .args(["--seed", &seed.to_string(), "--runs", &runs.to_string()])
        .args([
            "--no-regressions",
            "--shrink-steps",
            "0",
            "--report",
            "json",
        ])
        .output()
        .expect("grader fuzz");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{problem} {name} seed {seed}: {e}: {output:?}"));
    report["finding"]["run"].as_u64()
}

/// A run count as the benches' tables show it: `-` for none found (`u64::MAX`, as
/// `fuzz::power::Spread` counts a miss).
pub fn runs_text(runs: u64) -> String {
    if runs == u64::MAX {
        "-".to_owned()
    } else {
        runs.to_string()
    }
}
