//! A layout mistake (`PE`) through the binary: said once, in words, with the first case's
//! exact expected text and the other cases it spoils named, never with a drawing of a
//! minimum solution; a wrong number keeps its drawing.

use std::fs;
use std::path::{Path, PathBuf};

use testkit::files::write;
use testkit::grader::grader;
use testkit::paths::fixture;

/// A correct flip program that prints one empty line first, written into `dir`.
fn blank_first(dir: &Path) -> PathBuf {
    let source = fs::read_to_string(fixture("flip/ac_rows.py")).unwrap();
    write(dir, "blank.py", format!("print()\n{source}"))
}

/// `grader test flip PROGRAM` on the shipped cases: its report.
fn tested(program: &Path) -> String {
    tested_as(program, &[])
}

/// `grader test flip PROGRAM EXTRA...` on the shipped cases: its report.
fn tested_as(program: &Path, extra: &[&str]) -> String {
    let output = grader()
        .args(["test", "flip"])
        .arg(program)
        .args(["--jobs", "2", "--wall-limit", "30"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn one_blank_line_is_said_once_over_every_case_with_no_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let report = tested(&blank_first(dir.path()));
    assert!(report.contains("\nPE 0/69 passed"), "{report}");
    // The first case in full: its exact expected text against the output.
    assert!(
        report.contains(
            "PE sample/01: right answer, wrong layout: line 1: expected `4`, got ``\n  input:"
        ),
        "{report}"
    );
    assert!(
        report.contains("  expected (-) and got (+):\n    +\n     4\n"),
        "{report}"
    );
    // The mistake in words, once, and the other 68 cases by group.
    assert_eq!(report.matches("why:").count(), 1, "{report}");
    assert!(
        report.contains(
            "  why: your output starts with an empty line: print the answer from the first line\n  \
             the same mistake in 68 more cases:\n    secret/answers/ 01 02 03"
        ),
        "{report}"
    );
    assert!(report.contains("    secret/solved/ 01 02\n"), "{report}");
    // No minimum solution, no other block, nothing left out.
    assert!(!report.contains("press ("), "{report}");
    assert!(!report.contains("more failing cases"), "{report}");
    assert_eq!(
        report.matches("\nPE ").count(),
        2,
        "the block and the summary"
    );
}

#[test]
fn the_json_report_says_one_blank_line_once_with_its_count_of_cases() {
    let dir = tempfile::tempdir().unwrap();
    let report = tested_as(&blank_first(dir.path()), &["--report", "json"]);
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(
        report["layout_mistakes"],
        serde_json::json!([{
            "mistake": "your output starts with an empty line: print the answer from the first line",
            "first": "sample/01",
            "message": "right answer, wrong layout: line 1: expected `4`, got ``",
            "cases": 69
        }]),
        "{report:#}"
    );
}

#[test]
fn a_wrong_number_keeps_its_reason_and_drawing() {
    let fixtures = fixture("flip");
    let report = tested(&fixtures.join("wa_off_by_one.c"));
    assert!(report.contains("  why: you printed "), "{report}");
    assert!(report.contains("press ("), "{report}");
    assert!(!report.contains("the same mistake"), "{report}");
}
