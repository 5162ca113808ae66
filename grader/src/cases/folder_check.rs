//! `cases check`: every input valid, every answer correct, no board twice; and what the
//! answers look like per group, so that a setter sees a folder's coverage at a glance.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use reference::Problem;

use super::find::{Case, discover};
use super::sound;
use crate::cli::exit::Fault;
use crate::paths::files;

/// The findings and the answer histograms of one folder.
#[derive(Debug, Default)]
pub(crate) struct Verified {
    /// How many cases were found.
    pub(crate) cases: usize,
    /// One line per fault: `FILE[:LINE:COL]: reason`.
    pub(crate) faults: Vec<String>,
    /// Group -> answer -> how many cases, for the cases with a valid input.
    pub(crate) histograms: BTreeMap<String, BTreeMap<AnswerKey, usize>>,
}

/// An answer as a histogram key: move counts in numeric order, then `Impossible`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum AnswerKey {
    /// A number of moves.
    Moves(u64),
    /// Any other first line (`Impossible`).
    Word(String),
}

impl std::fmt::Display for AnswerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerKey::Moves(n) => write!(f, "{n}"),
            AnswerKey::Word(w) => f.write_str(w),
        }
    }
}

/// Checks every case below `dir` for `problem`.
pub(crate) fn verify(problem: Problem, dir: &Path) -> Result<Verified, Fault> {
    let cases = discover(dir)?;
    let mut verified = Verified {
        cases: cases.len(),
        ..Verified::default()
    };
    if cases.is_empty() {
        verified
            .faults
            .push(format!("{}: no `*.in` files", dir.display()));
    }
    // Board -> first case holding it; only looked up, never iterated.
    let mut seen: HashMap<Vec<u8>, &str> = HashMap::new();
    for case in &cases {
        if let Some(reference) = verify_case(problem, case, &mut verified.faults, &mut seen)? {
            let first = reference.lines().next().unwrap_or_default();
            let key = first
                .parse()
                .map_or_else(|_| AnswerKey::Word(first.to_owned()), AnswerKey::Moves);
            *verified
                .histograms
                .entry(case.group().to_owned())
                .or_default()
                .entry(key)
                .or_default() += 1;
        }
    }
    Ok(verified)
}

/// Checks one case, pushing its faults; returns the reference answer when the input is
/// valid.
fn verify_case<'c>(
    problem: Problem,
    case: &'c Case,
    faults: &mut Vec<String>,
    seen: &mut HashMap<Vec<u8>, &'c str>,
) -> Result<Option<String>, Fault> {
    let input = files::read_capped(&case.input)?;
    if let Err(fault) = sound::input(problem, &case.input, &input) {
        faults.push(fault.to_string());
        return Ok(None);
    }
    let reference = problem
        .solve(&input)
        .map_err(|e| Fault::internal(format!("{}: valid, yet {e}", case.input.display())))?;
    if let Some(first) = seen.get(&input) {
        faults.push(format!(
            "{}: the same board as {first}.in",
            case.input.display()
        ));
    } else {
        seen.insert(input.clone(), &case.name);
    }
    let Some(answer_path) = &case.answer else {
        faults.push(format!(
            "{}: no answer file ({}.ans or .out)",
            case.input.display(),
            case.input.with_extension("").display()
        ));
        return Ok(Some(reference));
    };
    let answer = files::read_capped(answer_path)?;
    if let Err(fault) = sound::case(problem, (&case.input, &input), (answer_path, &answer)) {
        faults.push(fault.to_string());
    }
    Ok(Some(reference))
}
