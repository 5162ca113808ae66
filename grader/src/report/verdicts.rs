//! The reports of `grader test`: human (a table of cases, diffs of failures; coloured on a
//! terminal, plain otherwise or under `NO_COLOR`), JSON (cli.md's fields) and JUnit.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use reference::Verdict;

use crate::exec::Limits;
use crate::grade::CaseResult;
use crate::judge::{mebibytes, seconds};
use crate::report::{junit_compile_error, junit_status, paint, verdict_style};
use crate::submission::diagnosis::{self, Suggestion};

/// How many failing cases the human report shows in full.
const DETAILED_FAILURES: usize = 3;

/// Everything a report says about one submission.
#[derive(Debug)]
pub(crate) struct Graded<'a> {
    /// The problem id.
    pub(crate) problem: &'a str,
    /// The submission as the user named it.
    pub(crate) submission: String,
    /// Its language (or `executable`, `command`).
    pub(crate) language: String,
    /// Whether the compiled program came from the cache.
    pub(crate) cached: bool,
    /// Whether its language has a compile step.
    pub(crate) compiled: bool,
    /// The compiler's message when it did not compile.
    pub(crate) compile_error: Option<String>,
    /// The limits.
    pub(crate) limits: Limits,
    /// How many cases the folder has.
    pub(crate) total: usize,
    /// The results, in name order (fewer than `total` after `--fail-fast`).
    pub(crate) results: &'a [CaseResult],
    /// The case names, in order (for `CE`, where no case ran).
    pub(crate) names: Vec<String>,
}

impl Graded<'_> {
    /// `AC` when every case is `AC`; otherwise the verdict of the first case, in name
    /// order, that is not (cli.md); `CE` when it did not compile.
    pub(crate) fn verdict(&self) -> Verdict {
        if self.compile_error.is_some() {
            return Verdict::CompileError;
        }
        self.results
            .iter()
            .map(|r| r.decision.verdict)
            .find(|&v| v != Verdict::Accepted)
            .unwrap_or(if self.results.len() == self.total {
                Verdict::Accepted
            } else {
                Verdict::WrongAnswer
            })
    }

    /// How it was built, as the header says it.
    pub(crate) fn built(&self) -> &'static str {
        if self.compile_error.is_some() {
            "did not compile"
        } else {
            how_built(self.compiled, self.cached)
        }
    }

    /// The header of its report.
    pub(crate) fn heading(&self) -> Heading<'_> {
        Heading {
            problem: self.problem,
            submission: &self.submission,
            language: &self.language,
            built: Some(self.built()),
            total: self.total,
            limits: self.limits,
        }
    }

    /// The profile a `CE`'s message points to (`--lang poj`), if any.
    pub(crate) fn suggestion(&self) -> Option<Suggestion> {
        let message = self.compile_error.as_ref()?;
        diagnosis::suggestion(&self.language, message)
    }

    /// How many cases are `AC`.
    pub(crate) fn passed(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.decision.verdict == Verdict::Accepted)
            .count()
    }
}

fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// cli.md's JSON object.
pub(crate) fn json(graded: &Graded<'_>) -> String {
    let cases: Vec<serde_json::Value> = if graded.compile_error.is_some() {
        graded
            .names
            .iter()
            .map(|name| {
                serde_json::json!({
                    "name": name, "verdict": "CE", "cpu_ms": 0.0, "wall_ms": 0.0,
                    "memory_kib": 0, "message": "compile error",
                })
            })
            .collect()
    } else {
        graded
            .results
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.name,
                    "verdict": r.decision.verdict.code(),
                    "cpu_ms": ms(r.cpu),
                    "wall_ms": ms(r.wall),
                    "memory_kib": r.memory_kib,
                    "message": r.decision.message,
                })
            })
            .collect()
    };
    let value = serde_json::json!({
        "problem": graded.problem,
        "submission": graded.submission,
        "language": graded.language,
        "verdict": graded.verdict().code(),
        "passed": graded.passed(),
        "total": graded.total,
        "compile_error": graded.compile_error,
        "suggestion": graded.suggestion(),
        "limits": {
            "cpu_ms": ms(graded.limits.cpu),
            "wall_ms": ms(graded.limits.wall),
            "memory_kib": graded.limits.memory / 1024,
            "output_kib": graded.limits.output / 1024,
            "sandbox": graded.limits.sandbox.to_string(),
        },
        "cases": cases,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    text.push('\n');
    text
}

/// JUnit XML: one suite, one `<testcase>` per case.
pub(crate) fn junit(graded: &Graded<'_>) -> String {
    use quick_junit::{Report, TestCase, TestSuite};
    let mut suite = TestSuite::new(format!("{} {}", graded.problem, graded.submission));
    if let Some(message) = &graded.compile_error {
        let status = junit_compile_error(message, graded.suggestion().as_ref());
        for name in &graded.names {
            suite.add_test_case(TestCase::new(name.clone(), status.clone()));
        }
    }
    for r in graded.results {
        let code = r.decision.verdict.code();
        let status = junit_status(code, format!("{code}: {}", r.decision.message));
        let mut case = TestCase::new(r.name.clone(), status);
        case.set_time(r.wall);
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
    /// How it was built ([`Graded::built`]); `None` in the header a terminal is shown
    /// before it is built.
    pub(crate) built: Option<&'a str>,
    /// How many cases the folder has.
    pub(crate) total: usize,
    /// The limits.
    pub(crate) limits: Limits,
}

/// A `CE` in a human report, before its summary line: the verdict, the compiler's message
/// escaped (the compiler echoes the student's source: what a terminal would hide or obey
/// in it is escaped), and the profile it points to. One for `test`'s report and `fuzz`'s.
pub(crate) fn compile_error_body(out: &mut String, message: &str, suggestion: Option<&Suggestion>) {
    let _ = writeln!(out, "\n{}", paint(verdict_style("CE"), "CE"));
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

/// How a program that compiled (or needed no compiling) was built: `compiled`,
/// `compiled earlier (cached)`, or `ready` (its language has no compile step, or it was
/// given as a program or a command).
pub(crate) fn how_built(compiled: bool, cached: bool) -> &'static str {
    match (compiled, cached) {
        (true, true) => "compiled earlier (cached)",
        (true, false) => "compiled",
        (false, _) => "ready",
    }
}

/// The human report, with ANSI colours (stripped by the writer when not wanted).
pub(crate) fn human(graded: &Graded<'_>) -> String {
    let mut out = header(&graded.heading());
    out.push_str(&human_body(graded, true));
    out
}

/// The human report after its header: the table of cases (unless `with_table` is false,
/// when its lines were printed as the cases finished), the failures in full and the
/// summary; or the compiler's refusal.
pub(crate) fn human_body(graded: &Graded<'_>, with_table: bool) -> String {
    let mut out = String::new();
    if let Some(message) = &graded.compile_error {
        compile_error_body(&mut out, message, graded.suggestion().as_ref());
        let ce = paint(verdict_style("CE"), "CE");
        let _ = writeln!(
            out,
            "\n{ce} 0/{} passed: {}",
            graded.total,
            diagnosis::summary(message)
        );
        return out;
    }
    if with_table {
        let width = name_width(graded.results.iter().map(|r| r.name.as_str()));
        for r in graded.results {
            out.push_str(&case_line(r, width));
        }
    }
    let failures: Vec<&CaseResult> = graded
        .results
        .iter()
        .filter(|r| r.decision.verdict != Verdict::Accepted)
        .collect();
    for r in failures.iter().take(DETAILED_FAILURES) {
        details(&mut out, r);
    }
    if failures.len() > DETAILED_FAILURES {
        let more = format!(
            "... and {} more failing cases",
            failures.len() - DETAILED_FAILURES
        );
        let _ = writeln!(out, "\n{}", paint(Style::new().dimmed(), &more));
    }
    let verdict = graded.verdict();
    let skipped = graded.total - graded.results.len();
    let _ = write!(
        out,
        "\n{} {}/{} passed",
        paint(verdict_style(verdict.code()), verdict.code()),
        graded.passed(),
        graded.total
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
        seconds(heading.limits.cpu),
        seconds(heading.limits.wall),
        mebibytes(heading.limits.memory),
        mebibytes(heading.limits.output),
        heading.limits.sandbox
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
    let v = r.decision.verdict;
    format!(
        "  {}  {:<width$}  {:>8.1} ms  {:>7}  {}\n",
        paint(verdict_style(v.code()), &format!("{:<3}", v.code())),
        r.name,
        ms(r.cpu),
        mebibytes(r.memory_kib * 1024),
        r.decision.message
    )
}

/// A failing case in full: its input, a diff of the answer, the end of stderr.
fn details(out: &mut String, r: &CaseResult) {
    let dim = Style::new().dimmed();
    let _ = writeln!(
        out,
        "\n{} {}: {}",
        paint(
            verdict_style(r.decision.verdict.code()),
            r.decision.verdict.code()
        ),
        r.name,
        r.decision.message
    );
    let _ = writeln!(out, "{}", paint(dim, "  input:"));
    for line in r.input.lines().take(8) {
        let _ = writeln!(out, "    {line}");
    }
    if matches!(
        r.decision.verdict,
        Verdict::WrongAnswer | Verdict::Presentation
    ) {
        // The contestant's bytes, with what a terminal would hide (or obey) escaped.
        let got = reference::visible::escape_lines(&r.output);
        let _ = writeln!(out, "{}", paint(dim, "  expected (-) and got (+):"));
        out.push_str(&diff(&r.expected, &got));
    }
    let tail = reference::visible::escape_lines(&r.stderr_tail);
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

    use reference::Verdict;

    use super::{Graded, Heading, case_line, header, human, human_body};
    use crate::exec::{Limits, sandbox::Tier};
    use crate::grade::CaseResult;
    use crate::judge::Decision;

    const LIMITS: Limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: Tier::Basic,
    };

    fn result(name: &str, verdict: Verdict) -> CaseResult {
        CaseResult {
            name: name.to_owned(),
            decision: Decision {
                verdict,
                message: String::new(),
            },
            cpu: Duration::from_millis(3),
            wall: Duration::from_millis(4),
            memory_kib: 2048,
            input: String::new(),
            expected: "4\n".to_owned(),
            output: b"5\n".to_vec(),
            stderr_tail: Vec::new(),
        }
    }

    fn graded(results: &[CaseResult]) -> Graded<'_> {
        Graded {
            problem: "flip",
            submission: "sol.c".to_owned(),
            language: "c".to_owned(),
            cached: true,
            compiled: true,
            compile_error: None,
            limits: LIMITS,
            total: results.len(),
            results,
            names: results.iter().map(|r| r.name.clone()).collect(),
        }
    }

    #[test]
    fn how_it_was_built_follows_the_language_table_not_its_name() {
        assert_eq!(super::how_built(true, true), "compiled earlier (cached)");
        assert_eq!(super::how_built(true, false), "compiled");
        // Node, PyPy, Python, a command or a program: nothing was compiled.
        assert_eq!(super::how_built(false, false), "ready");
        assert_eq!(super::how_built(false, true), "ready");
    }

    #[test]
    fn the_header_before_building_leaves_out_only_how_it_was_built() {
        let results = [result("a", Verdict::Accepted)];
        let graded = graded(&results);
        let after = header(&graded.heading());
        let before = header(&Heading {
            built: None,
            ..graded.heading()
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
        let streamed = header(&graded.heading())
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
