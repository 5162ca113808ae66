//! Test power: the classic wrong solutions of a problem (the reference's mutants) run on
//! every case; a mutant is killed by a group when some case of it is judged other than
//! `AC`. A folder that kills every mutant catches those mistakes in real submissions.

use std::collections::BTreeMap;
use std::path::Path;

use reference::{Problem, Verdict};

use super::find::discover;
use super::sound;
use crate::cli::exit::Fault;
use crate::paths::files;

/// The kill matrix of one folder.
#[derive(Debug)]
pub(crate) struct Power {
    /// The groups, in name order (the matrix columns).
    pub(crate) groups: Vec<String>,
    /// Per mutant (in the reference's order): its name, and per group how many cases
    /// killed it.
    pub(crate) kills: Vec<(&'static str, Vec<usize>)>,
}

impl Power {
    /// The mutants no case killed.
    pub(crate) fn survivors(&self) -> Vec<&'static str> {
        self.kills
            .iter()
            .filter(|(_, row)| row.iter().all(|&n| n == 0))
            .map(|(name, _)| *name)
            .collect()
    }
}

/// Runs every mutant of `problem` on every case below `dir`. A case that is not sound is
/// the call's fault (exit 2, located): power is measured on a folder that passes `cases
/// check`.
pub(crate) fn measure(problem: Problem, dir: &Path) -> Result<Power, Fault> {
    let cases = discover(dir)?;
    let mutants = problem.mutants();
    let mut per_group: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for case in &cases {
        let input = files::read_capped(&case.input)?;
        let answer = match &case.answer {
            Some(path) => Some(files::read_capped(path)?),
            None => None,
        };
        // Power is measured on sound cases only: a broken one would "kill" every mutant.
        match (&case.answer, &answer) {
            (Some(path), Some(text)) => sound::case(problem, (&case.input, &input), (path, text))?,
            _ => sound::input(problem, &case.input, &input)?,
        }
        let row = per_group
            .entry(case.group().to_owned())
            .or_insert_with(|| vec![0; mutants.len()]);
        for (index, killed) in row.iter_mut().enumerate() {
            let internal = |e: &dyn std::fmt::Display| {
                Fault::internal(format!("{}: sound, yet {e}", case.input.display()))
            };
            let output = problem
                .run_mutant(index, &input)
                .map_err(|e| internal(&e))?;
            let judged = problem
                .check(&input, answer.as_deref(), output.as_bytes())
                .map_err(|e| internal(&e))?;
            if judged.verdict != Verdict::Accepted {
                *killed += 1;
            }
        }
    }
    let groups: Vec<String> = per_group.keys().cloned().collect();
    let kills = mutants
        .iter()
        .enumerate()
        .map(|(m, (name, _))| (*name, per_group.values().map(|row| row[m]).collect()))
        .collect();
    Ok(Power { groups, kills })
}
