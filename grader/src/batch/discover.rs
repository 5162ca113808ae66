//! Finding the submissions of a class folder, in the layouts courses use:
//!
//! - one file per student: `alice.cpp`, `bob.py`;
//! - one folder per student: `alice/main.c`, `bob/solution.py`;
//! - either of them nested by section: `section-a/alice.cpp`, `section-b/carol/main.c`.
//!
//! The rule: in the class folder and in a section folder, every source file (an extension
//! of the language table) is a student. A subfolder is a student folder when it has an
//! entry file: one `--entry` matches, else one named `main.*`, `solution.*`, `sol.*` or
//! after the folder (`alice/alice.cpp`); otherwise it is a section. `--layout folders`
//! makes every folder that holds a source file a student folder (its only source file is
//! then the entry too); `--layout files` makes every source file a student. What fits none
//! of this is skipped and listed, never fatal. Hidden files and folders are ignored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::status::Fault;
use crate::submission::languages::Languages;

/// The stems an entry file is recognised by, in order, when a student folder holds more
/// than one source file.
const ENTRY_STEMS: [&str; 3] = ["main", "solution", "sol"];

/// One student's submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Student {
    /// The student: the path below the class folder of the file (without extension) or
    /// of the folder, with `/` separators (`section-a/alice`).
    pub(crate) name: String,
    /// The entry file.
    pub(crate) entry: PathBuf,
}

/// Something in the class folder that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The path below the class folder.
    pub(crate) path: String,
    /// Why.
    pub(crate) why: String,
}

/// How student folders are told from sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// A folder with an entry file (`--entry`, `main.*`, `solution.*`, `sol.*`, or named
    /// after the folder) is a student; other folders are sections.
    Auto,
    /// Every folder that directly holds a source file is a student.
    Folders,
    /// Every source file is a student; folders are sections.
    Files,
}

/// How the entry file of a student folder is chosen.
#[derive(Debug, Clone)]
pub(crate) struct EntryRule {
    /// `--entry`: a glob on file names (`main.*`, `*.cpp`).
    pub(crate) pattern: Option<glob::Pattern>,
    /// `--layout`.
    pub(crate) layout: Layout,
}

/// The students below `dir`, in name order, and what was skipped.
pub(crate) fn discover(
    dir: &Path,
    languages: &Languages,
    rule: &EntryRule,
) -> Result<(Vec<Student>, Vec<Skipped>), Fault> {
    crate::folders::existing(dir, "list submissions in")?;
    let mut found: Vec<Student> = Vec::new();
    let mut skipped = Vec::new();
    section(dir, dir, languages, rule, &mut found, &mut skipped)?;
    // Two submissions for one name (`alice.c` and `alice.py`, or `alice/` and `alice.c`)
    // cannot be told apart: neither is graded, both are listed.
    let mut by_name: BTreeMap<String, Vec<Student>> = BTreeMap::new();
    for student in found {
        by_name
            .entry(student.name.clone())
            .or_default()
            .push(student);
    }
    let mut students = Vec::new();
    for (name, mut same) in by_name {
        if same.len() == 1 {
            students.extend(same.pop());
        } else {
            let paths: Vec<String> = same.iter().map(|s| relative(dir, &s.entry)).collect();
            skipped.push(Skipped {
                path: name.clone(),
                why: format!("two submissions for `{name}`: {}", paths.join(", ")),
            });
        }
    }
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((students, skipped))
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn is_source(path: &Path, languages: &Languages) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| languages.for_extension(e).is_some())
}

/// The entries of `dir`, sorted, without hidden ones; unreadable ones are listed.
fn entries(root: &Path, dir: &Path, skipped: &mut Vec<Skipped>) -> Vec<walkdir::DirEntry> {
    let mut out = Vec::new();
    for entry in WalkDir::new(dir)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'))
    {
        match entry {
            Ok(entry) => out.push(entry),
            Err(e) => skipped.push(Skipped {
                path: e
                    .path()
                    .map_or_else(|| relative(root, dir), |p| relative(root, p)),
                why: format!(
                    "cannot read: {}",
                    e.io_error()
                        .map_or_else(|| e.to_string(), ToString::to_string)
                ),
            }),
        }
    }
    out
}

/// The class folder or a section: source files are students, folders holding sources
/// are student folders, other folders are sections.
fn section(
    root: &Path,
    dir: &Path,
    languages: &Languages,
    rule: &EntryRule,
    found: &mut Vec<Student>,
    skipped: &mut Vec<Skipped>,
) -> Result<(), Fault> {
    for entry in entries(root, dir, skipped) {
        let path = entry.path();
        let kind = entry.file_type();
        if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            if is_source(path, languages) {
                let name = relative(root, &path.with_extension(""));
                found.push(Student {
                    name,
                    entry: path.to_path_buf(),
                });
            } else {
                skipped.push(Skipped {
                    path: relative(root, path),
                    why: "not a source file of a known language".to_owned(),
                });
            }
        } else if kind.is_dir() || (kind.is_symlink() && path.is_dir()) {
            let sources: Vec<PathBuf> = entries(root, path, skipped)
                .into_iter()
                .filter(|e| e.path().is_file() && is_source(e.path(), languages))
                .map(walkdir::DirEntry::into_path)
                .collect();
            let name = relative(root, path);
            let student_folder = match rule.layout {
                Layout::Files => false,
                Layout::Folders => !sources.is_empty(),
                Layout::Auto => !sources.is_empty() && named_entry(&name, &sources, rule).is_some(),
            };
            if student_folder {
                match choose_entry(&name, &sources, rule) {
                    Ok(entry) => found.push(Student { name, entry }),
                    Err(why) => skipped.push(Skipped { path: name, why }),
                }
            } else {
                section(root, path, languages, rule, found, skipped)?;
            }
        }
    }
    Ok(())
}

/// The file `--entry` or a conventional name picks out, if exactly one.
fn named_entry<'a>(name: &str, sources: &'a [PathBuf], rule: &EntryRule) -> Option<&'a PathBuf> {
    let file_name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if let Some(pattern) = &rule.pattern {
        let matching: Vec<&PathBuf> = sources
            .iter()
            .filter(|p| pattern.matches(&file_name(p)))
            .collect();
        return if let [one] = matching.as_slice() {
            Some(*one)
        } else {
            None
        };
    }
    let own = name.rsplit('/').next().unwrap_or(name);
    ENTRY_STEMS.iter().copied().chain([own]).find_map(|stem| {
        let matching: Vec<&PathBuf> = sources
            .iter()
            .filter(|p| p.file_stem().is_some_and(|s| s.to_string_lossy() == stem))
            .collect();
        if let [one] = matching.as_slice() {
            Some(*one)
        } else {
            None
        }
    })
}

/// The entry file of a student folder, or why none could be chosen.
fn choose_entry(name: &str, sources: &[PathBuf], rule: &EntryRule) -> Result<PathBuf, String> {
    if let Some(entry) = named_entry(name, sources, rule) {
        return Ok(entry.clone());
    }
    let listed = sources
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(pattern) = &rule.pattern {
        return Err(format!(
            "not exactly one file matches --entry `{pattern}` (has {listed})"
        ));
    }
    if let [one] = sources {
        return Ok(one.clone());
    }
    Err(format!(
        "several source files and none is main, solution or sol: {listed} (choose with --entry)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn class(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let path = dir.path().join(f);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        dir
    }

    fn names(dir: &Path, pattern: Option<&str>) -> (Vec<String>, Vec<String>) {
        names_in(dir, pattern, Layout::Auto)
    }

    fn names_in(dir: &Path, pattern: Option<&str>, layout: Layout) -> (Vec<String>, Vec<String>) {
        let languages = Languages::load(None).unwrap();
        let rule = EntryRule {
            pattern: pattern.map(|p| glob::Pattern::new(p).unwrap()),
            layout,
        };
        let (students, skipped) = discover(dir, &languages, &rule).unwrap();
        (
            students
                .iter()
                .map(|s| format!("{} <- {}", s.name, relative(dir, &s.entry)))
                .collect(),
            skipped
                .iter()
                .map(|s| format!("{}: {}", s.path, s.why))
                .collect(),
        )
    }

    #[test]
    fn files_folders_and_sections_are_students() {
        let dir = class(&[
            "alice.cpp",
            "bob.py",
            "README.md",
            ".git/config",
            "carol/main.c",
            "carol/helper.c",
            "carol/notes.txt",
            "section-b/dave.rs",
            "section-c/gus.cpp",
            "section-b/erin/solution.py",
            "section-b/erin/test.py",
            "section-b/frank/frank.c",
            "section-b/frank/other.c",
        ]);
        let (students, skipped) = names(dir.path(), None);
        assert_eq!(
            students,
            [
                "alice <- alice.cpp",
                "bob <- bob.py",
                "carol <- carol/main.c",
                "section-b/dave <- section-b/dave.rs",
                "section-b/erin <- section-b/erin/solution.py",
                "section-b/frank <- section-b/frank/frank.c",
                "section-c/gus <- section-c/gus.cpp",
            ]
        );
        assert_eq!(
            skipped,
            ["README.md: not a source file of a known language"]
        );
    }

    #[test]
    fn ambiguous_folders_and_duplicate_names_are_skipped_not_fatal() {
        let dir = class(&["gina/a.c", "gina/b.c", "hal.c", "hal.py", "ivy.c"]);
        // Auto: gina has no entry file, so it is a section of two students.
        let (students, _) = names(dir.path(), None);
        assert_eq!(
            students,
            ["gina/a <- gina/a.c", "gina/b <- gina/b.c", "ivy <- ivy.c"]
        );
        let (students, skipped) = names_in(dir.path(), None, Layout::Folders);
        assert_eq!(students, ["ivy <- ivy.c"]);
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(
            skipped[0].starts_with("gina: several source files"),
            "{skipped:?}"
        );
        assert!(
            skipped[1].contains("two submissions for `hal`"),
            "{skipped:?}"
        );
        // --entry settles the folder.
        let (students, _) = names_in(dir.path(), Some("b.*"), Layout::Folders);
        assert!(
            students.contains(&"gina <- gina/b.c".to_owned()),
            "{students:?}"
        );
    }
}
