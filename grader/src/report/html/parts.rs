//! Small parts every HTML page of the grader shares: writing a page around what streams
//! into its middle ([`around`], [`hole`]), the CSS class of a mark and of a group's cell,
//! and how a page names a kind of mistake.

use std::io::{self, Write};

use maud::{Markup, PreEscaped, html};
use reference::{Problem, Verdict};

use crate::results::feedback::Mistake;
use crate::results::gradebook::StudentReport;
use crate::results::mark::Mark;

/// Where a part of the page written a student at a time goes in the markup around it: a
/// character no name or text of the page holds (no file name has a NUL).
const HOLE: &str = "\0";

/// Writes `markup`, with what `inside` writes where its [`HOLE`] is.
pub(super) fn around(
    markup: Markup,
    out: &mut dyn Write,
    inside: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let text = markup.into_string();
    let (before, after) = text
        .split_once(HOLE)
        .ok_or_else(|| io::Error::other("a page part without its place"))?;
    out.write_all(before.as_bytes())?;
    inside(out)?;
    out.write_all(after.as_bytes())
}

/// A place in a markup for [`around`].
pub(super) fn hole() -> PreEscaped<&'static str> {
    PreEscaped(HOLE)
}

/// The CSS class of a mark: its code, `none` for `--`.
pub(super) fn css_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Graded(verdict) => verdict.code(),
        Mark::NotGraded => "none",
    }
}

/// How a page names a kind of mistake, in a few words; the drawn case says the rest.
pub(super) fn title(kind: Mistake, problem: Option<Problem>) -> Markup {
    let impossible = html! { code { "Impossible" } };
    // What a case of the problem is.
    let board = if problem == Some(Problem::Swap) {
        "row"
    } else {
        "board"
    };
    match kind {
        Mistake::Verdict(verdict) => {
            let words = verdict.description();
            let mut chars = words.chars();
            let capital: String = chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            html! { (capital) }
        }
        Mistake::Layout => {
            html! { "Right answer, wrong layout: print it exactly as the statement shows" }
        }
        Mistake::NoOutput => html! { "No output" },
        Mistake::NotImpossible => {
            html! { "The " (board) " cannot be solved: print " (impossible) ", exactly so" }
        }
        Mistake::SaidImpossible => {
            html! { "You printed " (impossible) " for a " (board) " that can be solved" }
        }
        Mistake::NotACount => html! { "Your output does not start with a count or " (impossible) },
        Mistake::Above => html! { "Your count is more than the minimum" },
        Mistake::Below => html! { "Your count is less than the minimum" },
        Mistake::RightStart => html! { "Your count is right, but what follows it is wrong" },
    }
}

/// The CSS class of a student's cell in `group`: `AC`, the worst verdict when every case
/// there failed, `partial`, `CE`, or `none` when no case of it ran.
pub(crate) fn group_class(s: &StudentReport, group: &str) -> &'static str {
    if s.compile_error.is_some() {
        return "CE";
    }
    let verdicts: Vec<Verdict> = s
        .cases
        .iter()
        .filter(|c| c.group() == group)
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
