//! A package's submissions: each file of `submissions/FOLDER/`, and the verdict its folder
//! says it must get (`accepted`: `AC`, `wrong_answer`: `WA`, `time_limit_exceeded`: `TLE`,
//! `run_time_error`: `RTE`); other folders' submissions are run, and their verdicts shown,
//! with none expected.

use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;
use crate::paths::files;

/// One submission of a package.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// `FOLDER/FILE`, as the table names it.
    pub(crate) name: String,
    /// The file.
    pub(crate) path: PathBuf,
    /// The verdict its folder asks for, in the format's words.
    pub(crate) expected: Option<&'static str>,
    /// Whether its folder is `partially_accepted` (a scoring problem's: `AC` with a score
    /// short of the full one).
    pub(crate) partial: bool,
}

impl Entry {
    /// Whether it is one the time limit is set from.
    pub(crate) fn accepted(&self) -> bool {
        self.expected == Some("AC")
    }
}

/// The verdict the folder `name` asks for.
fn expected(name: &str) -> Option<&'static str> {
    match name {
        "accepted" => Some("AC"),
        "wrong_answer" => Some("WA"),
        "time_limit_exceeded" => Some("TLE"),
        "run_time_error" => Some("RTE"),
        _ => None,
    }
}

/// Every submission below `PKG/submissions`, folders in name order and files in name
/// order within each. A submission that is a folder (several files) is listed with its
/// path, to be refused as not supported.
pub(crate) fn load(package: &Path) -> Result<Vec<Entry>, Fault> {
    let root = package.join("submissions");
    let mut found = Vec::new();
    for folder in sorted(&root)? {
        if !folder.is_dir() {
            continue;
        }
        let kind = folder
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for path in sorted(&folder)? {
            let file = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if file.starts_with('.') {
                continue;
            }
            found.push(Entry {
                name: format!("{kind}/{file}"),
                path,
                expected: expected(&kind),
                partial: kind == "partially_accepted",
            });
        }
    }
    if found.is_empty() {
        return Err(Fault::input(format!(
            "{}: no submissions (`submissions/accepted/...`) to verify",
            root.display()
        )));
    }
    Ok(found)
}

/// The entries of `dir`, sorted by name.
fn sorted(dir: &Path) -> Result<Vec<PathBuf>, Fault> {
    crate::paths::folders::existing(dir, "list submissions in")?;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Fault::input(files::cannot(dir, "list", &e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    Ok(entries)
}
