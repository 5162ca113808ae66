//! The per-case cost of `grader test`, against a baseline measured in the same run: a bare
//! loop that, for each case, spawns the program (`posix_spawn`, through std) with the case
//! file as stdin and two pipes, reads its output, reaps it with `wait4` and compares the
//! output with the answer. Everything `grader test` adds beyond that (the launcher, the box,
//! the cgroup, limits, the checker, the report) is the overhead. Measured in the `strict`
//! tier (the box, the default here) and in `basic`; then `--jobs 2` against `--jobs 1`;
//! then what setting up a box costs a worker (one case in `strict` against one in `none`,
//! so the difference is the box, its cgroup and its uid); and the peak memory reported for
//! a trivial C program.
//!
//! Run with `cargo bench -p grader --bench test_overhead`. Medians, because these machines
//! are noisy; contenders alternate within each round. Targets (issue 12): strict at most
//! 1.10x the bare loop, `--jobs 2` at least 1.8x the throughput of `--jobs 1`, a box set up
//! in under 20 ms.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testkit::boards::FLIP_SAMPLE;
use testkit::cases::CaseFolder;
use testkit::measure::{median, ms};
use testkit::programs::{TRIVIAL_C, bare_run, gcc};

const CASES: usize = 1000;
const ROUNDS: usize = 9;

/// The bare loop: spawn, feed, read, `wait4`, compare; nothing else.
fn bare_loop(program: &Path, cases: &[(PathBuf, Vec<u8>)]) -> Duration {
    let start = Instant::now();
    for (input, answer) in cases {
        assert_eq!(&bare_run(program, input), answer, "the program is wrong");
    }
    start.elapsed()
}

/// One `grader test` over the cases in `dir`, in the sandbox tier `tier`; returns its wall
/// time and its JSON report.
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
    ms(d) / CASES as f64
}

fn main() {
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let work = tempfile::tempdir().expect("tempdir");
    let source = work.path().join("trivial.c");
    fs::write(&source, TRIVIAL_C).expect("write");
    let program = work.path().join("trivial");
    gcc(&source, &program, &[]);
    let dir = work.path().join("cases");
    let cases: Vec<(PathBuf, Vec<u8>)> = CaseFolder::at(&dir)
        .repeated(CASES, FLIP_SAMPLE, "4\n")
        .into_iter()
        .map(|input| (input, b"4\n".to_vec()))
        .collect();

    let one_case = work.path().join("one");
    CaseFolder::at(&one_case).case("1", FLIP_SAMPLE, "4\n");

    println!("{CASES} cases of a trivial C program, medians of {ROUNDS} rounds");
    let (mut bare, mut strict, mut basic, mut two) = (vec![], vec![], vec![], vec![]);
    let (mut boxed_once, mut plain_once) = (vec![], vec![]);
    let mut report = String::new();
    // Interleaved, so a slow spell of the machine hits every contender alike.
    for _ in 0..ROUNDS {
        bare.push(bare_loop(&program, &cases));
        let (took, json) = sandboxed_run(&grader, &program, &dir, "1", "strict");
        strict.push(took);
        report = json;
        two.push(sandboxed_run(&grader, &program, &dir, "2", "strict").0);
        basic.push(sandboxed_run(&grader, &program, &dir, "1", "basic").0);
        for _ in 0..5 {
            boxed_once.push(sandboxed_run(&grader, &program, &one_case, "1", "strict").0);
            plain_once.push(sandboxed_run(&grader, &program, &one_case, "1", "none").0);
        }
    }
    println!("samples: bare {bare:?}\n strict {strict:?}\n two {two:?}\n basic {basic:?}");
    let (bare, strict, two, basic) = (median(bare), median(strict), median(two), median(basic));
    let ratio = |d: Duration| d.as_secs_f64() / bare.as_secs_f64();
    println!(
        "baseline: bare spawn + pipes + wait4 loop: {:.0} ms ({:.3} ms a case)",
        bare.as_secs_f64() * 1e3,
        per_case_ms(bare)
    );
    println!(
        "grader test --jobs 1 --sandbox strict: {:.0} ms ({:.3} ms a case) = {:.2}x the baseline (target <= 1.10x)",
        strict.as_secs_f64() * 1e3,
        per_case_ms(strict),
        ratio(strict)
    );
    println!(
        "grader test --jobs 1 --sandbox basic: {:.0} ms ({:.3} ms a case) = {:.2}x the baseline",
        basic.as_secs_f64() * 1e3,
        per_case_ms(basic),
        ratio(basic)
    );
    println!(
        "grader test --jobs 2 --sandbox strict: {:.0} ms ({:.3} ms a case) = {:.2}x the throughput of --jobs 1 (target >= 1.8x)",
        two.as_secs_f64() * 1e3,
        per_case_ms(two),
        strict.as_secs_f64() / two.as_secs_f64()
    );
    let (boxed_once, plain_once) = (median(boxed_once), median(plain_once));
    println!(
        "one case: strict {:.1} ms, none {:.1} ms: a box costs a worker {:.1} ms to set up (target < 20 ms)",
        boxed_once.as_secs_f64() * 1e3,
        plain_once.as_secs_f64() * 1e3,
        (boxed_once.as_secs_f64() - plain_once.as_secs_f64()) * 1e3
    );
    let value: serde_json::Value = serde_json::from_str(&report).expect("JSON");
    let peaks: Vec<u64> = value["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|c| c["memory_kib"].as_u64())
        .collect();
    println!(
        "peak memory reported for the trivial program (strict): max {} KiB over {} cases (target < 4096)",
        peaks.iter().max().copied().unwrap_or_default(),
        peaks.len()
    );
}
