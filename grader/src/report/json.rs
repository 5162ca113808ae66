//! The JSON reports (cli.md's fields, in cli.md's order): serde structs written from the
//! results model. Fields are only ever added, never removed: scripts read them.

use std::collections::BTreeMap;
use std::io::{self, Write};

use reference::explain::model::colour_letter;
use reference::{Verdict, Witness};
use serde::Serialize;
use serde::ser::{Error as _, SerializeSeq, Serializer};

use super::book::Book;
use crate::results::case::Board;
use crate::results::case::{Explained, First};
use crate::results::check::CheckResult;
use crate::results::finding::FuzzResult;
use crate::results::gradebook::{ShardOf, SkippedReport};
use crate::results::layout_mistake;
use crate::results::limits::LimitsRecord;
use crate::results::solved::Solved;
use crate::results::submission::SubmissionResult;
use crate::submission::diagnosis::Suggestion;

/// `grader test`'s report.
#[derive(Serialize)]
struct TestJson<'a> {
    problem: &'a str,
    submission: &'a str,
    language: &'a str,
    verdict: Verdict,
    passed: usize,
    total: usize,
    compile_error: Option<&'a str>,
    suggestion: Option<Suggestion>,
    limits: &'a LimitsRecord,
    /// Each layout mistake, said once over the `PE` cases it spoils (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    layout_mistakes: Vec<LayoutJson<'a>>,
    cases: Vec<CaseJson<'a>>,
}

/// A layout mistake of `grader test`'s report: what is wrong, in words that hold for every
/// case it spoils; its first case, with the judge's message that shows it byte for byte;
/// and how many cases it spoils.
#[derive(Serialize)]
struct LayoutJson<'a> {
    mistake: &'static str,
    first: &'a str,
    message: &'a str,
    cases: usize,
}

/// One case of `grader test`'s report (a gradebook's cases also keep output and stderr).
#[derive(Serialize)]
struct CaseJson<'a> {
    name: &'a str,
    verdict: Verdict,
    cpu_ms: f64,
    wall_ms: f64,
    memory_kib: u64,
    message: &'a str,
    /// A `WA` or `PE`'s explanation; absent otherwise, as in a gradebook's cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<&'a Explained>,
    /// An interactive problem's case: what passed, as a `.interaction` file shows it;
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    interaction: Option<String>,
}

/// `grader fuzz`'s report.
#[derive(Serialize)]
struct FuzzJson<'a> {
    problem: &'a str,
    submission: &'a str,
    language: &'a str,
    verdict: Verdict,
    seed: u64,
    exhaustive: bool,
    runs: u64,
    elapsed_ms: f64,
    runs_per_second: f64,
    compile_error: Option<&'a str>,
    suggestion: Option<Suggestion>,
    finding: Option<FindingJson<'a>>,
}

/// The failure a fuzz run found, as found.
#[derive(Serialize)]
struct FindingJson<'a> {
    run: u64,
    kind: &'a str,
    source: &'static str,
    input: &'a str,
    verdict: Verdict,
    message: &'a str,
    expected: String,
    got: String,
    shrunk: ShrunkJson<'a>,
    replay: &'a str,
    saved: Vec<String>,
    regressions_file: Option<String>,
}

/// The failure as shrunk.
#[derive(Serialize)]
struct ShrunkJson<'a> {
    input: &'a str,
    verdict: Verdict,
    message: &'a str,
    expected: String,
    got: String,
    steps: u32,
    simplified: u32,
    /// A `WA` or `PE`'s explanation; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<Explained>,
}

/// `gradebook.json`: the fields `Gradebook` reads back, in its order.
#[derive(Serialize)]
struct GradebookJson<'a> {
    problem: &'a str,
    /// Written only for a package: a built-in problem's gradebook is as it was.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    package: bool,
    limits: &'a LimitsRecord,
    /// Written only for a shard: a whole class's gradebook is as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<ShardOf>,
    cases: &'a [String],
    groups: &'a BTreeMap<String, usize>,
    points: &'a Option<BTreeMap<String, f64>>,
    about: &'a BTreeMap<String, String>,
    students: EachStudent<'a>,
    skipped: &'a [SkippedReport],
    boards: &'a BTreeMap<String, Board>,
}

/// A book's students, each read as the array reaches it.
struct EachStudent<'a>(Book<'a>);

impl Serialize for EachStudent<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let count = self.0.standings.len();
        let mut seq = serializer.serialize_seq(Some(count))?;
        for index in 0..count {
            let student = self.0.student(index).map_err(S::Error::custom)?;
            seq.serialize_element(&*student)?;
        }
        seq.end()
    }
}

/// `grader check`'s one line.
#[derive(Serialize)]
struct CheckJson<'a> {
    message: &'a str,
    problem: &'a str,
    verdict: Verdict,
}

/// `grader solve --report json`'s one line. Its keys, and the explanation's, are in
/// alphabetical order, as this line has always had them (cli.md's example).
#[derive(Serialize)]
struct SolveJson<'a> {
    answer: &'a str,
    explanation: Option<SolveExplanationJson<'a>>,
    problem: &'a str,
}

/// The explanation of `grader solve`'s line: the explanation object of every report
/// (`reason`, `witness`, and `first` for fourinrow), keys in alphabetical order.
#[derive(Serialize)]
struct SolveExplanationJson<'a> {
    /// fourinrow only: the colour that moves first, `null` when no move is needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<First>,
    reason: &'a str,
    witness: &'a Witness,
}

/// `value`, indented, and a newline.
fn pretty(value: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// `grader test --report json`. A `CE` lists every case as `CE`, with zero figures.
pub(crate) fn submission(result: &SubmissionResult, out: &mut dyn Write) -> io::Result<()> {
    let cases = match result.build.compile_error() {
        Some(_) => result
            .names
            .iter()
            .map(|name| CaseJson {
                name,
                verdict: Verdict::CompileError,
                cpu_ms: 0.0,
                wall_ms: 0.0,
                memory_kib: 0,
                message: "compile error",
                explanation: None,
                interaction: None,
            })
            .collect(),
        None => result
            .cases
            .iter()
            .map(|r| CaseJson {
                name: &r.name,
                verdict: r.verdict,
                cpu_ms: r.cpu_ms,
                wall_ms: r.wall_ms,
                memory_kib: r.memory_kib,
                message: &r.message,
                interaction: (!r.interaction.is_empty())
                    .then(|| String::from_utf8_lossy(&r.interaction).into_owned()),
                explanation: r.explanation.as_ref(),
            })
            .collect(),
    };
    let report = TestJson {
        problem: result.problem.id(),
        submission: &result.submission,
        language: &result.language,
        verdict: result.verdict(),
        passed: result.passed(),
        total: result.total(),
        compile_error: result.build.compile_error(),
        suggestion: result.suggestion(),
        limits: &result.limits,
        layout_mistakes: layout_mistakes(result),
        cases,
    };
    pretty(&report, out)
}

/// The layout mistakes of `result`'s `PE` cases, in the order of their first case.
fn layout_mistakes(result: &SubmissionResult) -> Vec<LayoutJson<'_>> {
    let answer = |name: &str| result.boards.get(name).map(|b| b.answer.as_str());
    layout_mistake::blocks(result.failures(), answer)
        .into_iter()
        .filter_map(|block| {
            let first = block.cases[0];
            Some(LayoutJson {
                mistake: block.layout?.says(),
                first: &first.name,
                message: &first.message,
                cases: block.cases.len(),
            })
        })
        .collect()
}

/// `grader fuzz --report json`.
pub(crate) fn fuzz(result: &FuzzResult, out: &mut dyn Write) -> io::Result<()> {
    let shown = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let finding = result.found.as_ref().map(|found| {
        let f = &found.finding;
        let s = &found.shrunk;
        FindingJson {
            run: f.number(),
            kind: &f.kind,
            source: found.source.name(),
            input: &f.input,
            verdict: f.failure.verdict,
            message: &f.failure.message,
            expected: result.expected(&f.input),
            got: shown(&f.failure.output),
            shrunk: ShrunkJson {
                input: &s.input,
                verdict: s.failure.verdict,
                message: &s.failure.message,
                expected: result.expected(&s.input),
                got: shown(&s.failure.output),
                steps: s.steps,
                simplified: s.simplified,
                explanation: result.explanation(found),
            },
            replay: &found.replay,
            saved: found
                .saved
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            regressions_file: found.recorded.as_ref().map(|p| p.display().to_string()),
        }
    });
    let report = FuzzJson {
        problem: result.problem.id(),
        submission: &result.submission,
        language: &result.language,
        verdict: result.verdict(),
        seed: result.seed,
        exhaustive: result.exhaustive,
        runs: result.runs,
        elapsed_ms: (result.elapsed.as_secs_f64() * 1e3).round(),
        runs_per_second: result.rate().round(),
        compile_error: result.compile_error.as_deref(),
        suggestion: result.suggestion(),
        finding,
    };
    pretty(&report, out)
}

/// `gradebook.json` (and `grader batch --report json`): the gradebook as `grader merge`
/// reads it back, written a student at a time; each case on a line of its own (the
/// class, a student and a student's cases are levels 1 to 4).
pub(crate) fn gradebook(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let head = book.head;
    let json = GradebookJson {
        problem: &head.problem,
        package: head.package,
        limits: &head.limits,
        shard: head.shard,
        cases: &head.cases,
        groups: &head.groups,
        points: &head.points,
        about: &head.about,
        students: EachStudent(*book),
        skipped: &head.skipped,
        boards: &head.boards,
    };
    super::folded_json::write(&json, 4, out)
}

/// `grader check --report json`: one line.
pub(crate) fn check(result: &CheckResult, out: &mut dyn Write) -> io::Result<()> {
    let line = CheckJson {
        message: &result.judgement.message,
        problem: result.problem.id(),
        verdict: result.judgement.verdict,
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

/// `grader solve --report json`: one line.
pub(crate) fn solve(result: &Solved, out: &mut dyn Write) -> io::Result<()> {
    let explanation = result.explanation.as_ref().map(|e| SolveExplanationJson {
        first: match &e.witness {
            Witness::FourInRow(w) => Some(w.first.map_or(First::NoMove, |colour| {
                First::Colour(colour_letter(colour).to_owned())
            })),
            _ => None,
        },
        reason: &e.reason,
        witness: &e.witness,
    });
    let line = SolveJson {
        answer: &result.answer,
        explanation,
        problem: result.problem.id(),
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use reference::Problem;

    use super::*;
    use crate::report::human;

    /// Inputs of every problem: a sample, a board already solved (for fourinrow, no move:
    /// `first` is null), and one without a solution.
    const INPUTS: &[(Problem, &str)] = &[
        (Problem::Flip, "bwwb\nbbwb\nbwwb\nbwww\n"),
        (Problem::Flip, "bbbb\nbbbb\nbbbb\nbbbb\n"),
        (Problem::Flip, "bwbb\nbwwb\nbwww\nbbbw\n"),
        (Problem::FourInRow, "BWBO\nWBWB\nBWBW\nWBWO\n"),
        (Problem::FourInRow, "BWWO\nWWBW\nOWWB\nBBBB\n"),
        (Problem::Swap, "WWWOBBB\n"),
    ];

    fn solved(problem: Problem, input: &str, explain: bool) -> Solved {
        Solved {
            problem,
            answer: problem.solve(input.as_bytes()).unwrap(),
            explanation: explain.then(|| problem.witness(input.as_bytes()).unwrap()),
        }
    }

    #[test]
    fn solve_writes_the_line_json_macro_wrote_byte_for_byte() {
        for &(problem, input) in INPUTS {
            for explain in [false, true] {
                let result = solved(problem, input, explain);
                // The line as `grader solve` built it before it had a typed result.
                let before = serde_json::json!({
                    "problem": problem.id(),
                    "answer": result.answer,
                    "explanation": result.explanation,
                });
                let mut line = Vec::new();
                solve(&result, &mut line).unwrap();
                assert_eq!(
                    String::from_utf8(line).unwrap(),
                    format!("{before}\n"),
                    "{problem} {input:?}"
                );
            }
        }
    }

    #[test]
    fn solve_human_prints_the_answer_then_the_reason_and_the_steps() {
        for &(problem, input) in INPUTS {
            let result = solved(problem, input, true);
            let explanation = result.explanation.as_ref().unwrap();
            let mut text = Vec::new();
            human::solve::answer(&result, &mut text).unwrap();
            assert_eq!(
                String::from_utf8(text).unwrap(),
                format!(
                    "{}\n{}\n{}",
                    result.answer,
                    explanation.reason,
                    explanation.witness.draw()
                )
            );
            let mut bare = Vec::new();
            human::solve::answer(&solved(problem, input, false), &mut bare).unwrap();
            assert_eq!(bare, result.answer.as_bytes());
        }
    }
}
