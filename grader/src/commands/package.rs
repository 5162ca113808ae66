//! `grader package export PROBLEM --out DIR [--force]`: a built-in problem written as a
//! problem package in the Kattis/ICPC format (docs/packages.md).

use std::path::Path;

use reference::Problem;

use crate::cli::PackageCommand;
use crate::package::export::{tree, write};
use crate::report;
use crate::status::{Fault, Status};

pub(crate) fn run(command: PackageCommand) -> Result<Status, Fault> {
    match command {
        PackageCommand::Export {
            problem,
            out,
            force,
        } => export(problem, &out, force),
    }
}

fn export(problem: Problem, out: &Path, force: bool) -> Result<Status, Fault> {
    let folder = super::case_folder(problem, None);
    // The cases are read and checked before anything is written: a broken case folder is
    // never exported as a package that its own tools would then refuse.
    let cases = super::gradable_cases(problem, None)?;
    let mut inputs = super::inputs(None, cases.iter().map(|c| &c.case));
    inputs.add(&folder, "case folder");
    write::check(out, force, &inputs)?;
    let files = tree::package(problem, &cases, super::problems::section(problem));
    write::write(out, &files)?;
    report::note(&format!(
        "wrote the {problem} package to {} ({} cases, {} files)",
        out.display(),
        cases.len(),
        files.len()
    ));
    Ok(Status::Ok)
}
