//! 2025-09's included files (`include/`): one folder per language, named by the
//! format's language code (`include/cpp/`, `include/python3/`), and `include/default/`
//! for every language without one of its own, each holding files added to every
//! submission in that language before it is built, the package's constants replaced in
//! them (`submission::added` says how the program is then made and run). A file named as
//! the format's table names a language's entry point (`__main__.py`, `main.js`,
//! `main.php`, `main.lisp`, `Main.java`, `Main.kt`) is a driver: the program's main file.
//!
//! An entry of `include/` that is not a folder, is empty, or is named by no code of the
//! format's table is the package's fault (exit 2 at its path), never a silent nothing.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::codes;
use super::constants::Constants;
use crate::cli::exit::Fault;
use crate::paths::files;
use crate::submission::added::{Added, Addition};
use crate::submission::folder::{self, FolderFile};
use crate::submission::languages::Languages;

/// The folder of files for every language without one of its own.
const DEFAULT: &str = "default";

/// The files `include/` of the package at `package` adds to the submissions, by the
/// grader's language names (`languages`), with `constants` replaced in them; nothing when
/// it has no `include/`.
pub(crate) fn added(
    package: &Path,
    constants: &Constants,
    languages: &Languages,
) -> Result<Arc<Added>, Fault> {
    let by_code = read(package, constants)?;
    let mut by_language = BTreeMap::new();
    for name in languages.names() {
        let code = codes::code_of(name);
        let Some(files) = code
            .and_then(|code| by_code.get(code))
            .or_else(|| by_code.get(DEFAULT))
        else {
            continue;
        };
        let driver = code.and_then(|code| {
            files
                .iter()
                .find(|file| codes::drivers(code).contains(&file.name.as_str()))
                .map(|file| file.name.clone())
        });
        by_language.insert(
            name.to_owned(),
            Addition {
                files: files.clone(),
                driver,
            },
        );
    }
    Ok(Arc::new(Added::new(by_language)))
}

/// `include/`'s folders, by name (a language code or `default`), their files read with
/// `constants` replaced.
fn read(package: &Path, constants: &Constants) -> Result<BTreeMap<String, Vec<FolderFile>>, Fault> {
    let include = package.join("include");
    let mut by_code = BTreeMap::new();
    // Absent, nothing is added; a file or a broken link there is said, as for any folder
    // a package may have.
    if !files::folder_if_any(&include)? {
        return Ok(by_code);
    }
    let fault = |path: &Path, why: &str| Fault::input(format!("{}: {why}", path.display()));
    let entries = std::fs::read_dir(&include)
        .map_err(|e| Fault::input(files::cannot(&include, "list", &e)))?;
    for entry in entries {
        let entry = entry.map_err(|e| Fault::input(files::cannot(&include, "list", &e)))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if name != DEFAULT && !codes::is_code(&name) {
            return Err(fault(
                &path,
                &format!(
                    "`{name}` is not a language code of the format's table: expected \
                     `default` or one of {}",
                    codes::listed()
                ),
            ));
        }
        files::folder_if_any(&path)?;
        let read = folder::files(&path)?;
        if read.is_empty() {
            return Err(fault(
                &path,
                "an empty folder: the format's included files are in non-empty folders",
            ));
        }
        let read = read
            .into_iter()
            .map(|file| match constants.apply(&file.bytes) {
                Some(bytes) => FolderFile { bytes, ..file },
                None => file,
            })
            .collect();
        by_code.insert(name, read);
    }
    Ok(by_code)
}
