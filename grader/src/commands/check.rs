//! `grader check PROBLEM INPUT OUTPUT`: judges one output, as a special judge other tools
//! can call (exit 0 for AC, 1 for PE or WA).

use std::path::Path;

use reference::text::tolerate_line_ends;
use reference::{CheckError, Judgement, Problem, Verdict};

use crate::cli::args::CheckReport;
use crate::cli::exit::{Fault, Status};
use crate::paths::files;
use crate::report::exporter::Exporter;
use crate::report::{human, json};
use crate::results::check::CheckResult;

pub(crate) fn run(
    problem: Problem,
    input_path: &Path,
    output_path: &Path,
    answer_path: Option<&Path>,
    format: CheckReport,
) -> Result<Status, Fault> {
    let input = files::read_capped(input_path)?;
    let (output, whole) = files::read_prefix(output_path)?;
    let answer = answer_path.map(files::read_capped).transpose()?;
    // The input and answer files were written by people or tools, not by the contestant:
    // their line ends are not on trial. The output is judged as it is.
    let input = tolerate_line_ends(&input);
    let answer = answer.as_deref().map(tolerate_line_ends);
    let judgement = problem.check(&input, answer.as_deref(), &output);
    // Every correct output is a few kilobytes: one that does not fit the cap is wrong,
    // whatever its first bytes say.
    let judgement = judgement
        .map(|j| {
            if whole {
                j
            } else {
                Judgement::wrong(format!(
                    "the output is larger than {} MiB",
                    files::READ_CAP >> 20
                ))
            }
        })
        .map_err(|e| match e {
            CheckError::Input(e) => Fault::at(input_path, &e),
            CheckError::Answer(e) => Fault::at(answer_path.unwrap_or(input_path), &e),
            CheckError::Wrong(message) => Fault::input(format!(
                "{}: not a correct answer: {message}",
                answer_path.unwrap_or(input_path).display()
            )),
        })?;
    let exporter = match format {
        CheckReport::Human => Exporter::raw(human::check::verdict),
        CheckReport::Json => Exporter::raw(json::check),
    };
    let accepted = judgement.verdict == Verdict::Accepted;
    exporter.print(&CheckResult { problem, judgement })?;
    Ok(Status::failed_if(!accepted))
}
