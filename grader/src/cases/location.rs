//! Where a problem's case folder is, and where its cases are inside it.

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
