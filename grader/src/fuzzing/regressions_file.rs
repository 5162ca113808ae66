//! The regressions file: one line per earlier failure (`fuzz::regressions` reads and
//! writes the lines), replayed before any new run and added to when a new failure is
//! found. Its entries are cases: one that is not a valid input is located like a broken
//! case file, before anything runs; and a finding is added atomically, once.

use std::path::{Path, PathBuf};

use fuzz::regressions::{self, HEADER, Regression};
use reference::Problem;

use crate::files;
use crate::results::finding::{Found, Source};
use crate::status::Fault;

/// Where the regressions file of `problem` is when `--regressions` names none.
pub(crate) fn default_path(problem: Problem) -> PathBuf {
    PathBuf::from("fuzz-regressions").join(format!("{problem}.txt"))
}

/// The earlier failures of `problem` in the regressions file (none when it is missing).
pub(crate) fn read(path: &Path, problem: Problem) -> Result<Vec<Regression>, Fault> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = files::read_capped(path)?;
    let text = String::from_utf8(text)
        .map_err(|_| Fault::Usage(format!("{}: not UTF-8 text", path.display())))?;
    // The whole file first: a malformed line is named before any regression is used.
    regressions::parse(&text).map_err(|bad| {
        Fault::Usage(format!(
            "{}:{}:{}: {}",
            path.display(),
            bad.line,
            bad.column,
            bad.message
        ))
    })?;
    of_problem(path, &text, problem)
}

/// The regressions of `problem` in `text` (the file at `path`, well-formed), each a valid
/// input of it. A regression is a case: one that is not a valid input is located like a
/// broken case file (`FILE:LINE:COL`, at its `input=`), before anything runs. Each line
/// parses alone, so its number is known.
fn of_problem(path: &Path, text: &str, problem: Problem) -> Result<Vec<Regression>, Fault> {
    let mut mine = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for r in regressions::parse(line).unwrap_or_default() {
            if r.problem != problem {
                continue;
            }
            if let Err(e) = problem.validate(r.input.as_bytes()) {
                let column = line.find("input=").map_or(1, |at| at + 1);
                return Err(Fault::Usage(format!(
                    "{}:{}:{column}: this {problem} regression is not a valid input: its line \
                     {}, column {}: {}",
                    path.display(),
                    index + 1,
                    e.line,
                    e.column,
                    e.message
                )));
            }
            mine.push(r);
        }
    }
    Ok(mine)
}

/// Adds the shrunk failure to the regressions file (atomically), unless it is there; the
/// file, when it was added to. A finding of `--exhaustive` is not added: a line names the
/// seed and the run that found it, and such a finding has no seed.
pub(crate) fn record(
    path: &Path,
    problem: Problem,
    seed: u64,
    found: &Found,
) -> Result<Option<PathBuf>, Fault> {
    if found.source == Source::Exhaustive {
        return Ok(None);
    }
    let old = if path.exists() {
        String::from_utf8_lossy(&files::read_capped(path)?).into_owned()
    } else {
        HEADER.to_owned()
    };
    let known = regressions::parse(&old).unwrap_or_default();
    if known
        .iter()
        .any(|r| r.problem == problem && r.input == found.shrunk.input)
    {
        return Ok(None);
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::folders::create(parent)?;
    }
    let mut text = old;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&line(problem, seed, found));
    files::write_atomic(path, text.as_bytes())?;
    Ok(Some(path.to_path_buf()))
}

/// The regressions file's line for `found`: its shrunk input, under the seed and run that
/// first found it (a replayed regression keeps its own).
fn line(problem: Problem, seed: u64, found: &Found) -> String {
    let (seed, run) = match &found.regression {
        Some(r) => (r.seed, r.run),
        None => (seed, found.finding.number()),
    };
    Regression {
        problem,
        seed,
        run,
        input: found.shrunk.input.clone(),
        note: format!(
            "{}: {}",
            found.shrunk.failure.verdict.code(),
            found.shrunk.failure.message
        ),
    }
    .to_line()
}
