//! The test problem packages (Kattis/ICPC layout) of `grader/tests/fixtures/packages/`:
//! `sum` (the default validator with a float tolerance), `parity` (its own output
//! validator), `halves` (a scoring problem whose groups are worth 40 and 60); and
//! `grader package verify` as the tests call it, with the rows of its table.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::files::copy_tree;
use crate::grader::grader;
use crate::paths;

/// The fixture package `name`, to read (a test that changes one works on a [`copy`]).
pub fn fixture(name: &str) -> PathBuf {
    paths::fixture("packages").join(name)
}

/// A copy of the fixture package `name` at `dir/name`, to change.
pub fn copy(name: &str, dir: &Path) -> PathBuf {
    let to = dir.join(name);
    copy_tree(&fixture(name), &to);
    to
}

/// `grader package verify --jobs 2 PACKAGE ARGS...`: its exit status, standard output (the
/// table) and standard error. Bounded: an interactive package's sleepers take two wall
/// limits each.
pub fn verify(package: &Path, args: &[&str]) -> (i32, String, String) {
    let output = grader()
        .args(["package", "verify", "--jobs", "2"])
        .arg(package)
        .args(args)
        .timeout(Duration::from_mins(4))
        .output()
        .expect("run grader package verify");
    (
        output.status.code().expect("grader exited"),
        String::from_utf8(output.stdout).expect("a UTF-8 table"),
        String::from_utf8(output.stderr).expect("UTF-8 messages"),
    )
}

/// The cells of `submission`'s row of a verification's `table` (cells are two spaces
/// or more apart).
pub fn row<'a>(table: &'a str, submission: &str) -> Vec<&'a str> {
    table
        .lines()
        .find(|l| l.starts_with(&format!("{submission} ")))
        .unwrap_or_else(|| panic!("no row for {submission}:\n{table}"))
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}
