//! `grader fuzz` against its targets (issue 5), with the classic wrong solutions run as
//! real programs (`grader mutant`) and figures measured in the same run:
//!
//! - runs to the first finding for every mutant (the classic ones and the held-apart ones
//!   of issue 17) and every seed 1..=20, with the median (target <= 20) and the worst
//!   (target <= 200);
//! - throughput on a fast correct C program: `grader fuzz` against a bare loop that
//!   spawns the same program on the same inputs with pipes and `wait4` (target >= 85%).
//!
//! Run with `cargo bench -p grader --bench fuzz`; `-- power` measures the runs to the first
//! finding only, and `-- power --in-process` runs the mutants in process (the same
//! figures, as a finding depends on the seed and the mutant alone, in seconds).
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reference::Problem;
use testkit::measure::median;
use testkit::mutants::{runs_text, runs_to_finding};
use testkit::programs::{bare_run, gcc};

const RUNS: u64 = 2000;
/// The runs a search for a mutant's first finding may make (the worst target is 200).
const POWER_RUNS: u64 = 1000;
const ROUNDS: usize = 5;

/// A correct flip solution that costs next to nothing: fix the first row's presses, the
/// rest are forced.
const FAST_FLIP: &str = r#"#include <stdio.h>
int main(void) {
    char line[8]; int b[16], best = 99;
    for (int r = 0; r < 4; r++) { if (scanf("%7s", line) != 1) return 1;
        for (int c = 0; c < 4; c++) b[r * 4 + c] = line[c] == 'b'; }
    for (int goal = 0; goal < 2; goal++) for (int first = 0; first < 16; first++) {
        int x[16], n = 0;
        for (int i = 0; i < 16; i++) x[i] = b[i];
        for (int i = 0; i < 16; i++) {
            int r = i / 4, c = i % 4;
            int press = r == 0 ? (first >> c & 1) : (x[i - 4] != goal);
            if (!press) continue;
            n++; x[i] ^= 1;
            if (r > 0) x[i - 4] ^= 1; if (r < 3) x[i + 4] ^= 1;
            if (c > 0) x[i - 1] ^= 1; if (c < 3) x[i + 1] ^= 1;
        }
        int ok = 1; for (int i = 12; i < 16; i++) ok &= x[i] == goal;
        if (ok && n < best) best = n;
    }
    if (best == 99) puts("Impossible"); else printf("%d\n", best);
    return 0;
}
"#;

/// Prints, for every mutant and every seed, the runs to the first finding (`-` for none
/// within [`POWER_RUNS`]), then the median and the worst, over all mutants and over the
/// held-apart ones.
fn power(grader: &Path, in_process: bool) {
    let (target, seeds) = (fuzz::power::TARGET, fuzz::power::SEEDS);
    println!(
        "runs to the first finding, seeds {}..={} ({}; targets: median <= {}, worst <= {})",
        seeds.start(),
        seeds.end(),
        if in_process {
            "mutants in process"
        } else {
            "mutants run as programs"
        },
        target.median,
        target.worst
    );
    let (mut all, mut held) = (Vec::new(), Vec::new());
    for problem in Problem::ALL {
        for (index, (mutant, _)) in problem.mutants().into_iter().enumerate() {
            let runs: Vec<Option<u64>> = seeds
                .clone()
                .map(|seed| {
                    if in_process {
                        fuzz::power::runs_to_finding(problem, index, seed, POWER_RUNS)
                    } else {
                        runs_to_finding(grader, problem.id(), mutant, seed, POWER_RUNS)
                    }
                })
                .collect();
            let spread = fuzz::power::Spread::of(&runs).expect("seeds");
            let apart = problem.is_held_apart(index);
            let each: Vec<String> = runs
                .iter()
                .map(|r| r.map_or_else(|| "-".to_owned(), |n| n.to_string()))
                .collect();
            println!(
                "  {:<9} {mutant:<20}{} median {:>3}  worst {:>4}  {}{}",
                problem.id(),
                if apart {
                    " (held apart)"
                } else {
                    "             "
                },
                spread.median,
                runs_text(spread.worst),
                each.join(" "),
                if spread.within(target) {
                    ""
                } else {
                    "  MISSES THE TARGET"
                }
            );
            all.push(spread);
            if apart {
                held.push(spread);
            }
        }
    }
    for (what, spreads) in [("all mutants", &all), ("held-apart mutants", &held)] {
        let median = spreads.iter().map(|s| s.median).max().unwrap_or(0);
        let worst = spreads.iter().map(|s| s.worst).max().unwrap_or(0);
        println!(
            "  over {what}: largest median {}, largest worst {}",
            runs_text(median),
            runs_text(worst)
        );
    }
}

/// The bare loop over the inputs: spawn, feed, read, reap.
fn bare_loop(program: &Path, inputs: &[PathBuf]) -> Duration {
    let start = Instant::now();
    for input in inputs {
        assert!(!bare_run(program, input).is_empty());
    }
    start.elapsed()
}

fn throughput(grader: &Path) {
    let work = tempfile::tempdir().expect("tempdir");
    let source = work.path().join("fast.c");
    fs::write(&source, FAST_FLIP).expect("write");
    let program = work.path().join("fast");
    gcc(&source, &program, &[]);
    // The very inputs `grader fuzz --seed 1` draws.
    let inputs: Vec<PathBuf> = (0..RUNS)
        .map(|run| {
            let path = work.path().join(format!("{run}.in"));
            fs::write(&path, fuzz::draw(Problem::Flip, 1, run).input).expect("write");
            path
        })
        .collect();
    let mut bare = Vec::new();
    let mut fuzzed = Vec::new();
    for _ in 0..ROUNDS {
        bare.push(bare_loop(&program, &inputs));
        let start = Instant::now();
        let status = Command::new(grader)
            .args(["fuzz", "flip"])
            .arg(&program)
            .args([
                "--seed",
                "1",
                "--runs",
                &RUNS.to_string(),
                "--jobs",
                "1",
                "--no-regressions",
            ])
            .stdout(Stdio::null())
            .status()
            .expect("grader fuzz");
        fuzzed.push(start.elapsed());
        assert!(status.success(), "the fast solution must pass");
    }
    let (bare, fuzzed) = (median(bare), median(fuzzed));
    let rate = |d: Duration| RUNS as f64 / d.as_secs_f64();
    println!(
        "throughput, {RUNS} flip inputs, a fast correct C program, medians of {ROUNDS}:\n  \
         bare spawn + pipes + wait4 loop: {:.0} runs/s\n  \
         grader fuzz --jobs 1:            {:.0} runs/s = {:.0}% of the baseline (target >= 85%)",
        rate(bare),
        rate(fuzzed),
        100.0 * bare.as_secs_f64() / fuzzed.as_secs_f64()
    );
}

fn main() {
    let grader = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let args: Vec<String> = std::env::args().skip(1).collect();
    let in_process = args.iter().any(|a| a == "--in-process");
    if !args.iter().any(|a| a == "power") {
        throughput(&grader);
    }
    power(&grader, in_process);
}
