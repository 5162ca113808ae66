//! The JUnit XML reports, for CI systems: a suite per submission (a test case per case,
//! or the fuzz run), a suite per student for a gradebook.
//!
//! quick-junit drops what XML cannot hold (the ANSI codes a program may print).

use std::io::{self, Write};

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use reference::Verdict;

use super::book::Book;
use super::human::fuzz::Summary as _;
use crate::results::case::CaseResult;
use crate::results::finding::FuzzResult;
use crate::results::gradebook::StudentReport;
use crate::results::submission::SubmissionResult;
use crate::submission::diagnosis::{self, Suggestion};

/// The JUnit status of a verdict: success for `AC`; a failure for a wrong output (`WA`,
/// `PE`); an error for everything else (limits, crashes, compile errors). Typed by the
/// verdict code, with `message` as its message.
fn status(verdict: Verdict, message: String) -> TestCaseStatus {
    let kind = match verdict {
        Verdict::Accepted => return TestCaseStatus::success(),
        Verdict::WrongAnswer | Verdict::Presentation => NonSuccessKind::Failure,
        _ => NonSuccessKind::Error,
    };
    let mut status = TestCaseStatus::non_success(kind);
    status.set_type(verdict.code());
    status.set_message(message);
    status
}

/// The JUnit status of a compile error: its first error line as the message; the whole
/// compiler message, and the profile it points to, as the description.
fn compile_error(message: &str, suggestion: Option<&Suggestion>) -> TestCaseStatus {
    let summary = diagnosis::summary(message);
    let mut status = status(Verdict::CompileError, format!("compile error: {summary}"));
    let advice = suggestion.map(|s| format!("\n\n{}", s.for_test()));
    status.set_description(format!("{message}{}", advice.unwrap_or_default()));
    status
}

/// A case that ran: its verdict, why (with the reference's explanation of a `WA` or `PE`
/// as the failure's text), and its wall time.
fn case(r: &CaseResult) -> TestCase {
    let mut status = status(r.verdict, format!("{}: {}", r.verdict, r.message));
    if let Some(explained) = &r.explanation {
        status.set_description(format!("why: {}", explained.reason));
    }
    let mut case = TestCase::new(r.name.clone(), status);
    case.set_time(r.wall());
    case
}

/// Writes `report`.
fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    report.serialize(out).map_err(io::Error::other)
}

/// `grader test --report junit`: one suite, one `<testcase>` per case (each `CE` when it
/// did not compile).
pub(crate) fn submission(result: &SubmissionResult, out: &mut dyn Write) -> io::Result<()> {
    let mut suite = TestSuite::new(format!("{} {}", result.problem, result.submission));
    if let Some(message) = result.build.compile_error() {
        let status = compile_error(message, result.suggestion().as_ref());
        for name in &result.names {
            suite.add_test_case(TestCase::new(name.clone(), status.clone()));
        }
    }
    for r in &result.cases {
        suite.add_test_case(case(r));
    }
    let mut report = Report::new("grader");
    report.add_test_suite(suite);
    write(&report, out)
}

/// `grader fuzz --report junit`: one test case, the fuzz run, with the shrunk failure.
pub(crate) fn fuzz(result: &FuzzResult, out: &mut dyn Write) -> io::Result<()> {
    let name = format!("fuzz {} seed {}", result.problem, result.seed);
    let status = match (&result.compile_error, &result.found) {
        (Some(message), _) => compile_error(message, result.suggestion().as_ref()),
        (None, Some(found)) => {
            let mut status = status(found.shrunk.failure.verdict, result.summary());
            let why = result
                .explanation(found)
                .map(|e| format!("\nwhy: {}", e.reason));
            status.set_description(format!(
                "input:\n{}\nexpected:\n{}\ngot:\n{}\n{}{}\nreplay: {}",
                found.shrunk.input,
                result.expected(&found.shrunk.input),
                reference::visible::escape_lines(&found.shrunk.failure.output),
                found.shrunk.failure.message,
                why.unwrap_or_default(),
                found.replay
            ));
            status
        }
        (None, None) => TestCaseStatus::success(),
    };
    let mut case = TestCase::new(name, status);
    case.set_time(result.elapsed);
    let mut suite = TestSuite::new(format!("{} {}", result.problem, result.submission));
    suite.add_test_case(case);
    let mut report = Report::new("grader fuzz");
    report.add_test_suite(suite);
    write(&report, out)
}

/// `gradebook.xml`: a suite per student, a test case per case; a student who was not
/// built or graded has a `build` case that says why.
///
/// Written a student at a time: the report quick-junit would hold whole is some 500 bytes
/// a case, the largest thing a batch of thousands kept in memory. The totals come first,
/// from the students' standings (each suite's [`counts`]); then each student's suite is
/// laid out as a report of its own, and its suite lines go out as they are (the same
/// bytes a whole report gives).
pub(crate) fn gradebook(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let name = format!("grader batch {}", book.head.problem);
    let Some(last) = book.standings.len().checked_sub(1) else {
        return write(&Report::new(name), out);
    };
    // The `<testsuites>` line: quick-junit's own, of a report with the class's totals
    // (as `add_test_suite` counts them) and no suite.
    let mut totals = Report::new(name.clone());
    for counts in book.standings.iter().map(|s| s.suite) {
        totals.tests += counts.tests;
        totals.failures += counts.failures;
        totals.errors += counts.errors;
        totals.skipped += counts.skipped;
        if let Some(disabled) = counts.disabled {
            *totals.disabled.get_or_insert(0) += disabled;
        }
    }
    let mut head = Vec::new();
    write(&totals, &mut head)?;
    let head = String::from_utf8(head).map_err(io::Error::other)?;
    let mut text = Vec::new();
    for index in 0..=last {
        let mut one = Report::new(name.clone());
        one.add_test_suite(suite(&*book.student(index)?));
        text.clear();
        write(&one, &mut text)?;
        let text = std::str::from_utf8(&text).map_err(io::Error::other)?;
        // The XML declaration, the `<testsuites>` line, the suite, `</testsuites>`: the
        // suite's bytes as they are (a message may hold a carriage return).
        let after_head = text
            .match_indices('\n')
            .nth(1)
            .map(|(at, _)| at + 1)
            .ok_or_else(|| io::Error::other("a JUnit report of an unexpected shape"))?;
        let close = text
            .rfind("</testsuites>")
            .filter(|&at| at >= after_head)
            .ok_or_else(|| io::Error::other("a JUnit report of an unexpected shape"))?;
        if index == 0 {
            for line in head.lines().take(2) {
                // An empty report's tag may close itself: this one holds the suites.
                writeln!(out, "{}", line.replace("/>", ">"))?;
            }
        }
        out.write_all(&text.as_bytes()[after_head..close])?;
        if index == last {
            out.write_all(&text.as_bytes()[close..])?;
        }
    }
    Ok(())
}

/// What a student's suite counts, for the report's totals ahead of the suites.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    disabled: Option<usize>,
}

/// The counts of `s`'s suite.
pub(crate) fn counts(s: &StudentReport) -> Counts {
    let suite = suite(s);
    Counts {
        tests: suite.tests,
        failures: suite.failures,
        errors: suite.errors,
        skipped: suite.skipped,
        disabled: suite.disabled,
    }
}

/// A student's suite.
fn suite(s: &StudentReport) -> TestSuite {
    let mut suite = TestSuite::new(s.student.clone());
    let not_built = match (&s.compile_error, &s.error) {
        (Some(m), _) => {
            let mut text = m.clone();
            if let Some(suggestion) = &s.suggestion {
                text = format!("{text}\n\n{}", suggestion.for_student(&s.student));
            }
            Some(("CE", diagnosis::summary(m), text))
        }
        (None, Some(m)) => Some((
            "error",
            m.lines().next().unwrap_or_default().to_owned(),
            m.clone(),
        )),
        (None, None) => None,
    };
    if let Some((kind, summary, text)) = not_built {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status.set_type(kind);
        status.set_message(summary);
        status.set_description(text);
        suite.add_test_case(TestCase::new("build", status));
    }
    for c in &s.cases {
        suite.add_test_case(case(c));
    }
    suite
}
