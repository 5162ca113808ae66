//! The test problem packages (Kattis/ICPC layout) of `grader/tests/fixtures/packages/`:
//! `sum` (the default validator with a float tolerance), `parity` (its own output
//! validator), `halves` (a scoring problem whose groups are worth 40 and 60).

use std::path::{Path, PathBuf};

use crate::files::copy_tree;
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
