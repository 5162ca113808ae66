//! The class's failing cases by reason, not by student: one section per reason (a layout
//! mistake, a count above the minimum, a `TLE`, a compile error, ...) with the students
//! under it, most students first. Thirty students who print one empty line too many are
//! one section with one example, not thirty blocks that push the rest off the page.
//!
//! A wrong number keeps its case in full per student (input, expected, got, diff, and the
//! reference's explanation drawn), folded under the student's name: each student's is a
//! different board. A layout mistake is said once, with one example and no drawing.

use std::collections::BTreeMap;
use std::io::{self, Write};

use maud::{Markup, html};

use reference::{Problem, Verdict};

use super::parts::{around, css_class, hole, title as mistake_title};
use super::witness;
use crate::report::book::{Book, Standing};
use crate::report::reasons::Reason;
use crate::results::case::{Board, CaseResult};
use crate::results::gradebook::{Head, StudentReport};
use crate::results::layout_mistake::Layout;
use crate::submission::diagnosis;

/// A student's cases of one reason shown in full: the rest are named.
const DETAILED: usize = 3;

/// The students of one reason who fold out to their cases; the others are listed by name
/// with how many cases each. A class of 3,000 with 600 students under one reason made a
/// 10 MB page that headless Chromium took 3.5 s to open; the teacher reads a few
/// examples of a reason, and each student's feedback page has all of them.
const FOLDED: usize = 25;

/// A student under a reason.
struct Entry<'a> {
    /// Its place in the gradebook, for the table's link.
    index: usize,
    standing: &'a Standing,
    /// How many of its cases have the reason (none for a build or not graded).
    cases: usize,
    /// Whether the table's link lands here: the student's first entry on the page.
    anchor: bool,
}

impl Entry<'_> {
    /// The student's report, without its cases.
    fn student(&self) -> &StudentReport {
        &self.standing.report
    }

    /// Its cases of `reason`, read back with the student.
    fn cases(&self, book: &Book<'_>, reason: Reason) -> io::Result<Vec<CaseResult>> {
        if self.cases == 0 {
            return Ok(Vec::new());
        }
        let student = book.student(self.index)?;
        let boards = &book.head.boards;
        let of_reason = |c: &&CaseResult| Reason::of(c, boards.get(&c.name)) == reason;
        Ok(student.failures().filter(of_reason).cloned().collect())
    }
}

/// The reasons with their students, most students first (then in the order of
/// [`Reason`]), each student's first entry marked as its anchor.
fn by_reason<'a>(book: &Book<'a>) -> Vec<(Reason, Vec<Entry<'a>>)> {
    let mut reasons: BTreeMap<Reason, Vec<Entry<'a>>> = BTreeMap::new();
    for (index, standing) in book.standings.iter().enumerate() {
        for &(reason, cases) in &standing.reasons {
            reasons.entry(reason).or_default().push(Entry {
                index,
                standing,
                cases,
                anchor: false,
            });
        }
    }
    let mut reasons: Vec<_> = reasons.into_iter().collect();
    reasons.sort_by_key(|(reason, entries)| (std::cmp::Reverse(entries.len()), *reason));
    let mut anchored = vec![false; book.standings.len()];
    for (_, entries) in &mut reasons {
        for entry in entries {
            entry.anchor = !std::mem::replace(&mut anchored[entry.index], true);
        }
    }
    reasons
}

/// The section, a student at a time.
pub(super) fn section(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let problem: Option<Problem> = book.head.problem.parse().ok();
    let reasons = by_reason(book);
    let title_line = html! { h2 { "Failing cases, by reason" } "\n" };
    out.write_all(title_line.into_string().as_bytes())?;
    for (at, (reason, entries)) in reasons.iter().enumerate() {
        let cases: usize = entries.iter().map(|e| e.cases).sum();
        let frame = html! {
            section.reason id={ "r-" (at) } {
                h3 {
                    span.v.(reason.code()) { (reason.code()) } " " (title(*reason, problem))
                    " " span.count {
                        "(" (count(entries.len(), "student"))
                        @if cases > 0 { ", " (count(cases, "case")) }
                        ")"
                    }
                } "\n"
                (hole())
            } "\n"
        };
        around(frame, out, |out| {
            if let Reason::Layout(mistake) = reason {
                return layout(book, *mistake, entries, out);
            }
            for entry in entries.iter().take(FOLDED) {
                let cases = entry.cases(book, *reason)?;
                let folded = student(book.head, *reason, entry, &cases, problem);
                out.write_all(folded.into_string().as_bytes())?;
            }
            if entries.len() > FOLDED {
                let more = html! {
                    p.more { (count(entries.len() - FOLDED, "more student")) " of this reason:" } "\n"
                };
                out.write_all(more.into_string().as_bytes())?;
                listed(book, *reason, &entries[FOLDED..], out)?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// `1 student`, `3 cases`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// How the page names a reason.
fn title(reason: Reason, problem: Option<Problem>) -> Markup {
    match reason {
        Reason::Build => html! { "Did not compile" },
        Reason::NotGraded => html! { "Not graded" },
        Reason::Layout(_) => html! { "Right answer, wrong layout" },
        Reason::Case(mistake) => mistake_title(mistake, problem),
    }
}

/// A layout mistake: said once, one case in full as the example (no drawing: a minimum
/// solution has nothing to do with it), and the students with how many cases each.
fn layout(
    book: &Book<'_>,
    mistake: Option<Layout>,
    entries: &[Entry<'_>],
    out: &mut dyn Write,
) -> io::Result<()> {
    let example = match entries.first() {
        Some(entry) => {
            let cases = entry.cases(book, Reason::Layout(mistake))?;
            cases.into_iter().next().map(|c| (entry.student(), c))
        }
        None => None,
    };
    let said = html! {
        @if let Some(mistake) = mistake { p.mistake { "What is wrong: " (mistake.says()) "." } "\n" }
        @if let Some((s, c)) = &example {
            details.example {
                summary { "For example, " (s.student) " on " code { (c.name) } }
                (case(c, book.head.boards.get(&c.name), None))
            } "\n"
        }
    };
    out.write_all(said.into_string().as_bytes())?;
    listed(book, Reason::Layout(mistake), entries, out)
}

/// Students by name, with how many cases of the reason each has (and which, when not all
/// of its cases), each the landing place of the table's link when it is the student's
/// first entry.
fn listed(
    book: &Book<'_>,
    reason: Reason,
    entries: &[Entry<'_>],
    out: &mut dyn Write,
) -> io::Result<()> {
    around(html! { ul.students { (hole()) } }, out, |out| {
        for entry in entries {
            let s = entry.student();
            // Which cases, read back only when not all of its cases have the reason.
            let which = if entry.cases > 0 && entry.cases < s.total {
                Some(names(&entry.cases(book, reason)?))
            } else {
                None
            };
            let item = html! {
                li id=[entry.anchor.then(|| format!("s-{}", entry.index))] {
                    (s.student)
                    @if entry.cases == 0 {
                        " " span.v.(css_class(s.verdict)) { (s.verdict.code()) }
                    } @else {
                        ": " (count(entry.cases, "case"))
                        @if let Some(which) = &which { " (" (which) ")" }
                    }
                } "\n"
            };
            out.write_all(item.into_string().as_bytes())?;
        }
        Ok(())
    })
}

/// One student under a reason, folded: its first cases of it (`cases`) in full, the
/// others named; or its compile error, or why it was not graded.
fn student(
    head: &Head,
    reason: Reason,
    entry: &Entry<'_>,
    cases: &[CaseResult],
    problem: Option<Problem>,
) -> Markup {
    let s = entry.student();
    html! {
        details.student id=[entry.anchor.then(|| format!("s-{}", entry.index))] {
            summary {
                (s.student) " " span.v.(css_class(s.verdict)) { (s.verdict.code()) }
                @match reason {
                    // A compile error says its first error up front.
                    Reason::Build => { ": " (s.compile_error.as_deref().map(diagnosis::summary).unwrap_or_default()) }
                    Reason::NotGraded => {}
                    _ => { ": " (count(cases.len(), "case")) }
                }
            }
            @if let (Reason::Build, Some(x)) = (reason, &s.suggestion) {
                p.suggestion { (x.for_student(&s.student)) }
            }
            @if let Some(message) = s.compile_error.as_ref().or(s.error.as_ref()) {
                pre { (message) }
            }
            @for c in cases.iter().take(DETAILED) {
                (case(c, head.boards.get(&c.name), problem))
            }
            @if cases.len() > DETAILED {
                p { "Also: " (names(&cases[DETAILED..])) }
            }
        } "\n"
    }
}

/// Case names, comma-separated.
fn names(cases: &[CaseResult]) -> String {
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    names.join(", ")
}

/// A failing case: input, expected, got, diff, the end of stderr, and for a wrong number
/// (`problem` given) the reference's explanation.
fn case(c: &CaseResult, board: Option<&Board>, problem: Option<Problem>) -> Markup {
    let input = board.map_or("", |b| b.input.as_str());
    let expected = board.map_or("", |b| b.answer.as_str());
    // What a browser would hide in the contestant's text, escaped.
    let shown = reference::visible::escape_lines(&c.output);
    let stderr = reference::visible::escape_lines(&c.stderr);
    let drawn = problem.filter(|_| c.verdict == Verdict::WrongAnswer);
    html! {
        h4 { span.v.(c.verdict.code()) { (c.verdict.code()) } " " (c.name) ": " (c.message) }
        @if c.interaction.is_empty() {
            div.cols {
                div { "input" pre { (input) } }
                div { "expected" pre { (expected) } }
                div { "got" pre { @if shown.starts_with('\n') { "\n" } (shown) } }
                div { "diff" pre { (diff(expected, &shown)) } }
            }
        } @else {
            // An interactive problem's case: what passed each way, not an output.
            div.cols {
                div { "input" pre { (input) } }
                div { "interaction (> the submission wrote, < it read)"
                    pre { (reference::visible::escape_lines(&c.interaction)) } }
            }
        }
        @if !stderr.trim().is_empty() {
            div { "stderr (end)" pre { (stderr) } }
        }
        @if let (Some(problem), Some(board), Some(explained)) = (drawn, board, &c.explanation) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::samples;

    #[test]
    fn a_reason_folds_out_its_first_students_and_lists_the_rest_each_once() {
        let mut book = samples::gradebook();
        let bob = book
            .students
            .iter()
            .find(|s| s.student == "bob")
            .expect("bob fails a case")
            .clone();
        book.students = (0..FOLDED + 7)
            .map(|i| {
                let mut s = bob.clone();
                s.student = format!("s{i:03}");
                s
            })
            .collect();
        let held = crate::report::book::Held::new(book);
        let mut page = Vec::new();
        section(&held.book(), &mut page).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert_eq!(page.matches("<details class=\"student\"").count(), FOLDED);
        assert!(page.contains("7 more students of this reason"), "{page}");
        // Every student is on the page once, and the table's link lands on each.
        for i in 0..FOLDED + 7 {
            let name = format!("s{i:03}");
            assert_eq!(page.matches(&format!(">{name}")).count(), 1, "{name}");
            assert_eq!(page.matches(&format!("id=\"s-{i}\"")).count(), 1, "{name}");
        }
    }
}
