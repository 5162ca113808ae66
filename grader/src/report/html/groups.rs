//! The student x group matrix: each cell a student's passed/total in a group (and how
//! many of its cases were not run, `--`), coloured by the worst verdict there (or
//! `partial` when some passed).

use std::io::{self, Write};

use maud::html;

use super::parts::{around, hole};
use crate::report::book::Book;

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
                    @for ((group, class), not_run) in book.head.groups.keys().zip(standing.cells.iter().copied()).zip(&standing.not_run_by_group) {
                        @let tally = s.groups.get(group).copied().unwrap_or_default();
                        td.num.(class) {
                            (tally.passed) "/" (tally.total)
                            @if *not_run > 0 { ", " (not_run) " --" }
                        }
                    }
                } "\n"
            };
            out.write_all(row.into_string().as_bytes())?;
        }
        Ok(())
    })
}
