//! The per-case cost of `grader test`, against a baseline measured in the same run: a bare
//! loop that, for each case, spawns the program (`posix_spawn`, through std) with the case
//! file as stdin and two pipes, reads its output, reaps it with `wait4` and compares the
//! output with the answer. Everything `grader test` adds beyond that (the launcher, limits,
//! scratch folders, the checker, the report) is the overhead, in the `basic` tier. Then
//! `--jobs 2` against `--jobs 1`, the `strict` tier against `basic`, and the peak memory
//! reported for a trivial C program.
//!
//! Run with `cargo bench -p grader --bench test_overhead`. Medians, because these machines
//! are noisy. Targets (issue 4): overhead ratio at most 1.25, jobs speed-up at least 1.8.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

mod common;

use common::{bare_run, median};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CASES: usize = 1000;
const ROUNDS: usize = 9;
const BOARD: &str = "bwwb\nbbwb\nbwwb\nbwww\n";
const TRIVIAL: &str = "#include <stdio.h>\n\
    int main(void) { char b[4][8]; for (int i = 0; i < 4; i++) if (scanf(\"%7s\", b[i]) != 1) return 1;\n\
    puts(\"4\"); return 0; }\n";

/// The bare loop: spawn, feed, read, `wait4`, compare; nothing else.
fn bare_loop(program: &Path, cases: &[(PathBuf, Vec<u8>)]) -> Duration {
    let start = Instant::now();
    for (input, answer) in cases {
        assert_eq!(&bare_run(program, input), answer, "the program is wrong");
    }
    start.elapsed()
}

/// One `grader test` over the bench's cases; returns its wall time and its JSON report.
fn grader_run(grader: &Path, program: &Path, dir: &Path, jobs: &str) -> (Duration, String) {
    sandboxed_run(grader, program, dir, jobs, "basic")
}

/// The same, in the sandbox tier `tier`.
fn sandboxed_run(
    grader: &Path,
    program: &Path,
    dir: &Path,
    jobs: &str,
    tier: &str,
) -> (Duration, String) {
    let start = Instant::now();
    let output = Command::new(grader)
        .args(["test", "flip"])
        .arg(program)
        .arg("--cases")
        .arg(dir)
        .args(["--jobs", jobs, "--report", "json", "--sandbox", tier])
        .output()
        .expect("grader");
    let took = start.elapsed();
    assert!(output.status.success(), "grader test failed: {output:?}");
    (took, String::from_utf8(output.stdout).expect("UTF-8"))
}

fn per_case_ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3 / CASES as f64
}

fn main() {
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let work = tempfile::tempdir().expect("tempdir");
    let source = work.path().join("trivial.c");
    fs::write(&source, TRIVIAL).expect("write");
    let program = work.path().join("trivial");
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .status()
        .expect("gcc");
    assert!(built.success());
    let dir = work.path().join("cases");
    fs::create_dir(&dir).expect("mkdir");
    let mut cases = Vec::with_capacity(CASES);
    for i in 0..CASES {
        let input = dir.join(format!("{i:04}.in"));
        fs::write(&input, BOARD).expect("write");
        fs::write(dir.join(format!("{i:04}.ans")), "4\n").expect("write");
        cases.push((input, b"4\n".to_vec()));
    }

    println!("{CASES} cases of a trivial C program, medians of {ROUNDS} rounds");
    let mut bare = Vec::new();
    let mut one = Vec::new();
    let mut two = Vec::new();
    let mut strict = Vec::new();
    let mut report = String::new();
    // Interleaved, so a slow spell of the machine hits every contender alike.
    for _ in 0..ROUNDS {
        bare.push(bare_loop(&program, &cases));
        one.push(grader_run(&grader, &program, &dir, "1").0);
        let (took, json) = grader_run(&grader, &program, &dir, "2");
        two.push(took);
        report = json;
        strict.push(sandboxed_run(&grader, &program, &dir, "1", "strict").0);
    }
    let strict = median(strict);
    println!("samples: bare {bare:?}\n one {one:?}\n two {two:?}");
    let (bare, one, two) = (median(bare), median(one), median(two));
    println!(
        "baseline: bare spawn + pipes + wait4 loop: {:.0} ms ({:.3} ms a case)",
        bare.as_secs_f64() * 1e3,
        per_case_ms(bare)
    );
    println!(
        "grader test --jobs 1: {:.0} ms ({:.3} ms a case) = {:.2}x the baseline (target <= 1.25x)",
        one.as_secs_f64() * 1e3,
        per_case_ms(one),
        one.as_secs_f64() / bare.as_secs_f64()
    );
    println!(
        "grader test --jobs 2: {:.0} ms ({:.3} ms a case) = {:.2}x the throughput of --jobs 1 (target >= 1.8x)",
        two.as_secs_f64() * 1e3,
        per_case_ms(two),
        one.as_secs_f64() / two.as_secs_f64()
    );
    println!(
        "grader test --jobs 1 --sandbox strict: {:.3} ms a case = basic + {:.3} ms (target <= 3 ms)",
        per_case_ms(strict),
        per_case_ms(strict) - per_case_ms(one)
    );
    let value: serde_json::Value = serde_json::from_str(&report).expect("JSON");
    let peaks: Vec<u64> = value["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|c| c["memory_kib"].as_u64())
        .collect();
    println!(
        "peak memory reported for the trivial program: max {} KiB over {} cases (target < 4096)",
        peaks.iter().max().copied().unwrap_or_default(),
        peaks.len()
    );
}
