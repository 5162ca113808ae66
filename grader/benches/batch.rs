//! `grader batch` against its targets (issue 6), measured in the same run:
//!
//! - 100 submissions x the shipped flip cases on all cores: the batch's wall time against
//!   the sum of its own per-case wall times divided by the number of workers (target: at
//!   most 1.2x; compiles are cached by a warm-up batch first, so this is scheduling);
//! - a re-run with nothing changed (target: under 1 s).
//!
//! Run with `cargo bench -p grader --bench batch`.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testkit::class::Class;
use testkit::files::copy_tree;
use testkit::measure::median;
use testkit::paths::repo;

const STUDENTS: usize = 100;

fn batch(grader: &Path, root: &Path, out: &str, cache: &Path) -> (Duration, serde_json::Value) {
    let start = Instant::now();
    let output = Command::new(grader)
        .args(["batch", "flip", "class", "--out", out, "--report", "json"])
        .current_dir(root)
        .env("GRADER_CACHE_DIR", cache)
        .output()
        .expect("grader batch");
    let took = start.elapsed();
    assert!(
        output.status.code() == Some(0),
        "every student is AC: {output:?}"
    );
    (took, serde_json::from_slice(&output.stdout).expect("JSON"))
}

fn main() {
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let repo = repo();
    let work = tempfile::tempdir().expect("tempdir");
    let cache = work.path().join("cache");
    let source = fs::read_to_string(repo.join("examples/flip/ac_bfs.c")).expect("example");
    Class::at(work.path().join("class")).distinct(
        (0..STUDENTS).map(|i| format!("student{i:03}")),
        "c",
        &source,
    );
    // The shipped cases, where `grader batch` looks by default: ./cases/flip.
    copy_tree(&repo.join("cases/flip"), &work.path().join("cases/flip"));
    let jobs = std::thread::available_parallelism().map_or(1, usize::from);
    // Warm-up: compiles everything into the cache.
    let (compile, _) = batch(&grader, work.path(), "warm", &cache);
    let (took, book) = batch(&grader, work.path(), "measured", &cache);
    let runs: f64 = book["students"]
        .as_array()
        .expect("students")
        .iter()
        .flat_map(|s| s["cases"].as_array().expect("cases").iter())
        .map(|c| c["wall_ms"].as_f64().expect("wall"))
        .sum();
    let ideal = runs / jobs as f64;
    println!(
        "{STUDENTS} submissions x the shipped flip cases, {jobs} workers \
         (first batch, compiling: {:.1} s)",
        compile.as_secs_f64()
    );
    println!(
        "  batch wall {:.2} s; its runs' wall times sum to {:.2} s, / {jobs} = {:.2} s: \
         ratio {:.2} (target <= 1.2)",
        took.as_secs_f64(),
        runs / 1e3,
        ideal / 1e3,
        took.as_secs_f64() * 1e3 / ideal
    );
    let mut again = Vec::new();
    for _ in 0..5 {
        again.push(batch(&grader, work.path(), "measured", &cache).0);
    }
    println!(
        "  re-run with nothing changed: median of 5 {:.0} ms (target < 1 s)",
        median(again).as_secs_f64() * 1e3
    );
}
