//! Building a package's programs as `grader test` builds a submission: each file by its
//! language (compiled once and cached), a folder as one program of its files;
//! the submissions `--jobs` at once. What keeps a submission from running is a value
//! (its compile error, a language this machine or the grader lacks), never a fault.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use sandbox::Limits;

use crate::cli::exit::{Cause, Fault};
use crate::package::format::submissions::Entry;
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

/// Builds every submission, `setup.jobs` at once (compilers are the slow part of a
/// package with many languages): each a program, or why it will not run.
pub(in crate::package) fn build_all(
    entries: &[Entry],
    setup: &Setup<'_>,
) -> Result<Vec<Result<Program, NotBuilt>>, Fault> {
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..setup.jobs.clamp(1, entries.len().max(1)))
            .map(|_| {
                scope.spawn(|| -> Result<(), Fault> {
                    while let Some(entry) = entries.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let mut program = built_or_why(build(&entry.path, &setup.options))?;
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

/// Builds `path`: a program, or the compiler's message (`Err` inside), or why it cannot
/// be built here (a `Fault`).
pub(in crate::package) fn build(
    path: &Path,
    options: &Options<'_>,
) -> Result<Result<Program, String>, Fault> {
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
