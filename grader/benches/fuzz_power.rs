//! The fuzzer's power on every mistake (issue 24). Times nothing: it counts runs.
//!
//! For each classic wrong solution (mutant) and each held-apart one of each problem, and
//! each seed S in 1..=20, the run of the first finding of
//!
//! ```text
//! grader fuzz PROBLEM --cmd 'grader mutant PROBLEM MISTAKE' --no-regressions --seed S
//! ```
//!
//! then, per mistake, the median (of 20: the mean of the middle two) and the worst. It
//! prints a table and exits 1 when any mistake's median is over 15 runs or its worst over
//! 150 (a mistake not found within the budget counts as over).
//!
//! `cargo bench -p grader --bench fuzz_power` runs the mutants in process, through
//! `fuzz::power::runs_to_finding`: the same search as `grader fuzz` with the same inputs
//! in the same order, so the same figures (a finding depends on the seed and the mistake
//! alone), in seconds. `-- --programs` runs each mistake as a program through
//! `grader mutant`, exactly the command above (minutes). `-- PROBLEM...` measures those
//! problems only; `-- --runs N` is the budget of one search (default 1000).
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::path::Path;

use reference::Problem;
use testkit::mutants::{runs_text, runs_to_finding};

/// The seeds of the measure.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
/// The bounds of issue 24: the median at most 15 runs, the worst at most 150.
const MEDIAN_BOUND: f64 = 15.0;
const WORST_BOUND: u64 = 150;
/// The runs one search may make by default.
const RUNS: u64 = 1000;

/// The median (the mean of the middle two of an even count) and the worst of `runs`, a
/// miss counting as `u64::MAX`.
fn spread(runs: &[Option<u64>]) -> (f64, u64) {
    let mut sorted: Vec<u64> = runs.iter().map(|r| r.unwrap_or(u64::MAX)).collect();
    sorted.sort_unstable();
    let n = sorted.len();
    let middle = |i: usize| sorted[i] as f64;
    let median = if n.is_multiple_of(2) {
        f64::midpoint(middle(n / 2 - 1), middle(n / 2))
    } else {
        middle(n / 2)
    };
    (median, sorted[n - 1])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let programs = args.iter().any(|a| a == "--programs");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map_or(RUNS, |n| n.parse().expect("--runs N"));
    let chosen: Vec<Problem> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let problems: Vec<Problem> = Problem::ALL
        .into_iter()
        .filter(|p| chosen.is_empty() || chosen.contains(p))
        .collect();
    let grader = Path::new(env!("CARGO_BIN_EXE_grader"));
    println!(
        "runs to the first finding of `grader fuzz PROBLEM MISTAKE --no-regressions --seed S`, \
         S = {}..={} ({}, at most {runs} runs); bounds: median <= {MEDIAN_BOUND}, worst <= {WORST_BOUND}",
        SEEDS.start(),
        SEEDS.end(),
        if programs {
            "mistakes run as programs through `grader mutant`"
        } else {
            "mistakes run in process"
        },
    );
    println!(
        "  {:<9}  {:<20}  {:<10}  {:>6}  {:>5}  runs by seed",
        "problem", "mistake", "", "median", "worst"
    );
    let mut out_of_bounds = Vec::new();
    let mut largest = (0.0_f64, String::new(), 0_u64, String::new());
    for problem in problems {
        for (index, (name, _)) in problem.mutants().into_iter().enumerate() {
            let found: Vec<Option<u64>> = SEEDS
                .map(|seed| {
                    if programs {
                        runs_to_finding(grader, problem.id(), name, seed, runs)
                    } else {
                        fuzz::power::runs_to_finding(problem, index, seed, runs)
                    }
                })
                .collect();
            let (median, worst) = spread(&found);
            let within = median <= MEDIAN_BOUND && worst <= WORST_BOUND;
            let by_seed: Vec<String> = found
                .iter()
                .map(|r| runs_text(r.unwrap_or(u64::MAX)))
                .collect();
            println!(
                "  {:<9}  {name:<20}  {:<10}  {median:>6}  {:>5}  {}{}",
                problem.id(),
                if problem.is_held_apart(index) {
                    "held apart"
                } else {
                    "classic"
                },
                runs_text(worst),
                by_seed.join(" "),
                if within { "" } else { "  OUT OF BOUNDS" }
            );
            let who = format!("{problem} {name}");
            if median > largest.0 {
                largest.0 = median;
                largest.1.clone_from(&who);
            }
            if worst > largest.2 {
                largest.2 = worst;
                largest.3.clone_from(&who);
            }
            if !within {
                out_of_bounds.push(who);
            }
        }
    }
    println!(
        "  largest median {} ({}), largest worst {} ({})",
        largest.0,
        largest.1,
        runs_text(largest.2),
        largest.3
    );
    if !out_of_bounds.is_empty() {
        println!("  out of bounds: {}", out_of_bounds.join(", "));
        std::process::exit(1);
    }
}
