//! Case folders: discovery of `*.in` with their answers, the manifests that describe the
//! shipped folders, their deterministic and atomic regeneration, their verification, and
//! their test power against the classic wrong solutions.
//!
//! Layout (the ICPC/Kattis package layout): `ROOT/<problem>/manifest.toml` and
//! `ROOT/<problem>/data/{sample,secret/<group>}/NN.in|.ans`.

pub(crate) mod discover;
pub(crate) mod manifest;
pub(crate) mod plan;
pub(crate) mod power;
pub(crate) mod regen;
pub(crate) mod sound;
pub(crate) mod verify;

use std::path::{Path, PathBuf};

use reference::Problem;

/// The case folder of `problem` under `root`.
pub(crate) fn folder(root: &Path, problem: Problem) -> PathBuf {
    root.join(problem.id())
}

/// Where the cases of a folder live: its `data/` when it has one (a package), else the
/// folder itself (any folder of `*.in` files).
pub(crate) fn data_dir(folder: &Path) -> PathBuf {
    let data = folder.join("data");
    if data.is_dir() {
        data
    } else {
        folder.to_path_buf()
    }
}

/// The position of byte `offset` in `text` as a 1-based line and column (in characters).
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit_once('\n')
        .map_or(before, |(_, last)| last)
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "ab\ncd\n四e";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 4), (2, 2));
        assert_eq!(line_column(text, 6), (3, 1));
        assert_eq!(line_column(text, 9), (3, 2));
        assert_eq!(line_column(text, 999), (3, 3));
    }
}
