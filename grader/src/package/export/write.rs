//! Writing a package folder as one change: checked before any work, built in full beside
//! its place (`.NAME.new-*` in the same parent), then renamed into place. A reader of the
//! folder sees the old package or the new one, never a part; a failure leaves the old one.

use std::fs;
use std::path::Path;

use crate::cli::exit::Fault;
use crate::package::export::tree::Tree;
use crate::paths::files;
use crate::paths::outputs::{self, Inputs};

/// Checks, before any work, that a package may be written at `dir`: the rule of outputs
/// (its parent exists and is writable, it is no input of the call), and an existing
/// folder is empty, or with `force` a package (it has a `problem.yaml`): `--force` never
/// replaces a folder that is not one, whatever it holds.
pub(crate) fn check(dir: &Path, force: bool, inputs: &Inputs) -> Result<(), Fault> {
    outputs::folder(dir, &[], inputs)?;
    let Ok(mut entries) = fs::read_dir(dir) else {
        // Missing: made by the write, in a parent the rule found writable.
        return Ok(());
    };
    if entries.next().is_none() {
        return Ok(());
    }
    let refuse = |why: &str| Err(Fault::Usage(format!("{}: {why}", dir.display())));
    if !force {
        return refuse("exists and is not empty (use --force to replace the package in it)");
    }
    if !dir.join("problem.yaml").is_file() {
        return refuse(
            "is not a problem package (no problem.yaml); --force replaces only a package, \
             never another folder",
        );
    }
    Ok(())
}

/// Writes `tree` as the folder `dir`, replacing what `check` allowed to be there.
pub(crate) fn write(dir: &Path, tree: &Tree) -> Result<(), Fault> {
    let parent = files::parent_or_here(dir).to_path_buf();
    let name = dir
        .file_name()
        .map_or_else(|| "package".into(), |n| n.to_string_lossy().into_owned());
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .map_err(|e| files::cannot(dir, "write", &e))?;
    files::write_tree(staging.path(), tree)?;
    // The staging folder is private (0700); a package is meant to be read and shared.
    fs::set_permissions(
        staging.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .map_err(|e| files::cannot(staging.path(), "write", &e))?;
    swap_in(dir, &parent, &name, staging)
}

/// Renames the staged folder to `dir`. An empty folder there is replaced by the rename
/// itself; a package is first moved aside, and removed once the new one is in place.
fn swap_in(dir: &Path, parent: &Path, name: &str, staging: tempfile::TempDir) -> Result<(), Fault> {
    let occupied = fs::read_dir(dir).is_ok_and(|mut e| e.next().is_some());
    let aside = if occupied {
        let old = tempfile::Builder::new()
            .prefix(&format!(".{name}.old-"))
            .tempdir_in(parent)
            .map_err(|e| files::cannot(dir, "replace", &e))?
            .keep();
        // The reserved name is taken by an empty folder, which the rename replaces.
        fs::rename(dir, &old).map_err(|e| files::cannot(dir, "move aside", &e))?;
        Some(old)
    } else {
        None
    };
    let staged = staging.keep();
    if let Err(e) = fs::rename(&staged, dir) {
        // The old package goes back before the fault is told: nothing the user had is lost.
        if let Some(old) = &aside {
            let _ = fs::rename(old, dir);
        }
        let _ = sandbox::remove::remove_tree(&staged);
        return Err(files::cannot(dir, "write", &e));
    }
    // The swap is durable before the old package goes.
    files::sync_folder(parent).map_err(|e| files::cannot(dir, "write", &e))?;
    if let Some(old) = aside {
        sandbox::remove::remove_tree(&old).map_err(|e| files::cannot(&old, "remove", &e))?;
    }
    Ok(())
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

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_package_replaces_an_empty_folder_or_a_package_and_leaves_nothing_beside_it() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("pkg");
        write(
            &dir,
            &tree(&[("problem.yaml", "a"), ("data/sample/1.in", "x")]),
        )
        .unwrap();
        assert_eq!(listing(&dir), ["data", "problem.yaml"]);
        write(&dir, &tree(&[("problem.yaml", "b")])).unwrap();
        assert_eq!(listing(&dir), ["problem.yaml"]);
        assert_eq!(fs::read_to_string(dir.join("problem.yaml")).unwrap(), "b");
        assert_eq!(listing(root.path()), ["pkg"]);
        fs::remove_dir_all(&dir).unwrap();
        fs::create_dir(&dir).unwrap();
        write(&dir, &tree(&[("problem.yaml", "c")])).unwrap();
        assert_eq!(listing(root.path()), ["pkg"]);
    }

    #[test]
    fn force_replaces_only_a_package() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("mine");
        fs::create_dir(&dir).unwrap();
        check(&dir, false, &Inputs::default()).unwrap();
        fs::write(dir.join("notes.txt"), "keep").unwrap();
        for force in [false, true] {
            let fault = check(&dir, force, &Inputs::default()).unwrap_err();
            assert!(
                matches!(&fault, Fault::Usage(m) if m.contains("mine: ")),
                "{fault:?}"
            );
        }
        fs::write(dir.join("problem.yaml"), "name: x\n").unwrap();
        check(&dir, true, &Inputs::default()).unwrap();
        assert!(check(&dir, false, &Inputs::default()).is_err());
    }
}
