//! End-to-end tests of the `grader` binary: every command through its real command line,
//! its output and its exit status (cli.md). One test binary for the crate; `grader test`
//! has its own module. What the modules lay out and read back (scenes, classes, case
//! folders, gradebook readers) is the `testkit` crate's, which the benches share.

#![expect(
    clippy::unwrap_used,
    reason = "helpers of tests: a failure should panic"
)]

mod batch_command;
#[path = "box.rs"]
mod box_containment;
mod docs;
mod edges;
mod explain;
mod explain_reports;
mod faults;
mod feedback;
mod fuzz_command;
mod gradebook_reasons;
mod gradescope;
mod hostile;
mod inherited_limits;
mod interrupt;
mod languages;
mod languages_more;
mod layout_mistakes;
mod messages;
mod outputs;
mod package;
mod package_conventions;
mod package_ctd;
mod package_format2023;
mod package_grading;
mod package_included;
mod package_interactive;
mod package_multipass;
mod package_programs;
mod package_verify;
mod poj;
mod precompiled;
mod progress;
mod report_injection;
mod schedulers;
mod sleepers;
mod test_command;
mod timing;
mod toolchains;
mod tour;

use std::fs;

use predicates::prelude::*;

use testkit::boards::{FLIP_SAMPLE, FOURINROW_SAMPLE};
use testkit::cases::small_manifest;
use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::paths::repo;
// The box tests (box.rs, inherited_limits.rs) name these through the crate's root.
use testkit::serial::machine_wide;
use testkit::tools::has_tools;

// ---------------------------------------------------------------- problems, solve

#[test]
fn problems_lists_every_problem_with_aliases_kinds_and_mutants() {
    grader().arg("problems").assert().success().stdout(
        predicate::str::contains("flip")
            .and(predicate::str::contains("poj1753"))
            .and(predicate::str::contains("fourinrow"))
            .and(predicate::str::contains("codevs1004"))
            .and(predicate::str::contains("swap"))
            .and(predicate::str::contains("kinds:   random"))
            .and(predicate::str::contains("mutants: "))
            .and(predicate::str::contains(
                "held apart: jump-first, look-one-ahead",
            ))
            .and(predicate::str::contains("held apart: no-last-corner"))
            .and(predicate::str::contains("held apart: stuck-last-column")),
    );
}

#[test]
fn solve_prints_the_samples_answers_from_a_file_and_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let flip = write(dir.path(), "flip.in", FLIP_SAMPLE);
    grader()
        .args(["solve", "flip"])
        .arg(&flip)
        .assert()
        .success()
        .stdout("4\n");
    grader()
        .args(["solve", "poj1753"])
        .write_stdin(FLIP_SAMPLE)
        .assert()
        .success()
        .stdout("4\n");
    grader()
        .args(["solve", "codevs1004"])
        .write_stdin(FOURINROW_SAMPLE)
        .assert()
        .success()
        .stdout("5\n");
}

#[test]
fn solve_swap_prints_a_minimum_sequence_the_checker_accepts() {
    let output = grader()
        .args(["solve", "swap"])
        .write_stdin("WWWOBBB\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "15");
    assert_eq!(lines.len(), 16);
    assert_eq!(lines[15], "BBBOWWW");
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in", "WWWOBBB\n");
    let out = write(dir.path(), "out", &output);
    grader()
        .args(["check", "swap"])
        .args([&input, &out])
        .assert()
        .success()
        .stdout("AC\n");
}

#[test]
fn solve_tolerates_crlf_unless_strict() {
    let crlf = FLIP_SAMPLE.replace('\n', "\r\n");
    grader()
        .args(["solve", "flip"])
        .write_stdin(crlf.clone())
        .assert()
        .success()
        .stdout("4\n");
    grader()
        .args(["solve", "flip", "--strict"])
        .write_stdin(crlf)
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line("<stdin>:1:5:"));
}

#[test]
fn a_malformed_board_is_named_by_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "board.txt", "bwwb\nbbxb\nbwwb\nbwww\n");
    grader()
        .args(["solve", "flip"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(one_error_line("board.txt:2:3: ").and(predicate::str::contains("`x`")));
    let short = write(dir.path(), "short.txt", "BWBO\nWBWB\n");
    grader()
        .args(["solve", "fourinrow"])
        .arg(&short)
        .assert()
        .code(2)
        .stderr(one_error_line("short.txt:3:1: "));
}

#[test]
fn garbage_input_is_a_clean_error_never_a_panic() {
    for problem in ["flip", "fourinrow", "swap"] {
        let long = vec![b'b'; 100_000];
        for input in [&b""[..], b"\0\xff\xfe", b"\n\n\n\n\n", &long] {
            grader()
                .args(["solve", problem])
                .write_stdin(input)
                .assert()
                .code(2)
                .stderr(one_error_line("<stdin>:"));
        }
    }
}

#[test]
fn wrong_calls_exit_2_with_one_line() {
    grader()
        .args(["solve", "chess"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(one_error_line("unknown problem `chess`"));
    grader()
        .args(["solve", "flip", "/nonexistent/board.in"])
        .assert()
        .code(2)
        .stderr(one_error_line(
            "/nonexistent/board.in: cannot read: no such file",
        ));
    grader()
        .args(["solve", "flip", "--frobnicate"])
        .assert()
        .code(2)
        .stderr(one_error_line("--frobnicate"));
    grader().assert().code(2);
    grader().arg("--help").assert().success();
    grader().arg("--version").assert().success();
}

// ---------------------------------------------------------------- check, validate

#[test]
fn check_is_a_special_judge_exit_0_for_ac_and_1_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "1.in", FLIP_SAMPLE);
    let cases = [
        ("4\n", 0, "AC\n"),
        ("4\r\n\n\n", 0, "AC\n"),
        ("4   \n", 0, "AC\n"),
        ("  4\n", 1, "PE: "),
        ("5\n", 1, "WA: expected `4`, got `5`\n"),
        ("", 1, "WA: "),
        ("Impossible\n", 1, "WA: "),
    ];
    for (output, code, verdict) in cases {
        let out = write(dir.path(), "1.out", output);
        grader()
            .args(["check", "flip"])
            .args([&input, &out])
            .assert()
            .code(code)
            .stdout(predicate::str::starts_with(verdict));
    }
    let huge = write(dir.path(), "huge.out", vec![b'4'; 17 << 20]);
    grader()
        .args(["check", "flip"])
        .args([&input, &huge])
        .assert()
        .code(1)
        .stdout("WA: the output is larger than 16 MiB\n");
    let out = write(dir.path(), "1.out", "5\n");
    grader()
        .args(["check", "flip", "--report", "json"])
        .args([&input, &out])
        .assert()
        .code(1)
        .stdout(predicate::function(|s: &str| {
            let v: serde_json::Value = serde_json::from_str(s).unwrap();
            v["verdict"] == "WA"
                && v["problem"] == "flip"
                && v["message"] == "expected `4`, got `5`"
        }));
}

#[test]
fn check_judges_against_a_given_answer_file_and_refuses_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "1.in", FOURINROW_SAMPLE);
    let out = write(dir.path(), "1.out", "5\n");
    let good = write(dir.path(), "good.ans", "5\n");
    let wrong = write(dir.path(), "wrong.ans", "6\n");
    let garbage = write(dir.path(), "garbage.ans", "five\n");
    grader()
        .args(["check", "fourinrow"])
        .args([&input, &out])
        .arg("--answer")
        .arg(&good)
        .assert()
        .success();
    grader()
        .args(["check", "fourinrow"])
        .args([&input, &out])
        .arg("--answer")
        .arg(&garbage)
        .assert()
        .code(2)
        .stderr(one_error_line("garbage.ans:1:1:"));
    // A well-formed but wrong answer file judges the output against the file, as asked.
    grader()
        .args(["check", "fourinrow"])
        .args([&input, &out])
        .arg("--answer")
        .arg(&wrong)
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("WA"));
}

#[test]
fn check_swap_accepts_any_minimum_sequence_and_names_the_first_illegal_row() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "1.in", "WOB\n");
    // Two optimal sequences: the white piece first, or the black piece first.
    for output in ["3\nOWB\nBWO\nBOW\n", "3\nWBO\nOBW\nBOW\n"] {
        let out = write(dir.path(), "1.out", output);
        grader()
            .args(["check", "swap"])
            .args([&input, &out])
            .assert()
            .success()
            .stdout("AC\n");
    }
    let out = write(dir.path(), "1.out", "3\nOWB\nOBW\nBOW\n");
    grader()
        .args(["check", "swap"])
        .args([&input, &out])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("WA: ").and(predicate::str::contains("line 3")));
    let out = write(dir.path(), "1.out", "3 OWB BWO BOW\n");
    grader()
        .args(["check", "swap"])
        .args([&input, &out])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("PE: "));
}

#[test]
fn validate_reports_each_file_and_exits_1_on_any_malformed_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.in", FLIP_SAMPLE);
    let crlf = write(dir.path(), "crlf.in", FLIP_SAMPLE.replace('\n', "\r\n"));
    grader()
        .args(["validate", "flip"])
        .arg(&good)
        .assert()
        .success()
        .stdout(predicate::str::ends_with("good.in: ok\n"));
    grader()
        .args(["validate", "flip"])
        .args([&good, &crlf])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("good.in: ok").and(predicate::str::contains("crlf.in:1:5: ")),
        );
}

// ---------------------------------------------------------------- gen

#[test]
fn gen_is_deterministic_and_a_longer_run_extends_a_shorter_one() {
    let run = |count: &str| {
        grader()
            .args(["gen", "flip", "--seed", "7", "--count", count])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let three = String::from_utf8(run("3")).unwrap();
    assert_eq!(run("3"), three.as_bytes());
    let five = String::from_utf8(run("5")).unwrap();
    assert!(five.starts_with(&three));
    assert_eq!(five.split("\n\n").count(), 5);
}

#[test]
fn gen_flip_seed_1_count_5_is_pinned() {
    // The bytes every platform and version must give: change them only with a reason.
    grader()
        .args(["gen", "flip", "--seed", "1", "--count", "5"])
        .assert()
        .success()
        .stdout(include_str!("../golden/gen-flip-seed-1-count-5.txt"));
}

#[test]
fn every_documented_kind_generates_valid_boards() {
    let output = grader()
        .arg("problems")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let listing = String::from_utf8(output).unwrap();
    for problem in ["flip", "fourinrow", "swap"] {
        let kinds_line = listing
            .lines()
            .skip_while(|l| *l != problem)
            .find(|l| l.trim_start().starts_with("kinds:"))
            .unwrap();
        let kinds = kinds_line
            .trim_start()
            .trim_start_matches("kinds:")
            .split(", ");
        for kind in kinds.map(str::trim) {
            // `answer=N` and the like are documented with a placeholder; any value in
            // range will do, and the smallest usually is.
            let kind = kind
                .replace("=N", "=1")
                .replace("=LINE-C", "=row-B")
                .replace("=C", "=W");
            let dir = tempfile::tempdir().unwrap();
            grader()
                .args([
                    "gen", problem, "--seed", "3", "--count", "2", "--kind", &kind, "--out",
                ])
                .arg(dir.path())
                .assert()
                .success();
            grader()
                .args(["validate", problem])
                .arg(dir.path().join("001.in"))
                .arg(dir.path().join("002.in"))
                .assert()
                .success();
        }
    }
}

#[test]
fn gen_out_writes_verified_pairs_and_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cases");
    let args = ["gen", "fourinrow", "--seed", "2", "--count", "3", "--out"];
    grader().args(args).arg(&out).assert().success();
    for i in 1..=3 {
        let input = out.join(format!("00{i}.in"));
        let answer = fs::read_to_string(out.join(format!("00{i}.ans"))).unwrap();
        grader()
            .args(["solve", "fourinrow"])
            .arg(&input)
            .assert()
            .success()
            .stdout(answer);
    }
    grader()
        .args(args)
        .arg(&out)
        .assert()
        .code(2)
        .stderr(one_error_line("already exists"));
    grader()
        .args(args)
        .arg(&out)
        .arg("--force")
        .assert()
        .success();
}

#[test]
fn gen_rejects_unknown_kinds_and_bad_counts() {
    grader()
        .args(["gen", "flip", "--seed", "1", "--kind", "sideways"])
        .assert()
        .code(2)
        .stderr(one_error_line("--kind sideways"));
    grader()
        .args(["gen", "flip", "--seed", "1", "--count", "0"])
        .assert()
        .code(2);
    grader()
        .args(["gen", "flip", "--seed", "-3"])
        .assert()
        .code(2);
}

// ---------------------------------------------------------------- cases

#[test]
fn cases_regen_is_deterministic_idempotent_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for problem in ["flip", "fourinrow", "swap"] {
        write(
            root,
            format!("{problem}/manifest.toml"),
            small_manifest(problem),
        );
    }
    grader()
        .args(["cases", "regen", "--root"])
        .arg(root)
        .assert()
        .success();
    let first = fs::read(root.join("flip/data/secret/mixed/01.in")).unwrap();
    assert_eq!(
        fs::read_to_string(root.join("flip/data/sample/01.ans")).unwrap(),
        "4\n"
    );
    grader()
        .args(["cases", "regen", "--root"])
        .arg(root)
        .assert()
        .success()
        .stdout(predicate::str::contains("up to date"));
    grader()
        .args(["cases", "regen", "--check", "--root"])
        .arg(root)
        .assert()
        .success();
    grader()
        .args(["cases", "check", "--root"])
        .arg(root)
        .assert()
        .success()
        .stdout(predicate::str::contains("secret/mixed"));

    // Drift: an edited answer is found by --check and repaired by regen.
    write(root, "flip/data/secret/mixed/01.ans", "16\n");
    grader()
        .args(["cases", "regen", "--check", "--root"])
        .arg(root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("mixed/01.ans: differs"));
    grader()
        .args(["cases", "check", "flip", "--root"])
        .arg(root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("01.ans:1:1: not a correct answer"));
    grader()
        .args(["cases", "regen", "flip", "--root"])
        .arg(root)
        .assert()
        .success();
    assert_eq!(
        fs::read(root.join("flip/data/secret/mixed/01.in")).unwrap(),
        first
    );
    grader()
        .args(["cases", "check", "--root"])
        .arg(root)
        .assert()
        .success();
}

#[test]
fn a_malformed_manifest_is_located_and_touches_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "flip/manifest.toml", small_manifest("flip"));
    grader()
        .args(["cases", "regen", "--root"])
        .arg(root)
        .assert()
        .success();
    let before = fs::read(root.join("flip/data/secret/mixed/02.in")).unwrap();
    let broken = [
        (
            "kinds = [\"random\"]",
            "kinds = [\"sideways\"]",
            "manifest.toml:6:10: kind `sideways`",
        ),
        ("count = 4", "count = -4", "manifest.toml:8:9:"),
        ("seed = 5", "seeds = 5", "manifest.toml:7:1:"),
        (
            "problem = \"flip\"",
            "problem = \"swap\"",
            "manifest.toml:1:11:",
        ),
        (
            "bwwb\\nbbwb",
            "bwwb\\nbbxb",
            "manifest.toml:2:12: board: line 2, column 3",
        ),
    ];
    for (from, to, error) in broken {
        let manifest = small_manifest("flip").replace(from, to);
        write(root, "flip/manifest.toml", manifest);
        grader()
            .args(["cases", "regen", "--root"])
            .arg(root)
            .assert()
            .code(2)
            .stderr(one_error_line(error));
        assert_eq!(
            fs::read(root.join("flip/data/secret/mixed/02.in")).unwrap(),
            before
        );
    }
}

#[test]
fn cases_check_finds_missing_answers_bad_boards_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "flip/a/01.in", FLIP_SAMPLE);
    write(root, "flip/a/01.ans", "4\n");
    write(root, "flip/a/02.in", FLIP_SAMPLE);
    write(root, "flip/a/02.ans", "4\n");
    write(root, "flip/b/01.in", "bwwb\nbbwb\n");
    write(root, "flip/b/02.in", "bbbb\nbbbb\nbbbb\nbbbb\n");
    grader()
        .args(["cases", "check", "flip", "--root"])
        .arg(root)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("a/02.in: the same board as a/01.in")
                .and(predicate::str::contains("b/01.in:3:1: "))
                .and(predicate::str::contains("b/02.in: no answer file"))
                .and(predicate::str::contains("3 faults")),
        );
}

#[test]
fn the_shipped_case_folders_regenerate_byte_for_byte_and_pass_check() {
    let root = repo().join("cases");
    grader()
        .args(["cases", "regen", "--check", "--root"])
        .arg(&root)
        .assert()
        .success();
    grader()
        .args(["cases", "check", "--root"])
        .arg(&root)
        .assert()
        .success();
}

#[test]
fn the_shipped_case_folders_kill_every_mutant() {
    let root = repo().join("cases");
    for problem in ["flip", "fourinrow", "swap"] {
        grader()
            .args(["cases", "power", problem, "--root"])
            .arg(&root)
            .assert()
            .success()
            .stdout(predicate::str::contains("(100%)"));
    }
}

#[test]
fn power_names_the_survivors_of_a_weak_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "flip/sample/01.in", FLIP_SAMPLE);
    write(root, "flip/sample/01.ans", "4\n");
    grader()
        .args(["cases", "power", "flip", "--root"])
        .arg(root)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("SURVIVES").and(predicate::str::contains("survivors: ")));
}
