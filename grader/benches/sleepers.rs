//! A sleeping student does not hold the class (issue 41): `grader batch flip --jobs 2` of
//! 20 honest Python students and one whose program sleeps 10 s, on the shipped 69 cases,
//! against the same class without the sleeper, each command timed as a whole process from
//! outside, alternating A B A B so that a machine's drift shows in both. Target: the class
//! with the sleeper within 1.2x of the class without.
//!
//! Run with `cargo bench -p grader --bench sleepers` (`-- ROUNDS`, default 5). Each batch
//! writes into a fresh output folder (no journal to resume from); the default limits.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testkit::class::Class;
use testkit::files::copy_tree;
use testkit::measure::median;
use testkit::paths::{fixture, repo};

/// Honest students in each class.
const HONEST: usize = 20;
/// The sleeping student's program: no CPU, past any wall limit the defaults set.
const SLEEPER: &str = "import time\ntime.sleep(10)\n";

/// `grader batch` of `class` into a fresh `out`, timed; the gradebook as JSON.
fn batch(grader: &Path, root: &Path, class: &str, out: &str) -> (Duration, serde_json::Value) {
    let start = Instant::now();
    let output = Command::new(grader)
        .args(["batch", "flip", class, "--jobs", "2", "--out", out])
        .args(["--report", "json"])
        .current_dir(root)
        .env("GRADER_CACHE_DIR", root.join("cache"))
        .output()
        .expect("grader batch");
    let took = start.elapsed();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{class}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (took, serde_json::from_slice(&output.stdout).expect("JSON"))
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let work = tempfile::tempdir().expect("tempdir");
    let root = work.path();
    let honest = fs::read_to_string(fixture("flip/ac_rows.py")).expect("the honest program");
    for folder in ["without", "with"] {
        let class = Class::at(root.join(folder));
        for i in 1..=HONEST {
            class.write(format!("s{i:02}.py"), format!("# s{i:02}\n{honest}"));
        }
    }
    Class::at(root.join("with")).write("sleeper.py", SLEEPER);
    // The shipped cases, where `grader batch` looks by default: ./cases/flip.
    copy_tree(&repo().join("cases/flip"), &root.join("cases/flip"));
    // Warm-up: the interpreter's files in the page cache, the boxes' first start.
    batch(&grader, root, "without", "warm-without");
    let (_, book) = batch(&grader, root, "with", "warm-with");
    let students = book["students"].as_array().expect("students");
    let sleeper = students
        .iter()
        .find(|s| s["student"] == "sleeper")
        .expect("the sleeper");
    println!(
        "the sleeper: {} {}/{}, {}",
        sleeper["verdict"], sleeper["passed"], sleeper["total"], sleeper["stopped"]
    );
    let (mut with, mut without, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let a = batch(&grader, root, "with", &format!("with-{round}")).0;
        let b = batch(&grader, root, "without", &format!("without-{round}")).0;
        println!(
            "  round {}: with {:.2} s, without {:.2} s, {:.3}x",
            round + 1,
            a.as_secs_f64(),
            b.as_secs_f64(),
            a.as_secs_f64() / b.as_secs_f64()
        );
        pairs.push(Duration::from_secs_f64(a.as_secs_f64() / b.as_secs_f64()));
        with.push(a);
        without.push(b);
    }
    let (a, b) = (median(with), median(without));
    println!(
        "{HONEST} honest Python students + 1 asleep 10 s x the shipped 69 flip cases, --jobs 2, \
         {rounds} rounds: median {:.2} s, without the sleeper {:.2} s: ratio of medians \
         {:.3}x, median of the pairs' ratios {:.3}x (target <= 1.2)",
        a.as_secs_f64(),
        b.as_secs_f64(),
        a.as_secs_f64() / b.as_secs_f64(),
        median(pairs).as_secs_f64()
    );
}
