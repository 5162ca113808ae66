//! A student's JUnit test suite (a test case per case, and one for a build that failed),
//! and what it counts, for the report's totals ahead of the suites. A case not run (after
//! `--fail-fast-per-submission`, or a student stopped for sleeping) is `skipped`: `--`,
//! neither passed nor failed.

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

use crate::results::gradebook::{NOT_RUN, StudentReport};
use reference::Verdict;

use crate::results::case::CaseResult;
use crate::submission::diagnosis::{self, Suggestion};

/// What a student's suite counts, for the report's totals ahead of the suites.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(super) tests: usize,
    pub(super) failures: usize,
    pub(super) errors: usize,
    pub(super) skipped: usize,
    pub(super) disabled: Option<usize>,
}

/// The counts of `s`'s suite, of a class whose cases are `names`.
pub(crate) fn counts(s: &StudentReport, names: &[String]) -> Counts {
    let suite = suite(s, names);
    Counts {
        tests: suite.tests,
        failures: suite.failures,
        errors: suite.errors,
        skipped: suite.skipped,
        disabled: suite.disabled,
    }
}

/// A student's suite, of a class whose cases are `names` (in order).
pub(super) fn suite(s: &StudentReport, names: &[String]) -> TestSuite {
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
    if s.not_run(None) == 0 {
        for c in &s.cases {
            suite.add_test_case(case(c));
        }
        return suite;
    }
    let ran: std::collections::HashMap<&str, &CaseResult> =
        s.cases.iter().map(|c| (c.name.as_str(), c)).collect();
    let why = s.stopped.clone().unwrap_or_else(|| {
        format!("{NOT_RUN}: --fail-fast-per-submission stopped it at its first failure")
    });
    for name in names {
        if let Some(c) = ran.get(name.as_str()) {
            suite.add_test_case(case(c));
        } else {
            let mut status = TestCaseStatus::skipped();
            status.set_message(format!("not run: {why}"));
            suite.add_test_case(TestCase::new(name.clone(), status));
        }
    }
    suite
}

/// The JUnit status of a verdict: success for `AC`; a failure for a wrong output (`WA`,
/// `PE`); an error for everything else (limits, crashes, compile errors). Typed by the
/// verdict code, with `message` as its message.
pub(super) fn status(verdict: Verdict, message: String) -> TestCaseStatus {
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
pub(super) fn compile_error(message: &str, suggestion: Option<&Suggestion>) -> TestCaseStatus {
    let summary = diagnosis::summary(message);
    let mut status = status(Verdict::CompileError, format!("compile error: {summary}"));
    let advice = suggestion.map(|s| format!("\n\n{}", s.for_test()));
    status.set_description(format!("{message}{}", advice.unwrap_or_default()));
    status
}

/// A case that ran: its verdict, why (with the reference's explanation of a `WA` or `PE`
/// as the failure's text), and its wall time.
pub(super) fn case(r: &CaseResult) -> TestCase {
    let mut status = status(r.verdict, format!("{}: {}", r.verdict, r.message));
    if let Some(explained) = &r.explanation {
        status.set_description(format!("why: {}", explained.reason));
    }
    let mut case = TestCase::new(r.name.clone(), status);
    case.set_time(r.wall());
    case
}
