//! Where things are: the repository and the grader's test fixtures, as absolute paths (a
//! test's working folder is anywhere).

use std::path::{Path, PathBuf};

/// The repository's root (this crate's parent).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives in the repository")
        .to_path_buf()
}

/// The grader's test fixtures: `grader/tests/fixtures`.
pub fn fixtures() -> PathBuf {
    repo().join("grader/tests/fixtures")
}

/// The fixture at `rel` below [`fixtures`] (`flip/ac_rows.py`, `packages/sum`).
pub fn fixture(rel: impl AsRef<Path>) -> PathBuf {
    fixtures().join(rel)
}

/// The bundled case folder of two flip cases, `sample/01` and `secret/impossible`.
pub fn two_cases() -> PathBuf {
    fixture("cases/flip-two")
}
