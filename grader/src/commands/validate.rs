//! `grader validate PROBLEM FILE...`: the strict validator of problems.md, one line per
//! file; exit 1 when any file is malformed.

use std::fmt::Write as _;
use std::path::PathBuf;

use reference::Problem;

use super::flags::display_name;
use crate::cli::exit::{Fault, Status, located};
use crate::paths::files;
use crate::report;

pub(crate) fn run(problem: Problem, paths: &[PathBuf]) -> Result<Status, Fault> {
    let paths: Vec<Option<&std::path::Path>> = if paths.is_empty() {
        vec![None]
    } else {
        paths.iter().map(|p| Some(p.as_path())).collect()
    };
    let mut malformed = 0;
    let mut text = String::new();
    for path in &paths {
        let bytes = files::read_input(*path)?;
        let name = display_name(*path);
        // problems.md: inputs are clean; the validator tolerates nothing.
        match problem.validate(&bytes) {
            Ok(()) => {
                let _ = writeln!(text, "{}: ok", name.display());
            }
            Err(error) => {
                malformed += 1;
                text.push_str(&located(&name, &error));
                text.push('\n');
            }
        }
    }
    report::out(&text);
    Ok(Status::failed_if(malformed > 0))
}
