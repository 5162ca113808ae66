//! Regeneration: compare the planned `data/` tree with the one on disk, and replace it
//! atomically when it differs.
//!
//! The new tree is written in full beside the old one (`.data.new-*`), then swapped in by
//! two renames (`data` -> `.data.old`, new -> `data`). An interruption at any point leaves
//! either the old tree or the new one in place; the next run finishes or undoes the swap.

use std::fs;
use std::path::Path;

use walkdir::WalkDir;

use super::plan::Tree;
use crate::cli::exit::Fault;
use crate::paths::files;

/// What the disk held compared with the plan.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Drift {
    /// Planned files missing on disk.
    pub(crate) missing: Vec<String>,
    /// Files on disk the plan does not make.
    pub(crate) extra: Vec<String>,
    /// Files whose bytes differ.
    pub(crate) changed: Vec<String>,
}

impl Drift {
    /// Whether the disk matches the plan.
    pub(crate) fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.changed.is_empty()
    }
}

/// Reads every visible file below `data` (missing folder: empty tree).
pub(crate) fn read_tree(data: &Path) -> Result<Tree, Fault> {
    let mut tree = Tree::new();
    if !data.exists() {
        return Ok(tree);
    }
    let walker = WalkDir::new(data)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|e| {
            Fault::input(files::cannot(
                data,
                "read",
                &std::io::Error::other(e.to_string()),
            ))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(data).unwrap_or(entry.path());
        let key = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        tree.insert(key, files::read_capped(entry.path())?);
    }
    Ok(tree)
}

/// How `disk` differs from `plan`.
pub(crate) fn drift(plan: &Tree, disk: &Tree) -> Drift {
    let mut drift = Drift::default();
    for (name, bytes) in plan {
        match disk.get(name) {
            None => drift.missing.push(name.clone()),
            Some(old) if old != bytes => drift.changed.push(name.clone()),
            Some(_) => {}
        }
    }
    drift.extra = disk
        .keys()
        .filter(|name| !plan.contains_key(*name))
        .cloned()
        .collect();
    drift
}

/// Refuses, before anything is moved, a folder whose `data` or `.data.old` is not a
/// folder: regen owns those two names only as folders it made, and a file (or a link to
/// one) there is the user's, never moved or removed.
pub(crate) fn preflight(folder: &Path) -> Result<(), Fault> {
    for name in ["data", ".data.old"] {
        let path = folder.join(name);
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Fault::output(files::cannot(&path, "inspect", &e))),
            // A link to a folder is followed, as everywhere a case folder is read.
            Ok(_) if path.is_dir() => {}
            Ok(_) => {
                return Err(Fault::output(format!(
                    "{}: is not a folder; `grader cases regen` keeps the cases there: move it \
                     away and run it again (nothing was changed)",
                    path.display()
                )));
            }
        }
    }
    Ok(())
}

/// Finishes or undoes a swap of `folder/data` that an earlier run left half done, and
/// removes its leftovers (`files::recover_tree`).
pub(crate) fn recover(folder: &Path) -> Result<(), Fault> {
    files::recover_tree(&folder.join("data"))
}

/// Replaces `folder/data` by `tree`, atomically as seen by any reader of `data/`
/// (`files::replace_tree`).
pub(crate) fn replace(folder: &Path, tree: &Tree) -> Result<(), Fault> {
    files::replace_tree(&folder.join("data"), tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        files
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn drift_names_missing_extra_and_changed_files() {
        let plan = tree(&[("a.in", "1"), ("b.in", "2"), ("c.in", "3")]);
        let disk = tree(&[("a.in", "1"), ("b.in", "x"), ("d.in", "4")]);
        let drift = drift(&plan, &disk);
        assert_eq!(drift.missing, ["c.in"]);
        assert_eq!(drift.changed, ["b.in"]);
        assert_eq!(drift.extra, ["d.in"]);
        assert!(super::drift(&plan, &plan).is_empty());
    }

    #[test]
    fn replace_swaps_whole_trees_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let first = tree(&[("sample/01.in", "a"), ("secret/x/01.in", "b")]);
        replace(dir.path(), &first).unwrap();
        assert_eq!(read_tree(&dir.path().join("data")).unwrap(), first);
        let second = tree(&[("sample/01.in", "c")]);
        replace(dir.path(), &second).unwrap();
        assert_eq!(read_tree(&dir.path().join("data")).unwrap(), second);
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["data"]);
    }

    #[test]
    fn preflight_refuses_files_where_regen_keeps_folders() {
        let dir = tempfile::tempdir().unwrap();
        preflight(dir.path()).unwrap();
        fs::create_dir(dir.path().join("data")).unwrap();
        preflight(dir.path()).unwrap();
        fs::write(dir.path().join(".data.old"), "mine").unwrap();
        let fault = preflight(dir.path()).unwrap_err();
        assert_eq!(fault.cause(), crate::cli::exit::Cause::Output);
        assert!(
            fault.message().contains(".data.old: is not a folder"),
            "{fault:?}"
        );
        fs::remove_file(dir.path().join(".data.old")).unwrap();
        fs::remove_dir(dir.path().join("data")).unwrap();
        std::os::unix::fs::symlink("/nonexistent", dir.path().join("data")).unwrap();
        assert!(preflight(dir.path()).is_err());
    }

    #[test]
    fn recover_restores_a_tree_moved_aside_by_an_interrupted_swap() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".data.old/sample")).unwrap();
        fs::write(dir.path().join(".data.old/sample/01.in"), "a").unwrap();
        fs::create_dir_all(dir.path().join(".data.new-abc")).unwrap();
        recover(dir.path()).unwrap();
        assert_eq!(
            read_tree(&dir.path().join("data")).unwrap(),
            tree(&[("sample/01.in", "a")])
        );
        assert!(!dir.path().join(".data.new-abc").exists());
        assert!(!dir.path().join(".data.old").exists());
    }
}
