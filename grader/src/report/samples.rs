//! Representative results, built in code, for the exporters' snapshot tests: every
//! verdict a report treats apart, compile errors with and without a profile to try,
//! `--fail-fast`, fuzz findings, a gradebook with hostile names.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use fuzz::{Failure, Finding, Shrunk};
use reference::{Judgement, Problem, Verdict};
use sandbox::{Limits, Tier};

use crate::cases::folder_check::{AnswerKey, Verified};
use crate::cases::power::Power;
use crate::cases::regen::Drift;
use crate::results::case::{Board, CaseResult, Figures};
use crate::results::cases::{Checked, Measured, Regen, Regenerated};
use crate::results::check::CheckResult;
use crate::results::finding::{Found, FuzzResult, Source};
use crate::results::gradebook::{Gradebook, SkippedReport, StudentReport, Tally};
use crate::results::limits::LimitsRecord;
use crate::results::mark::{self, Mark};
use crate::results::submission::{Build, Scoring, SubmissionResult};
use crate::submission::diagnosis;

/// The limits of every sample.
pub(super) fn limits() -> LimitsRecord {
    LimitsRecord::of(&Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: Tier::Strict,
    })
}

/// A compiler message that points to the POJ profile.
pub(super) const MEMSET: &str = "sol.cpp: In function 'int main()':\n\
    sol.cpp:31:5: error: 'memset' was not declared in this scope\n   31 |     memset(hash, 0, sizeof(hash));\n\
    sol.cpp:5:1: note: 'memset' is defined in header '<cstring>'; did you forget to '#include <cstring>'?\n";

/// A case: `verdict` with `message`, what the program printed and the end of its stderr.
pub(super) fn case(
    name: &str,
    verdict: Verdict,
    message: &str,
    output: &str,
    stderr: &str,
) -> CaseResult {
    let figures = Figures {
        cpu: Duration::from_micros(3_250),
        wall: Duration::from_micros(4_500),
        memory_kib: 2048,
    };
    let judgement = Judgement {
        verdict,
        message: message.to_owned(),
    };
    CaseResult::new(
        name,
        judgement,
        figures,
        output.as_bytes().to_vec(),
        stderr.as_bytes().to_vec(),
    )
}

/// `AC` with the answer 4.
fn accepted(name: &str) -> CaseResult {
    case(name, Verdict::Accepted, "", "4\n", "")
}

/// The boards of the cases the samples name.
fn boards(names: &[&str]) -> BTreeMap<String, Board> {
    names
        .iter()
        .map(|&name| {
            let board = Board {
                input: "bwwb\nbbwb\nbwwb\nbwww\n".to_owned(),
                answer: "4\n".to_owned(),
                interaction: None,
            };
            (name.to_owned(), board)
        })
        .collect()
}

/// `grader test` of `sol.c` on `names`, with `cases` run.
fn submission(names: &[&str], build: Build, cases: Vec<CaseResult>) -> SubmissionResult {
    SubmissionResult {
        problem: crate::results::problem::ProblemId::Builtin(Problem::Flip),
        submission: "sol.c".to_owned(),
        language: "c".to_owned(),
        build,
        limits: limits(),
        names: names.iter().map(|&n| n.to_owned()).collect(),
        cases,
        boards: boards(names),
        scoring: scoring_of(names),
    }
}

/// Every case `AC`.
pub(super) fn all_accepted() -> SubmissionResult {
    let names = ["sample/01", "secret/answers/01", "secret/edge/01"];
    let cases = names.iter().map(|n| accepted(n)).collect();
    submission(&names, Build::Compiled, cases)
}

/// One case `WA` (with a diff, and the program's stderr), the others `AC`.
pub(super) fn wrong_answer() -> SubmissionResult {
    let names = ["sample/01", "secret/answers/01"];
    let cases = vec![
        accepted(names[0]),
        case(
            names[1],
            Verdict::WrongAnswer,
            "expected `4`, got `5`",
            "5\n",
            "debug: 3 rounds\ndebug: best 5\n",
        ),
    ];
    submission(&names, Build::Cached, cases)
}

/// A right answer after one empty line (`PE`) on three cases, and a wrong count on a
/// fourth: one layout mistake over three cases, and a `WA` of its own.
pub(super) fn blank_first() -> SubmissionResult {
    let names = [
        "sample/01",
        "secret/answers/01",
        "secret/answers/02",
        "secret/edge/01",
    ];
    let blank = |name| {
        let message = "right answer, wrong layout: line 1: expected `4`, got ``";
        case(name, Verdict::Presentation, message, "\n4\n", "")
    };
    let cases = vec![
        blank(names[0]),
        blank(names[1]),
        blank(names[2]),
        case(
            names[3],
            Verdict::WrongAnswer,
            "expected `4`, got `5`",
            "5\n",
            "",
        ),
    ];
    submission(&names, Build::Compiled, cases)
}

/// A gradebook of one student, `ann`, whose right answers follow an empty line on both
/// cases of [`gradebook`]: her feedback page says the mistake once.
pub(super) fn blank_first_gradebook() -> Gradebook {
    let mut book = gradebook();
    let blank = |name| {
        let message = "right answer, wrong layout: line 1: expected `4`, got ``";
        case(name, Verdict::Presentation, message, "\n4\n", "")
    };
    let names = ["sample/01", "secret/answers/01"];
    book.students = vec![student("ann", "py", names.map(blank).to_vec())];
    book
}

/// A `TLE` and an `RE` (with the end of stderr).
pub(super) fn limits_and_crashes() -> SubmissionResult {
    let names = ["sample/01", "secret/big/01", "secret/big/02"];
    let cases = vec![
        accepted(names[0]),
        case(names[1], Verdict::TimeLimit, "CPU time over 1 s", "", ""),
        case(
            names[2],
            Verdict::RuntimeError,
            "killed by signal 11 (SIGSEGV)",
            "",
            "Segmentation fault\n",
        ),
    ];
    submission(&names, Build::Compiled, cases)
}

/// A `CE` whose message points to `--lang poj`.
pub(super) fn compile_error() -> SubmissionResult {
    let names = ["sample/01", "secret/answers/01"];
    let mut result = submission(&names, Build::CompileError(MEMSET.to_owned()), Vec::new());
    "sol.cpp".clone_into(&mut result.submission);
    "cpp".clone_into(&mut result.language);
    result
}

/// `--fail-fast`: the run stopped at the first failure, two cases not run.
pub(super) fn cut_short() -> SubmissionResult {
    let names = [
        "sample/01",
        "secret/answers/01",
        "secret/answers/02",
        "secret/answers/03",
    ];
    let cases = vec![
        accepted(names[0]),
        case(
            names[1],
            Verdict::WrongAnswer,
            "expected `4`, got `Impossible`",
            "Impossible\n",
            "",
        ),
    ];
    submission(&names, Build::Ready, cases)
}

/// A failure of `verdict` on `input`, printing `output`.
fn failure(verdict: Verdict, message: &str, output: &str) -> Failure {
    Failure {
        verdict,
        message: message.to_owned(),
        output: output.as_bytes().to_vec(),
    }
}

/// `grader fuzz` of `sol.py` from seed 7.
fn fuzzed(found: Option<Found>, compile_error: Option<String>) -> FuzzResult {
    FuzzResult {
        problem: crate::results::problem::ProblemId::Builtin(Problem::Flip),
        answers: std::collections::BTreeMap::new(),
        submission: "sol.py".to_owned(),
        language: "python".to_owned(),
        seed: 7,
        exhaustive: false,
        limits: limits(),
        runs: if compile_error.is_some() { 0 } else { 1000 },
        replayed: 2,
        elapsed: Duration::from_millis(2_500),
        compile_error,
        found,
    }
}

/// A fuzz run that found nothing (after replaying two earlier failures).
pub(super) fn fuzz_clean() -> FuzzResult {
    fuzzed(None, None)
}

/// A failure at run 3 of the seed, shrunk to the solved board.
fn found(source: Source) -> Found {
    let finding = Finding {
        run: 2,
        kind: "colour=b".to_owned(),
        input: "wwww\nbbwb\nbbwb\nbbbb\n".to_owned(),
        failure: failure(Verdict::WrongAnswer, "expected `3`, got `5`", "5\n"),
    };
    let shrunk = Shrunk {
        input: "bbbb\nbbbb\nbbbb\nbbbb\n".to_owned(),
        failure: failure(Verdict::WrongAnswer, "expected `0`, got `4`", "4\n"),
        steps: 12,
        simplified: 3,
    };
    Found {
        source,
        regression: None,
        finding,
        shrunk,
        replay: "grader fuzz flip sol.py --seed 7 --runs 3 --no-regressions".to_owned(),
        saved: vec![
            PathBuf::from("found/001.in"),
            PathBuf::from("found/001.ans"),
        ],
        recorded: Some(PathBuf::from("fuzz-regressions/flip.txt")),
    }
}

/// A failure drawn from the seed, recorded and saved.
pub(super) fn fuzz_seeded() -> FuzzResult {
    fuzzed(Some(found(Source::Seeded)), None)
}

/// A failure replayed from the regressions file (already recorded, not saved).
pub(super) fn fuzz_regression() -> FuzzResult {
    let mut found = found(Source::Regression(1));
    found.recorded = None;
    found.saved.clear();
    let mut result = fuzzed(Some(found), None);
    result.runs = 2;
    result
}

/// A submission that did not compile.
pub(super) fn fuzz_compile_error() -> FuzzResult {
    let mut result = fuzzed(None, Some(MEMSET.to_owned()));
    "sol.cpp".clone_into(&mut result.submission);
    "cpp".clone_into(&mut result.language);
    result
}

/// The names of the hostile students: HTML that would add an attribute or an element,
/// and cells a spreadsheet would run as formulas.
pub(super) const HOSTILE: [&str; 6] = [
    "x\" onmouseover=\"alert(1)\" y=\"",
    "<script>alert(1)</script>",
    "=HYPERLINK(\"http://evil\",\"x\")",
    "@SUM(1)",
    "+1",
    "-1",
];

/// A student graded on the two cases of the gradebook samples.
fn student(name: &str, language: &str, cases: Vec<CaseResult>) -> StudentReport {
    let passed = cases.iter().filter(|c| c.accepted()).count();
    let total = 2;
    let mut groups = BTreeMap::new();
    for c in &cases {
        let group = c.name.rsplit_once('/').map_or(".", |(g, _)| g).to_owned();
        let tally: &mut Tally = groups.entry(group).or_default();
        tally.total += 1;
        tally.passed += usize::from(c.accepted());
    }
    StudentReport {
        student: name.to_owned(),
        problem: "flip".to_owned(),
        submission: format!("{name}.{language}"),
        language: language.to_owned(),
        verdict: mark::overall(cases.iter().map(|c| c.verdict), total).into(),
        score: Some(mark::score(passed, total)),
        points: None,
        passed,
        total,
        groups,
        compile_error: None,
        suggestion: None,
        error: None,
        stopped: None,
        cases,
    }
}

/// A gradebook: `AC`, `WA`, `CE` (with a profile to try), not graded, a student stopped
/// for sleeping (one case not run), skipped files, and the hostile names (each `AC`).
pub(super) fn gradebook() -> Gradebook {
    let names = ["sample/01", "secret/answers/01"];
    let ac = || vec![accepted(names[0]), accepted(names[1])];
    let mut students = vec![
        student("alice", "c", ac()),
        student(
            "bob",
            "py",
            vec![
                accepted(names[0]),
                case(
                    names[1],
                    Verdict::WrongAnswer,
                    "expected `4`, got `5`",
                    "5\n",
                    "debug: 3 rounds\n",
                ),
            ],
        ),
    ];
    let mut carol = student("carol", "cpp", Vec::new());
    carol.verdict = Mark::Graded(Verdict::CompileError);
    carol.compile_error = Some(MEMSET.to_owned());
    carol.suggestion = diagnosis::suggestion("cpp", MEMSET);
    let mut dave = student("dave", "c", Vec::new());
    dave.verdict = Mark::NotGraded;
    dave.score = None;
    dave.error = Some("dave.c: too large (3 MiB; at most 1 MiB)".to_owned());
    // Asleep on its first case, and stopped there (`--stop-after-wall-tles 1`): its
    // second case is not run, `--`.
    let slept = "wall time over the 4 s limit with 12 ms of CPU: the program slept or waited";
    let mut erin = student(
        "erin",
        "py",
        vec![case(names[0], Verdict::TimeLimit, slept, "", "")],
    );
    erin.groups.insert(
        "secret/answers".to_owned(),
        Tally {
            passed: 0,
            total: 1,
        },
    );
    erin.stopped = Some(crate::batch::sleepers::why(&[names[0]], 1));
    students.extend([carol, dave, erin]);
    students.extend(HOSTILE.iter().map(|name| student(name, "c", ac())));
    students.sort_by(|a, b| a.student.cmp(&b.student));
    Gradebook {
        problem: "flip".to_owned(),
        package: false,
        limits: limits(),
        shard: None,
        cases: names.iter().map(|&n| n.to_owned()).collect(),
        groups: BTreeMap::from([("sample".to_owned(), 1), ("secret/answers".to_owned(), 1)]),
        points: None,
        about: BTreeMap::new(),
        students,
        skipped: vec![
            SkippedReport {
                path: "notes.txt".to_owned(),
                why: "not a source file of a known language".to_owned(),
            },
            SkippedReport {
                path: "<b>bold</b>.txt".to_owned(),
                why: "not a source file of a known language".to_owned(),
            },
        ],
        boards: boards(&names),
    }
}

/// `cases regen`: one folder up to date, one rewritten, one drifted (`--check`).
pub(super) fn regenerated() -> Vec<Regenerated> {
    let drift = || Drift {
        missing: vec!["secret/01.in".to_owned()],
        extra: vec!["old/07.in".to_owned(), "old/07.ans".to_owned()],
        changed: vec!["sample/01.ans".to_owned()],
    };
    let folder = |problem: &str, outcome| Regenerated {
        folder: PathBuf::from("cases").join(problem),
        data: PathBuf::from("cases").join(problem).join("data"),
        cases: 69,
        outcome,
    };
    vec![
        folder("flip", Regen::UpToDate),
        folder("fourinrow", Regen::Rewrote(drift())),
        folder("swap", Regen::Drifted(drift())),
    ]
}

/// `cases regen --check` with more drifted files than it names.
pub(super) fn drifted_much() -> Vec<Regenerated> {
    let drift = Drift {
        missing: (1..=25).map(|i| format!("secret/{i:02}.in")).collect(),
        ..Drift::default()
    };
    vec![Regenerated {
        folder: PathBuf::from("cases/flip"),
        data: PathBuf::from("cases/flip/data"),
        cases: 69,
        outcome: Regen::Drifted(drift),
    }]
}

/// `cases check`: a sound folder and one with faults.
pub(super) fn checked() -> Vec<Checked> {
    let histograms = BTreeMap::from([
        (
            "sample".to_owned(),
            BTreeMap::from([(AnswerKey::Moves(4), 1)]),
        ),
        (
            "secret/answers".to_owned(),
            BTreeMap::from([
                (AnswerKey::Moves(0), 2),
                (AnswerKey::Moves(12), 1),
                (AnswerKey::Word("Impossible".to_owned()), 3),
            ]),
        ),
    ]);
    vec![
        Checked {
            folder: PathBuf::from("cases/flip"),
            verified: Verified {
                cases: 7,
                faults: Vec::new(),
                histograms: histograms.clone(),
            },
        },
        Checked {
            folder: PathBuf::from("cases/swap"),
            verified: Verified {
                cases: 7,
                faults: vec![
                    "cases/swap/data/secret/02.ans:1:1: expected `3`, got `4`".to_owned(),
                    "cases/swap/data/secret/03.in: the same board as secret/01.in".to_owned(),
                ],
                histograms,
            },
        },
    ]
}

/// `cases power`: a mutant that survives.
pub(super) fn measured() -> Measured {
    Measured {
        folder: PathBuf::from("cases/flip"),
        power: Power {
            groups: vec!["sample".to_owned(), "secret/answers".to_owned()],
            kills: vec![
                ("off_by_one", vec![1, 12]),
                ("greedy", vec![0, 3]),
                ("no_impossible", vec![0, 0]),
            ],
        },
    }
}

/// `grader check`: `AC`, and `WA` with why.
pub(super) fn checks() -> [CheckResult; 2] {
    [
        CheckResult {
            problem: Problem::Flip,
            judgement: Judgement {
                verdict: Verdict::Accepted,
                message: String::new(),
            },
        },
        CheckResult {
            problem: Problem::Flip,
            judgement: Judgement {
                verdict: Verdict::WrongAnswer,
                message: "expected `3`, got `4`".to_owned(),
            },
        },
    ]
}

// ------------------------------------------------ explanations and Gradescope (issue 16)

/// A case `name` of `problem` on `input` (whose answer is `answer`) that printed
/// `output`: `WA`, with the reference's explanation as `grader test` keeps it.
fn explained_case(
    problem: Problem,
    name: &str,
    (input, answer): (&str, &str),
    output: &str,
) -> (CaseResult, Board) {
    let judgement = problem
        .check(input.as_bytes(), Some(answer.as_bytes()), output.as_bytes())
        .expect("a sound sample");
    assert_eq!(judgement.verdict, Verdict::WrongAnswer, "{name}");
    let mut result = case(name, judgement.verdict, &judgement.message, output, "");
    result.explanation =
        crate::results::case::Explained::of(problem, input.as_bytes(), output.as_bytes());
    assert!(result.explanation.is_some(), "{name}: the sample is wrong");
    let board = Board {
        input: input.to_owned(),
        answer: answer.to_owned(),
        interaction: None,
    };
    (result, board)
}

/// `grader test` of `problem` with one `AC` sample and the `WA` `wrong` (explained).
fn explained(problem: Problem, wrong: (CaseResult, Board)) -> SubmissionResult {
    let names = ["sample/01", wrong.0.name.as_str()].map(str::to_owned);
    let mut result = submission(&["sample/01", &names[1]], Build::Compiled, Vec::new());
    result.problem = crate::results::problem::ProblemId::Builtin(problem);
    result.cases = vec![accepted(&names[0]), wrong.0];
    result.boards.insert(names[1].clone(), wrong.1);
    result
}

/// A flip `WA`: 3 printed for a board one press solves.
pub(super) fn flip_explained() -> SubmissionResult {
    let board = ("wbww\nbbbw\nwbww\nwwww\n", "1\n");
    explained(
        Problem::Flip,
        explained_case(Problem::Flip, "secret/answers/01", board, "3\n"),
    )
}

/// A fourinrow `WA`: 9 printed for a board solved in 5 (drawn in one band of six grids).
pub(super) fn fourinrow_explained() -> SubmissionResult {
    let board = ("BWBO\nWBWB\nBWBW\nWBWO\n", "5\n");
    explained(
        Problem::FourInRow,
        explained_case(Problem::FourInRow, "secret/answers/01", board, "9\n"),
    )
}

/// A swap `WA`: an illegal third row, beside a minimum sequence.
pub(super) fn swap_explained() -> SubmissionResult {
    let board = ("WOB\n", "3\nOWB\nBWO\nBOW\n");
    explained(
        Problem::Swap,
        explained_case(
            Problem::Swap,
            "secret/answers/01",
            board,
            "3\nOWB\nOBW\nBOW\n",
        ),
    )
}

/// [`wrong_answer`] scored with points: the samples worth nothing, the secret cases 60,
/// secret results shown once published.
pub(super) fn wrong_answer_with_points() -> SubmissionResult {
    let mut result = wrong_answer();
    let groups = [
        ("sample/01", "sample"),
        ("secret/answers/01", "secret/answers"),
        ("secret/answers/02", "secret/answers"),
        ("secret/answers/03", "secret/answers"),
    ];
    result.names = groups.iter().map(|(n, _)| (*n).to_owned()).collect();
    result.cases.push(accepted("secret/answers/02"));
    result.cases.push(accepted("secret/answers/03"));
    result.scoring = Scoring {
        points: Some(BTreeMap::from([
            ("sample".to_owned(), 0.0),
            ("secret/answers".to_owned(), 60.0),
        ])),
        groups: groups
            .iter()
            .map(|(n, g)| ((*n).to_owned(), (*g).to_owned()))
            .collect(),
        secret_visibility: crate::results::submission::Visibility::AfterPublished,
    };
    result
}

/// Each case's group (its folder), no points, secret results shown once published.
fn scoring_of(names: &[&str]) -> Scoring {
    Scoring {
        groups: names
            .iter()
            .map(|&n| {
                (
                    n.to_owned(),
                    n.rsplit_once('/').map_or(".", |(g, _)| g).to_owned(),
                )
            })
            .collect(),
        ..Scoring::default()
    }
}

/// A wrong answer to `input` of `problem`, with the reference's explanation, as
/// `grade::run_case` stores it.
fn explained_result(name: &str, problem: Problem, input: &str, output: &str) -> CaseResult {
    let judgement = problem
        .check(input.as_bytes(), None, output.as_bytes())
        .expect("sample inputs parse");
    let mut result = case(name, judgement.verdict, &judgement.message, output, "");
    result.explanation =
        crate::results::case::Explained::of(problem, input.as_bytes(), output.as_bytes());
    assert!(result.explanation.is_some(), "{name}: {output:?} is wrong");
    result
}

/// A gradebook of `problem` whose wrong answers carry the reference's explanation (the
/// HTML gradebook draws them; feedback pages show them as `--reveal` says): `alice` is
/// `AC`; `bob` answers the sample (`sample.0`) with `sample.1` and the secret case with
/// `secret.1`, both wrong.
pub(super) fn explained_gradebook(
    problem: Problem,
    sample: (&str, &str),
    secret: (&str, &str),
) -> Gradebook {
    let names = ["sample/01", "secret/answers/01"];
    let answer = |input: &str| {
        let mut text = problem
            .solve(input.as_bytes())
            .expect("sample inputs parse");
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    };
    let mut alice = student("alice", "c", vec![accepted(names[0]), accepted(names[1])]);
    let mut bob = student(
        "bob",
        "py",
        vec![
            explained_result(names[0], problem, sample.0, sample.1),
            explained_result(names[1], problem, secret.0, secret.1),
        ],
    );
    for s in [&mut alice, &mut bob] {
        problem.id().clone_into(&mut s.problem);
    }
    let boards = [(names[0], sample.0), (names[1], secret.0)]
        .into_iter()
        .map(|(name, input)| {
            let board = Board {
                input: input.to_owned(),
                answer: answer(input),
                interaction: None,
            };
            (name.to_owned(), board)
        })
        .collect();
    Gradebook {
        problem: problem.id().to_owned(),
        package: false,
        limits: limits(),
        shard: None,
        cases: names.iter().map(|&n| n.to_owned()).collect(),
        groups: BTreeMap::from([("sample".to_owned(), 1), ("secret/answers".to_owned(), 1)]),
        points: None,
        about: BTreeMap::from([(
            "secret/answers".to_owned(),
            "every answer value, uniformly".to_owned(),
        )]),
        students: vec![alice, bob],
        skipped: Vec::new(),
        boards,
    }
}

/// [`explained_gradebook`] of each problem: flip (a solvable sample, an unsolvable
/// secret board), fourinrow, and swap (a row that is not one legal move).
pub(super) fn explained_gradebooks() -> [(&'static str, Gradebook); 3] {
    [
        (
            "flip",
            explained_gradebook(
                Problem::Flip,
                ("bwwb\nbbwb\nbwwb\nbwww\n", "5\n"),
                ("bwbb\nbwwb\nbwww\nbbbw\n", "3\n"),
            ),
        ),
        (
            "fourinrow",
            explained_gradebook(
                Problem::FourInRow,
                ("BWBO\nWBWB\nBWBW\nWBWO\n", "9\n"),
                ("BBBB\nWWWW\nBBBW\nWWOO\n", "2\n"),
            ),
        ),
        (
            "swap",
            explained_gradebook(
                Problem::Swap,
                ("WOB\n", "3\nOWB\nOBW\nBOW\n"),
                ("OWWB\n", "1\nWOWB\n"),
            ),
        ),
    ]
}
