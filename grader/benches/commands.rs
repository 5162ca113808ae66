//! Wall-clock figures of the `grader` binary, each against a baseline measured in the same
//! run on the same machine: `grader solve` against `grader --version` (the cost of starting
//! the same binary), and the case-folder commands against their 1 s budget.
//!
//! Run with `cargo bench -p grader --bench commands`. Medians of many runs, because these
//! machines are noisy.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testkit::boards::{FLIP_SAMPLE, FOURINROW_SAMPLE};
use testkit::measure::{median, ms};
use testkit::paths::repo;

const BOARDS: [(&str, &str); 4] = [
    ("flip", FLIP_SAMPLE),
    ("fourinrow", FOURINROW_SAMPLE),
    // The worst rows for a search: the longest standard start, and a long blocked row.
    ("swap", "WWWWWWWWWWOBBBBBBBBBB\n"),
    ("swap", "WWWWWWWWWBOBBBBBBBBBW\n"),
];

/// Median wall time of running `program args` with `stdin`, `runs` times.
fn time(program: &Path, args: &[&str], stdin: &[u8], runs: usize) -> Duration {
    let samples = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let mut child = Command::new(program)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn");
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(stdin)
                .expect("write");
            let status = child.wait().expect("wait");
            let elapsed = start.elapsed();
            assert!(
                status.code().is_some_and(|c| c <= 1),
                "{} {args:?}: {status}",
                program.display()
            );
            elapsed
        })
        .collect();
    median(samples)
}

fn main() {
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let root = repo().join("cases");
    let root = root.to_str().expect("a UTF-8 path");
    let runs = 200;

    let spawn = time(Path::new("/bin/true"), &[], b"", runs);
    println!("spawn /bin/true, median of {runs}: {:.3} ms", ms(spawn));
    // Process start of the grader itself (loading, runtime, argument parsing): what
    // `grader solve` spends beyond it is the solving.
    let baseline = time(&grader, &["--version"], b"", runs);
    println!(
        "baseline: grader --version, median of {runs}: {:.3} ms ({:.2}x /bin/true)",
        ms(baseline),
        baseline.as_secs_f64() / spawn.as_secs_f64()
    );
    for (problem, board) in BOARDS {
        let solve = time(&grader, &["solve", problem], board.as_bytes(), runs);
        let first = board.lines().next().unwrap_or_default();
        println!(
            "grader solve {problem:<9} ({first}...): {:.3} ms = baseline + {:.3} ms ({:.2}x)",
            ms(solve),
            ms(solve.saturating_sub(baseline)),
            solve.as_secs_f64() / baseline.as_secs_f64()
        );
    }

    let budget = Duration::from_secs(1);
    for args in [
        &["cases", "regen", "--check", "--root", root][..],
        &["cases", "check", "--root", root][..],
    ] {
        let took = time(&grader, args, b"", 7);
        println!(
            "grader {}: median of 7 {:.1} ms = {:.2} of the 1 s budget",
            args[..2].join(" "),
            ms(took),
            took.as_secs_f64() / budget.as_secs_f64()
        );
    }
}
