//! Whole commands against their floors, timed from outside as a user times them (from
//! the start of the process to its exit), each against a baseline measured in the same
//! run, alternating A B A B within every round; medians and their ratio.
//!
//! - `test`: `grader test flip --jobs 1 --sandbox strict` over 1,000 cases, for a trivial
//!   C program and for the bundled BFS (`examples/flip/ac_bfs.c`), against the bare loop
//!   `spawnloop` (`../shared/bench/spawnloop.c`, `gcc -O2`; spawn, pipe, read, `wait4`,
//!   nothing else) over the same cases. Target: at most 1.10x.
//! - `batch`: `grader batch flip --jobs 2 --sandbox strict` of STUDENTS distinct C students
//!   (the BFS, each a comment apart) x 150 cases. Cold (an empty compile cache) against its
//!   floor: bare `gcc -O2 -std=gnu11 -pipe ... -lm` (the language table's command for C) of
//!   the same files two at a time, plus `spawnloop` over the cases
//!   for every student, two at a time. Warm (compiles cached) against the run floor alone.
//!   Then a rerun with nothing changed, one case added (only its runs are made), and the
//!   grader's own peak memory (its `VmHWM`, sampled while it runs; its launchers and
//!   programs are other processes). Target: at most 1.10x each; a rerun under 5 s.
//!
//! - `cpp`: `grader batch fourinrow --jobs 2 --sandbox strict` of CPP_STUDENTS distinct C++
//!   students whose source starts with `#include <bits/stdc++.h>` (the bundled BFS, each a
//!   comment apart) x 1 case, with an empty compile cache (the precompiled header built
//!   once inside), against bare `g++ -O2 -std=gnu++23 -pipe` of the same files two at a
//!   time. Target: under 0.6x.
//! - `page`: the gradebook page of a class of PAGE_STUDENTS (default 3,000): a batch of
//!   five flip students (`AC`, `WA`, `PE`, a program that prints nothing, `CE`) over the
//!   69 bundled cases, its gradebook's students copied under new names, and `grader
//!   merge` of that; its `gradebook.html` opened by headless Chromium (`--screenshot`:
//!   the page loaded, its script run, laid out and its first screen drawn) against an
//!   empty page, alternating.
//!   Target: under 2 s. Needs `chromium`.
//!
//! Run with `cargo bench -p grader --bench floor`; `-- test`, `-- batch` or `-- cpp` for
//! one part (`-- page` too). `GRADER_BENCH_STUDENTS` sets the class (default 200; the
//! figure the README quotes is 3,000), `GRADER_BENCH_CPP_STUDENTS` the C++ class (default
//! 300), `GRADER_BENCH_PAGE_STUDENTS` the page's (default 3,000),
//! `GRADER_BENCH_ROUNDS` the rounds (default 5 for `test`, 3 for `batch`, 2 for `cpp`).
//! Needs `gcc`, `g++`, and `../shared/bench/spawnloop.c` beside the repository.
#![expect(clippy::print_stdout, reason = "a bench reports on stdout")]

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testkit::boards::FOURINROW_SAMPLE;
use testkit::class::Class;
use testkit::measure::{median, ms};
use testkit::paths::repo;
use testkit::programs::{TRIVIAL_C, gcc};

const TEST_CASES: usize = 1000;
/// The pause before each timed command (see [`timed`]).
const SETTLE: Duration = Duration::from_millis(300);
const BATCH_CASES: usize = 150;

fn main() {
    let parts: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| parts.is_empty() || parts.iter().any(|p| p == part);
    let bench = Bench::new();
    if wanted("test") {
        bench.test();
    }
    if wanted("batch") {
        bench.batch();
    }
    if wanted("cpp") {
        bench.cpp();
    }
    if parts.iter().any(|p| p == "page") {
        bench.page();
    }
}

struct Bench {
    grader: PathBuf,
    repo: PathBuf,
    work: tempfile::TempDir,
    spawnloop: PathBuf,
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `cmd` to its end, quiet; its wall time. Panics unless it exits with one of `ok`.
///
/// Each command starts on a quiet machine: what the last one left the kernel to do once
/// it exited (a box's namespaces and cgroups torn down) must not be charged to the next.
fn timed(cmd: &mut Command, ok: &[i32]) -> Duration {
    std::thread::sleep(SETTLE);
    run(cmd, ok)
}

/// As a user's shell runs `cmd`: without the library path `cargo bench` sets, which
/// would make every dynamically linked program the bare loop starts search it first (the
/// grader's runs get a clean environment, so only the baseline would pay for it).
fn as_a_user(cmd: &mut Command) -> &mut Command {
    cmd.env_remove("LD_LIBRARY_PATH")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
}

/// Runs `cmd` to its end, quiet; its wall time. Panics unless it exits with one of `ok`.
fn run(cmd: &mut Command, ok: &[i32]) -> Duration {
    let start = Instant::now();
    let status = as_a_user(cmd).status().expect("spawn");
    let took = start.elapsed();
    assert!(
        status.code().is_some_and(|c| ok.contains(&c)),
        "{cmd:?}: {status}"
    );
    took
}

/// Like [`timed`], also sampling the process's peak resident memory (`VmHWM`) every
/// 20 ms; returns the last sample, KiB.
fn timed_with_peak(cmd: &mut Command, ok: &[i32]) -> (Duration, u64) {
    std::thread::sleep(SETTLE);
    let start = Instant::now();
    let mut child = as_a_user(cmd).spawn().expect("spawn");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if let Some(kib) = fs::read_to_string(&status_file).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        }) {
            peak = peak.max(kib);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    assert!(
        status.code().is_some_and(|c| ok.contains(&c)),
        "{cmd:?}: {status}"
    );
    (took, peak)
}

/// Random flip boards from `seed` (an LCG), with the reference's answers.
fn write_cases(grader: &Path, dir: &Path, count: usize, seed: u64) {
    fs::create_dir_all(dir).expect("mkdir");
    let mut state = seed;
    for i in 0..count {
        let mut board = String::new();
        for _ in 0..4 {
            for _ in 0..4 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                board.push(if state >> 63 == 0 { 'b' } else { 'w' });
            }
            board.push('\n');
        }
        let input = dir.join(format!("{i:04}.in"));
        fs::write(&input, &board).expect("write");
        let answer = Command::new(grader)
            .args(["solve", "flip"])
            .arg(&input)
            .output()
            .expect("grader solve");
        assert!(answer.status.success());
        fs::write(dir.join(format!("{i:04}.ans")), answer.stdout).expect("write");
    }
}

impl Bench {
    fn new() -> Bench {
        let repo = repo();
        let work = tempfile::tempdir().expect("tempdir");
        let source = repo.join("../shared/bench/spawnloop.c");
        assert!(
            source.is_file(),
            "{}: the bare loop's source, beside the repository",
            source.display()
        );
        let spawnloop = work.path().join("spawnloop");
        gcc(&source, &spawnloop, &[]);
        Bench {
            grader: PathBuf::from(env!("CARGO_BIN_EXE_grader")),
            repo,
            work,
            spawnloop,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.work.path().join(name)
    }

    fn grader(&self, cache: &Path) -> Command {
        let mut cmd = Command::new(&self.grader);
        cmd.env("GRADER_CACHE_DIR", cache);
        cmd
    }

    /// `grader test --jobs 1` against `spawnloop`, for a trivial program and the BFS.
    fn test(&self) {
        let rounds = env_number("GRADER_BENCH_ROUNDS", 5);
        let cases = self.path("test-cases");
        write_cases(&self.grader, &cases, TEST_CASES, 1);
        let trivial_source = self.path("trivial.c");
        fs::write(&trivial_source, TRIVIAL_C).expect("write");
        let programs = [
            ("a trivial C program", trivial_source),
            (
                "the bundled C BFS",
                self.repo.join("examples/flip/ac_bfs.c"),
            ),
        ];
        let cache = self.path("test-cache");
        println!(
            "grader test flip --jobs 1 --sandbox strict, {TEST_CASES} cases, whole process, against spawnloop over the same cases; medians of {rounds} alternating rounds"
        );
        for (what, source) in programs {
            let binary = self.path(&format!(
                "{}.bin",
                source.file_stem().expect("a file").to_string_lossy()
            ));
            gcc(&source, &binary, &[]);
            let grade = || {
                let mut cmd = self.grader(&cache);
                cmd.args(["test", "flip"])
                    .arg(&binary)
                    .arg("--cases")
                    .arg(&cases)
                    .args(["--jobs", "1", "--sandbox", "strict", "--report", "json"]);
                cmd
            };
            // The trivial program is wrong on most boards: exit 1 is its verdict.
            timed(&mut grade(), &[0, 1]);
            let (mut bare, mut ours) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                bare.push(timed(
                    Command::new(&self.spawnloop).arg(&binary).arg(&cases),
                    &[0],
                ));
                ours.push(timed(&mut grade(), &[0, 1]));
            }
            let (bare, ours) = (median(bare), median(ours));
            println!(
                "  {what}: grader {:.0} ms ({:.3} ms a case), spawnloop {:.0} ms ({:.3} ms a case): {:.2}x (target <= 1.10x)",
                ms(ours),
                ms(ours) / TEST_CASES as f64,
                ms(bare),
                ms(bare) / TEST_CASES as f64,
                ours.as_secs_f64() / bare.as_secs_f64()
            );
        }
    }

    /// `grader batch --jobs 2` of a class against its floor, cold and warm; a rerun; one
    /// case added; the grader's peak memory.
    fn batch(&self) {
        let students = env_number("GRADER_BENCH_STUDENTS", 200);
        let rounds = env_number("GRADER_BENCH_ROUNDS", 3);
        let class = self.path("class");
        let source = fs::read_to_string(self.repo.join("examples/flip/ac_bfs.c")).expect("bfs");
        let names: Vec<String> = (0..students).map(|i| format!("s{i:04}")).collect();
        Class::at(&class).distinct(&names, "c", &source);
        let cases = self.path("batch-cases");
        write_cases(&self.grader, &cases, BATCH_CASES, 2);
        let binaries = self.path("binaries");
        fs::create_dir_all(&binaries).expect("mkdir");
        println!(
            "grader batch flip --jobs 2 --sandbox strict, {students} distinct C students x {BATCH_CASES} cases, whole process; medians of {rounds} alternating rounds"
        );
        let batch = |cache: &Path, out: &Path| {
            let mut cmd = self.grader(cache);
            cmd.args(["batch", "flip"])
                .arg(&class)
                .arg("--cases")
                .arg(&cases)
                .arg("--out")
                .arg(out)
                .args(["--jobs", "2", "--sandbox", "strict", "--report", "json"]);
            cmd
        };
        let (mut compiles, mut runs, mut cold, mut warm) = (vec![], vec![], vec![], vec![]);
        let mut peak = 0;
        let warm_cache = self.path("warm-cache");
        timed(&mut batch(&warm_cache, &self.path("out-warmup")), &[0]);
        for round in 0..rounds {
            compiles.push(two_at_a_time(names.len(), |i| {
                // The `c` entry's own command (`languages.toml`): the same compiler work
                // the grader asks for (`-lm` alone has `ld` read the math library, 2% of
                // a compile here).
                let mut cmd = Command::new("gcc");
                cmd.args(["-O2", "-std=gnu11", "-pipe", "-o"])
                    .arg(binaries.join(&names[i]))
                    .arg(class.join(format!("{}.c", names[i])))
                    .arg("-lm");
                cmd
            }));
            runs.push(two_at_a_time(names.len(), |i| {
                let mut cmd = Command::new(&self.spawnloop);
                cmd.arg(binaries.join(&names[i])).arg(&cases);
                cmd
            }));
            let cache = self.path(&format!("cold-cache-{round}"));
            let out = self.path(&format!("out-cold-{round}"));
            let (took, kib) = timed_with_peak(&mut batch(&cache, &out), &[0]);
            cold.push(took);
            peak = peak.max(kib);
            fs::remove_dir_all(&cache).expect("rm");
            fs::remove_dir_all(&out).expect("rm");
            let out = self.path(&format!("out-warm-{round}"));
            warm.push(timed(&mut batch(&warm_cache, &out), &[0]));
            fs::remove_dir_all(&out).expect("rm");
        }
        let (compiles, runs, cold, warm) =
            (median(compiles), median(runs), median(cold), median(warm));
        let floor = compiles + runs;
        println!(
            "  floor: bare gcc -O2 -std=gnu11 -pipe ... -lm two at a time {:.1} s + spawnloop per student two at a time {:.1} s = {:.1} s",
            compiles.as_secs_f64(),
            runs.as_secs_f64(),
            floor.as_secs_f64()
        );
        println!(
            "  cold (empty compile cache): {:.1} s = {:.2}x the floor (target <= 1.10x); the grader's peak memory {:.0} MiB",
            cold.as_secs_f64(),
            cold.as_secs_f64() / floor.as_secs_f64(),
            peak as f64 / 1024.0
        );
        println!(
            "  compiles cached: {:.1} s = {:.2}x the run floor (target <= 1.10x)",
            warm.as_secs_f64(),
            warm.as_secs_f64() / runs.as_secs_f64()
        );
        self.again(
            &batch(&warm_cache, &self.path("out-warmup")),
            students,
            rounds,
        );
    }

    /// `grader batch --jobs 2` of a C++ class whose sources include `bits/stdc++.h`, cold,
    /// against bare `g++` of its files two at a time.
    fn cpp(&self) {
        let students = env_number("GRADER_BENCH_CPP_STUDENTS", 300);
        let rounds = env_number("GRADER_BENCH_ROUNDS", 2);
        let class = self.path("cpp-class");
        fs::create_dir_all(&class).expect("mkdir");
        let bfs = fs::read_to_string(self.repo.join("examples/fourinrow/ac_bfs.cpp"))
            .expect("the fourinrow BFS");
        // The contest style: one header for everything, in place of the BFS's own.
        let mut body = String::new();
        for line in bfs.lines().filter(|l| !l.starts_with("#include")) {
            body.push_str(line);
            body.push('\n');
        }
        let names: Vec<String> = (0..students).map(|i| format!("s{i:04}")).collect();
        for name in &names {
            fs::write(
                class.join(format!("{name}.cpp")),
                format!("#include <bits/stdc++.h>\n// {name}\n{body}"),
            )
            .expect("write");
        }
        let cases = self.path("cpp-cases");
        fs::create_dir_all(&cases).expect("mkdir");
        fs::write(cases.join("0000.in"), FOURINROW_SAMPLE).expect("write");
        let answer = Command::new(&self.grader)
            .args(["solve", "fourinrow"])
            .arg(cases.join("0000.in"))
            .output()
            .expect("solve");
        fs::write(cases.join("0000.ans"), answer.stdout).expect("write");
        let binaries = self.path("cpp-binaries");
        fs::create_dir_all(&binaries).expect("mkdir");
        println!(
            "grader batch fourinrow --jobs 2 --sandbox strict, {students} distinct C++ students (bits/stdc++.h) x 1 case, empty compile cache, whole process; medians of {rounds} alternating rounds"
        );
        let (mut bare, mut graded) = (vec![], vec![]);
        for round in 0..rounds {
            bare.push(two_at_a_time(names.len(), |i| {
                let mut cmd = Command::new("g++");
                cmd.args(["-O2", "-std=gnu++23", "-pipe", "-o"])
                    .arg(binaries.join(&names[i]))
                    .arg(class.join(format!("{}.cpp", names[i])));
                cmd
            }));
            let cache = self.path(&format!("cpp-cache-{round}"));
            let out = self.path(&format!("cpp-out-{round}"));
            let mut cmd = self.grader(&cache);
            cmd.args(["batch", "fourinrow"])
                .arg(&class)
                .arg("--cases")
                .arg(&cases)
                .arg("--out")
                .arg(&out)
                .args(["--jobs", "2", "--sandbox", "strict", "--report", "json"]);
            graded.push(timed(&mut cmd, &[0]));
            fs::remove_dir_all(&cache).expect("rm");
            fs::remove_dir_all(&out).expect("rm");
        }
        let (bare, graded) = (median(bare), median(graded));
        println!(
            "  bare g++ -O2 two at a time: {:.1} s; the grader: {:.1} s = {:.2}x (target < 0.60x)",
            bare.as_secs_f64(),
            graded.as_secs_f64(),
            graded.as_secs_f64() / bare.as_secs_f64()
        );
    }

    /// The gradebook page of a large class in headless Chromium, against an empty page.
    fn page(&self) {
        let students = env_number("GRADER_BENCH_PAGE_STUDENTS", 3000);
        let rounds = env_number("GRADER_BENCH_ROUNDS", 5);
        let class = self.path("page-class");
        fs::create_dir_all(&class).expect("mkdir");
        let ac = fs::read_to_string(self.repo.join("examples/flip/ac_bfs.c")).expect("bfs");
        fs::write(class.join("ac.c"), &ac).expect("write");
        fs::write(
            class.join("pe.c"),
            ac.replacen("int main(void) {", "int main(void) { puts(\"\");", 1),
        )
        .expect("write");
        fs::copy(
            self.repo.join("examples/flip/wa_one_colour.py"),
            class.join("wa.py"),
        )
        .expect("copy");
        fs::write(class.join("quiet.py"), "print()\n").expect("write");
        fs::write(class.join("ce.c"), "int main( {\n").expect("write");
        let small = self.path("page-small");
        run(
            self.grader(&self.path("page-cache"))
                .args(["batch", "flip"])
                .arg(&class)
                .arg("--out")
                .arg(&small)
                .args(["--jobs", "2"]),
            &[1],
        );
        let mut book: serde_json::Value =
            serde_json::from_slice(&fs::read(small.join("gradebook.json")).expect("read"))
                .expect("a gradebook");
        let five = book["students"].as_array().expect("students").clone();
        let copies: Vec<serde_json::Value> = (0..students)
            .map(|i| {
                let mut s = five[i % five.len()].clone();
                let name = format!("{}-{i:05}", s["student"].as_str().expect("a name"));
                s["student"] = serde_json::Value::String(name);
                s
            })
            .collect();
        book["students"] = serde_json::Value::Array(copies);
        let big = self.path("page-big.json");
        fs::write(&big, book.to_string()).expect("write");
        let merged = self.path("page-merged");
        run(
            self.grader(&self.path("page-cache"))
                .arg("merge")
                .arg(&big)
                .arg("--out")
                .arg(&merged),
            &[1],
        );
        let page = merged.join("gradebook.html");
        let empty = self.path("empty.html");
        fs::write(&empty, "<!DOCTYPE html><title>empty</title>\n").expect("write");
        let profile = self.path("chromium-profile");
        let shot = self.path("page.png");
        let open = |file: &Path| {
            let mut cmd = Command::new("chromium");
            cmd.args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--window-size=1280,900",
            ])
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("file://{}", file.display()));
            cmd
        };
        timed(&mut open(&empty), &[0]);
        let (mut full, mut bare) = (vec![], vec![]);
        for _ in 0..rounds {
            full.push(timed(&mut open(&page), &[0]));
            bare.push(timed(&mut open(&empty), &[0]));
        }
        let size = |file: &str| fs::metadata(merged.join(file)).map_or(0, |m| m.len());
        println!(
            "the gradebook page of {students} students (5 kinds x {} each, 69 flip cases): gradebook.html {:.1} MB, gradebook.json {:.1} MB ({:.0} B a run)",
            students / five.len(),
            size("gradebook.html") as f64 / 1e6,
            size("gradebook.json") as f64 / 1e6,
            size("gradebook.json") as f64 / (students * 69) as f64
        );
        let (full, bare) = (median(full), median(bare));
        println!(
            "  headless Chromium, loaded, laid out and its first screen drawn (--screenshot): {:.2} s; an empty page {:.2} s (target: under 2 s); medians of {rounds} alternating rounds",
            full.as_secs_f64(),
            bare.as_secs_f64()
        );
    }

    /// `batch` (a command that wrote its folder already) again: with nothing changed,
    /// then with one case added; their times, peak memory and the files' bytes a run.
    fn again(&self, batch: &Command, students: usize, rounds: usize) {
        let rerun = || {
            let mut cmd = Command::new(batch.get_program());
            cmd.args(batch.get_args());
            for (k, v) in batch.get_envs() {
                if let Some(v) = v {
                    cmd.env(k, v);
                }
            }
            cmd
        };
        let out = self.path("out-warmup");
        let cases = self.path("batch-cases");
        let mut again = Vec::new();
        for _ in 0..rounds {
            again.push(timed_with_peak(&mut rerun(), &[0]));
        }
        let again_peak = again.iter().map(|(_, kib)| *kib).max().unwrap_or(0);
        let again = median(again.into_iter().map(|(d, _)| d).collect());
        println!(
            "  rerun, nothing changed: {:.2} s (target < 5 s); peak memory {:.0} MiB",
            again.as_secs_f64(),
            again_peak as f64 / 1024.0
        );
        // One case more: only its runs are made.
        let name = format!("{BATCH_CASES:04}");
        fs::copy(cases.join("0000.in"), cases.join(format!("{name}.in"))).expect("copy");
        fs::copy(cases.join("0000.ans"), cases.join(format!("{name}.ans"))).expect("copy");
        let (added, added_peak) = timed_with_peak(&mut rerun(), &[0]);
        println!(
            "  one case added ({students} runs): {:.2} s (target < 5 s); peak memory {:.0} MiB",
            added.as_secs_f64(),
            added_peak as f64 / 1024.0
        );
        let mut sizes = String::new();
        for file in [
            "journal.jsonl",
            "gradebook.json",
            "gradebook.csv",
            "gradebook.xml",
        ] {
            if let Ok(meta) = fs::metadata(out.join(file)) {
                let runs = (students * (BATCH_CASES + 1)) as f64;
                let _ = write!(sizes, "{file} {:.0} B a run; ", meta.len() as f64 / runs);
            }
        }
        println!("  file sizes: {}", sizes.trim_end_matches("; "));
    }
}

/// Runs `count` commands made by `make`, two at a time; the wall time of all.
fn two_at_a_time(count: usize, make: impl Fn(usize) -> Command + Sync) -> Duration {
    let start = Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    run(&mut make(i), &[0]);
                }
            });
        }
    });
    start.elapsed()
}
