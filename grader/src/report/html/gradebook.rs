//! The page: the class summary with a verdict histogram, a sortable table of students,
//! the student x group matrix, every student's failing cases, and what was not graded.

use std::io::{self, Write};

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::{failures, groups};
use crate::results::gradebook::Gradebook;
use crate::results::mark::Mark;

/// The page's style sheet, inline: the page is one file.
const STYLE: &str = include_str!("page.css");

/// The script that sorts the students' table by a clicked column, inline too.
const SCRIPT: &str = include_str!("sort.js");

/// `gradebook.html`.
pub(crate) fn page(book: &Gradebook, out: &mut dyn Write) -> io::Result<()> {
    let limits = &book.limits;
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (book.problem) " gradebook" }
                // Constants of this crate, not data: nothing in them comes from a student.
                style { (PreEscaped(STYLE)) }
            }
            body {
                // Newlines between blocks and rows, for a person reading the source.
                "\n"
                h1 { (book.problem) ": " (book.students.len()) " students, " (book.cases.len()) " cases" } "\n"
                p {
                    "Limits: " (limits.cpu_ms) " ms CPU, " (limits.wall_ms) " ms wall, "
                    (limits.memory_kib / 1024) " MiB memory, " (limits.output_kib / 1024) " MiB output."
                } "\n"
                (histogram(book))
                (students(book))
                (groups::matrix(book))
                (failures::section(book))
                @if !book.skipped.is_empty() {
                    h2 { "Not graded" } "\n"
                    ul {
                        @for s in &book.skipped {
                            li { code { (s.path) } ": " (s.why) } "\n"
                        }
                    } "\n"
                }
                script { (PreEscaped(SCRIPT)) } "\n"
            }
        }
    };
    writeln!(out, "{}", markup.into_string())
}

/// The CSS class of a mark: its code, `none` for `--`.
pub(super) fn css_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Graded(verdict) => verdict.code(),
        Mark::NotGraded => "none",
    }
}

/// How many students got each mark, with a bar as long as its share of the largest.
fn histogram(book: &Gradebook) -> Markup {
    let counts = book.histogram();
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    html! {
        h2 { "Verdicts" } "\n"
        table #histogram {
            @for (mark, n) in &counts {
                tr {
                    td { span.v.(css_class(*mark)) { (mark.code()) } }
                    td.num { (n) }
                    td { span.bar.(css_class(*mark)) style={ "width:" (n * 20 / most) "em" } {} }
                } "\n"
            }
        } "\n"
    }
}

/// The students' table, sortable by any column (each cell's sort key is its `data-key`).
fn students(book: &Gradebook) -> Markup {
    html! {
        h2 { "Students" } "\n"
        table #students.sortable {
            thead {
                tr {
                    th.sortable { "Student" }
                    th.sortable { "Verdict" }
                    th.sortable.num { "Score" }
                    @if let Some(points) = &book.points {
                        th.sortable.num { "Points (of " (crate::cases::points::most(points)) ")" }
                    }
                    th.sortable.num { "Passed" }
                    th.sortable { "Language" }
                    th.sortable { "Submission" }
                }
            }
            tbody {
                @for (index, s) in book.students.iter().enumerate() {
                    tr.student {
                        td data-key=(s.student) { a href={ "#s-" (index) } { (s.student) } }
                        td data-key=(s.verdict.code()) { span.v.(css_class(s.verdict)) { (s.verdict.code()) } }
                        td.num data-key=(s.score) { (format!("{:.1}%", s.score)) }
                        @if book.points.is_some() {
                            td.num data-key=(s.points.unwrap_or_default()) { (s.points.unwrap_or_default()) }
                        }
                        td.num data-key=(s.passed) { (s.passed) "/" (s.total) }
                        td data-key=(s.language) { (s.language) }
                        td data-key=(s.submission) { code { (s.submission) } }
                    } "\n"
                }
            }
        } "\n"
    }
}
