//! The regressions file: one line per earlier failure (`fuzz::regressions` reads and
//! writes the lines), replayed before any new run and added to when a new failure is
//! found. Its entries are cases: one that is not a valid input is located like a broken
//! case file, before anything runs; and a finding is added atomically, once.

use std::path::{Path, PathBuf};

use fuzz::regressions::{self, HEADER, Regression};
use reference::Problem;

use crate::cli::exit::Fault;
use crate::paths::files;
use crate::results::finding::{Found, Source};

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
        .map_err(|_| Fault::input(format!("{}: not UTF-8 text", path.display())))?;
    // The whole file first: a malformed line is named before any regression is used.
    regressions::parse(&text).map_err(|bad| {
        Fault::input(format!(
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
                return Err(Fault::input(format!(
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
        crate::paths::folders::create(parent)?;
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

#[cfg(test)]
mod tests {
    use std::fs;

    use fuzz::{Finding, Shrunk, differ::Failure};
    use reference::Verdict;

    use super::*;

    const BOARD: &str = "bwwb\nbbwb\nbwwb\nbwww\n";

    fn found(source: Source, regression: Option<Regression>) -> Found {
        let failure = Failure {
            verdict: Verdict::WrongAnswer,
            message: "expected `4`, got `5`".to_owned(),
            output: Vec::new(),
        };
        Found {
            source,
            regression,
            finding: Finding {
                run: 11,
                kind: "random".to_owned(),
                input: "wwww\nwwww\nwwww\nwwww\n".to_owned(),
                failure: failure.clone(),
            },
            shrunk: Shrunk {
                input: BOARD.to_owned(),
                failure,
                steps: 3,
                simplified: 1,
            },
            replay: String::new(),
            saved: Vec::new(),
            recorded: None,
        }
    }

    #[test]
    fn a_finding_is_recorded_once_under_the_seed_and_run_that_found_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("made/flip.txt");
        let recorded = record(&path, Problem::Flip, 7, &found(Source::Seeded, None)).unwrap();
        assert_eq!(recorded.as_deref(), Some(path.as_path()));
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(HEADER), "{text}");
        let lines = regressions::parse(&text).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(
            (lines[0].seed, lines[0].run, &*lines[0].input),
            (7, 12, BOARD)
        );
        // The same input again is not added.
        assert_eq!(
            record(&path, Problem::Flip, 9, &found(Source::Seeded, None)).unwrap(),
            None
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert_eq!(read(&path, Problem::Flip).unwrap().len(), 1);
        assert!(read(&path, Problem::Swap).unwrap().is_empty());
    }

    #[test]
    fn a_replayed_regression_keeps_its_seed_and_an_exhaustive_finding_is_not_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("flip.txt");
        let exhaustive = found(Source::Exhaustive, None);
        assert_eq!(record(&path, Problem::Flip, 7, &exhaustive).unwrap(), None);
        assert!(!path.exists());
        let earlier = Regression {
            problem: Problem::Flip,
            seed: 3,
            run: 5,
            input: "wwww\nwwww\nwwww\nwwww\n".to_owned(),
            note: String::new(),
        };
        let replayed = found(Source::Regression(0), Some(earlier));
        record(&path, Problem::Flip, 7, &replayed).unwrap();
        let lines = regressions::parse(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!((lines[0].seed, lines[0].run), (3, 5));
    }

    #[test]
    fn a_regression_that_is_no_valid_input_is_located_at_its_input() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.txt");
        fs::write(
            &path,
            "# note\nswap seed=1 run=1 input=\"x\"\nflip seed=1 run=2 input=\"bwxb\"\n",
        )
        .unwrap();
        let error = read(&path, Problem::Flip).unwrap_err();
        assert_eq!(error.cause(), crate::cli::exit::Cause::Input);
        let error = error.to_string();
        assert!(
            error.contains("r.txt:3:19: this flip regression is not a valid input: its line 1"),
            "{error}"
        );
        assert!(
            read(&dir.path().join("missing.txt"), Problem::Flip)
                .unwrap()
                .is_empty()
        );
    }
}
