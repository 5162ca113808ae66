//! Building a package's programs as `grader test` builds a submission: each file by its
//! language (compiled once and cached), a folder as one program of its files;
//! the submissions `--jobs` at once. What keeps a submission from running is a value
//! (its compile error, a language this machine or the grader lacks), never a fault.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use sandbox::Limits;

use crate::cli::exit::{Cause, Fault};
use crate::package::format::codes;
use crate::package::format::constants::Constants;
use crate::package::format::included;
use crate::package::format::submissions::Entry;
use crate::paths::{files, temp};
use crate::submission::added::Added;
use crate::submission::folder::{self, FolderFile};
use crate::submission::{self, Built, Options, Program, Submission};
use sandbox::Locked as _;

/// How to build and run: the language table and cache, the limits every run shares (the
/// CPU and wall limits are set here), and how many runs at once.
pub(crate) struct Setup<'a> {
    /// How programs are built.
    pub(crate) options: Options<'a>,
    /// The limits of the submissions' runs (memory, output, processes, tier).
    pub(crate) limits: Limits,
    /// Submissions run at once.
    pub(crate) jobs: usize,
}

impl<'a> Setup<'a> {
    /// This setup for the submissions of the package at `package`: with the files its
    /// `include/` adds to them (`format::included`), which its own programs never get.
    pub(in crate::package) fn for_submissions(&self, package: &Path) -> Result<Setup<'a>, Fault> {
        let constants = Constants::of(&self.options.replaced);
        let added = included::added(package, &constants, self.options.languages)?;
        Ok(self.with_added(added))
    }

    /// This setup with `added` added to every submission it builds (a package's
    /// included files, read once by the caller).
    pub(in crate::package) fn with_added(&self, added: Arc<Added>) -> Setup<'a> {
        Setup {
            options: self.options.clone().adding(added),
            limits: self.limits,
            jobs: self.jobs,
        }
    }
}

/// Builds every submission, `setup.jobs` at once (compilers are the slow part of a
/// package with many languages): each a program, or why it will not run.
pub(in crate::package) fn build_all(
    entries: &[Entry],
    setup: &Setup<'_>,
) -> Result<Vec<Result<Program, NotBuilt>>, Fault> {
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    let order = slowest_first(entries);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..setup.jobs.clamp(1, entries.len().max(1)))
            .map(|_| {
                scope.spawn(|| -> Result<(), Fault> {
                    while let Some(entry) = order
                        .get(next.fetch_add(1, Ordering::Relaxed))
                        .map(|&index| &entries[index])
                    {
                        let mut program = built_or_why(build_entry(entry, &setup.options))?;
                        // The table names the submission: its path need not lead the reason.
                        if let Err(NotBuilt::NotRun(why)) = &mut program {
                            let path = format!("not run: {}: ", entry.path.display());
                            if let Some(rest) = why.strip_prefix(&path) {
                                *why = format!("not run: {rest}");
                            }
                        }
                        built.locked().push((entry.name.clone(), program));
                    }
                    Ok(())
                })
            })
            .collect();
        joined(workers)
    })?;
    let mut built = built.into_value();
    // Back in the order of the entries (names are unique: FOLDER/FILE).
    built.sort_by_key(|(name, _)| entries.iter().position(|e| &e.name == name));
    Ok(built.into_iter().map(|(_, program)| program).collect())
}

/// The extensions of the languages whose cold compile takes seconds, slowest first: a
/// JVM that loads its compiler (`kotlinc`, `scalac`, `javac`), then GHC and rustc.
const SLOW: [&str; 5] = ["kt", "scala", "java", "hs", "rs"];

/// The order `entries` are built in: those of a slow compiler first (its toolchain's
/// version probe, itself a JVM for Kotlin, comes with it), the rest as they come. The
/// longest builds then run beside the many short ones instead of after them: a package
/// with one Kotlin submission among ten is ready when Kotlin is.
fn slowest_first(entries: &[Entry]) -> Vec<usize> {
    let rank = |entry: &Entry| {
        let extension = entry
            .path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        SLOW.iter()
            .position(|slow| *slow == extension)
            .unwrap_or(SLOW.len())
    };
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&index| rank(&entries[index]));
    order
}

/// A build's program, or why the submission will not run: its compile error, or a
/// language this machine lacks or the grader has no entry for (listed, not a failure).
/// An interruption stays a fault.
fn built_or_why(
    build: Result<Result<Program, String>, Fault>,
) -> Result<Result<Program, NotBuilt>, Fault> {
    Ok(match build {
        Ok(Ok(program)) => Ok(program),
        // Python 2 compiles as Python 3 does not: a language the grader has no entry for.
        Ok(Err(message)) if message.contains("Missing parentheses in call to 'print'") => Err(
            NotBuilt::NotRun("language not supported (Python 2)".to_owned()),
        ),
        Ok(Err(message)) => Err(NotBuilt::CompileError(first_line(&message).to_owned())),
        Err(fault) if matches!(fault.cause(), Cause::Interrupted(_)) => return Err(fault),
        Err(fault)
            if fault.cause().users_to_fix() && fault.message().contains("unknown extension") =>
        {
            Err(NotBuilt::NotRun("language not supported".to_owned()))
        }
        // A toolchain this machine cannot run (Setup), or cannot run for the tier's uid
        // (Internal: a compiler in a folder only root may enter): one language's
        // submissions are not run, the others are. `verify` refuses to go on when no
        // accepted submission runs at all.
        Err(fault) => Err(NotBuilt::NotRun(format!(
            "not run: {}",
            first_line(fault.message())
        ))),
    })
}

/// Why a submission has no program.
#[derive(Debug, Clone)]
pub(in crate::package) enum NotBuilt {
    /// It did not compile: its verdict is `CE` (never the one of any folder).
    CompileError(String),
    /// It cannot be built here (a language the grader or this machine lacks): listed,
    /// with no verdict.
    NotRun(String),
}

/// Waits for every worker thread; the first fault any of them met.
pub(in crate::package) fn joined(
    workers: Vec<std::thread::ScopedJoinHandle<'_, Result<(), Fault>>>,
) -> Result<(), Fault> {
    workers
        .into_iter()
        .map(|w| {
            w.join()
                .unwrap_or_else(|_| Err(Fault::internal("a worker thread panicked".to_owned())))
        })
        .collect::<Result<Vec<()>, Fault>>()
        .map(drop)
}

/// The first line of a message, for a table's cell.
pub(in crate::package) fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or_default()
}

/// Builds the submission `entry` as [`build`] does, in the language and with the entry
/// point its package's `submissions.yaml` gives it, if any (a language the grader does
/// not run is why it is not built).
pub(in crate::package) fn build_entry(
    entry: &Entry,
    options: &Options<'_>,
) -> Result<Result<Program, String>, Fault> {
    let mut options = options.clone();
    if let Some(code) = &entry.build.language {
        let name = codes::language_named(code, options.languages).ok_or_else(|| {
            Fault::input(format!(
                "{}: language `{code}` (submissions.yaml): not one the grader runs",
                entry.path.display()
            ))
        })?;
        options.language = Some(name);
    }
    options.entry.clone_from(&entry.build.entrypoint);
    build(&entry.path, &options)
}

/// Builds `path`: a program, or the compiler's message (`Err` inside), or why it cannot
/// be built here (a `Fault`); with the package's constants replaced in its files
/// (`Options::replaced`), in a copy, where any is in them.
pub(in crate::package) fn build(
    path: &Path,
    options: &Options<'_>,
) -> Result<Result<Program, String>, Fault> {
    let constants = Constants::of(&options.replaced);
    let Some((_copy, copied)) = replaced_copy(path, &constants)? else {
        return build_as_is(path, options);
    };
    // What the build says names the package's file, not the copy.
    let (shown, original) = (copied.display().to_string(), path.display().to_string());
    match build_as_is(&copied, options) {
        Ok(Err(message)) => Ok(Err(message.replace(&shown, &original))),
        Err(fault) => Err(fault.map_message(|why| why.replace(&shown, &original))),
        built => built,
    }
}

/// `path` with the package's constants replaced in its files: a copy under the same
/// name in the grader's temporary folder (gone with the returned folder, once the build
/// kept what it needs), or `None` when no file of it holds one, or when its files cannot
/// be read as a program's (the build of the package's own then says why). A folder's files
/// are those its build reads (`submission::folder::files`).
fn replaced_copy(
    path: &Path,
    constants: &Constants,
) -> Result<Option<(tempfile::TempDir, PathBuf)>, Fault> {
    if constants.is_empty() {
        return Ok(None);
    }
    let read = if path.is_dir() {
        match folder::files(path) {
            Ok(files) => files,
            Err(_) => return Ok(None),
        }
    } else {
        let executable = fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
        vec![FolderFile {
            name: String::new(),
            bytes: files::read_file_of_data(path)?,
            executable,
        }]
    };
    let mut changed = false;
    let read: Vec<FolderFile> = read
        .into_iter()
        .map(|file| match constants.apply(&file.bytes) {
            Some(bytes) => {
                changed = true;
                FolderFile { bytes, ..file }
            }
            None => file,
        })
        .collect();
    if !changed {
        return Ok(None);
    }
    let copy = temp::dir("constants").map_err(|e| {
        Fault::setup(format!(
            "cannot make a folder for a package program's copy: {e}"
        ))
    })?;
    let top = copy.path().join(path.file_name().unwrap_or_default());
    for file in read {
        let to = if file.name.is_empty() {
            top.clone()
        } else {
            top.join(&file.name)
        };
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| Fault::setup(files::cannot(parent, "create", &e)))?;
        }
        fs::write(&to, &file.bytes).map_err(|e| Fault::setup(files::cannot(&to, "write", &e)))?;
        let mode = if file.executable { 0o755 } else { 0o644 };
        fs::set_permissions(&to, fs::Permissions::from_mode(mode))
            .map_err(|e| Fault::setup(files::cannot(&to, "write", &e)))?;
    }
    Ok(Some((copy, top)))
}

/// Builds `path` as it is written.
fn build_as_is(path: &Path, options: &Options<'_>) -> Result<Result<Program, String>, Fault> {
    // A folder is one program of several files (`submission::folder` reads it).
    let submission = if path.is_dir() {
        Submission::Folder(path.to_path_buf())
    } else {
        Submission::File(path.to_path_buf())
    };
    // The advice of a fault names `--lang` and `--cmd`, which choose no package program.
    let built = submission::build_one(&submission, options, |_| {}).map_err(|fault| {
        if fault.cause().users_to_fix() {
            fault.map_message(|why| submission::without_flag_advice(&why))
        } else {
            fault
        }
    })?;
    match built {
        Built::Ready(program) => Ok(Ok(program)),
        Built::CompileError { message, .. } => Ok(Err(message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::format::expectations::BuildSaid;

    #[test]
    fn slow_compilers_are_built_first_and_the_rest_as_they_come() {
        let entries: Vec<Entry> = [
            "accepted/a.cc",
            "accepted/b.py",
            "accepted/c.java",
            "accepted/d.kt",
            "wrong_answer/e.rs",
            "accepted/folder",
        ]
        .into_iter()
        .map(|name| Entry {
            name: name.to_owned(),
            path: PathBuf::from("submissions").join(name),
            expected: vec!["AC"],
            from: Some("folder"),
            partial: false,
            build: BuildSaid::default(),
        })
        .collect();
        let order: Vec<&str> = slowest_first(&entries)
            .into_iter()
            .map(|i| entries[i].name.as_str())
            .collect();
        assert_eq!(
            order,
            [
                "accepted/d.kt",
                "accepted/c.java",
                "wrong_answer/e.rs",
                "accepted/a.cc",
                "accepted/b.py",
                "accepted/folder"
            ]
        );
    }
}
