//! `grader test --report gradescope`: the autograder `results.json` of Gradescope's
//! documented format (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>):
//! the points earned, a one-line summary, and one test per case, scored by the case
//! folder's points (or 1 a case). A `CE` is a failed `build` test and every case at 0.

use std::fmt::Write as _;
use std::io::{self, Write};

use reference::Verdict;
use serde::Serialize;

use crate::results::case::CaseResult;
use crate::results::submission::{SubmissionResult, Visibility};
use crate::submission::diagnosis;

/// The whole file.
#[derive(Serialize)]
struct Results {
    /// The points earned.
    score: f64,
    /// One line about the whole submission.
    output: String,
    /// The results as a whole: students see them (each test says when its own shows).
    visibility: Visibility,
    /// The autograder's stdout is for the teacher's debugging.
    stdout_visibility: Visibility,
    /// One per case (and `build` first for a `CE`).
    tests: Vec<Test>,
}

/// One test: one case.
#[derive(Serialize)]
struct Test {
    name: String,
    score: f64,
    max_score: f64,
    status: Status,
    output: String,
    visibility: Visibility,
}

/// Gradescope's test statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Passed,
    Failed,
}

/// `x` to two decimals (a third of a point is written 0.33).
fn cents(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `grader test --report gradescope`.
pub(crate) fn submission(result: &SubmissionResult, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &results(result))?;
    writeln!(out)
}

/// The results of `result`.
fn results(result: &SubmissionResult) -> Results {
    let scoring = &result.scoring;
    let visibility = |name: &str| {
        if scoring.is_sample(name) {
            Visibility::Visible
        } else {
            scoring.secret_visibility
        }
    };
    let mut tests = Vec::new();
    if let Some(message) = result.build.compile_error() {
        tests.push(Test {
            name: "build".to_owned(),
            score: 0.0,
            max_score: 0.0,
            status: Status::Failed,
            output: format!("CE: {}", diagnosis::summary(message)),
            visibility: Visibility::Visible,
        });
    }
    for name in &result.names {
        let max_score = cents(scoring.worth(name));
        let ran = result.cases.iter().find(|c| &c.name == name);
        let (status, score, output) = match ran {
            Some(case) if case.accepted() => (Status::Passed, max_score, "AC".to_owned()),
            Some(case) => (Status::Failed, 0.0, case_output(case)),
            None if result.build.compile_error().is_some() => {
                (Status::Failed, 0.0, "CE: not run".to_owned())
            }
            None => (Status::Failed, 0.0, "not run (--fail-fast)".to_owned()),
        };
        tests.push(Test {
            name: name.clone(),
            score,
            max_score,
            status,
            output,
            visibility: visibility(name),
        });
    }
    Results {
        score: scoring.earned(&result.cases),
        output: summary(result),
        visibility: Visibility::Visible,
        stdout_visibility: Visibility::Hidden,
        tests,
    }
}

/// A failing case's text: its verdict and message, and why a `WA` or `PE` is wrong.
fn case_output(case: &CaseResult) -> String {
    let mut text = format!("{}: {}", case.verdict.code(), case.message);
    if let Some(explained) = &case.explanation {
        text.push_str("\nwhy: ");
        text.push_str(&explained.reason);
    }
    text
}

/// The one line about the whole submission: the verdict, the cases passed, the points.
fn summary(result: &SubmissionResult) -> String {
    let verdict = result.verdict();
    let mut line = format!(
        "{} {}/{} passed",
        verdict.code(),
        result.passed(),
        result.total()
    );
    if let Some(message) = result.build.compile_error() {
        line.push_str(": ");
        line.push_str(&diagnosis::summary(message));
    } else if let Some(first) = result.failures().next() {
        line.push_str("; first failure ");
        line.push_str(&first.name);
    }
    if verdict != Verdict::CompileError || result.scoring.points.is_some() {
        let _ = write!(
            line,
            "; {} of {} points",
            result.scoring.earned(&result.cases),
            cents(result.scoring.most())
        );
    }
    line
}
