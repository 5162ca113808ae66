//! `grader solve PROBLEM [FILE]`: the reference answer, exactly as a correct contestant
//! prints it; with `--explain`, why it is the answer (a minimum solution drawn step by
//! step, or what blocks every solution); with `--report json`, one JSON object.

use std::path::Path;

use reference::Problem;
use reference::text::tolerate_line_ends;

use super::flags::display_name;
use crate::cli::args::SolveReport;
use crate::cli::exit::{Fault, Status};
use crate::paths::files;
use crate::report::exporter::Exporter;
use crate::report::{human, json};
use crate::results::solved::Solved;

pub(crate) fn run(
    problem: Problem,
    file: Option<&Path>,
    strict: bool,
    explain: bool,
    format: SolveReport,
) -> Result<Status, Fault> {
    let bytes = files::read_input(file)?;
    // A person typed this input: `\r\n` or a missing final newline is not worth a refusal
    // unless asked (`--strict` is the validator's view, problems.md's clean form).
    let input = if strict {
        bytes.as_slice().into()
    } else {
        tolerate_line_ends(&bytes)
    };
    let at_fault = |e: reference::ParseError| Fault::at(&display_name(file), &e);
    let answer = problem.solve(&input).map_err(at_fault)?;
    let explanation = if explain {
        Some(problem.witness(&input).map_err(at_fault)?)
    } else {
        None
    };
    let exporter = match format {
        SolveReport::Human => Exporter::raw(human::solve::answer),
        SolveReport::Json => Exporter::raw(json::solve),
    };
    exporter.print(&Solved {
        problem,
        answer,
        explanation,
    })?;
    Ok(Status::Ok)
}
