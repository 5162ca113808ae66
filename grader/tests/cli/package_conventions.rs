//! `grader package verify` on what other tools' packages carry (DOMjudge's
//! `@EXPECTED_RESULTS@:` comments and `.timelimit`, BAPCtools' `submissions/rejected/`),
//! and an accepted submission slower than the ceiling the time limit is measured under:
//! judged at the limit then set, never at the ceiling. On copies of the fixture `sum`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::files::write;
use testkit::grader::{grader, one_error_line};
use testkit::packages::copy;

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

/// `grader package verify PKG ARGS...`: its exit status, standard output and error.
fn verify(package: &Path, args: &[&str]) -> (i32, String, String) {
    let output = grader()
        .args(["package", "verify", "--jobs", "2"])
        .arg(package)
        .args(args)
        .timeout(Duration::from_mins(3))
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The cells of `submission`'s row.
fn row<'a>(table: &'a str, submission: &str) -> Vec<&'a str> {
    table
        .lines()
        .find(|l| l.starts_with(&format!("{submission} ")))
        .unwrap_or_else(|| panic!("no row for {submission}:\n{table}"))
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
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
