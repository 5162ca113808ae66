//! The human report of `grader test`: a header, the table of cases, the failures in full
//! (input, a diff of the answer, the reference's explanation, the end of stderr) and a
//! summary; or the compiler's refusal. The `PE` cases of one layout mistake are one
//! failure: the first in full, the mistake said once, the others named.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use reference::{Problem, Verdict};

use super::case_table::{case_line, name_width};
use super::{compile_error, explanation};
use crate::report::style::{paint, verdict_style};
use crate::results::case::{Board, CaseResult};
use crate::results::layout_mistake::{self, Block, Layout};
use crate::results::limits::LimitsRecord;
use crate::results::submission::SubmissionResult;
use crate::run::judge::{mebibytes, seconds};
use crate::submission::diagnosis;

/// How many failures (a case, or the cases of one layout mistake) the report shows in full.
const DETAILED_FAILURES: usize = 3;

/// How many groups of cases a layout mistake's list names before summing up the rest.
const LISTED_GROUPS: usize = 12;

/// The first line of the report: what is graded, how it was built, and under which
/// limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Heading<'a> {
    /// The problem id.
    pub(crate) problem: &'a str,
    /// The submission as the user named it.
    pub(crate) submission: &'a str,
    /// Its language (or `executable`, `command`).
    pub(crate) language: &'a str,
    /// How it was built; `None` in the header a terminal is shown before it is built.
    pub(crate) built: Option<&'a str>,
    /// How many cases the folder has.
    pub(crate) total: usize,
    /// The limits.
    pub(crate) limits: LimitsRecord,
}

/// The heading of `result`'s report.
pub(crate) fn heading(result: &SubmissionResult) -> Heading<'_> {
    Heading {
        problem: result.problem.id(),
        submission: &result.submission,
        language: &result.language,
        built: Some(result.build.describe()),
        total: result.total(),
        limits: result.limits,
    }
}

/// The header line: what is graded, how it was built (when it is), and under which limits.
pub(crate) fn header(heading: &Heading<'_>) -> String {
    let built = heading
        .built
        .map(|how| format!(", {how}"))
        .unwrap_or_default();
    let facts = format!(
        "({}{built}; {} cases; limits {} CPU, {} wall, {}, {} output; sandbox {})",
        heading.language,
        heading.total,
        seconds(heading.limits.cpu()),
        seconds(heading.limits.wall()),
        mebibytes(heading.limits.memory()),
        mebibytes(heading.limits.output()),
        heading.limits.tier()
    );
    format!(
        "{} {} {}\n",
        paint(Style::new().bold(), heading.problem),
        heading.submission,
        paint(Style::new().dimmed(), &facts)
    )
}

/// The whole report.
pub(crate) fn report(result: &SubmissionResult, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(header(&heading(result)).as_bytes())?;
    body(result, true, out)
}

/// The report after its header and its table, which a terminal was shown as the cases
/// finished.
pub(crate) fn after_streamed_table(
    result: &SubmissionResult,
    out: &mut dyn Write,
) -> io::Result<()> {
    body(result, false, out)
}

/// The report after its header: the table of cases (unless `with_table` is false), the
/// failures in full and the summary; or the compiler's refusal.
fn body(result: &SubmissionResult, with_table: bool, out: &mut dyn Write) -> io::Result<()> {
    if let Some(message) = result.build.compile_error() {
        compile_error::body(out, message, result.suggestion().as_ref())?;
        let ce = Verdict::CompileError;
        return writeln!(
            out,
            "\n{} 0/{} passed: {}",
            paint(verdict_style(ce), ce.code()),
            result.total(),
            diagnosis::summary(message)
        );
    }
    if with_table {
        let width = name_width(result.cases.iter().map(|r| r.name.as_str()));
        for r in &result.cases {
            out.write_all(case_line(r, width).as_bytes())?;
        }
    }
    let failures: Vec<&CaseResult> = result.failures().collect();
    let blocks = layout_mistake::blocks(failures.iter().copied(), |name| {
        result.boards.get(name).map(|b| b.answer.as_str())
    });
    for block in blocks.iter().take(DETAILED_FAILURES) {
        let first = block.cases[0];
        details(
            out,
            result.problem.builtin(),
            first,
            result.boards.get(&first.name),
        )?;
        if let Some(mistake) = block.layout {
            same_mistake(out, mistake, block)?;
        }
    }
    let shown: usize = blocks
        .iter()
        .take(DETAILED_FAILURES)
        .map(|b| b.cases.len())
        .sum();
    if failures.len() > shown {
        let more = format!("... and {} more failing cases", failures.len() - shown);
        writeln!(out, "\n{}", paint(Style::new().dimmed(), &more))?;
    }
    let verdict = result.verdict();
    let skipped = result.total() - result.cases.len();
    write!(
        out,
        "\n{} {}/{} passed",
        paint(verdict_style(verdict), verdict.code()),
        result.passed(),
        result.total()
    )?;
    if let Some(first) = failures.first() {
        write!(out, "; first failure {}", first.name)?;
    }
    if skipped > 0 {
        write!(out, "; {skipped} not run (--fail-fast)")?;
    }
    writeln!(out)
}

/// A failing case in full: its input, a diff of the answer, why it is wrong (a built-in
/// problem's: the reference's explanation, its steps drawn; a package's: its output
/// validator's message), the end of stderr.
fn details(
    out: &mut dyn Write,
    problem: Option<Problem>,
    r: &CaseResult,
    board: Option<&Board>,
) -> io::Result<()> {
    let dim = Style::new().dimmed();
    writeln!(
        out,
        "\n{} {}: {}",
        paint(verdict_style(r.verdict), r.verdict.code()),
        r.name,
        r.message
    )?;
    let (input, expected) = board.map_or(("", ""), |b| (b.input.as_str(), b.answer.as_str()));
    writeln!(out, "{}", paint(dim, "  input:"))?;
    for line in input.lines().take(8) {
        writeln!(out, "    {line}")?;
    }
    if !r.interaction.is_empty() {
        interaction(out, r, board)?;
    } else if matches!(r.verdict, Verdict::WrongAnswer | Verdict::Presentation) {
        // The contestant's bytes, with what a terminal would hide (or obey) escaped.
        let got = reference::visible::escape_lines(&r.output);
        writeln!(out, "{}", paint(dim, "  expected (-) and got (+):"))?;
        diff(out, expected, &got)?;
        // A layout mistake is said by `same_mistake`: a minimum solution has nothing to
        // do with it.
        match (r.verdict, &r.explanation, problem) {
            (Verdict::WrongAnswer, Some(explained), Some(problem)) => {
                explanation::write(out, problem, input, &r.output, explained)?;
            }
            // A package's validator says why in its judge message: all there is.
            (Verdict::WrongAnswer, _, None) if !r.message.is_empty() => why(out, &r.message)?,
            _ => {}
        }
    }
    let tail = reference::visible::escape_lines(&r.stderr);
    if !tail.trim().is_empty() {
        writeln!(out, "{}", paint(dim, "  stderr (end):"))?;
        let lines: Vec<&str> = tail.lines().collect();
        for line in &lines[lines.len().saturating_sub(6)..] {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

/// A package's validator's reason for a wrong answer, the line that says why.
fn why(out: &mut dyn Write, message: &str) -> io::Result<()> {
    writeln!(out, "  {} {message}", paint(Style::new().bold(), "why:"))
}

/// How many lines of an interaction a failing case shows.
const INTERACTION_LINES: usize = 24;

/// An interactive problem's failing case: the sample's exchange when it has one, what
/// passed, and the interactor's reason.
fn interaction(out: &mut dyn Write, r: &CaseResult, board: Option<&Board>) -> io::Result<()> {
    let dim = Style::new().dimmed();
    if let Some(sample) = board.and_then(|b| b.interaction.as_deref()) {
        writeln!(
            out,
            "{}",
            paint(dim, "  the sample's interaction (.interaction):")
        )?;
        for line in sample.lines().take(INTERACTION_LINES) {
            writeln!(out, "    {}", reference::visible::escape(line.as_bytes()))?;
        }
    }
    writeln!(
        out,
        "{}",
        paint(dim, "  interaction (> the submission wrote, < it read):")
    )?;
    let shown = reference::visible::escape_lines(&r.interaction);
    let lines: Vec<&str> = shown.lines().collect();
    for line in lines.iter().take(INTERACTION_LINES) {
        writeln!(out, "    {line}")?;
    }
    if lines.len() > INTERACTION_LINES {
        writeln!(
            out,
            "    {}",
            paint(
                dim,
                &format!("... {} more lines", lines.len() - INTERACTION_LINES)
            )
        )?;
    }
    if r.verdict == Verdict::WrongAnswer && !r.message.is_empty() {
        why(out, &r.message)?;
    }
    Ok(())
}

/// A layout mistake, once for all its cases (the first shown in full above it): what is
/// wrong, and the other cases it spoils, by group.
fn same_mistake(out: &mut dyn Write, mistake: Layout, block: &Block<'_>) -> io::Result<()> {
    let dim = Style::new().dimmed();
    writeln!(
        out,
        "  {} {}",
        paint(Style::new().bold(), "why:"),
        mistake.says()
    )?;
    let others = &block.cases[1..];
    if others.is_empty() {
        return Ok(());
    }
    let cases = if others.len() == 1 { "case" } else { "cases" };
    let head = format!("  the same mistake in {} more {cases}:", others.len());
    writeln!(out, "{}", paint(dim, &head))?;
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for case in others {
        let (group, leaf) = case.name.rsplit_once('/').unwrap_or(("", &case.name));
        match groups.last_mut() {
            Some((last, leaves)) if *last == group => leaves.push(leaf),
            _ => groups.push((group, vec![leaf])),
        }
    }
    for (group, leaves) in groups.iter().take(LISTED_GROUPS) {
        let group = if group.is_empty() {
            String::new()
        } else {
            format!("{group}/")
        };
        writeln!(out, "    {group} {}", leaves.join(" "))?;
    }
    if groups.len() > LISTED_GROUPS {
        let rest: usize = groups[LISTED_GROUPS..].iter().map(|(_, l)| l.len()).sum();
        writeln!(out, "    ... and {rest} more")?;
    }
    Ok(())
}

/// A line diff of the expected answer and the output, at most 20 lines.
fn diff(out: &mut dyn Write, expected: &str, got: &str) -> io::Result<()> {
    let red = Style::new().fg_color(Some(AnsiColor::Red.into()));
    let green = Style::new().fg_color(Some(AnsiColor::Green.into()));
    let diff = similar::TextDiff::from_lines(expected, got);
    for (shown, change) in diff.iter_all_changes().enumerate() {
        if shown == 20 {
            writeln!(out, "    ...")?;
            break;
        }
        let line = change.value().trim_end_matches('\n');
        let text = match change.tag() {
            similar::ChangeTag::Delete => paint(red, &format!("-{line}")),
            similar::ChangeTag::Insert => paint(green, &format!("+{line}")),
            similar::ChangeTag::Equal => format!(" {line}"),
        };
        writeln!(out, "    {text}")?;
    }
    if got.is_empty() {
        writeln!(out, "    (no output)")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Heading, after_streamed_table, header, heading, report};
    use crate::report::human::case_table::case_line;
    use crate::report::samples;
    use crate::report::style::plain;
    use crate::results::submission::Build;

    fn text(write: impl Fn(&mut Vec<u8>) -> std::io::Result<()>) -> String {
        let mut bytes = Vec::new();
        write(&mut bytes).expect("in memory");
        String::from_utf8(bytes).expect("UTF-8")
    }

    #[test]
    fn how_it_was_built_follows_the_language_table_not_its_name() {
        assert_eq!(
            Build::of(true, true).describe(),
            "compiled earlier (cached)"
        );
        assert_eq!(Build::of(true, false).describe(), "compiled");
        // Node, PyPy, Python, a command or a program: nothing was compiled.
        assert_eq!(Build::of(false, false).describe(), "ready");
        assert_eq!(Build::of(false, true).describe(), "ready");
    }

    #[test]
    fn the_header_before_building_leaves_out_only_how_it_was_built() {
        let graded = samples::wrong_answer();
        let after = header(&heading(&graded));
        let before = header(&Heading {
            built: None,
            ..heading(&graded)
        });
        assert_eq!(
            plain(&after),
            "flip sol.c (c, compiled earlier (cached); 2 cases; limits 1 s CPU, 4 s wall, \
             256 MiB, 64 MiB output; sandbox strict)\n"
        );
        assert_eq!(
            plain(&before),
            plain(&after).replace(", compiled earlier (cached)", "")
        );
    }

    #[test]
    fn the_streamed_parts_make_the_whole_report() {
        let graded = samples::wrong_answer();
        let width = "secret/answers/01".len();
        let streamed = header(&heading(&graded))
            + &case_line(&graded.cases[0], width)
            + &case_line(&graded.cases[1], width)
            + &text(|out| after_streamed_table(&graded, out));
        assert_eq!(streamed, text(|out| report(&graded, out)));
        assert!(
            plain(&streamed).ends_with("\nWA 1/2 passed; first failure secret/answers/01\n"),
            "{streamed}"
        );
    }
}
