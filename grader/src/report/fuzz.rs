//! The reports of `grader fuzz`: human (the original and the shrunk input side by side
//! with expected and got, and the command that replays it), JSON and JUnit.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use reference::Problem;

use crate::judge::{mebibytes, seconds};
use crate::report::verdicts::compile_error_body;
use crate::report::{junit_compile_error, junit_status, paint};
use crate::results::finding::{FuzzResult, Source};
use crate::submission::diagnosis;

/// One line: what a fuzz run did.
pub(crate) trait Summary {
    /// One line: what happened.
    fn summary(&self) -> String;
}

impl Summary for FuzzResult {
    fn summary(&self) -> String {
        match (&self.compile_error, &self.found) {
            (Some(_), _) => "CE: the submission did not compile".to_owned(),
            (None, Some(found)) => format!(
                "{} found after {}, shrunk in {} steps",
                found.shrunk.failure.verdict.code(),
                runs(self.runs),
                found.shrunk.steps
            ),
            (None, None) => format!(
                "no difference in {}{} ({}{:.0} runs/s)",
                runs(self.runs - self.replayed),
                if self.replayed > 0 {
                    format!(" and {} earlier failures replayed", self.replayed)
                } else {
                    String::new()
                },
                if self.exhaustive {
                    "every input, ".to_owned()
                } else {
                    format!("seed {}, ", self.seed)
                },
                self.rate()
            ),
        }
    }
}

/// `1 run`, `12 runs`.
fn runs(n: u64) -> String {
    if n == 1 {
        "1 run".to_owned()
    } else {
        format!("{n} runs")
    }
}

fn answer_of(problem: Problem, input: &str) -> String {
    problem.solve(input.as_bytes()).unwrap_or_default()
}

fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The JSON object.
pub(crate) fn json(report: &FuzzResult) -> String {
    let found = report.found.as_ref().map(|found| {
        let f = &found.finding;
        let s = &found.shrunk;
        serde_json::json!({
            "run": f.number(),
            "kind": f.kind,
            "source": found.source.name(),
            "input": f.input,
            "verdict": f.failure.verdict,
            "message": f.failure.message,
            "expected": answer_of(report.problem, &f.input),
            "got": shown(&f.failure.output),
            "shrunk": {
                "input": s.input,
                "verdict": s.failure.verdict,
                "message": s.failure.message,
                "expected": answer_of(report.problem, &s.input),
                "got": shown(&s.failure.output),
                "steps": s.steps,
                "simplified": s.simplified,
            },
            "replay": found.replay,
            "saved": found.saved.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "regressions_file": found.recorded.as_ref().map(|p| p.display().to_string()),
        })
    });
    let value = serde_json::json!({
        "problem": report.problem.id(),
        "submission": report.submission,
        "language": report.language,
        "verdict": report.verdict(),
        "seed": report.seed,
        "exhaustive": report.exhaustive,
        "runs": report.runs,
        "elapsed_ms": (report.elapsed.as_secs_f64() * 1e3).round(),
        "runs_per_second": report.rate().round(),
        "compile_error": report.compile_error,
        "suggestion": report.suggestion(),
        "finding": found,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    text.push('\n');
    text
}

/// JUnit XML: one test case, the fuzz run.
pub(crate) fn junit(report: &FuzzResult) -> String {
    use quick_junit::{Report, TestCase, TestCaseStatus, TestSuite};
    let name = format!("fuzz {} seed {}", report.problem, report.seed);
    let status = match (&report.compile_error, &report.found) {
        (Some(message), _) => junit_compile_error(message, report.suggestion().as_ref()),
        (None, Some(found)) => {
            let mut status = junit_status(found.shrunk.failure.verdict, report.summary());
            status.set_description(format!(
                "input:\n{}\nexpected:\n{}\ngot:\n{}\n{}\nreplay: {}",
                found.shrunk.input,
                answer_of(report.problem, &found.shrunk.input),
                reference::visible::escape_lines(&found.shrunk.failure.output),
                found.shrunk.failure.message,
                found.replay
            ));
            status
        }
        (None, None) => TestCaseStatus::success(),
    };
    let mut case = TestCase::new(name, status);
    case.set_time(report.elapsed);
    let mut suite = TestSuite::new(format!("{} {}", report.problem, report.submission));
    suite.add_test_case(case);
    let mut junit = Report::new("grader fuzz");
    junit.add_test_suite(suite);
    junit.to_string().expect("JUnit serialises")
}

/// The human report.
pub(crate) fn human(report: &FuzzResult) -> String {
    let mut out = header(report);
    out.push_str(&human_body(report));
    out
}

/// The human report's first line: what is fuzzed, from which seed, under which limits.
/// Known before anything is built, so printed first.
pub(crate) fn header(report: &FuzzResult) -> String {
    let what = if report.exhaustive {
        "every input".to_owned()
    } else {
        format!("seed {}", report.seed)
    };
    let facts = format!(
        "({}; {what}; limits {} CPU, {}; sandbox {})",
        report.language,
        seconds(report.limits.cpu()),
        mebibytes(report.limits.memory()),
        report.limits.tier()
    );
    format!(
        "{} {} {} {}\n",
        paint(Style::new().bold(), "fuzz"),
        paint(Style::new().bold(), report.problem.id()),
        report.submission,
        paint(Style::new().dimmed(), &facts)
    )
}

/// The human report after its header: the compiler's refusal, or what was found.
pub(crate) fn human_body(report: &FuzzResult) -> String {
    let dim = Style::new().dimmed();
    let bad = Style::new().fg_color(Some(AnsiColor::Red.into())).bold();
    let good = Style::new().fg_color(Some(AnsiColor::Green.into())).bold();
    let mut out = String::new();
    if let Some(message) = &report.compile_error {
        compile_error_body(&mut out, message, report.suggestion().as_ref());
        let _ = writeln!(
            out,
            "\n{} the submission did not compile: {}",
            paint(bad, "CE"),
            diagnosis::summary(message)
        );
        return out;
    }
    let Some(found) = &report.found else {
        let _ = writeln!(out, "\n{} {}", paint(good, "OK"), report.summary());
        return out;
    };
    let f = &found.finding;
    let s = &found.shrunk;
    let origin = match found.source {
        Source::Regression(i) => format!("regression {} of the regressions file", i + 1),
        Source::Seeded => format!("run {} of seed {} ({})", f.number(), report.seed, f.kind),
        Source::Exhaustive => format!("input {} of every input", f.number()),
    };
    let _ = writeln!(
        out,
        "\n{} at {origin}, after {} in {}",
        paint(bad, f.failure.verdict.code()),
        runs(report.runs),
        seconds(report.elapsed)
    );
    let _ = writeln!(out, "  {}", f.failure.message);
    let _ = writeln!(
        out,
        "\n{} {}",
        paint(
            dim,
            &format!(
                "  shrunk in {} steps ({} simpler inputs that still fail):",
                s.steps, s.simplified
            )
        ),
        s.failure.message
    );
    side_by_side(&mut out, "input", &s.input, "original", &f.input);
    let expected = answer_of(report.problem, &s.input);
    let got = reference::visible::escape_lines(&s.failure.output);
    side_by_side(&mut out, "expected", &expected, "got", &got);
    let _ = writeln!(out, "\n  replay: {}", found.replay);
    if let Some(path) = &found.recorded {
        let _ = writeln!(
            out,
            "  recorded in {} (replayed first next time)",
            path.display()
        );
    }
    if let Some(first) = found.saved.first() {
        let _ = writeln!(out, "  saved as {} and its .ans", first.display());
    }
    let _ = writeln!(out, "\n{} {}", paint(bad, "FAILED"), report.summary());
    out
}

/// Two texts in two columns under their titles (long texts are cut at 12 lines).
fn side_by_side(out: &mut String, left_title: &str, left: &str, right_title: &str, right: &str) {
    let left: Vec<&str> = left.lines().take(12).collect();
    let right: Vec<&str> = right.lines().take(12).collect();
    let width = left
        .iter()
        .map(|l| l.chars().count())
        .chain([left_title.len()])
        .max()
        .unwrap_or(0)
        .max(12);
    let _ = writeln!(out, "    {left_title:<width$}    {right_title}");
    for i in 0..left.len().max(right.len()).max(1) {
        let l = left
            .get(i)
            .copied()
            .unwrap_or(if i == 0 && left.is_empty() {
                "(nothing)"
            } else {
                ""
            });
        let r = right
            .get(i)
            .copied()
            .unwrap_or(if i == 0 && right.is_empty() {
                "(nothing)"
            } else {
                ""
            });
        let _ = writeln!(out, "    {l:<width$}    {r}");
    }
}
