//! `grader package verify` on what other tools' packages carry (DOMjudge's
//! `@EXPECTED_RESULTS@:` comments and `.timelimit`, BAPCtools' `submissions/rejected/`),
//! and an accepted submission slower than the ceiling the time limit is measured under:
//! judged at the limit then set, never at the ceiling. On copies of the fixture `sum`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::packages::{copy, row, verify};

/// `sum` with its submissions replaced by `submissions` (`FOLDER/FILE`, source) and its
/// second secret case left out (fewer runs of the slow ones).
fn package(dir: &Path, submissions: &[(&str, &str)]) -> PathBuf {
    let package = copy("sum", dir);
    fs::remove_dir_all(package.join("submissions")).unwrap();
    fs::remove_file(package.join("data/secret/2.in")).unwrap();
    fs::remove_file(package.join("data/secret/2.ans")).unwrap();
    for (name, source) in submissions {
        write(&package, format!("submissions/{name}"), source);
    }
    package
}

/// A right answer after `seconds` of CPU time, measured by the program itself.
fn burner(seconds: f64) -> String {
    format!(
        "import time\na, b = map(float, input().split())\n\
         while time.process_time() < {seconds}:\n    pass\nprint(a + b)\n"
    )
}

/// joggingtour's case, scaled down: one accepted submission takes 0.3 s, the multiplier
/// 10 sets 3 s (or 4), and another accepted one takes 1.5 s, past a 1 s ceiling. It was
/// judged `TLE` at the ceiling; it is run again under the limit and accepted.
#[test]
fn an_accepted_submission_past_the_ceiling_is_judged_at_the_limit_the_others_set() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            ("accepted/fast.py", &burner(0.3)),
            ("accepted/slow.py", &burner(1.5)),
            ("wrong_answer/zero.py", "print(0)\n"),
        ],
    );
    write(
        &package,
        "problem.yaml",
        "name: Sum of Two\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  time_multiplier: 10\n",
    );
    let (code, table, stderr) = verify(&package, &["--time-ceiling", "1"]);
    assert_eq!(code, 0, "{table}{stderr}");
    let header = table.lines().next().unwrap();
    assert!(
        header.starts_with("Sum of Two: 2 test cases, time limit ")
            && header.ends_with(
                " s (set from the accepted submissions; 1 that went past the 1 s ceiling run again under it)"
            ),
        "{table}"
    );
    let slow = row(&table, "accepted/slow.py");
    assert_eq!(&slow[1..3], ["AC", "AC"], "{table}");
    assert_eq!(slow.last(), Some(&"folder"), "{table}");
    let time: f64 = slow[3].trim_end_matches(" s").parse().unwrap();
    assert!(time > 1.0, "{table}");
    assert_eq!(&row(&table, "wrong_answer/zero.py")[1..3], ["WA", "WA"]);
}

/// With no accepted submission within the ceiling there is nothing to set the limit from:
/// the table says so, judges at the ceiling, and the accepted one disagrees (exit 1).
#[test]
fn no_accepted_submission_within_the_ceiling_is_said_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path(), &[("accepted/slow.py", &burner(1.5))]);
    let (code, table, stderr) = verify(&package, &["--time-ceiling", "1"]);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(
        table.starts_with(
            "Sum of Two: 2 test cases, time limit 1 s (no accepted submission passed within \
             the 1 s ceiling, so none could set it: judged at the ceiling; fix time_limit in \
             problem.yaml or give a higher --time-ceiling)"
        ),
        "{table}"
    );
    assert_eq!(
        &row(&table, "accepted/slow.py")[1..3],
        ["AC", "TLE <- disagrees"],
        "{table}"
    );
    grader()
        .args(["package", "verify", "--time-ceiling", "0"])
        .arg(&package)
        .assert()
        .code(2)
        .stderr(one_error_line("expected a positive duration, got `0`"));
}

/// BAPCtools' `rejected/` allows any verdict but `AC`; DOMjudge's comment lists what a
/// submission may get, in either spelling, in any folder (and over the folder's word);
/// each row says what its expectation comes from, and one met or not counts as a
/// folder's does.
#[test]
fn rejected_and_expected_results_comments_are_expectations_the_table_names() {
    let dir = tempfile::tempdir().unwrap();
    let sum = "a, b = map(float, input().split())\nprint(a + b)\n";
    let package = package(
        dir.path(),
        &[
            ("accepted/sum.py", sum),
            ("rejected/zero.py", "print(0)\n"),
            (
                "mixed/zero_or_slow.py",
                "# @EXPECTED_RESULTS@: WRONG_ANSWER, TIMELIMIT\nprint(0)\n",
            ),
            (
                "mixed/maybe.c",
                "/* @EXPECTED_RESULTS@: CORRECT,RUN-ERROR */\n#include <stdio.h>\n\
                 int main(void) { double a, b; scanf(\"%lf %lf\", &a, &b); \
                 printf(\"%.6f\\n\", a + b); return 0; }\n",
            ),
            (
                "wrong_answer/crash.py",
                "# @EXPECTED_RESULTS@: RUN_TIME_ERROR\nraise SystemExit(3)\n",
            ),
            ("mixed/plain.py", sum),
        ],
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    for (submission, expected, got, by) in [
        ("accepted/sum.py", "AC", "AC", "folder"),
        ("rejected/zero.py", "WA,TLE,RTE,OLE", "WA", "rejected/"),
        (
            "mixed/zero_or_slow.py",
            "WA,TLE",
            "WA",
            "@EXPECTED_RESULTS@",
        ),
        ("mixed/maybe.c", "AC,RTE", "AC", "@EXPECTED_RESULTS@"),
        ("wrong_answer/crash.py", "RTE", "RTE", "@EXPECTED_RESULTS@"),
        ("mixed/plain.py", "-", "AC", "-"),
    ] {
        let cells = row(&table, submission);
        assert_eq!(&cells[1..3], [expected, got], "{table}");
        assert_eq!(cells.last(), Some(&by), "{table}");
    }
    assert!(
        table.lines().nth(3).unwrap().ends_with("expected by"),
        "{table}"
    );

    // An accepted one in rejected/, and a wrong one whose comment says it is right,
    // disagree.
    write(&package, "submissions/rejected/right.py", sum);
    write(
        &package,
        "submissions/mixed/zero_or_slow.py",
        "# @EXPECTED_RESULTS@: CORRECT\nprint(0)\n",
    );
    let (code, table, _) = verify(&package, &[]);
    assert_eq!(code, 1, "{table}");
    assert_eq!(
        &row(&table, "rejected/right.py")[1..3],
        ["WA,TLE,RTE,OLE", "AC <- disagrees"],
        "{table}"
    );
    assert_eq!(
        &row(&table, "mixed/zero_or_slow.py")[1..3],
        ["AC", "WA <- disagrees"],
        "{table}"
    );
    assert!(
        table.contains("2 submission(s) did not get the verdict"),
        "{table}"
    );
}

/// A comment with a word that is no result is the package's fault, named at the word.
#[test]
fn an_unknown_expected_result_is_the_packages_fault_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(
        dir.path(),
        &[
            (
                "accepted/sum.py",
                "a, b = map(float, input().split())\nprint(a + b)\n",
            ),
            (
                "mixed/zero.py",
                "import sys\n# @EXPECTED_RESULTS@: WRONG-ANSWER, TLE\nprint(0)\n",
            ),
        ],
    );
    grader()
        .args(["package", "verify"])
        .arg(&package)
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(format!(
            "{}:2:37: @EXPECTED_RESULTS@: `TLE` is not a result: expected CORRECT, \
             WRONG-ANSWER, TIMELIMIT,",
            package.join("submissions/mixed/zero.py").display()
        )));
}

/// DOMjudge's `.timelimit` fixes the limit where problem.yaml does not: nothing is run
/// to set it, for `verify` and for `test`; problem.yaml's `time_limit` wins over it,
/// with a warning; one that is not a positive number is the package's fault.
#[test]
fn a_timelimit_file_fixes_the_limit_problem_yaml_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let sum = "a, b = map(float, input().split())\nprint(a + b)\n";
    let package = package(
        dir.path(),
        &[("accepted/sum.py", sum), ("accepted/slow.py", &burner(1.5))],
    );
    write(&package, ".timelimit", "1\n");
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(
        table.starts_with("Sum of Two: 2 test cases, time limit 1 s (fixed by .timelimit)"),
        "{table}"
    );
    assert_eq!(
        &row(&table, "accepted/slow.py")[1..3],
        ["AC", "TLE <- disagrees"],
        "{table}"
    );

    // `grader test` takes it too: no accepted submission is run, no note is given.
    let output = grader()
        .arg("test")
        .arg(&package)
        .arg(package.join("submissions/accepted/sum.py"))
        .args(["--report", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains("set from the package's accepted"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["limits"]["cpu_ms"], 1000.0, "{report}");

    // problem.yaml's own time_limit is the one, and the difference is said.
    write(
        &package,
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum of Two\n\
         validator_flags: float_tolerance 1e-6\nlimits:\n  time_limit: 3\n",
    );
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 0, "{table}{stderr}");
    assert!(
        table.starts_with("Sum of Two: 2 test cases, time limit 3 s (fixed by problem.yaml)"),
        "{table}"
    );
    assert!(
        stderr.contains(&format!(
            "grader: warning: {}: 1 s, but problem.yaml's time_limit 3 s is the limit",
            package.join(".timelimit").display()
        )),
        "{stderr}"
    );

    for (text, place) in [("fast\n", "1:1"), ("\n 0\n", "2:2")] {
        write(&package, ".timelimit", text);
        grader()
            .args(["package", "verify"])
            .arg(&package)
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(format!(
                "{}:{place}: `{}` is not a time limit: expected a positive number of seconds",
                package.join(".timelimit").display(),
                text.trim()
            )));
    }
}

/// `grader test` on a package whose one accepted submission goes past the 10 s ceiling:
/// there is no limit to grade at, and the call says to give one (exit 2), rather than
/// grading at a limit nothing measured. With `--time-limit`, nothing runs to set it.
#[test]
fn test_asks_for_a_time_limit_when_no_accepted_submission_passes_within_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path(), &[("accepted/slow.py", &burner(12.0))]);
    let sum = write(
        dir.path(),
        "sum.py",
        "a, b = map(float, input().split())\nprint(a + b)\n",
    );
    grader()
        .arg("test")
        .arg(&package)
        .arg(&sum)
        .timeout(Duration::from_mins(3))
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(format!(
            "{}: no accepted submission passes within the 10 s the grader times them under, \
             so the time limit cannot be set from them; give --time-limit",
            package.join("submissions/accepted").display()
        )));
    grader()
        .arg("test")
        .arg(&package)
        .arg(&sum)
        .args(["--time-limit", "1"])
        .assert()
        .code(0);
}

/// Accepted submissions that all fail otherwise (no `TLE`) set nothing either: the
/// format's least limit, said in the header, and they disagree.
#[test]
fn no_accepted_submission_passing_leaves_the_least_limit_said() {
    let dir = tempfile::tempdir().unwrap();
    let package = package(dir.path(), &[("accepted/zero.py", "print(0)\n")]);
    let (code, table, stderr) = verify(&package, &[]);
    assert_eq!(code, 1, "{table}{stderr}");
    assert!(
        table.starts_with(
            "Sum of Two: 2 test cases, time limit 1 s (no accepted submission passed, so none \
             could set it: the least, 1 s)"
        ),
        "{table}"
    );
    assert_eq!(
        &row(&table, "accepted/zero.py")[1..3],
        ["AC", "WA <- disagrees"],
        "{table}"
    );
}
