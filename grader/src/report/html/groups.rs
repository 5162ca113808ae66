//! The student x group matrix: each cell a student's passed/total in a group, coloured by
//! the worst verdict there (or `partial` when some passed).

use maud::{Markup, html};
use reference::Verdict;

use crate::results::gradebook::{Gradebook, StudentReport};

/// The matrix.
pub(super) fn matrix(book: &Gradebook) -> Markup {
    html! {
        h2 { "Students by group" } "\n"
        table #matrix {
            thead {
                tr {
                    th { "Student" }
                    @for (group, n) in &book.groups {
                        th { (group) " " span.num { "(" (n) ")" } }
                    }
                }
            }
            tbody {
                @for s in &book.students {
                    tr {
                        td { (s.student) }
                        @for group in book.groups.keys() {
                            @let tally = s.groups.get(group).copied().unwrap_or_default();
                            td.num.(group_class(s, group)) { (tally.passed) "/" (tally.total) }
                        }
                    } "\n"
                }
            }
        } "\n"
    }
}

/// The CSS class of a student's cell in `group`: `AC`, the worst verdict when every case
/// there failed, `partial`, `CE`, or `none` when no case of it ran.
pub(super) fn group_class(s: &StudentReport, group: &str) -> &'static str {
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
