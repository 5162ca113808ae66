//! Files a test lays out and reads back: written with their folders, trees copied and
//! listed.

use std::fs;
use std::path::{Path, PathBuf};

/// Writes `text` to `dir/name`, making its folders; its path.
pub fn write(dir: &Path, name: impl AsRef<Path>, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    make_parent(&path);
    fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// Copies the file `from` to `to`, making `to`'s folders; `to`.
pub fn copy(from: &Path, to: impl Into<PathBuf>) -> PathBuf {
    let to = to.into();
    make_parent(&to);
    fs::copy(from, &to).unwrap_or_else(|e| panic!("{} to {}: {e}", from.display(), to.display()));
    to
}

/// Copies the tree `from` to `to` (folders and files only), making `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            copy(&entry.path(), target);
        }
    }
}

/// Every file below `dir` (in its folders too), by its path, sorted.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in entries(dir) {
        if path.is_dir() {
            found.extend(files_below(&path));
        } else {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The entries of the folder `dir` (files and folders, not below them), by path, sorted.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .collect();
    found.sort();
    found
}

/// The names of the entries of the folder `dir` (as text, lossy), sorted.
pub fn names(dir: &Path) -> Vec<String> {
    entries(dir)
        .iter()
        .filter_map(|path| path.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect()
}

/// Makes the folder `path` is in.
fn make_parent(path: &Path) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{}: {e}", parent.display()));
    }
}
