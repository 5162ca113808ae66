//! The JUnit XML reports, for CI systems: a suite per submission (a test case per case,
//! or the fuzz run), a suite per student for a gradebook.
//!
//! quick-junit drops what XML cannot hold (the ANSI codes a program may print).

use std::io::{self, Write};

use quick_junit::{Report, TestCase, TestCaseStatus, TestSuite};

use super::book::Book;
use super::human::fuzz::Summary as _;
use super::junit_suite::{case, compile_error, status, suite};
use crate::results::finding::FuzzResult;
use crate::results::submission::SubmissionResult;

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
/// from the students' standings (each suite's
/// [`counts`](super::junit_suite::counts)); then each student's suite is laid out as a
/// report of its own, and its suite lines go out as they are (the same bytes a whole
/// report gives).
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
        one.add_test_suite(suite(&*book.student(index)?, &book.head.cases));
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
