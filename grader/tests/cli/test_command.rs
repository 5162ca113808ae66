//! End-to-end tests of `grader test`: every verdict produced by a fixture submission named
//! for it (C, C++, Python, Rust), the reports (JSON per cli.md, JUnit, human), the compile
//! cache and language profiles, containment of left-over processes, and bad input.
//!
//! Programs really run here, so every time figure has a wide margin; the judging rules
//! themselves are unit-tested without processes in `judge.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use testkit::files::{copy_tree, write};
use testkit::grader::{grader, grader_path, one_error_line};
use testkit::output::{case_verdicts, json_of};
use testkit::paths::{fixtures, repo, two_cases};
use testkit::processes;
use testkit::scene::Scene;
use testkit::tools::is_root;

/// Generous: a loaded CI machine compiling Rust fixtures must not fail a test.
const TIMEOUT: Duration = Duration::from_mins(2);

fn fixture(name: &str) -> PathBuf {
    fixtures().join("flip").join(name)
}

/// `grader test flip` on the two-case folder, in a scene of its own (TMPDIR and compile
/// cache).
struct Run {
    scene: Scene,
}

impl Run {
    fn new() -> Run {
        Run {
            scene: Scene::new(TIMEOUT),
        }
    }

    /// `grader` in the scene.
    fn grader(&self) -> Command {
        self.scene.grader()
    }

    fn command(&self) -> Command {
        let mut cmd = self.grader();
        cmd.args(["test", "flip"]);
        cmd
    }

    fn test(&self, submission: &Path, extra: &[&str]) -> Command {
        let mut cmd = self.command();
        cmd.arg(submission)
            .arg("--cases")
            .arg(two_cases())
            .args(extra);
        cmd
    }

    /// Runs with `--report json` and returns the report and the exit status.
    fn json(&self, submission: &Path, extra: &[&str]) -> (Value, i32) {
        let output = self
            .test(submission, &[&["--report", "json"], extra].concat())
            .output()
            .unwrap();
        (json_of(&output), output.status.code().unwrap())
    }

    /// Nothing of a run is left in the temporary folder the grader used.
    fn assert_no_files_left(&self) {
        self.scene.assert_no_files_left();
    }
}

/// Grades `name` and checks the overall verdict, each case's verdict and message, the exit
/// status, and that no file is left behind.
fn expect(name: &str, verdict: &str, message: &str, extra: &[&str]) -> Value {
    let run = Run::new();
    let (report, status) = run.json(&fixture(name), extra);
    assert_eq!(report["verdict"], verdict, "{name}: {report:#}");
    for case in report["cases"].as_array().unwrap() {
        let text = case["message"].as_str().unwrap();
        assert!(text.contains(message), "{name}: {text:?} lacks {message:?}");
    }
    assert_eq!(status, i32::from(verdict != "AC"), "{name}: exit status");
    run.assert_no_files_left();
    report
}

// ------------------------------------------------------------------ one fixture per verdict

#[test]
fn ac_in_cpp_python_and_rust() {
    for name in ["ac_rows.cpp", "ac_rows.py", "ac_rows.rs"] {
        let report = expect(name, "AC", "", &[]);
        assert_eq!(case_verdicts(&report), ["AC", "AC"]);
        assert_eq!(report["passed"], 2);
    }
}

#[test]
fn ac_reserving_400_mb_but_touching_4_mb_stays_under_256_mib() {
    let report = expect("ac_reserve_400mb.c", "AC", "", &["--memory-limit", "256"]);
    for case in report["cases"].as_array().unwrap() {
        assert!(case["memory_kib"].as_u64().unwrap() < 64 * 1024, "{case}");
    }
}

#[test]
fn wa_names_the_expected_and_the_got() {
    let report = expect("wa_off_by_one.c", "WA", "", &[]);
    // sample/01 is wrong; the impossible board is right: verdicts stay per case.
    assert_eq!(case_verdicts(&report), ["WA", "AC"]);
    assert_eq!(report["cases"][0]["message"], "expected `4`, got `5`");
    assert_eq!(report["passed"], 1);
}

#[test]
fn pe_for_the_right_tokens_in_the_wrong_layout() {
    expect("pe_leading_space.py", "PE", "wrong layout", &[]);
}

#[test]
fn tle_by_cpu_time() {
    let start = Instant::now();
    let report = expect(
        "tle_spin.c",
        "TLE",
        "CPU time",
        &["--time-limit", "0.5", "--wall-limit", "60"],
    );
    for case in report["cases"].as_array().unwrap() {
        assert!(case["cpu_ms"].as_f64().unwrap() > 500.0, "{case}");
    }
    // Cut short from outside near the limit, not left to run to the rlimit or the wall.
    assert!(start.elapsed() < Duration::from_mins(1));
}

#[test]
fn tle_by_wall_time_for_a_program_that_sleeps() {
    let report = expect(
        "tle_sleep.py",
        "TLE",
        "slept or waited",
        &["--time-limit", "0.5", "--wall-limit", "1"],
    );
    for case in report["cases"].as_array().unwrap() {
        let wall = case["wall_ms"].as_f64().unwrap();
        // The limit runs on the grader's clock; the figure is the program's own, a hair less.
        assert!((900.0..30_000.0).contains(&wall), "{case}");
    }
}

#[test]
fn tle_by_wall_time_with_both_pipes_closed() {
    expect(
        "tle_closed_pipes.c",
        "TLE",
        "slept or waited",
        &["--time-limit", "0.5", "--wall-limit", "1"],
    );
}

#[test]
fn mle_on_peak_resident_memory() {
    let report = expect(
        "mle_touch.c",
        "MLE",
        "peak memory",
        &["--memory-limit", "64"],
    );
    for case in report["cases"].as_array().unwrap() {
        assert!(case["memory_kib"].as_u64().unwrap() > 64 * 1024, "{case}");
    }
}

#[test]
fn ole_when_output_passes_the_limit() {
    expect(
        "ole_flood.c",
        "OLE",
        "more than 1 MiB",
        &["--output-limit", "1"],
    );
}

#[test]
fn re_names_the_signal_or_the_exit_status() {
    expect("re_segv.c", "RE", "SIGSEGV", &[]);
    expect("re_abort.cpp", "RE", "SIGABRT", &[]);
    expect("re_exit_3.py", "RE", "exit status 3", &[]);
    expect("re_panic.rs", "RE", "exit status 101", &[]);
}

#[test]
fn ce_with_the_compilers_message_in_every_language() {
    for (name, says) in [
        ("ce_syntax.cpp", "ce_syntax.cpp:4"),
        ("ce_types.rs", "mismatched types"),
        ("ce_cpp98_only.cpp", "ce_cpp98_only.cpp"),
        // Python's syntax, checked once in the box: a `CE`, not an `RE` on every case.
        ("ce_syntax.py", "ce_syntax.py:4:"),
    ] {
        let report = expect(name, "CE", "compile error", &[]);
        assert!(
            report["compile_error"].as_str().unwrap().contains(says),
            "{report:#}"
        );
        assert_eq!(case_verdicts(&report), ["CE", "CE"]);
        assert_eq!(report["passed"], 0);
    }
    // The human report shows the compiler's own words.
    let run = Run::new();
    run.test(&fixture("ce_syntax.cpp"), &[])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("expected ‘;’").or(predicate::str::contains("expected ';'")),
        );
}

#[test]
fn a_profile_compiles_what_the_default_refuses() {
    // POJ-era C++98: refused as C++17, compiled under `--lang cpp98` (and then wrong).
    let report = expect("ce_cpp98_only.cpp", "WA", "", &["--lang", "cpp98"]);
    assert_eq!(report["language"], "cpp98");
}

// ------------------------------------------------------------------ containment and figures

#[test]
fn grandchildren_that_hold_stdout_or_escape_the_group_neither_hang_nor_survive() {
    let start = Instant::now();
    // The orphans sleep 300 s: finishing well before shows the grader did not wait.
    expect("ac_orphan_keeps_stdout.c", "AC", "", &[]);
    assert!(start.elapsed() < Duration::from_mins(1));
    let survivors = processes::named("grader-orphan");
    assert!(survivors == 0, "{survivors} orphans survived");
}

/// A C program that prints 4 and reads nothing: the sample's answer, wrong on a solved
/// board.
const PRINTS_4: &str = "#include <stdio.h>\nint main(void) { puts(\"4\"); return 0; }\n";

#[test]
fn a_trivial_c_program_reports_under_4_mib() {
    let dir = tempfile::tempdir().unwrap();
    let source = write(dir.path(), "trivial.c", PRINTS_4);
    let run = Run::new();
    let (report, _) = run.json(&source, &[]);
    for case in report["cases"].as_array().unwrap() {
        let kib = case["memory_kib"].as_u64().unwrap();
        assert!(kib > 0 && kib < 4096, "{case}");
    }
}

#[test]
fn without_the_small_launcher_the_grader_launches_itself_with_the_same_figures() {
    // A copy of `grader` alone in a folder: no `grader-launcher` beside it.
    let alone = tempfile::tempdir().unwrap();
    let grader = alone.path().join("grader");
    fs::copy(grader_path(), &grader).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = write(dir.path(), "trivial.c", PRINTS_4);
    let run = Run::new();
    let output = Command::new(&grader)
        .env("TMPDIR", run.scene.tmp())
        .env("GRADER_CACHE_DIR", run.scene.cache())
        .timeout(TIMEOUT)
        .args(["test", "flip"])
        .arg(&source)
        .arg("--cases")
        .arg(two_cases())
        .args(["--report", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(case_verdicts(&report), ["AC", "WA"]);
    for case in report["cases"].as_array().unwrap() {
        let kib = case["memory_kib"].as_u64().unwrap();
        assert!(kib > 0 && kib < 4096, "{case}");
    }
    run.assert_no_files_left();
}

#[test]
fn an_executable_and_a_command_line_are_submissions_too() {
    let run = Run::new();
    // Compile once through the grader's cache, then grade the binary itself.
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("rows");
    let status = std::process::Command::new("g++")
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(fixture("ac_rows.cpp"))
        .status()
        .unwrap();
    assert!(status.success());
    let (report, status) = run.json(&binary, &[]);
    assert_eq!((report["verdict"].as_str(), status), (Some("AC"), 0));
    assert_eq!(report["language"], "executable");
    // `--cmd` with a path relative to where the grader was started.
    let output = run
        .command()
        .current_dir(fixtures())
        .args(["--cmd", "python3 flip/re_exit_3.py", "--cases"])
        .arg(two_cases())
        .args(["--report", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["verdict"], "RE", "{report:#}");
    assert_eq!(report["language"], "command");
}

#[test]
fn a_second_run_uses_the_compile_cache() {
    let run = Run::new();
    let source = fixture("wa_off_by_one.c");
    run.test(&source, &[])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(c, compiled;"));
    run.test(&source, &[])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(c, compiled earlier (cached);"));
    // A different profile is a different program.
    run.test(&source, &["--lang", "c99"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("(c99, compiled;"));
}

#[test]
fn as_root_the_program_runs_as_a_uid_of_its_worker() {
    if !is_root() {
        return;
    }
    let run = Run::new();
    let output = run
        .command()
        .args(["--cmd", "id -u", "--cases"])
        .arg(two_cases())
        .args(["--report", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let message = report["cases"][0]["message"].as_str().unwrap();
    let uid: u32 = message
        .strip_prefix("expected `4`, got `")
        .and_then(|m| m.strip_suffix('`'))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{message}"));
    assert!((990_000..991_000).contains(&uid), "{message}");
}

// ------------------------------------------------------------------ reports

#[test]
fn json_has_cli_md_fields_in_name_order() {
    let run = Run::new();
    let (report, status) = run.json(
        &fixture("wa_off_by_one.c"),
        &["--jobs", "2", "--time-limit", "2", "--memory-limit", "128"],
    );
    assert_eq!(status, 1);
    assert_eq!(report["problem"], "flip");
    assert!(
        report["submission"]
            .as_str()
            .unwrap()
            .ends_with("wa_off_by_one.c")
    );
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["passed"], 1);
    assert_eq!(report["total"], 2);
    assert_eq!(report["limits"]["cpu_ms"], 2000.0);
    assert_eq!(report["limits"]["memory_kib"], 128 * 1024);
    let cases = report["cases"].as_array().unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["sample/01", "secret/impossible"]);
    for case in cases {
        assert!(case["cpu_ms"].is_f64(), "{case}");
        assert!(case["wall_ms"].as_f64().unwrap() > 0.0, "{case}");
        assert!(case["memory_kib"].as_u64().unwrap() > 0, "{case}");
        assert!(case["message"].is_string(), "{case}");
    }
}

#[test]
fn junit_has_one_testcase_per_case() {
    let run = Run::new();
    let output = run
        .test(&fixture("wa_off_by_one.c"), &["--report", "junit"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let xml = String::from_utf8(output.stdout).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    assert!(xml.contains("expected `4`, got `5`"), "{xml}");
}

#[test]
fn human_report_shows_a_diff_plainly_without_a_terminal() {
    let run = Run::new();
    run.test(&fixture("wa_off_by_one.c"), &[])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("WA sample/01: expected `4`, got `5`")
                .and(predicate::str::contains("expected (-) and got (+):"))
                .and(predicate::str::contains("    -4\n    +5"))
                .and(predicate::str::contains(
                    "WA 1/2 passed; first failure sample/01",
                ))
                .and(predicate::str::contains("\u{1b}[").not()),
        );
}

#[test]
fn report_file_is_written_and_stdout_stays_quiet() {
    let run = Run::new();
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("report.json");
    run.test(
        &fixture("ac_rows.cpp"),
        &["--report", "json", "--report-file"],
    )
    .arg(&path)
    .assert()
    .success()
    .stdout("");
    let report: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(report["verdict"], "AC");
}

#[test]
fn fail_fast_stops_starting_cases() {
    let run = Run::new();
    let (report, status) = run.json(&fixture("wa_off_by_one.c"), &["--fail-fast", "--jobs", "1"]);
    assert_eq!(status, 1);
    assert_eq!(report["total"], 2);
    assert_eq!(case_verdicts(&report), ["WA"]);
}

#[test]
fn the_readme_main_command_grades_a_bundled_example() {
    let repo = &repo();
    let run = Run::new();
    run.command()
        .current_dir(repo)
        .arg("examples/flip/ac_bfs.c")
        .assert()
        .success()
        .stdout(predicate::str::contains("AC 69/69 passed"));
    run.command()
        .current_dir(repo)
        .arg("examples/flip/wa_one_colour.py")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("first failure"));
}

#[test]
fn every_bundled_example_gets_the_verdict_its_name_says() {
    let repo = &repo();
    let run = Run::new();
    for problem in ["flip", "fourinrow", "swap"] {
        let mut examples: Vec<PathBuf> = fs::read_dir(repo.join("examples").join(problem))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        examples.sort();
        assert!(examples.len() >= 2, "{problem}: {examples:?}");
        for example in examples {
            let name = example.file_name().unwrap().to_str().unwrap();
            let want = name.split('_').next().unwrap().to_uppercase();
            let output = run
                .grader()
                .current_dir(repo)
                .args(["test", problem])
                .arg(&example)
                .args(["--report", "json"])
                .output()
                .unwrap();
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["verdict"], want.as_str(), "{problem}/{name}");
            if want != "AC" {
                // A wrong example is wrong on some cases, not all: it shows the folder's
                // power, not a broken program.
                assert!(report["passed"].as_u64().unwrap() > 0, "{problem}/{name}");
            }
        }
    }
    run.assert_no_files_left();
}

// ------------------------------------------------------------------ bad input

/// A usage error is exactly one line on stderr and exit status 2.
fn refused(cmd: &mut Command, contains: &str) {
    cmd.assert().code(2).stderr(one_error_line(contains));
}

#[test]
fn bad_calls_are_one_line_errors_with_status_2() {
    let run = Run::new();
    let dir = tempfile::tempdir().unwrap();
    refused(
        &mut run.test(&dir.path().join("missing.c"), &[]),
        "missing.c",
    );
    let intercal = dir.path().join("flip.icl");
    fs::write(&intercal, "DO READ OUT #1").unwrap();
    refused(&mut run.test(&intercal, &[]), "unknown extension `.icl`");
    let ok = fixture("ac_rows.cpp");
    refused(&mut run.test(&ok, &["--time-limit", "-3s"]), "-3s");
    refused(&mut run.test(&ok, &["--memory-limit", "0 MiB"]), "0 MiB");
    refused(&mut run.test(&ok, &["--jobs", "0"]), "--jobs");
    refused(&mut run.test(&ok, &["--lang", "intercal"]), "intercal");
    // A cases folder with no cases, and an input without its answer.
    let empty = tempfile::tempdir().unwrap();
    refused(
        run.command().arg(&ok).arg("--cases").arg(empty.path()),
        "no cases",
    );
    fs::write(empty.path().join("lonely.in"), "bwwb\nbbwb\nbwwb\nbwww\n").unwrap();
    refused(
        run.command().arg(&ok).arg("--cases").arg(empty.path()),
        "lonely.in",
    );
    // A compiler that is not there.
    let config = dir.path().join("languages.toml");
    fs::write(
        &config,
        "[cpp]\nextensions = [\"cpp\"]\ncompile = [\"no-such-compiler\", \"-o\", \"{out}\", \"{src}\"]\nrun = [\"{out}\"]\n",
    )
    .unwrap();
    refused(
        &mut run.test(&ok, &["--config", config.to_str().unwrap()]),
        "no-such-compiler",
    );
    run.assert_no_files_left();
}

// ------------------------------------------------------------------ case folders

/// A copy of the two-case folder with `file` (relative to it) replaced by `text`.
fn broken_cases(file: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&two_cases(), dir.path());
    write(dir.path(), file, text);
    dir
}

/// Whether anything was compiled into the cache: a call refused up front compiles nothing.
fn assert_nothing_compiled(cache: &Path) {
    let left: Vec<_> = fs::read_dir(cache).unwrap().collect();
    assert!(left.is_empty(), "compiled before refusing: {left:?}");
}

#[test]
fn a_broken_case_is_the_calls_fault_named_by_file_line_and_column_before_any_compile() {
    let broken = [
        (
            "secret/impossible.in",
            "bwwb\nbbxb\nbwwb\nbwww\n",
            "impossible.in:2:3: ",
        ),
        ("sample/01.ans", "4\nx\n", "01.ans:2:1: "),
        ("sample/01.ans", "5\n", "01.ans:1:1: not a correct answer"),
        ("sample/01.ans", "", "01.ans:1:1: "),
    ];
    for (file, text, error) in broken {
        let cases = broken_cases(file, text);
        let run = Run::new();
        let mut cmd = run.command();
        cmd.arg(fixture("ac_rows.cpp"))
            .arg("--cases")
            .arg(cases.path());
        refused(&mut cmd, error);
        assert_nothing_compiled(run.scene.cache());
        run.assert_no_files_left();
    }
}

#[test]
fn another_problems_case_folder_is_refused_as_such() {
    let repo = &repo();
    let run = Run::new();
    let mut cmd = run.command();
    cmd.arg(fixture("ac_rows.cpp"))
        .arg("--cases")
        .arg(repo.join("cases/fourinrow"));
    refused(&mut cmd, "a board of `fourinrow`, not of `flip`");
    assert_nothing_compiled(run.scene.cache());
}

#[test]
fn batch_refuses_a_broken_case_before_grading_anyone() {
    let root = tempfile::tempdir().unwrap();
    let class = root.path().join("class");
    fs::create_dir_all(&class).unwrap();
    fs::copy(fixture("ac_rows.cpp"), class.join("alice.cpp")).unwrap();
    let cases = broken_cases("sample/01.ans", "5\n");
    let run = Run::new();
    let mut cmd = run.grader();
    cmd.current_dir(root.path())
        .args(["batch", "flip", "class", "--out", "book", "--cases"])
        .arg(cases.path());
    refused(&mut cmd, "01.ans:1:1: not a correct answer");
    assert_nothing_compiled(run.scene.cache());
    assert!(
        !root.path().join("book/gradebook.csv").exists(),
        "a gradebook of marks from a broken case"
    );
}

#[test]
fn fuzz_locates_a_broken_regression_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let regressions = dir.path().join("r.txt");
    fs::write(
        &regressions,
        "# earlier failures\n\nflip seed=1 run=1 input=\"bwxb\\nbbwb\\nbwwb\\nbwww\\n\"\n",
    )
    .unwrap();
    let run = Run::new();
    let mut cmd = run.grader();
    cmd.current_dir(dir.path())
        .args(["fuzz", "flip"])
        .arg(fixture("wa_off_by_one.c"))
        .arg("--regressions")
        .arg(&regressions);
    refused(
        &mut cmd,
        "r.txt:3:19: this flip regression is not a valid input: its line 1, column 3: ",
    );
    assert_nothing_compiled(run.scene.cache());
}

#[test]
fn a_killed_graders_staging_folders_in_the_compile_cache_go_at_the_next_compile() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    fs::create_dir(&cache).unwrap();
    // What a grader killed while it published an entry leaves: its staging folder, which a
    // live grader holds for milliseconds.
    let two_hours_ago = std::time::SystemTime::now() - Duration::from_hours(2);
    for name in [".compile-dead", ".probe-dead", ".compile-live"] {
        let staging = cache.join(name);
        fs::create_dir(&staging).unwrap();
        fs::write(staging.join("program"), b"half a program").unwrap();
        if name.ends_with("dead") {
            fs::File::open(&staging)
                .unwrap()
                .set_modified(two_hours_ago)
                .unwrap();
        }
    }
    let source = repo().join("examples/flip/ac_bfs.c");
    grader()
        .args(["test", "flip"])
        .arg(&source)
        .arg("--cache-dir")
        .arg(&cache)
        .assert()
        .success();
    assert!(!cache.join(".compile-dead").exists());
    assert!(!cache.join(".probe-dead").exists());
    assert!(
        cache.join(".compile-live").exists(),
        "a live grader's folder stays"
    );
}
