//! Writing a package folder as one change: checked before any work, built in full beside
//! its place (`.NAME.new-*` in the same parent), then renamed into place (`files::replace_tree`). A reader of the
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
    let refuse = |why: &str| Err(Fault::output(format!("{}: {why}", dir.display())));
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

/// Writes `tree` as the folder `dir`, replacing what `check` allowed to be there
/// (`files::replace_tree`: a reader sees the old package or the new one, never a part).
pub(crate) fn write(dir: &Path, tree: &Tree) -> Result<(), Fault> {
    files::replace_tree(dir, tree)
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
            assert_eq!(fault.cause(), crate::cli::exit::Cause::Output);
            assert!(fault.message().contains("mine: "), "{fault:?}");
        }
        fs::write(dir.join("problem.yaml"), "name: x\n").unwrap();
        check(&dir, true, &Inputs::default()).unwrap();
        assert!(check(&dir, false, &Inputs::default()).is_err());
    }
}
