//! Folders the user names (`--cases`, a class folder, `--root`, `--out`, `--save`,
//! `--cache-dir`): the one place that opens or creates them, so a file given where a
//! folder belongs is named as such by every command, never as "no such file or folder"
//! or "File exists (os error 17)".

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;
use crate::paths::files;

/// Checks that `path` is a folder that exists, before `action` (`list cases in`) reads it.
pub(crate) fn existing(path: &Path, action: &str) -> Result<(), Fault> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(Fault::input(not_a_folder(path, action))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Fault::input(format!(
            "{}: cannot {action}: no such folder",
            path.display()
        ))),
        Err(e) => Err(Fault::input(files::cannot(path, action, &e))),
    }
}

/// Creates the folder `path`, where the call writes, and any missing parents (as `mkdir
/// -p` does); a file in the way, at `path` or above it, is named.
pub(crate) fn create(path: &Path) -> Result<(), Fault> {
    make(path, Fault::output)
}

/// [`create`] for a folder of the grader's own work the call does not name (the compile
/// cache's parent): one that cannot be made is the machine's setup's fault.
pub(crate) fn create_own(path: &Path) -> Result<(), Fault> {
    make(path, Fault::setup)
}

fn make(path: &Path, fault: fn(String) -> Fault) -> Result<(), Fault> {
    fs::create_dir_all(path)
        .map_err(|e| {
            // `AlreadyExists` (a file at `path`) and `NotADirectory` (a file above it) say
            // nothing a person can act on: find the file and name it.
            match files::file_in_the_way(path) {
                Some(file) => not_a_folder(file, "create a folder"),
                None => files::cannot(path, "create", &e),
            }
        })
        .map_err(fault)
}

/// What to say of a file found where `action` needs a folder (whose fault it is, the
/// caller's to say).
pub(crate) fn not_a_folder(path: &Path, action: &str) -> String {
    format!(
        "{}: cannot {action}: is {}, not a folder",
        crate::paths::spelling::path(path),
        files::kind_at(path)
    )
}

/// The entries of the folder `dir` that are not hidden (a name starting with `.`), sorted:
/// the programs of a package's program folders. A folder that cannot be listed is the
/// input's fault.
pub(crate) fn visible_entries(dir: &Path) -> Result<Vec<PathBuf>, Fault> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Fault::input(files::cannot(dir, "list", &e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .starts_with('.')
        })
        .collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::Cause;

    /// The message of a fault of `cause`.
    fn message(fault: &Fault, cause: Cause) -> String {
        assert_eq!(fault.cause(), cause, "{fault}");
        fault.message().to_owned()
    }

    #[test]
    fn a_file_where_a_folder_belongs_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.txt");
        fs::write(&file, "x").unwrap();
        let said = message(&existing(&file, "list cases in").unwrap_err(), Cause::Input);
        assert!(
            said.ends_with("f.txt: cannot list cases in: is a file, not a folder"),
            "{said}"
        );
        let said = message(&create(&file).unwrap_err(), Cause::Output);
        assert!(said.ends_with("f.txt: cannot create a folder: is a file, not a folder"));
        let said = message(
            &create(&file.join("deeper/still")).unwrap_err(),
            Cause::Output,
        );
        assert!(said.ends_with("f.txt: cannot create a folder: is a file, not a folder"));
        // The same file in the way of a folder of the grader's own is the setup's.
        let said = message(&create_own(&file).unwrap_err(), Cause::Setup);
        assert!(said.ends_with("f.txt: cannot create a folder: is a file, not a folder"));
    }

    #[test]
    fn folders_are_found_or_made_and_missing_ones_said_so() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(existing(dir.path(), "read"), Ok(()));
        let said = message(
            &existing(&dir.path().join("none"), "list cases in").unwrap_err(),
            Cause::Input,
        );
        assert!(
            said.ends_with("none: cannot list cases in: no such folder"),
            "{said}"
        );
        let deep = dir.path().join("a/b/c");
        assert_eq!(create(&deep), Ok(()));
        assert!(deep.is_dir());
        assert_eq!(create(&deep), Ok(()));
    }
}
