//! A program given as a folder (a package's validators; a jury's submission of several
//! files): its files read, and what it is. As the format's tools read one:
//!
//! - a folder with a `build` file is built by running it (in the box, in a copy of the
//!   folder) and then run by the `run` file it leaves (DOMjudge's and BAPCtools' way; the
//!   build's files are kept in an archive the grader reads, `built_tree`); with a `run`
//!   file and no `build`, `run` is the program;
//! - otherwise its language is the one most of its files are in (by extension, as the
//!   language table tells a file's), on a tie the one of the highest priority in the
//!   table (problemtools' `detect_language`), and every file of it is one of its
//!   sources, compiled together where its compile names `{files}`; the others (headers,
//!   data) lie beside them. The main file, run or compiled first, is the only source,
//!   else one named `main.*` (any case), else the first by path, as problemtools chooses
//!   it; in a language that runs a class (Java), only the sources that declare a `main`
//!   method are candidates.
//!
//! The folders inside it are part of it, as problemtools reads a program (every file
//! below the folder, each named by its path there: `include/util.h`); BAPCtools refuses
//! them. A link to a folder is not followed.

use std::collections::BTreeMap;
use std::path::Path;

use super::languages::{Language, Languages};
use super::main_class::declares_main;
use crate::cli::exit::Fault;
use crate::paths::files;

/// One file of a program's folder.
#[derive(Debug, Clone)]
pub(crate) struct FolderFile {
    /// Its name in the folder.
    pub(crate) name: String,
    /// Its bytes.
    pub(crate) bytes: Vec<u8>,
    /// Whether it is executable.
    pub(crate) executable: bool,
}

/// What a folder's program is.
#[derive(Debug)]
pub(crate) enum Shape<'a> {
    /// Sources of one language.
    Sources {
        /// The language's name and entry.
        language: (&'a str, &'a Language),
        /// The main file's name.
        main: String,
        /// Every source of the language, by name, in name order.
        sources: Vec<String>,
    },
    /// A `build` script to run first (when `true`), then the `run` file.
    Scripts {
        /// Whether there is a `build` script.
        build: bool,
    },
}

/// A program's folder, read.
#[derive(Debug)]
pub(crate) struct Folder<'a> {
    /// Every file, in name order.
    pub(crate) files: Vec<FolderFile>,
    /// What it is.
    pub(crate) shape: Shape<'a>,
}

/// Names a build leaves out: what a folder holds that is no part of its program.
fn passed_over(name: &str) -> bool {
    name.starts_with('.') || name == "__pycache__"
}

/// Reads the folder `dir` and tells what program it is, or why it cannot be told (the
/// caller's fault to report: a package's for a validator; a submission is listed as not
/// run, with why).
pub(crate) fn read<'a>(dir: &Path, languages: &'a Languages) -> Result<Folder<'a>, Fault> {
    read_as(dir, languages, None)
}

/// [`read`], its sources those of the language `language` when one is given (a
/// package's `submissions.yaml` says which), whatever language most of its files are in.
pub(crate) fn read_as<'a>(
    dir: &Path,
    languages: &'a Languages,
    language: Option<&str>,
) -> Result<Folder<'a>, Fault> {
    let files = files(dir)?;
    let shape = shape(dir, &files, languages, language)?;
    Ok(Folder { files, shape })
}

/// The language of a program's file named `name` (`lib/util.py`), as the table tells it
/// by the extension of the file's own name.
pub(crate) fn language_of<'a>(
    name: &str,
    languages: &'a Languages,
) -> Option<(&'a str, &'a Language)> {
    let own = name.rsplit('/').next().unwrap_or_default();
    let extension = own.rsplit_once('.').map_or("", |(_, x)| x);
    languages.for_extension(extension)
}

/// The file of `names` that the entry point `entry` names (a package's
/// `submissions.yaml` `entrypoint`): the file itself (`main.py`, `src/main.py`), its name
/// without its extension, as a class is (`Main` for `Main.java`), or Kotlin's class of
/// a file (`MainKt` for `Main.kt`).
pub(crate) fn entry_file<'n>(
    mut names: impl Iterator<Item = &'n str>,
    entry: &str,
) -> Option<String> {
    names
        .find(|name| {
            let own = name.rsplit('/').next().unwrap_or_default();
            let stem = own.split_once('.').map_or(own, |(stem, _)| stem);
            *name == entry || own == entry || stem == entry || format!("{stem}Kt") == entry
        })
        .map(str::to_owned)
}

/// The files of the program `dir`, read (those of the folders below it too, each named
/// by its path; hidden ones passed over), in the order of their paths, as problemtools
/// sorts a program's sources; or why they cannot be a program's (a link to a folder,
/// anything but a plain file).
pub(crate) fn files(dir: &Path) -> Result<Vec<FolderFile>, Fault> {
    let mut files = Vec::new();
    read_into(dir, "", &mut files)?;
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// Adds to `files` those of the folder `folder` and of the folders below it (their names
/// led by `prefix`, the folder's own path in the program's).
fn read_into(folder: &Path, prefix: &str, files: &mut Vec<FolderFile>) -> Result<(), Fault> {
    let entries =
        std::fs::read_dir(folder).map_err(|e| Fault::input(files::cannot(folder, "list", &e)))?;
    for entry in entries {
        let entry = entry.map_err(|e| Fault::input(files::cannot(folder, "list", &e)))?;
        let path = entry.path();
        let own = entry.file_name().to_string_lossy().into_owned();
        if passed_over(&own) {
            continue;
        }
        let name = format!("{prefix}{own}");
        let read = |e: std::io::Error| Fault::input(files::cannot(&path, "read", &e));
        let metadata = std::fs::symlink_metadata(&path).map_err(read)?;
        if metadata.is_dir() {
            read_into(&path, &format!("{name}/"), files)?;
            continue;
        }
        let metadata = std::fs::metadata(&path).map_err(read)?;
        if metadata.is_dir() {
            // Followed, a link could lead out of the program, or round in a loop.
            return Err(Fault::input(format!(
                "{}: is a link to a folder (not followed): a program's folders must be its own",
                path.display()
            )));
        }
        if let Some(why) = files::not_regular(&path, &metadata) {
            return Err(Fault::input(why));
        }
        let executable =
            std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o111 != 0;
        files.push(FolderFile {
            bytes: files::read_capped(&path)?,
            name,
            executable,
        });
    }
    Ok(())
}

/// What the program of `files` (those of the folder `dir`) is: in the language
/// `forced` when one is given.
fn shape<'a>(
    dir: &Path,
    files: &[FolderFile],
    languages: &'a Languages,
    forced: Option<&str>,
) -> Result<Shape<'a>, Fault> {
    let named = |name: &str| files.iter().any(|f| f.name == name);
    if named("build") || named("run") {
        return Ok(Shape::Scripts {
            build: named("build"),
        });
    }
    if files.is_empty() {
        return Err(Fault::input(format!("{}: an empty folder", dir.display())));
    }
    let mut by_language: BTreeMap<&str, (&Language, Vec<&FolderFile>)> = BTreeMap::new();
    for file in files {
        if let Some((name, language)) = language_of(&file.name, languages) {
            by_language
                .entry(name)
                .or_insert_with(|| (language, Vec::new()))
                .1
                .push(file);
        }
    }
    // problemtools' rule: the most files, and of those the language of the highest
    // priority. A tie it would break by a priority this table lacks (a `--config` entry
    // without one) cannot be broken.
    let most = by_language
        .values()
        .map(|(_, s)| s.len())
        .max()
        .unwrap_or(0);
    let leading: Vec<_> = by_language
        .iter()
        .filter(|(_, (_, s))| s.len() == most)
        .collect();
    let first = leading
        .iter()
        .max_by_key(|(_, (language, _))| language.priority)
        .copied();
    let listed = || {
        files
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let first = match forced {
        None => first,
        Some(forced) => Some(by_language.iter().find(|(name, _)| **name == forced).ok_or_else(
            || {
                Fault::input(format!(
                    "{}: no file of {forced}, the language submissions.yaml gives it (files: {})",
                    dir.display(),
                    listed()
                ))
            },
        )?),
    };
    let (name, (language, sources)) = match first {
        None => {
            return Err(Fault::input(format!(
                "{}: the language cannot be told: no file of a language the grader knows \
                 (files: {}), and no `build` or `run` script",
                dir.display(),
                listed()
            )));
        }
        Some(one) if forced.is_some() || leading.len() == 1 || one.1.0.priority.is_some() => one,
        Some(_) => {
            let each: Vec<String> = leading.iter().map(|(name, _)| name.to_string()).collect();
            return Err(Fault::input(format!(
                "{}: the language cannot be told: as many files of {}, and no `priority` in \
                 the language table to choose by (files: {})",
                dir.display(),
                each.join(" as of "),
                listed()
            )));
        }
    };
    let main = main_file(sources, language);
    Ok(Shape::Sources {
        language: (name, language),
        main,
        sources: sources.iter().map(|f| f.name.clone()).collect(),
    })
}

/// The main file of `sources` (in name order) in `language`.
fn main_file(sources: &[&FolderFile], language: &Language) -> String {
    let mut candidates: Vec<&&FolderFile> = sources.iter().collect();
    if language.needs_class() {
        let with_main: Vec<_> = candidates
            .iter()
            .copied()
            .filter(|f| declares_main(&String::from_utf8_lossy(&f.bytes)))
            .collect();
        if !with_main.is_empty() {
            candidates = with_main;
        }
    }
    let named_main = candidates.iter().find(|f| {
        let own = f.name.rsplit('/').next().unwrap_or_default();
        own.split_once('.')
            .is_some_and(|(stem, _)| stem.eq_ignore_ascii_case("main"))
    });
    named_main
        .or(candidates.first())
        .map(|f| f.name.clone())
        .unwrap_or_default()
}

/// The files of the archive a build left (`tar --format=ustar` of its folder), each
/// with whether it is executable; or why they cannot be a program's files. Regular files
/// are taken, in the folder or below it (`lib/util.py`), and hidden ones passed over, as
/// [`read`] passes them over; the folders themselves are made again where their files go.
/// A link or anything else is refused, and so is a name that climbs (`..`), so nothing the
/// build made can point outside.
pub(crate) fn built_tree(archive: &[u8]) -> Result<Vec<FolderFile>, String> {
    const BLOCK: usize = 512;
    let octal = |field: &[u8]| -> Result<u64, String> {
        let text = String::from_utf8_lossy(field);
        let digits = text.trim_matches(|c: char| c == '\0' || c == ' ');
        if digits.is_empty() {
            return Ok(0);
        }
        u64::from_str_radix(digits, 8).map_err(|_| format!("a malformed archive (`{digits}`)"))
    };
    let text = |field: &[u8]| {
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        String::from_utf8_lossy(&field[..end]).into_owned()
    };
    let mut files = Vec::new();
    let mut at = 0;
    while at + BLOCK <= archive.len() {
        let header = &archive[at..at + BLOCK];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let prefix = text(&header[345..500]);
        let mut name = text(&header[..100]);
        if !prefix.is_empty() {
            name = format!("{prefix}/{name}");
        }
        let size = usize::try_from(octal(&header[124..136])?)
            .map_err(|_| "a malformed archive".to_owned())?;
        let mode = octal(&header[100..108])?;
        let kind = header[156];
        let data = at + BLOCK;
        let end = data + size;
        if end > archive.len() {
            return Err("a truncated archive".to_owned());
        }
        let plain = name
            .strip_prefix("./")
            .unwrap_or(&name)
            .trim_end_matches('/');
        let top = plain.is_empty() || plain == ".";
        let parts: Vec<&str> = plain.split('/').collect();
        if !top
            && parts
                .iter()
                .any(|p| p.is_empty() || *p == "." || *p == "..")
        {
            return Err(format!(
                "the archive names `{plain}`, which is not a path inside the folder"
            ));
        }
        match kind {
            b'5' => {}
            b'0' | 0 if top => return Err("a malformed archive (a file with no name)".to_owned()),
            b'0' | 0 if parts.iter().any(|p| passed_over(p)) => {}
            b'0' | 0 => {
                files.push(FolderFile {
                    name: plain.to_owned(),
                    bytes: archive[data..end].to_vec(),
                    executable: mode & 0o111 != 0,
                });
            }
            _ => {
                return Err(format!(
                    "the build made `{plain}`, which is not a plain file (a link, a device, ...)"
                ));
            }
        }
        at = data + size.div_ceil(BLOCK) * BLOCK;
    }
    Ok(files)
}

#[cfg(test)]
impl FolderFile {
    /// A file of a program's folder holding `text`, not executable: for tests.
    pub(crate) fn of_text(name: &str, text: &str) -> FolderFile {
        FolderFile {
            name: name.to_owned(),
            bytes: text.as_bytes().to_vec(),
            executable: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> FolderFile {
        FolderFile::of_text(name, text)
    }

    fn shape_of(files: &[FolderFile]) -> Result<(String, String, Vec<String>), String> {
        let languages = Box::leak(Box::new(Languages::load(None).unwrap()));
        match shape(Path::new("p"), files, languages, None).map_err(|f| f.message().to_owned())? {
            Shape::Sources {
                language: (name, _),
                main,
                sources,
            } => Ok((name.to_owned(), main, sources)),
            Shape::Scripts { build } => Ok(("scripts".to_owned(), build.to_string(), vec![])),
        }
    }

    #[test]
    fn an_entry_point_names_a_file_its_class_or_kotlins_class_of_it() {
        let names = ["lib/util.py", "Main.java", "app.kt", "solve.py"];
        let entry = |e: &str| entry_file(names.iter().copied(), e);
        assert_eq!(entry("solve.py").as_deref(), Some("solve.py"));
        assert_eq!(entry("util.py").as_deref(), Some("lib/util.py"));
        assert_eq!(entry("Main").as_deref(), Some("Main.java"));
        assert_eq!(entry("appKt").as_deref(), Some("app.kt"));
        assert_eq!(entry("Solve"), None);
    }

    #[test]
    fn a_forced_language_takes_its_files_whatever_most_files_are() {
        let files = [file("a.c", ""), file("b.c", ""), file("x.py", "")];
        let languages = Box::leak(Box::new(Languages::load(None).unwrap()));
        let python = shape(Path::new("p"), &files, languages, Some("python")).unwrap();
        let Shape::Sources {
            language: (name, _),
            main,
            ..
        } = python
        else {
            panic!("{python:?}");
        };
        assert_eq!((name, main.as_str()), ("python", "x.py"));
        let why = shape(Path::new("p"), &files, languages, Some("java")).unwrap_err();
        assert!(
            why.message()
                .starts_with("p: no file of java, the language submissions.yaml"),
            "{}",
            why.message()
        );
    }

    #[test]
    fn the_language_is_the_most_files_and_the_main_file_as_problemtools_picks_it() {
        let c = shape_of(&[file("a.c", ""), file("b.c", ""), file("x.h", "")]).unwrap();
        assert_eq!(
            c,
            (
                "c".to_owned(),
                "a.c".to_owned(),
                vec!["a.c".to_owned(), "b.c".to_owned()]
            )
        );
        let py = shape_of(&[
            file("helper.py", ""),
            file("Main.py", ""),
            file("z.txt", ""),
        ])
        .unwrap();
        assert_eq!((py.0.as_str(), py.1.as_str()), ("python", "Main.py"));
        let java = shape_of(&[
            file("a.java", "class A { }"),
            file(
                "hello.java",
                "public class Hello { public static void main(String[] a) {} }",
            ),
        ])
        .unwrap();
        assert_eq!(java.1, "hello.java");
        let scripts = shape_of(&[file("build", ""), file("x.c", "")]).unwrap();
        assert_eq!(scripts.0, "scripts");
        // A tie goes to the language of the higher priority, as problemtools breaks one:
        // C++ (1000) over C (950), Python (850) over Java (800); the other language's
        // files are no sources.
        let tie = shape_of(&[file("a.c", ""), file("b.cpp", "")]).unwrap();
        assert_eq!(
            tie,
            (
                "cpp".to_owned(),
                "b.cpp".to_owned(),
                vec!["b.cpp".to_owned()]
            )
        );
        let tie = shape_of(&[file("A.java", ""), file("b.py", "")]).unwrap();
        assert_eq!((tie.0.as_str(), tie.1.as_str()), ("python", "b.py"));
        // Files below the folder count, named by their paths; the main file is the first
        // `main.*` by path, wherever it is.
        let nested = shape_of(&[
            file("include/add.h", ""),
            file("lib/add.c", ""),
            file("src/main.c", ""),
        ])
        .unwrap();
        assert_eq!(
            nested,
            (
                "c".to_owned(),
                "src/main.c".to_owned(),
                vec!["lib/add.c".to_owned(), "src/main.c".to_owned()]
            )
        );
        let none = shape_of(&[file("notes.txt", "")]).unwrap_err();
        assert!(
            none.contains("no file of a language the grader knows (files: notes.txt)"),
            "{none}"
        );
    }

    /// A ustar header for `name` of `size` bytes, of `kind`, with `mode`.
    fn header(name: &str, size: usize, kind: u8, mode: u32) -> Vec<u8> {
        let mut h = vec![0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..107].copy_from_slice(format!("{mode:07o}").as_bytes());
        h[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
        h[156] = kind;
        h[257..262].copy_from_slice(b"ustar");
        h
    }

    #[test]
    fn a_builds_archive_gives_its_plain_files_and_refuses_anything_else() {
        let mut tar = header("./", 0, b'5', 0o755);
        tar.extend(header("./run", 3, b'0', 0o755));
        tar.extend(b"abc");
        tar.resize(tar.len() + 509, 0);
        tar.extend(vec![0u8; 1024]);
        let files = built_tree(&tar).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(
            (
                files[0].name.as_str(),
                files[0].bytes.as_slice(),
                files[0].executable
            ),
            ("run", &b"abc"[..], true)
        );
        let link = header("./run", 0, b'2', 0o777);
        assert!(built_tree(&link).unwrap_err().contains("not a plain file"));
        let mut nested = header("./lib/", 0, b'5', 0o755);
        nested.extend(header("./lib/util.py", 0, b'0', 0o644));
        nested.extend(header("./.cache/x", 0, b'0', 0o644));
        let files = built_tree(&nested).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["lib/util.py"]);
        let climbing = header("./lib/../../etc/x", 0, b'0', 0o644);
        assert!(
            built_tree(&climbing)
                .unwrap_err()
                .contains("not a path inside the folder"),
        );
    }
}
