//! `--save DIR`: a finding's shrunk input and its reference answer written as a case
//! (`.in` and `.ans`), ready for a case folder.

use std::path::{Path, PathBuf};

use reference::Problem;

use crate::cli::exit::Fault;
use crate::paths::files;
use crate::results::finding::{Found, Source};

/// Writes the shrunk input and its reference answer into `dir`; the two files.
pub(crate) fn save(
    dir: &Path,
    problem: Problem,
    seed: u64,
    found: &Found,
) -> Result<Vec<PathBuf>, Fault> {
    let answer = problem
        .solve(found.shrunk.input.as_bytes())
        .map_err(|e| Fault::internal(format!("the shrunk input does not parse: {e}")))?;
    save_answered(dir, problem.id(), seed, found, &answer)
}

/// Writes the shrunk input and `answer` into `dir`, named after the problem `name` (a
/// package's, whose reference answered it); the two files.
pub(crate) fn save_answered(
    dir: &Path,
    name: &str,
    seed: u64,
    found: &Found,
    answer: &str,
) -> Result<Vec<PathBuf>, Fault> {
    crate::paths::folders::create(dir)?;
    let stem = stem(name, seed, found);
    let input = &found.shrunk.input;
    let paths = [
        dir.join(format!("{stem}.in")),
        dir.join(format!("{stem}.ans")),
    ];
    files::write_atomic(&paths[0], input.as_bytes())?;
    files::write_atomic(&paths[1], answer.as_bytes())?;
    Ok(paths.to_vec())
}

/// The saved case's name: where the finding came from, named by the run the report shows.
fn stem(problem: &str, seed: u64, found: &Found) -> String {
    match found.source {
        Source::Seeded => format!("{problem}-seed{seed}-run{}", found.finding.number()),
        Source::Exhaustive => format!("{problem}-all-{}", found.finding.number()),
        Source::Regression(i) => format!("{problem}-regression-{}", i + 1),
    }
}
