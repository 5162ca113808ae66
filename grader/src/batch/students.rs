//! Finding the submissions of a class folder, in the layouts courses use:
//!
//! - one file per student: `alice.cpp`, `bob.py`;
//! - one folder per student: `alice/main.c`, `bob/solution.py`;
//! - either of them nested by section: `section-a/alice.cpp`, `section-b/carol/main.c`.
//!
//! One rule, in every layout: a folder is a student folder when it has an entry file, and
//! a section otherwise; in the class folder and in a section, every source file (an
//! extension of the language table) is a student. Layouts only change what counts as an
//! entry file:
//!
//! - `auto`: the one file `--entry` matches, else the one named `main.*`, `solution.*`,
//!   `sol.*` or after the folder (`alice/alice.cpp`);
//! - `folders`: the same, else a folder's only source file, unless a folder below it holds
//!   sources too (then it is a section: `section-b/dave.rs` beside `section-b/erin/`);
//! - `files`: none, so every source file is a student.
//!
//! A folder with several candidate entry files (two `main.*`, two files `--entry`
//! matches) is not graded. In a student folder only the entry is graded; a folder below
//! it that holds sources is listed as not graded, never silently dropped.
//!
//! Links: a link to a regular file inside the class folder is read as that file; a link
//! out of the class folder, a link to a folder (which could loop, or grade a student
//! twice), a broken link and anything that is not a file or a folder (a FIFO) are listed
//! as not graded, with the reason, and never opened. What fits none of the rules is
//! listed, never fatal. Hidden files and folders are ignored.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::cli::exit::Fault;
use crate::submission::languages::Languages;

/// The stems an entry file is recognised by, in order, before a file named after its
/// folder.
const ENTRY_STEMS: [&str; 3] = ["main", "solution", "sol"];

/// One student's submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Student {
    /// The student: the path below the class folder of the file (without extension) or
    /// of the folder, with `/` separators (`section-a/alice`).
    pub(crate) name: String,
    /// The entry file (a regular file, or a link to one inside the class folder); for a
    /// student who cannot be graded, the folder or the first of its files.
    pub(crate) entry: PathBuf,
    /// Why a student who was found cannot be graded (a folder with several entry files,
    /// two submissions for one name): such a student still has a row in every gradebook
    /// form, with this as its status, never only a line among the skipped files.
    pub(crate) not_graded: Option<String>,
}

/// Something in the class folder that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The path below the class folder.
    pub(crate) path: String,
    /// Why.
    pub(crate) why: String,
}

/// What a class folder holds.
#[derive(Debug, Default)]
pub(crate) struct Roster {
    /// The students, in name order.
    pub(crate) students: Vec<Student>,
    /// What is not graded, in path order.
    pub(crate) skipped: Vec<Skipped>,
    /// What the teacher should hear about before grading (an `--entry` that matches
    /// nothing).
    pub(crate) warnings: Vec<String>,
}

/// How student folders are told from sections: what counts as a folder's entry file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// The file `--entry` matches, else `main.*`, `solution.*`, `sol.*`, or named after
    /// the folder.
    Auto,
    /// As `Auto`, else a folder's only source file.
    Folders,
    /// No file: every source file is a student; folders are sections.
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
) -> Result<Roster, Fault> {
    crate::paths::folders::existing(dir, "list submissions in")?;
    let real = fs::canonicalize(dir)
        .map_err(|e| Fault::input(crate::paths::files::cannot(dir, "list submissions in", &e)))?;
    let walk = Walk {
        root: dir,
        real: &real,
        languages,
        rule,
        with_sources: folders_with_sources(dir, &real, languages),
    };
    let mut found = Found::default();
    let nodes = walk.entries(dir, &mut found);
    walk.section(nodes, &mut found);
    // Two submissions for one name (`alice.c` and `alice.py`, or `alice/` and `alice.c`)
    // cannot be told apart: neither is graded, both are listed.
    let mut by_name: BTreeMap<String, Vec<Student>> = BTreeMap::new();
    for student in found.students {
        by_name
            .entry(student.name.clone())
            .or_default()
            .push(student);
    }
    let mut roster = Roster {
        skipped: found.skipped,
        ..Roster::default()
    };
    for (name, mut same) in by_name {
        if same.len() == 1 {
            roster.students.extend(same.pop());
        } else {
            let paths: Vec<String> = same.iter().map(|s| relative(dir, &s.entry)).collect();
            roster.students.push(Student {
                entry: same.swap_remove(0).entry,
                not_graded: Some(format!(
                    "two submissions for `{name}`: {}",
                    paths.join(", ")
                )),
                name,
            });
        }
    }
    roster.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(pattern) = rule.pattern.as_ref().filter(|_| !found.entry_matched) {
        roster.warnings.push(format!(
            "--entry `{pattern}` matches no file in {}",
            dir.display()
        ));
    }
    Ok(roster)
}

/// What the walk has found so far.
#[derive(Default)]
struct Found {
    students: Vec<Student>,
    skipped: Vec<Skipped>,
    /// Whether `--entry` matched a file anywhere.
    entry_matched: bool,
}

/// An entry of a folder, once links are judged.
enum Node {
    /// A regular file, or a link to one inside the class folder.
    File(PathBuf),
    /// A folder (never through a link).
    Folder(PathBuf),
    /// Never opened, and why.
    Refused(String),
}

/// What `path` is: links are judged here, and only here, so that no layout follows one
/// out of the class folder or around a loop.
fn node(real_root: &Path, path: &Path, kind: fs::FileType) -> Node {
    if kind.is_file() {
        return Node::File(path.to_path_buf());
    }
    if kind.is_dir() {
        return Node::Folder(path.to_path_buf());
    }
    if !kind.is_symlink() {
        return Node::Refused("not a regular file or a folder".to_owned());
    }
    let Ok(target) = fs::canonicalize(path) else {
        return Node::Refused("a broken link, or a link around a loop".to_owned());
    };
    if !target.starts_with(real_root) {
        return Node::Refused(format!(
            "a link out of the class folder (to {}); not followed",
            target.display()
        ));
    }
    match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Node::File(path.to_path_buf()),
        Ok(meta) if meta.is_dir() => Node::Refused(
            "a link to a folder; not followed (it could loop, or grade a student twice)".to_owned(),
        ),
        _ => Node::Refused("a link to something that is not a regular file".to_owned()),
    }
}

/// Every folder below `root` (itself excluded) that holds a source file at any depth,
/// found in one walk that follows no link.
fn folders_with_sources(root: &Path, real_root: &Path, languages: &Languages) -> HashSet<PathBuf> {
    let mut with = HashSet::new();
    let walk = WalkDir::new(root)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| !is_hidden(e));
    for entry in walk.flatten() {
        let is_source = matches!(
            node(real_root, entry.path(), entry.file_type()),
            Node::File(_)
        ) && is_source(entry.path(), languages);
        if !is_source {
            continue;
        }
        for folder in entry.path().ancestors().skip(1) {
            if folder == root || !with.insert(folder.to_path_buf()) {
                break;
            }
        }
    }
    with
}

fn is_hidden(entry: &walkdir::DirEntry) -> bool {
    entry.file_name().to_string_lossy().starts_with('.')
}

/// `path` below `root`, spelt losslessly (`spelling::name`): a student's name, or a
/// skipped path. A name that is not UTF-8 keeps its bytes as `\xNN`, so `\xff.c` and
/// `\xfe.c` are two students; a `\` of the name itself is a `/`, so a `\` in a name
/// only ever starts such an escape.
pub(crate) fn relative(root: &Path, path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt as _;
    let below = path.strip_prefix(root).unwrap_or(path);
    // Byte by byte: a `\` byte is never part of a longer UTF-8 character.
    let bytes: Vec<u8> = below
        .as_os_str()
        .as_bytes()
        .iter()
        .map(|&b| if b == b'\\' { b'/' } else { b })
        .collect();
    crate::paths::spelling::name(std::ffi::OsStr::from_bytes(&bytes))
}

fn is_source(path: &Path, languages: &Languages) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| languages.for_extension(e).is_some())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(crate::paths::spelling::name)
        .unwrap_or_default()
}

/// What a folder is.
enum Role {
    Student(PathBuf),
    Section,
    NotGraded(String),
}

/// One walk of a class folder.
struct Walk<'a> {
    root: &'a Path,
    real: &'a Path,
    languages: &'a Languages,
    rule: &'a EntryRule,
    with_sources: HashSet<PathBuf>,
}

impl Walk<'_> {
    /// The entries of `dir`, sorted, without hidden ones, links judged; unreadable and
    /// refused ones are listed.
    fn entries(&self, dir: &Path, found: &mut Found) -> Vec<Node> {
        let mut out = Vec::new();
        let walk = WalkDir::new(dir)
            .min_depth(1)
            .max_depth(1)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !is_hidden(e));
        for entry in walk {
            match entry {
                Ok(entry) => match node(self.real, entry.path(), entry.file_type()) {
                    Node::Refused(why) => found.skipped.push(Skipped {
                        path: relative(self.root, entry.path()),
                        why,
                    }),
                    node => out.push(node),
                },
                Err(e) => found.skipped.push(Skipped {
                    path: e
                        .path()
                        .map_or_else(|| relative(self.root, dir), |p| relative(self.root, p)),
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

    /// The class folder or a section (its entries, listed once): source files are
    /// students, folders are student folders or sections by [`Walk::role`].
    fn section(&self, nodes: Vec<Node>, found: &mut Found) {
        for node in nodes {
            match node {
                Node::File(path) if is_source(&path, self.languages) => {
                    found.students.push(Student {
                        name: relative(self.root, &path.with_extension("")),
                        entry: path,
                        not_graded: None,
                    });
                }
                Node::File(path) => found.skipped.push(Skipped {
                    path: relative(self.root, &path),
                    why: "not a source file of a known language".to_owned(),
                }),
                Node::Folder(path) => self.folder(&path, found),
                Node::Refused(_) => {}
            }
        }
    }

    /// A folder of a section: a student, a section, or not graded.
    fn folder(&self, path: &Path, found: &mut Found) {
        let nodes = self.entries(path, found);
        let sources: Vec<PathBuf> = nodes
            .iter()
            .filter_map(|n| match n {
                Node::File(p) if is_source(p, self.languages) => Some(p.clone()),
                _ => None,
            })
            .collect();
        let below: Vec<&PathBuf> = nodes
            .iter()
            .filter_map(|n| match n {
                Node::Folder(p) if self.with_sources.contains(p) => Some(p),
                _ => None,
            })
            .collect();
        let name = relative(self.root, path);
        if self
            .rule
            .pattern
            .as_ref()
            .is_some_and(|p| sources.iter().any(|s| p.matches(&file_name(s))))
        {
            found.entry_matched = true;
        }
        match self.role(&name, &sources, !below.is_empty()) {
            Role::Section => self.section(nodes, found),
            Role::Student(entry) => {
                // Only the entry is graded: a folder below it that holds sources may be a
                // student in the wrong place, so it is listed, not dropped.
                for folder in below {
                    found.skipped.push(Skipped {
                        path: relative(self.root, folder),
                        why: format!(
                            "inside the student folder `{name}` (graded from {})",
                            relative(self.root, &entry)
                        ),
                    });
                }
                found.students.push(Student {
                    name,
                    entry,
                    not_graded: None,
                });
            }
            Role::NotGraded(why) => found.students.push(Student {
                name,
                entry: path.to_path_buf(),
                not_graded: Some(why),
            }),
        }
    }

    /// The one rule of every layout: a folder with an entry file is a student folder,
    /// one with several candidates is not graded, any other is a section.
    fn role(&self, name: &str, sources: &[PathBuf], nested: bool) -> Role {
        if self.rule.layout == Layout::Files {
            return Role::Section;
        }
        let candidates = self.candidates(name, sources);
        match candidates.as_slice() {
            [one] => Role::Student((*one).clone()),
            [] => match sources {
                [only] if self.rule.layout == Layout::Folders && !nested => {
                    Role::Student(only.clone())
                }
                _ => Role::Section,
            },
            several => {
                let listed: Vec<String> = several.iter().map(|p| file_name(p)).collect();
                let by = match &self.rule.pattern {
                    Some(pattern) => format!("files match --entry `{pattern}`"),
                    None => "entry files".to_owned(),
                };
                Role::NotGraded(format!(
                    "several {by}: {} (choose one with --entry)",
                    listed.join(", ")
                ))
            }
        }
    }

    /// The entry files of a folder: those `--entry` matches, else those of the first
    /// conventional stem any file has (`main`, `solution`, `sol`, the folder's name), in
    /// any case (Java's `Main.java`). A folder the pattern does not settle keeps the
    /// conventional rule: following the advice "choose one with --entry" for one student
    /// must not turn the others' folders into sections, renaming them by their files.
    fn candidates<'s>(&self, name: &str, sources: &'s [PathBuf]) -> Vec<&'s PathBuf> {
        if let Some(pattern) = &self.rule.pattern {
            let matched: Vec<&PathBuf> = sources
                .iter()
                .filter(|p| pattern.matches(&file_name(p)))
                .collect();
            if !matched.is_empty() {
                return matched;
            }
        }
        let own = name.rsplit('/').next().unwrap_or(name);
        ENTRY_STEMS
            .iter()
            .copied()
            .chain([own])
            .map(|stem| {
                sources
                    .iter()
                    .filter(|p| {
                        p.file_stem()
                            .is_some_and(|s| s.to_string_lossy().eq_ignore_ascii_case(stem))
                    })
                    .collect::<Vec<_>>()
            })
            .find(|matching| !matching.is_empty())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn class(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            let path = dir.path().join(f);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
        }
        dir
    }

    fn roster(dir: &Path, pattern: Option<&str>, layout: Layout) -> Roster {
        let languages = Languages::load(None).unwrap();
        let rule = EntryRule {
            pattern: pattern.map(|p| glob::Pattern::new(p).unwrap()),
            layout,
        };
        discover(dir, &languages, &rule).unwrap()
    }

    fn names(dir: &Path, pattern: Option<&str>) -> (Vec<String>, Vec<String>) {
        names_in(dir, pattern, Layout::Auto)
    }

    /// The students graded (`name <- entry`), and what is not: the skipped files and the
    /// students found who cannot be graded (`path: why`), in path order.
    fn names_in(dir: &Path, pattern: Option<&str>, layout: Layout) -> (Vec<String>, Vec<String>) {
        let roster = roster(dir, pattern, layout);
        let (graded, not): (Vec<&Student>, Vec<&Student>) =
            roster.students.iter().partition(|s| s.not_graded.is_none());
        let mut skipped: Vec<(String, String)> = roster
            .skipped
            .iter()
            .map(|s| (s.path.clone(), s.why.clone()))
            .chain(
                not.iter()
                    .map(|s| (s.name.clone(), s.not_graded.clone().unwrap_or_default())),
            )
            .collect();
        skipped.sort();
        (
            graded
                .iter()
                .map(|s| format!("{} <- {}", s.name, relative(dir, &s.entry)))
                .collect(),
            skipped
                .into_iter()
                .map(|(path, why)| format!("{path}: {why}"))
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
        let expected = [
            "alice <- alice.cpp",
            "bob <- bob.py",
            "carol <- carol/main.c",
            "section-b/dave <- section-b/dave.rs",
            "section-b/erin <- section-b/erin/solution.py",
            "section-b/frank <- section-b/frank/frank.c",
            "section-c/gus <- section-c/gus.cpp",
        ];
        let (students, skipped) = names(dir.path(), None);
        assert_eq!(students, expected);
        assert_eq!(
            skipped,
            ["README.md: not a source file of a known language"]
        );
        // --layout folders: `section-b` holds a source but also student folders, so it
        // is a section there too and none of its students vanishes; `section-c`'s lone
        // source makes it a student folder.
        let (students, skipped) = names_in(dir.path(), None, Layout::Folders);
        assert_eq!(students[..6], expected[..6]);
        assert_eq!(students[6], "section-c <- section-c/gus.cpp");
        assert_eq!(skipped.len(), 1, "{skipped:?}");
    }

    #[test]
    fn one_rule_in_every_layout_for_a_folder_without_an_entry_file() {
        let dir = class(&["gina/a.c", "gina/b.c", "hal.c", "hal.py", "ivy.c", "jo/x.c"]);
        let two = ["gina/a <- gina/a.c", "gina/b <- gina/b.c", "ivy <- ivy.c"];
        for layout in [Layout::Auto, Layout::Folders, Layout::Files] {
            let (students, skipped) = names_in(dir.path(), None, layout);
            assert_eq!(students[..3], two, "{layout:?}");
            assert!(
                skipped[0].contains("two submissions for `hal`"),
                "{layout:?}: {skipped:?}"
            );
        }
        // A lone source is the folder's entry only in `folders`.
        assert_eq!(names(dir.path(), None).0[3], "jo/x <- jo/x.c");
        assert_eq!(
            names_in(dir.path(), None, Layout::Folders).0[3],
            "jo <- jo/x.c"
        );
        // --entry settles the folder, in `auto` and `folders` alike.
        for layout in [Layout::Auto, Layout::Folders] {
            let (students, _) = names_in(dir.path(), Some("b.*"), layout);
            assert!(
                students.contains(&"gina <- gina/b.c".to_owned()),
                "{layout:?}: {students:?}"
            );
        }
    }

    #[test]
    fn what_a_student_folder_hides_and_ambiguous_entries_are_listed() {
        let dir = class(&[
            "alice/main.c",
            "alice/tests/t.c",
            "carol/main.c",
            "carol/main.py",
        ]);
        for layout in [Layout::Auto, Layout::Folders] {
            let (students, skipped) = names_in(dir.path(), None, layout);
            assert_eq!(students, ["alice <- alice/main.c"], "{layout:?}");
            assert_eq!(
                skipped,
                [
                    "alice/tests: inside the student folder `alice` (graded from alice/main.c)",
                    "carol: several entry files: main.c, main.py (choose one with --entry)",
                ],
                "{layout:?}"
            );
        }
        let (students, _) = names(dir.path(), Some("*.c"));
        assert_eq!(students, ["alice <- alice/main.c", "carol <- carol/main.c"]);
    }

    #[test]
    fn a_student_is_named_by_its_folder_whatever_its_entry_file() {
        let dir = class(&[
            "leo/Main.java",
            "sec/sam/main.c",
            "sec/sam/main.py",
            "sec/tom/main.cpp",
            "sec/uma/solution.py",
        ]);
        // `--entry main.c` settles sam, and leaves tom and uma to the usual rule.
        let (students, skipped) = names(dir.path(), Some("main.c"));
        assert_eq!(
            students,
            [
                "leo <- leo/Main.java",
                "sec/sam <- sec/sam/main.c",
                "sec/tom <- sec/tom/main.cpp",
                "sec/uma <- sec/uma/solution.py",
            ]
        );
        assert!(skipped.is_empty(), "{skipped:?}");
    }

    #[test]
    fn an_entry_pattern_that_matches_nothing_warns() {
        let dir = class(&["alice/main.c", "bob.c"]);
        let none = roster(dir.path(), Some("solution.*"), Layout::Auto);
        assert_eq!(none.warnings.len(), 1, "{:?}", none.warnings);
        assert!(none.warnings[0].contains("--entry `solution.*` matches no file"));
        assert!(
            roster(dir.path(), Some("main.*"), Layout::Auto)
                .warnings
                .is_empty()
        );
        assert!(roster(dir.path(), None, Layout::Auto).warnings.is_empty());
    }

    #[test]
    fn links_are_read_only_to_files_inside_the_class_and_never_followed_out_or_around() {
        let outside = class(&["secret.c", "other/main.c"]);
        let dir = class(&["alice.c", "section/dave/main.c"]);
        let root = dir.path();
        symlink("..", root.join("up")).unwrap();
        symlink(".", root.join("section/here")).unwrap();
        symlink(outside.path().join("secret.c"), root.join("x.c")).unwrap();
        symlink(outside.path().join("other"), root.join("other")).unwrap();
        symlink("alice.c", root.join("bob.c")).unwrap();
        symlink("section", root.join("sec")).unwrap();
        symlink("nowhere.c", root.join("gone.c")).unwrap();
        symlink(
            outside.path().join("secret.c"),
            root.join("section/dave/sol.c"),
        )
        .unwrap();
        nix::unistd::mkfifo(&root.join("pipe.c"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        for layout in [Layout::Auto, Layout::Folders, Layout::Files] {
            let (students, skipped) = names_in(root, None, layout);
            let dave = if layout == Layout::Files {
                "section/dave/main <- section/dave/main.c"
            } else {
                "section/dave <- section/dave/main.c"
            };
            assert_eq!(
                students,
                ["alice <- alice.c", "bob <- bob.c", dave],
                "{layout:?}"
            );
            let why = |path: &str| {
                skipped
                    .iter()
                    .find(|s| s.starts_with(&format!("{path}: ")))
                    .unwrap_or_else(|| panic!("{layout:?}: {path} not listed: {skipped:?}"))
                    .clone()
            };
            assert!(why("up").contains("a link out of the class folder"));
            assert!(why("section/here").contains("a link to a folder"));
            assert!(why("sec").contains("a link to a folder"));
            assert!(why("x.c").contains("a link out of the class folder"));
            assert!(why("other").contains("a link out of the class folder"));
            assert!(why("gone.c").contains("a broken link"));
            assert!(why("pipe.c").contains("not a regular file"));
            assert!(
                why("section/dave/sol.c").contains("a link out of the class folder"),
                "{layout:?}"
            );
            assert_eq!(skipped.len(), 8, "{layout:?}: {skipped:?}");
        }
    }
}
