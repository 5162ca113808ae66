//! Every student's failing cases: the input board, expected and got, and their diff; or
//! the compiler's message (with the profile it points to), or why it was not graded.

use maud::{Markup, html};

use reference::Problem;

use super::gradebook::css_class;
use super::witness;
use crate::results::case::{Board, CaseResult};
use crate::results::gradebook::{Gradebook, StudentReport};
use crate::submission::diagnosis;

/// Failing cases shown in full per student: the rest are listed by name.
const DETAILED: usize = 5;

/// The section, a `<section id="s-N">` per student (the students' table links to them).
pub(super) fn section(book: &Gradebook) -> Markup {
    html! {
        h2 { "Failing cases" } "\n"
        @for (index, s) in book.students.iter().enumerate() {
            section id={ "s-" (index) } { (student(book, s)) } "\n"
        }
    }
}

/// One student's failures.
fn student(book: &Gradebook, s: &StudentReport) -> Markup {
    let failing: Vec<&CaseResult> = s.failures().collect();
    html! {
        @if let Some(message) = s.compile_error.as_ref().or(s.error.as_ref()) {
            details {
                summary {
                    (s.student) " " span.v.(css_class(s.verdict)) { (s.verdict.code()) }
                    // A compile error says its first error up front.
                    @if let Some(m) = &s.compile_error { ": " (diagnosis::summary(m)) }
                }
                @if let (Some(_), Some(x)) = (&s.compile_error, &s.suggestion) {
                    p.suggestion { (x.for_student(&s.student)) }
                }
                pre { (message) }
            }
        } @else if !failing.is_empty() {
            details {
                summary { (s.student) ": " (failing.len()) " failing of " (s.total) }
                @for c in failing.iter().take(DETAILED) {
                    (case(c, book.boards.get(&c.name), book.problem.parse().ok()))
                }
                @if failing.len() > DETAILED {
                    @let rest: Vec<&str> = failing[DETAILED..].iter().map(|c| c.name.as_str()).collect();
                    p { "Also failing: " (rest.join(", ")) }
                }
            }
        }
    }
}

/// A failing case: input, expected, got, diff, the end of stderr, and the reference's
/// explanation of a wrong answer.
fn case(c: &CaseResult, board: Option<&Board>, problem: Option<Problem>) -> Markup {
    let input = board.map_or("", |b| b.input.as_str());
    let expected = board.map_or("", |b| b.answer.as_str());
    // What a browser would hide in the contestant's text, escaped.
    let shown = reference::visible::escape_lines(&c.output);
    let stderr = reference::visible::escape_lines(&c.stderr);
    html! {
        h3 { span.v.(c.verdict.code()) { (c.verdict.code()) } " " (c.name) ": " (c.message) }
        div.cols {
            div { "input" pre { (input) } }
            div { "expected" pre { (expected) } }
            div { "got" pre { (shown) } }
            div { "diff" pre { (diff(expected, &shown)) } }
        }
        @if !stderr.trim().is_empty() {
            div { "stderr (end)" pre { (stderr) } }
        }
        @if let (Some(problem), Some(board), Some(explained)) = (problem, board, &c.explanation) {
            (witness::explanation(problem, &board.input, explained, Some(&c.output)))
        }
    }
}

/// A line diff of expected and got.
fn diff(expected: &str, got: &str) -> Markup {
    html! {
        @for change in similar::TextDiff::from_lines(expected, got).iter_all_changes() {
            @let line = change.value().trim_end_matches('\n');
            @match change.tag() {
                similar::ChangeTag::Delete => { span.del { "-" (line) } "\n" }
                similar::ChangeTag::Insert => { span.ins { "+" (line) } "\n" }
                similar::ChangeTag::Equal => { " " (line) "\n" }
            }
        }
    }
}
