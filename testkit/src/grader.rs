//! The grader binary as the tests call it: its path, a command with colours off, and the
//! one-line error the contract gives a refused call (cli.md: exit 2, one line on stderr).

use std::path::PathBuf;

use assert_cmd::cargo::CommandCargoExt as _;
use predicates::prelude::*;

/// The `grader` binary cargo built for this test or bench.
pub fn grader_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("grader")
}

/// `grader`, with colours off (`NO_COLOR`): its output is compared as text.
pub fn grader() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(
        std::process::Command::cargo_bin("grader").expect("cargo built the grader"),
    );
    cmd.env("NO_COLOR", "1");
    cmd
}

/// A usage error: exactly one line on stderr, in the `grader: error: ` form, holding
/// `contains`.
pub fn one_error_line(contains: impl Into<String>) -> impl Predicate<str> {
    predicate::str::starts_with("grader: error: ")
        .and(predicate::str::contains(contains))
        .and(predicate::function(|s: &str| s.lines().count() == 1))
}
