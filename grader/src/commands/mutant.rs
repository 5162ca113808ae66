//! `grader mutant PROBLEM NAME [FILE]`: one of the classic wrong solutions as a program,
//! reading an input and printing its (wrong) answer, so `grader test` and `grader fuzz`
//! can be shown and measured against a known mistake.

use crate::cli::args::MutantArgs;
use crate::cli::exit::{Fault, Status};
use crate::paths::files;
use crate::report;

pub(crate) fn run(args: &MutantArgs) -> Result<Status, Fault> {
    let problem = args.problem;
    let mutants = problem.mutants();
    let index = mutants
        .iter()
        .position(|(name, _)| *name == args.name)
        .ok_or_else(|| {
            let names: Vec<&str> = mutants.iter().map(|m| m.0).collect();
            Fault::call(format!(
                "unknown {problem} mutant `{}` (expected one of: {})",
                args.name,
                names.join(", ")
            ))
        })?;
    let input = files::read_input(args.file.as_deref())?;
    // A mutant is a contestant's program: it reads the clean input of the contract.
    let output = problem
        .run_mutant(index, &input)
        .map_err(|e| Fault::at(&super::flags::display_name(args.file.as_deref()), &e))?;
    report::out(&output);
    Ok(Status::Ok)
}
