//! `grader package verify` against problemtools' `verifyproblem -p submissions` on the
//! same packages, cold, alternating A B A B: what a jury's loop, or a CI job on a fresh
//! machine, waits for. Each grader run gets a new, empty compile cache (verifyproblem
//! keeps none), so every compile, precompiled header and validator build is in its time.
//!
//! Run with `cargo bench -p grader --bench verify [-- PACKAGE ...]`. Without packages it
//! takes the project's own: the test fixtures `sum` (default validator, float tolerance),
//! `parity` (an output validator of its own) and `halves` (scoring, 2023-07), and the
//! built-in `flip` and `swap` as `grader package export` writes them. problemtools'
//! examples (`examples/different`, `hello`, `oddecho`, ...) can be named as packages.
//! Each line prints both medians over [`ROUNDS`] pairs and how many times faster the
//! grader was (verifyproblem's median over the grader's), wall time of the whole command.
//!
//! Needs `verifyproblem` (PyPI's `problemtools`); says so and stops without it.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testkit::measure::{median, ms};
use testkit::packages::fixture;

/// Pairs of runs for each package.
const ROUNDS: usize = 5;

/// Runs `command` to its end and times it; panics if it could not start. Its status is
/// not judged (a package's disagreeing submission exits 1 in both tools alike).
fn timed(command: &mut Command) -> Duration {
    let start = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("start the command");
    let took = start.elapsed();
    assert!(status.code().is_some(), "{command:?} was killed: {status}");
    took
}

/// One cold `grader package verify` of `package`: a new compile cache each time.
fn grader(package: &Path) -> Duration {
    let cache = tempfile::tempdir().expect("a cache folder");
    timed(
        Command::new(env!("CARGO_BIN_EXE_grader"))
            .args(["package", "verify"])
            .arg(package)
            .env("GRADER_CACHE_DIR", cache.path())
            .env("NO_COLOR", "1"),
    )
}

/// One `verifyproblem PACKAGE -p submissions`.
fn verifyproblem(package: &Path) -> Duration {
    timed(
        Command::new("verifyproblem")
            .arg(package)
            .args(["-p", "submissions"]),
    )
}

/// The project's own packages, exported or copied into `root`.
fn own_packages(root: &Path) -> Vec<PathBuf> {
    let mut packages: Vec<PathBuf> = ["sum", "parity", "halves"]
        .into_iter()
        .map(fixture)
        .collect();
    for problem in ["flip", "swap"] {
        let out = root.join(problem);
        let status = Command::new(env!("CARGO_BIN_EXE_grader"))
            .args(["package", "export", problem, "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run grader package export");
        assert!(status.success(), "export {problem}");
        packages.push(out);
    }
    packages
}

fn main() {
    let found = Command::new("verifyproblem")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !found.is_ok_and(|s| s.success()) {
        println!("verify bench: needs verifyproblem (PyPI package `problemtools`)");
        return;
    }
    let root = tempfile::tempdir().expect("temp dir");
    let named: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let packages = if named.is_empty() {
        own_packages(root.path())
    } else {
        named
    };
    println!(
        "{:<24} {:>12} {:>14} {:>8}   (medians of {ROUNDS} cold pairs, wall)",
        "package", "grader", "verifyproblem", "faster"
    );
    for package in &packages {
        let mut a = Vec::new();
        let mut b = Vec::new();
        for _ in 0..ROUNDS {
            a.push(grader(package));
            b.push(verifyproblem(package));
        }
        let (a, b) = (median(a), median(b));
        let name = package.file_name().unwrap_or_default().to_string_lossy();
        println!(
            "{name:<24} {:>10.0}ms {:>12.0}ms {:>7.2}x",
            ms(a),
            ms(b),
            b.as_secs_f64() / a.as_secs_f64()
        );
    }
}
