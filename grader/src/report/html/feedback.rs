//! A student's feedback page (`--feedback DIR`): one self-contained HTML page to hand
//! out, with that student's verdicts, score and points, and each failure as much as
//! `--reveal` shows ([`Reveal::of`], the one rule). It names no other student and counts
//! nothing of the class.
//!
//! The pages go in one flat folder, `DIR/<name>.html` ([`page_names`]), checked before
//! any work by the rule of outputs (`outputs`, as `--out` is) and written atomically.

use std::io::{self, Write};
use std::path::Path;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use reference::Problem;

use super::gradebook::css_class;
use super::witness;
use crate::outputs::{self, Inputs, Kind};
use crate::report::export::Exporter;
use crate::results::case::CaseResult;
use crate::results::feedback::{Reveal, page_names};
use crate::results::gradebook::{Gradebook, StudentReport};
use crate::status::Fault;
use crate::submission::diagnosis;

/// The page's style sheet, the gradebook's: the page is one file.
const STYLE: &str = include_str!("page.css");

/// One student's page: the gradebook it comes from, the student, and what to reveal.
pub(crate) struct Handout<'a> {
    /// The gradebook (its problem, cases, boards and points; never its other students).
    pub(crate) book: &'a Gradebook,
    /// The student.
    pub(crate) student: &'a StudentReport,
    /// What the page shows of the secret cases.
    pub(crate) reveal: Reveal,
}

/// Checks the feedback folder `dir` and the pages it will hold (one per student of
/// `students`) by the rule of outputs, before any work. `out` is the gradebook's folder:
/// the pages never go in it (the gradebook names every student, and a student named
/// `gradebook` would take its page's name).
pub(crate) fn check<'a>(
    dir: &Path,
    out: &Path,
    students: impl IntoIterator<Item = &'a str>,
    inputs: &Inputs,
) -> Result<(), Fault> {
    if same_folder(dir, out) {
        return Err(Fault::Usage(format!(
            "{}: --feedback is the gradebook's --out folder; feedback pages go in a folder \
             of their own",
            dir.display()
        )));
    }
    let names = page_names(students);
    let files: Vec<(&str, Kind)> = names.iter().map(|n| (n.as_str(), Kind::Feedback)).collect();
    outputs::folder(dir, &files, inputs)
}

/// Whether `a` and `b` are one folder: the same file when both exist, else the same
/// absolute path.
fn same_folder(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x.components().eq(y.components()),
            _ => false,
        },
    }
}

/// Writes every student's page into `dir` (made when missing), each atomically.
pub(crate) fn write_pages(book: &Gradebook, dir: &Path, reveal: Reveal) -> Result<(), Fault> {
    crate::folders::create(dir)?;
    let names = page_names(book.students.iter().map(|s| s.student.as_str()));
    for (student, name) in book.students.iter().zip(names) {
        let handout = Handout {
            book,
            student,
            reveal,
        };
        Exporter::raw(page).save(&dir.join(name), &handout)?;
    }
    Ok(())
}

/// The page.
pub(crate) fn page(handout: &Handout<'_>, out: &mut dyn Write) -> io::Result<()> {
    let Handout {
        book,
        student: s,
        reveal,
    } = *handout;
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (book.problem) ": " (s.student) " feedback" }
                // A constant of this crate, not data.
                style { (PreEscaped(STYLE)) }
            }
            body {
                "\n"
                h1 { (book.problem) ": feedback for " (s.student) } "\n"
                p {
                    "Verdict: " span.v.(css_class(s.verdict)) { (s.verdict.code()) }
                    @if s.total > 0 && s.compile_error.is_none() && s.error.is_none() {
                        ". Score: " (format!("{:.1}%", s.score)) " (" (s.passed) " of " (s.total) " cases passed)"
                    }
                    @if let (Some(points), Some(earned)) = (&book.points, s.points) {
                        ". Points: " (earned) " of " (crate::cases::points::most(points))
                    }
                    "."
                } "\n"
                p { "Submission: " code { (s.submission) } " (" (s.language) ")." } "\n"
                p.note { "Sample cases are shown in full; " (reveal.describe()) "." } "\n"
                (body(book, s, reveal))
            }
        }
    };
    writeln!(out, "{}", markup.into_string())
}

/// What the student gets: the compiler's message, why it was not graded, or every case's
/// verdict and each failure as the choice shows it.
fn body(book: &Gradebook, s: &StudentReport, reveal: Reveal) -> Markup {
    html! {
        @if let Some(message) = &s.compile_error {
            h2 { "Did not compile: " (diagnosis::summary(message)) } "\n"
            @if let Some(x) = &s.suggestion { p.suggestion { (x.for_student(&s.student)) } }
            pre { (message) } "\n"
        } @else if let Some(why) = &s.error {
            h2 { "Not graded" } "\n"
            p { (why) } "\n"
        } @else {
            h2 { "Cases" } "\n"
            table {
                @for name in &book.cases {
                    @let result = s.cases.iter().find(|c| &c.name == name);
                    tr {
                        td { code { (name) } }
                        td {
                            @match result {
                                Some(c) => span.v.(c.verdict.code()) { (c.verdict.code()) },
                                None => span.v.none { "not run" },
                            }
                        }
                    } "\n"
                }
            } "\n"
            @let failing: Vec<&CaseResult> = s.failures().collect();
            @if !failing.is_empty() {
                h2 { "Failing cases" } "\n"
                @for c in failing {
                    (case(book, c, reveal))
                }
            }
        }
    }
}

/// A failing case, as much as `reveal` shows of it.
fn case(book: &Gradebook, c: &CaseResult, reveal: Reveal) -> Markup {
    let shown = reveal.of(&c.name);
    let board = book.boards.get(&c.name).filter(|_| shown.board);
    let problem: Option<Problem> = book.problem.parse().ok();
    html! {
        section.case {
            h3 {
                span.v.(c.verdict.code()) { (c.verdict.code()) } " " code { (c.name) }
                @if shown.answer && !c.message.is_empty() { ": " (c.message) }
            }
            @if let Some(board) = board {
                div.cols {
                    div { "board" pre { (board.input) } }
                    @if shown.answer {
                        div { "expected" pre { (board.answer) } }
                        div { "your output" pre { (reference::visible::escape_lines(&c.output)) } }
                    }
                }
                @if shown.answer && !c.stderr.is_empty() {
                    div { "stderr (end)" pre { (reference::visible::escape_lines(&c.stderr)) } }
                }
                @if let (Some(problem), Some(explained)) = (problem, &c.explanation) {
                    (witness::explanation(problem, &board.input, explained, shown.answer.then_some(c.output.as_slice())))
                }
            }
        } "\n"
    }
}
