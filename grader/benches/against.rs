//! This build's `grader` against another build of it, measured in the same run: the same
//! commands, alternating A B A B, so that a change of the code (issue 15's results layer,
//! its one worker pool) shows as a ratio of medians, whatever else the machine is doing.
//!
//! Run with `cargo bench -p grader --bench against -- OTHER_GRADER`, where OTHER_GRADER is
//! the `grader` binary of another commit, e.g.:
//!
//! ```text
//! git worktree add /tmp/old dd6e179
//! cargo build --release -p grader --manifest-path /tmp/old/Cargo.toml --target-dir /tmp/old-target
//! cargo bench -p grader --bench against -- /tmp/old-target/release/grader
//! ```
//!
//! Commands: `test` of the bundled C submission on the 69 flip cases (two workers), `test`
//! of a trivial C program on 400 cases (one worker: the grader's own cost a run), `batch`
//! of a class of 12 such students (a fresh output folder each time, compiles cached by a
//! warm-up), and `fuzz` of it for 300 runs of one seed. Each in the `basic` tier, which
//! every machine here has; the trivial program's `test` also in `strict`, with a second
//! program that writes a file at each run (what a new work folder per run costs). A ratio
//! above 1 means this build is slower.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testkit::cases::CaseFolder;
use testkit::class::Class;
use testkit::measure::median;
use testkit::paths::repo;
use testkit::programs::TRIVIAL_C;

/// Rounds of A B for each command.
const ROUNDS: usize = 9;
/// Students in the batch's class.
const STUDENTS: usize = 12;
/// Cases of the trivial program's folder: what the grader adds to each run shows.
const TRIVIAL_CASES: usize = 400;
/// The trivial program, but leaving a file in its working folder at each run: in `strict`
/// each of its runs is followed by a new work folder (`boxed.rs`).
const WRITER: &str = "#include <stdio.h>\nint main(void) { char b[4][8]; for (int i = 0; i < 4; i++) \
    if (scanf(\"%7s\", b[i]) != 1) return 1; FILE *f = fopen(\"/tmp/scratch.txt\", \"w\"); \
    if (f) { fputs(\"x\\n\", f); fclose(f); } printf(\"4\\n\"); return 0; }\n";

/// One command, run from `root`, timed; panics unless it exits with `status`.
fn timed(grader: &Path, root: &Path, args: &[&str], cache: &Path, status: i32) -> Duration {
    let start = Instant::now();
    let output = Command::new(grader)
        .args(args)
        .current_dir(root)
        .env("GRADER_CACHE_DIR", cache)
        .env("NO_COLOR", "1")
        .output()
        .expect("run grader");
    let took = start.elapsed();
    assert_eq!(
        output.status.code(),
        Some(status),
        "{} {args:?}: {}",
        grader.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    took
}

/// The submission, and a class of [`STUDENTS`] students, in `root`.
fn lay_out(root: &Path, repo: &Path) {
    let source = repo.join("examples/flip/ac_bfs.c");
    fs::copy(&source, root.join("sol.c")).expect("copy the submission");
    let text = fs::read_to_string(&source).expect("read the submission");
    Class::at(root.join("class")).distinct((0..STUDENTS).map(|s| format!("s{s:02}")), "c", &text);
    fs::write(root.join("trivial.c"), TRIVIAL_C).expect("write the trivial program");
    fs::write(root.join("writer.c"), WRITER).expect("write the writing program");
    let board = fs::read(repo.join("cases/flip/data/sample/01.in")).expect("the sample");
    CaseFolder::at(root.join("trivial-cases")).repeated(TRIVIAL_CASES, board, "4\n");
}

/// The two graders, each with its own compile cache, and the folder they run in.
struct Contest<'a> {
    graders: [&'a Path; 2],
    caches: [&'a Path; 2],
    root: &'a Path,
}

impl Contest<'_> {
    /// Runs `args(run)` with each grader in turn, [`ROUNDS`] times; prints the medians and
    /// their ratio.
    fn compare(&self, name: &str, args: &dyn Fn(usize) -> Vec<String>) {
        let mut samples = [Vec::new(), Vec::new()];
        let mut run = 0;
        for _ in 0..ROUNDS {
            for (i, (grader, cache)) in self.graders.iter().zip(self.caches).enumerate() {
                run += 1;
                let words = args(run);
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                samples[i].push(timed(grader, self.root, &words, cache, 0));
            }
        }
        let [a, b] = samples.map(median);
        println!(
            "{name:<34} {:>8.0}ms {:>8.0}ms {:>7.3}",
            a.as_secs_f64() * 1e3,
            b.as_secs_f64() * 1e3,
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}

/// `words` as owned strings.
fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// `grader batch` of the class into `out`.
fn batch(cases: &str, out: &str) -> Vec<String> {
    owned(&[
        "batch",
        "flip",
        "class",
        "--cases",
        cases,
        "--out",
        out,
        "--sandbox",
        "basic",
        "--report",
        "json",
    ])
}

fn main() {
    let Some(other) = std::env::args().skip(1).find(|a| !a.starts_with('-')) else {
        println!("usage: cargo bench -p grader --bench against -- OTHER_GRADER");
        return;
    };
    let other = fs::canonicalize(&other).expect("the other grader exists");
    let this = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let repo = repo();
    let root = tempfile::tempdir().expect("temp dir");
    lay_out(root.path(), &repo);
    let cases = repo.join("cases/flip");
    let cases = cases.to_str().expect("a UTF-8 path");
    let test = owned(&[
        "test",
        "flip",
        "sol.c",
        "--cases",
        cases,
        "--jobs",
        "2",
        "--sandbox",
        "basic",
        "--report",
        "json",
    ]);
    let trivial = owned(&[
        "test",
        "flip",
        "trivial.c",
        "--cases",
        "trivial-cases",
        "--jobs",
        "1",
        "--sandbox",
        "basic",
        "--report",
        "json",
    ]);
    // The same in the box, and the program that writes in it.
    let boxed = |program: &str| {
        let mut words = trivial.clone();
        program.clone_into(&mut words[2]);
        "strict".clone_into(&mut words[8]);
        words
    };
    let (trivial_strict, writer_strict) = (boxed("trivial.c"), boxed("writer.c"));
    let fuzz = owned(&[
        "fuzz",
        "flip",
        "sol.c",
        "--seed",
        "1",
        "--runs",
        "300",
        "--jobs",
        "2",
        "--no-regressions",
        "--sandbox",
        "basic",
        "--report",
        "json",
    ]);
    let caches = [
        tempfile::tempdir().expect("cache"),
        tempfile::tempdir().expect("cache"),
    ];
    let contest = Contest {
        graders: [&this, &other],
        caches: [caches[0].path(), caches[1].path()],
        root: root.path(),
    };
    // Warm-up: every compile is cached for both, and the page cache is warm.
    for (grader, cache) in contest.graders.iter().zip(contest.caches) {
        for words in [
            &test,
            &trivial,
            &trivial_strict,
            &writer_strict,
            &batch(cases, "warm"),
        ] {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            timed(grader, root.path(), &words, cache, 0);
        }
        fs::remove_dir_all(root.path().join("warm")).expect("remove the warm-up's gradebook");
    }
    println!(
        "this build against {} ({ROUNDS} rounds, A B alternating; medians)",
        other.display()
    );
    println!(
        "{:<34} {:>10} {:>10} {:>7}",
        "command", "this", "other", "ratio"
    );
    contest.compare("test (69 flip cases, --jobs 2)", &|_| test.clone());
    contest.compare("test (400 trivial cases, --jobs 1)", &|_| trivial.clone());
    contest.compare("  the same, strict", &|_| trivial_strict.clone());
    contest.compare("  a program writing a file, strict", &|_| {
        writer_strict.clone()
    });
    contest.compare("batch (12 students x 69 cases)", &|run| {
        batch(cases, &format!("out-{run}"))
    });
    contest.compare("fuzz (300 runs, --jobs 2)", &|_| fuzz.clone());
}
