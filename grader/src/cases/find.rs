//! Finds the cases below a folder: every `*.in`, recursively, with its answer beside it as
//! `*.ans` (or `*.out`), listed in name order (cli.md).

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::exit::Fault;
use crate::paths::files;

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
/// interrupted regeneration, `.git`) are skipped. An input and its answer are regular
/// files or links to them; a `*.in`, or the `.ans` or `.out` beside one, that is anything
/// else (a folder, a FIFO, a link to `/dev/zero`, a broken link) is exit 2 naming it and
/// what it is: skipped, it would take its case out of the count unsaid, or be told
/// as a missing answer.
///
/// Each folder is listed once and its answers are found in that listing: asking the
/// file system whether each `.ans` exists took a third of the time to read a folder of
/// 1,000 cases, which a `test` waits for before its first run. Only links and odd
/// entries are asked what they are.
pub(crate) fn discover(dir: &Path) -> Result<Vec<Case>, Fault> {
    crate::paths::folders::existing(dir, "list cases in")?;
    let mut cases = Vec::new();
    // The first odd entry in name order is the one named, whatever order listings come in.
    let mut odd: Option<(PathBuf, String)> = None;
    let mut note = |path: PathBuf, what: String| {
        if odd.as_ref().is_none_or(|(first, _)| path < *first) {
            odd = Some((path, what));
        }
    };
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let listing = list(&folder)?;
        for (name, kind) in &listing {
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let path = folder.join(name);
            let input = path.extension().is_some_and(|x| x == "in");
            if !input {
                // An answer with no input is a case that would never run.
                let answer = path.extension().is_some_and(|x| x == "ans" || x == "out");
                let input = path.with_extension("in");
                if answer && !input.file_name().is_some_and(|n| listing.contains_key(n)) {
                    let input = input.file_name().map_or(input.as_path(), Path::new);
                    let what = format!(
                        "an answer with no input beside it ({} is missing)",
                        crate::paths::spelling::path(input)
                    );
                    note(path.clone(), what);
                }
                match kind {
                    Kind::Folder => folders.push(path),
                    // A folder reached through a link is not listed (it may lead out of the
                    // tree, or around it), and not passed over unsaid either: its cases
                    // would be missing from the count.
                    Kind::Link if fs::metadata(&path).is_ok_and(|m| m.is_dir()) => note(
                        path,
                        "a link to a folder, not a file nor a folder of cases: cases are \
                         not looked for through links; put the folder itself there"
                            .to_owned(),
                    ),
                    _ => {}
                }
                continue;
            }
            if let Some(what) = odd_entry(*kind, &path) {
                note(path, format!("{what}: a case's input must be one"));
                continue;
            }
            let mut answer = None;
            for ext in ["ans", "out"] {
                let beside = path.with_extension(ext);
                let Some(kind) = beside.file_name().and_then(|n| listing.get(n)) else {
                    continue;
                };
                match odd_entry(*kind, &beside) {
                    None => answer = Some(beside),
                    Some(what) => note(beside, format!("{what}: a case's answer must be one")),
                }
                break;
            }
            cases.push(Case {
                name: case_name(dir, &path),
                input: path,
                answer,
            });
        }
    }
    if let Some((path, what)) = odd {
        return Err(Fault::input(format!("{}: is {what}", path.display())));
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

/// What the entry at `path`, of the listed `kind`, is when it is not a file or a link to
/// one ("a FIFO, not a file"); only a link or an odd entry costs a call to find out.
fn odd_entry(kind: Kind, path: &Path) -> Option<String> {
    match kind {
        Kind::File => None,
        Kind::Link | Kind::Folder | Kind::Other => {
            files::not_a_file(path).map(|what| format!("{what}, not a file"))
        }
    }
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
    let failed = |e: &std::io::Error| Fault::input(files::cannot(folder, "list", e));
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
    fn an_input_or_answer_may_be_a_link_to_a_file_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("elsewhere")).unwrap();
        fs::create_dir_all(root.join("data")).unwrap();
        fs::write(root.join("elsewhere/x"), "x").unwrap();
        fs::write(root.join("data/1.in"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere/x"), root.join("data/1.ans")).unwrap();
        std::os::unix::fs::symlink(root.join("elsewhere/x"), root.join("data/3.in")).unwrap();
        fs::write(root.join("data/3.out"), "x").unwrap();
        // A folder linked in is not walked, nor passed over unsaid.
        std::os::unix::fs::symlink(root.join("data"), root.join("linked")).unwrap();
        let said = discover(root).unwrap_err().to_string();
        assert!(
            said.ends_with("linked: is a link to a folder, not a file nor a folder of cases: cases are not looked for through links; put the folder itself there"),
            "{said}"
        );
        fs::remove_file(root.join("linked")).unwrap();
        let cases = discover(root).unwrap();
        let found: Vec<(&str, Option<PathBuf>)> = cases
            .iter()
            .map(|c| (c.name.as_str(), c.answer.clone()))
            .collect();
        assert_eq!(
            found,
            [
                ("data/1", Some(root.join("data/1.ans"))),
                ("data/3", Some(root.join("data/3.out"))),
            ]
        );
        // A broken `.ans` is named, not passed over for the `.out` beside it.
        fs::write(root.join("data/2.in"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("nowhere"), root.join("data/2.ans")).unwrap();
        fs::write(root.join("data/2.out"), "x").unwrap();
        let said = discover(root).unwrap_err().to_string();
        assert_eq!(
            said,
            format!(
                "{}: is a broken link, not a file: a case's answer must be one",
                root.join("data/2.ans").display()
            )
        );
        // The first in name order is named.
        fs::create_dir(root.join("data/0.in")).unwrap();
        let said = discover(root).unwrap_err().to_string();
        assert!(
            said.contains("0.in: is a folder, not a file: a case's input"),
            "{said}"
        );
    }

    #[test]
    fn a_missing_folder_is_a_fault_of_the_input() {
        let fault = discover(Path::new("/nonexistent/cases")).unwrap_err();
        assert_eq!(fault.cause(), crate::cli::exit::Cause::Input);
        assert!(fault.message().contains("/nonexistent/cases"), "{fault}");
    }
}
