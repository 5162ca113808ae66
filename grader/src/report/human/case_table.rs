//! The table of cases of `grader test`: a line per case, whole in the report or streamed
//! by the progress display as cases finish (the same line either way).

use crate::report::style::{paint, verdict_style};
use crate::results::case::CaseResult;
use crate::run::judge::mebibytes;

/// The width of the table's name column for these names.
pub(crate) fn name_width<'n>(names: impl Iterator<Item = &'n str>) -> usize {
    names.map(str::len).max().unwrap_or(0)
}

/// A case's line of the table: verdict, name, CPU time, peak memory, message.
pub(crate) fn case_line(r: &CaseResult, width: usize) -> String {
    let v = r.verdict;
    format!(
        "  {}  {:<width$}  {:>8.1} ms  {:>7}  {}\n",
        paint(verdict_style(v), &format!("{:<3}", v.code())),
        r.name,
        r.cpu_ms,
        mebibytes(r.memory_kib * 1024),
        r.message
    )
}
