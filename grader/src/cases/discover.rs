//! Finds the cases below a folder: every `*.in`, recursively, with its answer beside it as
//! `*.ans` (or `*.out`), listed in name order (cli.md).

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::files;
use crate::status::Fault;

/// One case: an input and, when present, its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// The path below the case folder, without `.in`, with `/` separators
    /// (`secret/answers/03`): the name in reports.
    pub(crate) name: String,
    /// The input file.
    pub(crate) input: PathBuf,
    /// The answer file, `None` when neither `.ans` nor `.out` exists.
    pub(crate) answer: Option<PathBuf>,
}

impl Case {
    /// The group: the folder part of the name (`secret/answers`), `.` at the top.
    pub(crate) fn group(&self) -> &str {
        self.name.rsplit_once('/').map_or(".", |(group, _)| group)
    }
}

/// Every case below `dir` in name order. Hidden files and folders (`.data.new-*` of an
/// interrupted regeneration, `.git`) are skipped. An input is a regular file (a link is
/// not followed); its answer may be a link to one.
///
/// Each folder is listed once and its answers are found in that listing: asking the
/// file system whether each `.ans` exists took a third of the time to read a folder of
/// 1,000 cases, which a `test` waits for before its first run.
pub(crate) fn discover(dir: &Path) -> Result<Vec<Case>, Fault> {
    crate::folders::existing(dir, "list cases in")?;
    let mut cases = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let listing = list(&folder)?;
        for (name, kind) in &listing {
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let path = folder.join(name);
            match kind {
                Kind::Folder => folders.push(path),
                Kind::File if path.extension().is_some_and(|x| x == "in") => {
                    let answer = ["ans", "out"]
                        .into_iter()
                        .map(|ext| path.with_extension(ext))
                        .find(|answer| is_answer(&listing, answer));
                    cases.push(Case {
                        name: case_name(dir, &path),
                        input: path,
                        answer,
                    });
                }
                Kind::File | Kind::Link | Kind::Other => {}
            }
        }
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

/// What a folder's entry is, as its listing says (without following a link).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    Link,
    Other,
}

/// The entries of `folder` by name.
fn list(folder: &Path) -> Result<HashMap<OsString, Kind>, Fault> {
    let failed = |e: &std::io::Error| files::cannot(folder, "list", e);
    let mut listing = HashMap::new();
    for entry in fs::read_dir(folder).map_err(|e| failed(&e))? {
        let entry = entry.map_err(|e| failed(&e))?;
        let kind = entry.file_type().map_err(|e| failed(&e))?;
        let kind = if kind.is_file() {
            Kind::File
        } else if kind.is_dir() {
            Kind::Folder
        } else if kind.is_symlink() {
            Kind::Link
        } else {
            Kind::Other
        };
        listing.insert(entry.file_name(), kind);
    }
    Ok(listing)
}

/// Whether `answer`, in the folder `listing` lists, is a file: a regular one, or a link
/// to one.
fn is_answer(listing: &HashMap<OsString, Kind>, answer: &Path) -> bool {
    match answer.file_name().and_then(|name| listing.get(name)) {
        Some(Kind::File) => true,
        Some(Kind::Link) => answer.is_file(),
        _ => false,
    }
}

/// The name of the case whose input is `input`, below `dir`: its path there without
/// `.in`, with `/` separators.
fn case_name(dir: &Path, input: &Path) -> String {
    let relative = input.strip_prefix(dir).unwrap_or(input).with_extension("");
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn finds_inputs_recursively_with_answers_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("secret/b")).unwrap();
        fs::create_dir_all(root.join(".data.new-x")).unwrap();
        for file in [
            "secret/b/02.in",
            "secret/b/02.ans",
            "secret/b/01.in",
            "secret/b/01.out",
            "a.in",
            "notes.txt",
            ".data.new-x/01.in",
        ] {
            fs::write(root.join(file), "x").unwrap();
        }
        let cases = discover(root).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "secret/b/01", "secret/b/02"]);
        assert_eq!(cases[0].answer, None);
        assert_eq!(cases[0].group(), ".");
        assert_eq!(cases[1].answer, Some(root.join("secret/b/01.out")));
        assert_eq!(cases[2].group(), "secret/b");
    }

    #[test]
    fn an_answer_may_be_a_link_to_a_file_and_an_input_may_not() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("elsewhere")).unwrap();
        fs::create_dir_all(root.join("data")).unwrap();
        fs::write(root.join("elsewhere/x"), "x").unwrap();
        fs::write(root.join("data/1.in"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere/x"), root.join("data/1.ans")).unwrap();
        fs::write(root.join("data/2.in"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("nowhere"), root.join("data/2.ans")).unwrap();
        fs::write(root.join("data/2.out"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere/x"), root.join("data/3.in")).unwrap();
        // A folder linked in is not walked.
        std::os::unix::fs::symlink(root.join("data"), root.join("linked")).unwrap();
        let cases = discover(root).unwrap();
        let found: Vec<(&str, Option<PathBuf>)> = cases
            .iter()
            .map(|c| (c.name.as_str(), c.answer.clone()))
            .collect();
        assert_eq!(
            found,
            [
                ("data/1", Some(root.join("data/1.ans"))),
                ("data/2", Some(root.join("data/2.out"))),
            ]
        );
    }

    #[test]
    fn a_missing_folder_is_a_usage_fault() {
        let fault = discover(Path::new("/nonexistent/cases")).unwrap_err();
        assert!(matches!(fault, Fault::Usage(m) if m.contains("/nonexistent/cases")));
    }
}
