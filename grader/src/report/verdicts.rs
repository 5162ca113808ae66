//! The reports of `grader test`: human (a table of cases, diffs of failures; coloured on a
//! terminal, plain otherwise or under `NO_COLOR`), JSON (cli.md's fields) and JUnit.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use reference::Verdict;

use crate::judge::{mebibytes, seconds};
use crate::report::{junit_compile_error, junit_status, paint, verdict_style};
use crate::results::case::{Board, CaseResult};
use crate::results::limits::LimitsRecord;
use crate::results::submission::SubmissionResult;
use crate::submission::diagnosis::{self, Suggestion};

/// How many failing cases the human report shows in full.
const DETAILED_FAILURES: usize = 3;

/// The header of `result`'s report.
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

/// cli.md's JSON object.
pub(crate) fn json(result: &SubmissionResult) -> String {
    let cases: Vec<serde_json::Value> = match result.build.compile_error() {
        Some(_) => result
            .names
            .iter()
            .map(|name| {
                serde_json::json!({
                    "name": name, "verdict": Verdict::CompileError, "cpu_ms": 0.0,
                    "wall_ms": 0.0, "memory_kib": 0, "message": "compile error",
                })
            })
            .collect(),
        None => result
            .cases
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.name,
                    "verdict": r.verdict,
                    "cpu_ms": r.cpu_ms,
                    "wall_ms": r.wall_ms,
                    "memory_kib": r.memory_kib,
                    "message": r.message,
                })
            })
            .collect(),
    };
    let value = serde_json::json!({
        "problem": result.problem.id(),
        "submission": result.submission,
        "language": result.language,
        "verdict": result.verdict(),
        "passed": result.passed(),
        "total": result.total(),
        "compile_error": result.build.compile_error(),
        "suggestion": result.suggestion(),
        "limits": result.limits,
        "cases": cases,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    text.push('\n');
    text
}

/// JUnit XML: one suite, one `<testcase>` per case.
pub(crate) fn junit(result: &SubmissionResult) -> String {
    use quick_junit::{Report, TestCase, TestSuite};
    let mut suite = TestSuite::new(format!("{} {}", result.problem, result.submission));
    if let Some(message) = result.build.compile_error() {
        let status = junit_compile_error(message, result.suggestion().as_ref());
        for name in &result.names {
            suite.add_test_case(TestCase::new(name.clone(), status.clone()));
        }
    }
    for r in &result.cases {
        let status = junit_status(r.verdict, format!("{}: {}", r.verdict, r.message));
        let mut case = TestCase::new(r.name.clone(), status);
        case.set_time(r.wall());
        suite.add_test_case(case);
    }
    let mut report = Report::new("grader");
    report.add_test_suite(suite);
    report.to_string().expect("JUnit serialises")
}

/// The first line of the human report: what is graded, how it was built, and under
/// which limits.
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

/// A `CE` in a human report, before its summary line: the verdict, the compiler's message
/// escaped (the compiler echoes the student's source: what a terminal would hide or obey
/// in it is escaped), and the profile it points to. One for `test`'s report and `fuzz`'s.
pub(crate) fn compile_error_body(out: &mut String, message: &str, suggestion: Option<&Suggestion>) {
    let ce = Verdict::CompileError;
    let _ = writeln!(out, "\n{}", paint(verdict_style(ce), ce.code()));
    for line in reference::visible::escape_lines(message.as_bytes()).lines() {
        let _ = writeln!(out, "  {line}");
    }
    if let Some(suggestion) = suggestion {
        let _ = writeln!(
            out,
            "\n{}",
            paint(Style::new().bold(), &suggestion.for_test())
        );
    }
}

/// The human report, with ANSI colours (stripped by the writer when not wanted).
pub(crate) fn human(result: &SubmissionResult) -> String {
    let mut out = header(&heading(result));
    out.push_str(&human_body(result, true));
    out
}

/// The human report after its header: the table of cases (unless `with_table` is false,
/// when its lines were printed as the cases finished), the failures in full and the
/// summary; or the compiler's refusal.
pub(crate) fn human_body(result: &SubmissionResult, with_table: bool) -> String {
    let mut out = String::new();
    if let Some(message) = result.build.compile_error() {
        compile_error_body(&mut out, message, result.suggestion().as_ref());
        let ce = Verdict::CompileError;
        let _ = writeln!(
            out,
            "\n{} 0/{} passed: {}",
            paint(verdict_style(ce), ce.code()),
            result.total(),
            diagnosis::summary(message)
        );
        return out;
    }
    if with_table {
        let width = name_width(result.cases.iter().map(|r| r.name.as_str()));
        for r in &result.cases {
            out.push_str(&case_line(r, width));
        }
    }
    let failures: Vec<&CaseResult> = result.failures().collect();
    for r in failures.iter().take(DETAILED_FAILURES) {
        details(&mut out, r, result.boards.get(&r.name));
    }
    if failures.len() > DETAILED_FAILURES {
        let more = format!(
            "... and {} more failing cases",
            failures.len() - DETAILED_FAILURES
        );
        let _ = writeln!(out, "\n{}", paint(Style::new().dimmed(), &more));
    }
    let verdict = result.verdict();
    let skipped = result.total() - result.cases.len();
    let _ = write!(
        out,
        "\n{} {}/{} passed",
        paint(verdict_style(verdict), verdict.code()),
        result.passed(),
        result.total()
    );
    if let Some(first) = failures.first() {
        let _ = write!(out, "; first failure {}", first.name);
    }
    if skipped > 0 {
        let _ = write!(out, "; {skipped} not run (--fail-fast)");
    }
    out.push('\n');
    out
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

/// The width of the table's name column for these names.
pub(crate) fn name_width<'n>(names: impl Iterator<Item = &'n str>) -> usize {
    names.map(str::len).max().unwrap_or(0)
}

/// A case's line of the table: verdict, name, CPU time, peak memory, message.
pub(crate) fn case_line(r: &CaseResult, width: usize) -> String {
    let v = r.verdict;
    format!(
        "  {}  {:<width$}  {:>8.1} ms  {:>7}  {}\n",
        paint(verdict_style(v), &format!("{:<3}", v.code())),
        r.name,
        r.cpu_ms,
        mebibytes(r.memory_kib * 1024),
        r.message
    )
}

/// A failing case in full: its input, a diff of the answer, the end of stderr.
fn details(out: &mut String, r: &CaseResult, board: Option<&Board>) {
    let dim = Style::new().dimmed();
    let _ = writeln!(
        out,
        "\n{} {}: {}",
        paint(verdict_style(r.verdict), r.verdict.code()),
        r.name,
        r.message
    );
    let (input, expected) = board.map_or(("", ""), |b| (b.input.as_str(), b.answer.as_str()));
    let _ = writeln!(out, "{}", paint(dim, "  input:"));
    for line in input.lines().take(8) {
        let _ = writeln!(out, "    {line}");
    }
    if matches!(r.verdict, Verdict::WrongAnswer | Verdict::Presentation) {
        // The contestant's bytes, with what a terminal would hide (or obey) escaped.
        let got = reference::visible::escape_lines(&r.output);
        let _ = writeln!(out, "{}", paint(dim, "  expected (-) and got (+):"));
        out.push_str(&diff(expected, &got));
    }
    let tail = reference::visible::escape_lines(&r.stderr);
    if !tail.trim().is_empty() {
        let _ = writeln!(out, "{}", paint(dim, "  stderr (end):"));
        let lines: Vec<&str> = tail.lines().collect();
        for line in &lines[lines.len().saturating_sub(6)..] {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// A line diff of the expected answer and the output, at most 20 lines.
fn diff(expected: &str, got: &str) -> String {
    let red = Style::new().fg_color(Some(AnsiColor::Red.into()));
    let green = Style::new().fg_color(Some(AnsiColor::Green.into()));
    let mut out = String::new();
    let diff = similar::TextDiff::from_lines(expected, got);
    for (shown, change) in diff.iter_all_changes().enumerate() {
        if shown == 20 {
            out.push_str("    ...\n");
            break;
        }
        let line = change.value().trim_end_matches('\n');
        let text = match change.tag() {
            similar::ChangeTag::Delete => paint(red, &format!("-{line}")),
            similar::ChangeTag::Insert => paint(green, &format!("+{line}")),
            similar::ChangeTag::Equal => format!(" {line}"),
        };
        let _ = writeln!(out, "    {text}");
    }
    if got.is_empty() {
        out.push_str("    (no output)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use reference::{Judgement, Problem, Verdict};

    use super::{Heading, case_line, header, heading, human, human_body};
    use crate::exec::{Limits, sandbox::Tier};
    use crate::results::case::{CaseResult, Figures};
    use crate::results::limits::LimitsRecord;
    use crate::results::submission::{Build, SubmissionResult};

    const LIMITS: Limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: Tier::Basic,
    };

    fn result(name: &str, verdict: Verdict) -> CaseResult {
        let figures = Figures {
            cpu: Duration::from_millis(3),
            wall: Duration::from_millis(4),
            memory_kib: 2048,
        };
        let judgement = Judgement {
            verdict,
            message: String::new(),
        };
        CaseResult::new(name, judgement, figures, b"5\n".to_vec(), Vec::new())
    }

    fn graded(results: &[CaseResult]) -> SubmissionResult {
        SubmissionResult {
            problem: Problem::Flip,
            submission: "sol.c".to_owned(),
            language: "c".to_owned(),
            build: Build::Cached,
            limits: LimitsRecord::of(&LIMITS),
            names: results.iter().map(|r| r.name.clone()).collect(),
            cases: results.to_vec(),
            boards: std::collections::BTreeMap::new(),
        }
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
        let results = [result("a", Verdict::Accepted)];
        let graded = graded(&results);
        let after = header(&heading(&graded));
        let before = header(&Heading {
            built: None,
            ..heading(&graded)
        });
        let plain = |s: &str| crate::report::plain(s);
        assert_eq!(
            plain(&after),
            "flip sol.c (c, compiled earlier (cached); 1 cases; limits 1 s CPU, 4 s wall, \
             256 MiB, 64 MiB output; sandbox basic)\n"
        );
        assert_eq!(
            plain(&before),
            plain(&after).replace(", compiled earlier (cached)", "")
        );
    }

    #[test]
    fn the_streamed_parts_make_the_whole_report() {
        let results = [
            result("sample/01", Verdict::Accepted),
            result("secret/02", Verdict::WrongAnswer),
        ];
        let graded = graded(&results);
        let width = "sample/01".len();
        let streamed = header(&heading(&graded))
            + &case_line(&results[0], width)
            + &case_line(&results[1], width)
            + &human_body(&graded, false);
        assert_eq!(streamed, human(&graded));
        let plain = crate::report::plain(&streamed);
        assert!(
            plain.ends_with("\nWA 1/2 passed; first failure secret/02\n"),
            "{plain}"
        );
    }
}
