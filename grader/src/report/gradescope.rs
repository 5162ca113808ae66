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
    /// The case's group (`sample`, `secret/answers`): Gradescope shows and filters by it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
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

/// `x` points as a whole number of cents.
fn to_cents(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// Cents as points.
fn points(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// Shares `total` cents among `parts` as evenly as cents allow, the cents that do not
/// divide going one each to the first: the shares sum to `total` exactly.
fn share(total: i64, parts: usize) -> Vec<i64> {
    let parts_i = i64::try_from(parts.max(1)).unwrap_or(i64::MAX);
    let (each, left) = (total.div_euclid(parts_i), total.rem_euclid(parts_i));
    (0..parts_i).map(|i| each + i64::from(i < left)).collect()
}

/// What each case's test is worth, in cents: its group's points shared among the
/// group's cases to the cent ([`share`]), so that the tests sum to the points of the
/// whole exactly, whatever the thirds; 1 a case without points. A passed test earns its
/// worth, and the file's `score` is the sum of the tests' (which may differ from the
/// other reports' per-group rounding by a cent a group: Gradescope shows the parts).
fn worth(result: &SubmissionResult) -> Vec<i64> {
    let scoring = &result.scoring;
    let Some(points) = &scoring.points else {
        return vec![100; result.names.len()];
    };
    let mut worth = vec![0; result.names.len()];
    let mut by_group: std::collections::BTreeMap<&str, Vec<usize>> =
        std::collections::BTreeMap::new();
    for (i, name) in result.names.iter().enumerate() {
        if let Some(group) = scoring.groups.get(name) {
            by_group.entry(group).or_default().push(i);
        }
    }
    for (group, cases) in by_group {
        let total = to_cents(points.get(group).copied().unwrap_or(0.0));
        let shares = share(total, cases.len());
        for (i, cents) in cases.into_iter().zip(shares) {
            worth[i] = cents;
        }
    }
    worth
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
        // The whole message: a student fixes a compile from every line of it.
        tests.push(Test {
            name: "build".to_owned(),
            score: 0.0,
            max_score: 0.0,
            status: Status::Failed,
            output: format!("CE: {}", message.trim_end()),
            tags: vec!["build".to_owned()],
            visibility: Visibility::Visible,
        });
    }
    let mut earned = 0;
    for (name, cents) in result.names.iter().zip(worth(result)) {
        let max_score = points(cents);
        let ran = result.cases.iter().find(|c| &c.name == name);
        if ran.is_some_and(CaseResult::accepted) {
            earned += cents;
        }
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
            tags: scoring.groups.get(name).cloned().into_iter().collect(),
            visibility: visibility(name),
        });
    }
    let score = points(earned);
    Results {
        score,
        output: summary(result, score),
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

/// The one line about the whole submission: the verdict, the cases passed, the points
/// (`score`, the tests' sum).
fn summary(result: &SubmissionResult, score: f64) -> String {
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
        let _ = write!(line, "; {score} of {} points", cents(result.scoring.most()));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_to_the_whole_to_the_cent() {
        assert_eq!(share(1000, 3), [334, 333, 333]);
        assert_eq!(share(100, 4), [25, 25, 25, 25]);
        assert_eq!(share(2, 3), [1, 1, 0]);
        for (total, parts) in [(9994, 7), (1, 1), (0, 5), (8250, 69)] {
            let shares = share(total, parts);
            assert_eq!(shares.len(), parts);
            assert_eq!(shares.iter().sum::<i64>(), total);
            assert!(shares.iter().max().unwrap() - shares.iter().min().unwrap() <= 1);
        }
    }
}
