//! The student x group matrix: each cell a student's passed/total in a group, coloured by
//! the worst verdict there (or `partial` when some passed).

use std::io::{self, Write};

use maud::html;
use reference::Verdict;

use super::gradebook::{around, hole};
use crate::report::book::Book;
use crate::results::gradebook::StudentReport;

/// The matrix, a row at a time (each student's cells are in its standing).
pub(super) fn matrix(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let table = html! {
        h2 { "Students by group" } "\n"
        table #matrix {
            thead {
                tr {
                    th { "Student" }
                    @for (group, n) in &book.head.groups {
                        th { (group) " " span.num { "(" (n) ")" } }
                    }
                }
            }
            tbody { (hole()) }
        } "\n"
    };
    around(table, out, |out| {
        for standing in book.standings {
            let s = &standing.report;
            let row = html! {
                tr {
                    td { (s.student) }
                    @for (group, class) in book.head.groups.keys().zip(standing.cells.iter().copied()) {
                        @let tally = s.groups.get(group).copied().unwrap_or_default();
                        td.num.(class) { (tally.passed) "/" (tally.total) }
                    }
                } "\n"
            };
            out.write_all(row.into_string().as_bytes())?;
        }
        Ok(())
    })
}

/// The CSS class of a student's cell in `group`: `AC`, the worst verdict when every case
/// there failed, `partial`, `CE`, or `none` when no case of it ran.
pub(crate) fn group_class(s: &StudentReport, group: &str) -> &'static str {
    if s.compile_error.is_some() {
        return "CE";
    }
    let in_group = |name: &str| match name.rsplit_once('/') {
        Some((g, _)) => g == group,
        None => group == ".",
    };
    let verdicts: Vec<Verdict> = s
        .cases
        .iter()
        .filter(|c| in_group(&c.name))
        .map(|c| c.verdict)
        .collect();
    if verdicts.is_empty() {
        return "none";
    }
    let failing = verdicts.iter().filter(|v| **v != Verdict::Accepted).count();
    match failing {
        0 => "AC",
        n if n == verdicts.len() => Verdict::worst(verdicts).code(),
        _ => "partial",
    }
}
