//! Checking a gradebook read back from a file (`grader merge`): serde checks the types;
//! this checks every value against the rules a batch writes it by (a problem's or a
//! package's name, known verdicts, `passed <= total`, sums that add up, a verdict and a
//! score that follow from the cases), so that a hand-edited or damaged shard is refused,
//! naming the field, and never merged into marks.

use std::collections::HashSet;

use reference::{Problem, Verdict};

use crate::results::gradebook::{Gradebook, StudentReport, Tally};
use crate::results::mark::{self, Mark};
use crate::results::problem::ProblemId;

/// The first fault of `book`: where it is (`students[2].passed`) and what.
pub(crate) fn validate(book: &Gradebook) -> Result<(), String> {
    let known = book.problem.parse::<Problem>().map(Problem::id) == Ok(book.problem.as_str());
    let a_packages = book.package && ProblemId::is_name(&book.problem);
    if !(known || a_packages) {
        return Err(format!(
            "problem: `{}` is not a problem (known: {}; a package's gradebook says `\"package\": true`)",
            book.problem,
            Problem::ALL.map(Problem::id).join(", ")
        ));
    }
    let limits = &book.limits;
    for (field, value) in [("cpu_ms", limits.cpu_ms), ("wall_ms", limits.wall_ms)] {
        if !(value.is_finite() && value > 0.0) {
            return Err(format!("limits.{field}: {value} is not a positive time"));
        }
    }
    if let Some(shard) = book.shard
        && !(1..=shard.of).contains(&shard.index)
    {
        return Err(format!(
            "shard: {}/{} is not a shard of a class (expected K/N with 1 <= K <= N)",
            shard.index, shard.of
        ));
    }
    if book.cases.is_empty() {
        return Err("cases: no cases".to_owned());
    }
    let mut names = HashSet::new();
    if let Some((i, name)) = book
        .cases
        .iter()
        .enumerate()
        .find(|(_, name)| !names.insert(name.as_str()))
    {
        return Err(format!("cases[{i}]: `{name}` is listed twice"));
    }
    let in_groups: usize = book.groups.values().sum();
    if in_groups != book.cases.len() || book.groups.values().any(|&n| n == 0) {
        return Err(format!(
            "groups: {in_groups} cases in groups, but {} cases",
            book.cases.len()
        ));
    }
    if let Some(points) = &book.points {
        if !points.keys().eq(book.groups.keys()) {
            return Err("points: not the gradebook's groups".to_owned());
        }
        if let Some((group, p)) = points.iter().find(|(_, p)| !(p.is_finite() && **p >= 0.0)) {
            return Err(format!("points.{group}: {p} is not a number of points"));
        }
    }
    if let Some(name) = book
        .boards
        .keys()
        .find(|name| !names.contains(name.as_str()))
    {
        return Err(format!("boards: `{name}` is not one of the cases"));
    }
    let mut students = HashSet::new();
    for (i, student) in book.students.iter().enumerate() {
        let at = format!("students[{i}] (`{}`)", student.student);
        if student.student.is_empty() || !students.insert(student.student.as_str()) {
            return Err(format!("{at}.student: empty, or listed twice"));
        }
        validate_student(book, &names, student).map_err(|e| format!("{at}.{e}"))?;
    }
    Ok(())
}

/// The first fault of one student's report: the field and what.
fn validate_student(
    book: &Gradebook,
    cases: &HashSet<&str>,
    student: &StudentReport,
) -> Result<(), String> {
    if student.problem != book.problem {
        return Err(format!(
            "problem: `{}`, but the gradebook's is `{}`",
            student.problem, book.problem
        ));
    }
    if student.total != book.cases.len() {
        return Err(format!(
            "total: {}, but there are {} cases",
            student.total,
            book.cases.len()
        ));
    }
    if student.passed > student.total {
        return Err(format!(
            "passed: {} is more than total {}",
            student.passed, student.total
        ));
    }
    let verdict = student.verdict;
    // A student not graded earned no mark: no score, no points (older graders wrote 0).
    match (verdict, student.score) {
        (Mark::NotGraded, None) => {}
        (Mark::NotGraded, Some(score)) => {
            return Err(format!(
                "score: {score}, but a student not graded (`--`) has none (null)"
            ));
        }
        (Mark::Graded(_), None) => {
            return Err("score: null, but the student was graded".to_owned());
        }
        (Mark::Graded(_), Some(score)) => {
            let expected = mark::score(student.passed, student.total);
            if (score - expected).abs() > 1e-9 {
                return Err(format!(
                    "score: {score}, but {}/{} passed is {expected}",
                    student.passed, student.total
                ));
            }
        }
    }
    validate_groups(book, student)?;
    validate_points(book, student)?;
    validate_cases(book, cases, student)?;
    // Advice on a profile answers a compile error, and only that.
    if student.suggestion.is_some() && student.compile_error.is_none() {
        return Err("suggestion: a profile to try, but no compile error".to_owned());
    }
    // What was built decides which verdicts can be.
    let built = match (&student.compile_error, &student.error) {
        (Some(_), _) => Some(Mark::Graded(Verdict::CompileError)),
        (None, Some(_)) => Some(Mark::NotGraded),
        (None, None) => None,
    };
    match built {
        None => {
            let expected = mark::overall(student.cases.iter().map(|c| c.verdict), student.total);
            if verdict != Mark::Graded(expected) {
                return Err(format!(
                    "verdict: `{verdict}`, but its cases make it `{expected}`"
                ));
            }
        }
        Some(built) if verdict != built || !student.cases.is_empty() || student.passed != 0 => {
            return Err(format!(
                "verdict: `{verdict}` with {} cases and {} passed, but a student with {} has `{built}`, no cases and none passed",
                student.cases.len(),
                student.passed,
                if built == Mark::NotGraded {
                    "an error"
                } else {
                    "a compile error"
                }
            ));
        }
        Some(_) => {}
    }
    Ok(())
}

/// A student's groups: the gradebook's groups, totals and passed cases that add up.
fn validate_groups(book: &Gradebook, student: &StudentReport) -> Result<(), String> {
    if !student.groups.keys().eq(book.groups.keys()) {
        return Err("groups: not the gradebook's groups".to_owned());
    }
    for (group, &Tally { passed, total }) in &student.groups {
        if total != book.groups[group] || passed > total {
            return Err(format!(
                "groups.{group}: {passed}/{total}, but the group has {} cases",
                book.groups[group]
            ));
        }
    }
    let in_groups: usize = student.groups.values().map(|t| t.passed).sum();
    if in_groups != student.passed {
        return Err(format!(
            "groups: {in_groups} passed in groups, but passed is {}",
            student.passed
        ));
    }
    Ok(())
}

/// A student's points: there exactly when the groups are worth points, and what its groups'
/// passed cases earn.
fn validate_points(book: &Gradebook, student: &StudentReport) -> Result<(), String> {
    if student.verdict == Mark::NotGraded {
        return match student.points {
            None => Ok(()),
            Some(p) => Err(format!(
                "points: {p}, but a student not graded (`--`) has none (null)"
            )),
        };
    }
    match (&book.points, student.points) {
        (None, None) => Ok(()),
        (None, Some(p)) => Err(format!("points: {p}, but the groups are worth no points")),
        (Some(_), None) => Err("points: missing, but the groups are worth points".to_owned()),
        (Some(worth), Some(p)) => {
            let expected = crate::cases::points::earned(worth, |g| {
                student
                    .groups
                    .get(g)
                    .map_or((0, 0), |t| (t.passed, t.total))
            });
            if (p - expected).abs() > 1e-9 {
                return Err(format!("points: {p}, but its groups earn {expected}"));
            }
            Ok(())
        }
    }
}

/// A student's cases: known names, in the gradebook's order, known verdicts, real figures,
/// and as many `AC` as passed.
fn validate_cases(
    book: &Gradebook,
    cases: &HashSet<&str>,
    student: &StudentReport,
) -> Result<(), String> {
    let mut order = book.cases.iter();
    for (i, case) in student.cases.iter().enumerate() {
        let at = format!("cases[{i}] (`{}`)", case.name);
        if !cases.contains(case.name.as_str()) {
            return Err(format!("{at}.name: not one of the gradebook's cases"));
        }
        if !order.any(|name| *name == case.name) {
            return Err(format!(
                "{at}.name: listed twice, or out of the cases' order"
            ));
        }
        if case.verdict == Verdict::CompileError {
            return Err(format!(
                "{at}.verdict: `{}` is not a run's verdict",
                case.verdict
            ));
        }
        for (field, value) in [("cpu_ms", case.cpu_ms), ("wall_ms", case.wall_ms)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(format!("{at}.{field}: {value} is not a time"));
            }
        }
        if !case.stalls.is_empty() && case.verdict != Verdict::TimeLimit {
            return Err(format!(
                "{at}.stalls: the runs of a TLE, but the verdict is `{}`",
                case.verdict
            ));
        }
        for (r, run) in case.stalls.iter().enumerate() {
            for (field, value) in [
                ("cpu_ms", run.cpu_ms),
                ("wall_ms", run.wall_ms),
                ("waited_ms", run.waited_ms),
            ] {
                if !(value.is_finite() && value >= 0.0) {
                    return Err(format!("{at}.stalls[{r}].{field}: {value} is not a time"));
                }
            }
            if let Some(runnable) = run.runnable.filter(|&n| n > run.threads) {
                return Err(format!(
                    "{at}.stalls[{r}].runnable: {runnable} of its {} threads",
                    run.threads
                ));
            }
        }
    }
    let accepted = student.cases.iter().filter(|c| c.accepted()).count();
    if accepted != student.passed {
        return Err(format!(
            "passed: {}, but {accepted} of its cases are AC",
            student.passed
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::case::{Board, CaseResult, Stalled};
    use crate::results::limits::LimitsRecord;
    use std::collections::BTreeMap;

    fn case(name: &str, verdict: Verdict) -> CaseResult {
        CaseResult {
            name: name.to_owned(),
            verdict,
            cpu_ms: 1.0,
            wall_ms: 2.0,
            memory_kib: 1000,
            message: String::new(),
            output: Vec::new(),
            stderr: Vec::new(),
            interaction: Vec::new(),
            explanation: None,
            stalls: Vec::new(),
        }
    }

    fn book() -> Gradebook {
        let tally = |passed, total| Tally { passed, total };
        Gradebook {
            problem: "flip".to_owned(),
            package: false,
            limits: LimitsRecord {
                cpu_ms: 1000.0,
                wall_ms: 4000.0,
                memory_kib: 262_144,
                output_kib: 65536,
                processes: Some(64),
                sandbox: Some(sandbox::tiers::Tier::Basic),
            },
            shard: None,
            cases: vec!["sample/01".to_owned(), "secret/02".to_owned()],
            groups: BTreeMap::from([("sample".to_owned(), 1), ("secret".to_owned(), 1)]),
            points: Some(BTreeMap::from([
                ("sample".to_owned(), 0.0),
                ("secret".to_owned(), 10.0),
            ])),
            about: BTreeMap::new(),
            students: vec![
                StudentReport {
                    student: "alice".to_owned(),
                    problem: "flip".to_owned(),
                    submission: "alice.c".to_owned(),
                    language: "c".to_owned(),
                    verdict: Mark::Graded(Verdict::WrongAnswer),
                    score: Some(50.0),
                    points: Some(0.0),
                    passed: 1,
                    total: 2,
                    groups: BTreeMap::from([
                        ("sample".to_owned(), tally(1, 1)),
                        ("secret".to_owned(), tally(0, 1)),
                    ]),
                    compile_error: None,
                    suggestion: None,
                    error: None,
                    stopped: None,
                    cases: vec![
                        case("sample/01", Verdict::Accepted),
                        case("secret/02", Verdict::WrongAnswer),
                    ],
                },
                StudentReport {
                    student: "bob".to_owned(),
                    problem: "flip".to_owned(),
                    submission: "bob.cpp".to_owned(),
                    language: "cpp".to_owned(),
                    verdict: Mark::Graded(Verdict::CompileError),
                    score: Some(0.0),
                    points: Some(0.0),
                    passed: 0,
                    total: 2,
                    groups: BTreeMap::from([
                        ("sample".to_owned(), tally(0, 1)),
                        ("secret".to_owned(), tally(0, 1)),
                    ]),
                    compile_error: Some("bob.cpp:1:1: error".to_owned()),
                    suggestion: None,
                    error: None,
                    stopped: None,
                    cases: Vec::new(),
                },
            ],
            skipped: Vec::new(),
            boards: BTreeMap::new(),
        }
    }

    /// The fault `change` makes, which must start with `at`.
    fn fault(at: &str, change: impl FnOnce(&mut Gradebook)) {
        let mut bad = book();
        change(&mut bad);
        let why = validate(&bad).expect_err(at);
        assert!(why.starts_with(at), "expected {at}, got {why}");
    }

    #[test]
    fn a_gradebook_as_batch_writes_it_is_valid() {
        validate(&book()).unwrap();
    }

    #[test]
    fn every_field_is_checked_and_named() {
        fault("problem", |b| "chess".clone_into(&mut b.problem));
        fault("limits.cpu_ms", |b| b.limits.cpu_ms = f64::NAN);
        fault("cases[1]", |b| b.cases[1] = "sample/01".to_owned());
        fault("groups", |b| {
            b.groups.insert("secret".to_owned(), 5);
        });
        fault("students[1] (`alice`).student", |b| {
            b.students[1].student = "alice".to_owned();
        });
        fault(
            "students[0] (`alice`).passed: 999 is more than total 2",
            |b| {
                b.students[0].passed = 999;
            },
        );
        fault(
            "students[0] (`alice`).verdict: `AC`, but its cases make it `WA`",
            |b| {
                b.students[0].verdict = Mark::Graded(Verdict::Accepted);
            },
        );
        fault(
            "students[0] (`alice`).points: 5, but its groups earn 0",
            |b| {
                b.students[0].points = Some(5.0);
            },
        );
        fault("students[1] (`bob`).points: missing", |b| {
            b.students[1].points = None;
        });
        fault("points.secret: -1", |b| {
            b.points.as_mut().unwrap().insert("secret".to_owned(), -1.0);
        });
        fault("students[0] (`alice`).score", |b| {
            b.students[0].score = Some(100.0);
        });
        fault("students[0] (`alice`).total", |b| b.students[0].total = 3);
        fault(
            "students[0] (`alice`).suggestion: a profile to try, but no compile error",
            |b| {
                b.students[0].suggestion = Some(crate::submission::diagnosis::Suggestion {
                    lang: "poj".to_owned(),
                    why: "old".to_owned(),
                });
            },
        );
        fault("students[0] (`alice`).problem", |b| {
            "swap".clone_into(&mut b.students[0].problem);
        });
        fault("students[0] (`alice`).groups.secret", |b| {
            b.students[0].groups.get_mut("secret").unwrap().passed = 2;
        });
        fault("students[0] (`alice`).groups: 2 passed in groups", |b| {
            b.students[0].groups.get_mut("secret").unwrap().passed = 1;
        });
        fault("students[0] (`alice`).cases[1] (`x`).name", |b| {
            "x".clone_into(&mut b.students[0].cases[1].name);
        });
        fault(
            "students[0] (`alice`).cases[1] (`sample/01`).name: listed twice",
            |b| {
                "sample/01".clone_into(&mut b.students[0].cases[1].name);
            },
        );
        fault(
            "students[0] (`alice`).cases[1] (`secret/02`).verdict",
            |b| {
                b.students[0].cases[1].verdict = Verdict::CompileError;
            },
        );
        fault("students[0] (`alice`).cases[0] (`sample/01`).cpu_ms", |b| {
            b.students[0].cases[0].cpu_ms = -1.0;
        });
        fault(
            "students[0] (`alice`).passed: 1, but 2 of its cases are AC",
            |b| {
                b.students[0].cases[1].verdict = Verdict::Accepted;
            },
        );
        fault("students[1] (`bob`).verdict: `AC` with 0 cases", |b| {
            b.students[1].verdict = Mark::Graded(Verdict::Accepted);
        });
        fault("boards", |b| {
            b.boards.insert(
                "nope".to_owned(),
                Board {
                    input: String::new(),
                    answer: String::new(),
                    interaction: None,
                },
            );
        });
    }

    #[test]
    fn the_runs_a_tle_keeps_are_checked_and_named() {
        let run = Stalled {
            cpu_ms: 3.0,
            wall_ms: 4001.0,
            waited_ms: 0.5,
            threads: 1,
            runnable: None,
            cpus: 2,
        };
        fault(
            "students[0] (`alice`).cases[1] (`secret/02`).stalls: the runs of a TLE",
            |b| {
                b.students[0].cases[1].stalls = vec![run; 2];
            },
        );
        fault(
            "students[0] (`alice`).cases[1] (`secret/02`).stalls[1].waited_ms",
            |b| {
                let case = &mut b.students[0].cases[1];
                case.verdict = Verdict::TimeLimit;
                b.students[0].verdict = Mark::Graded(Verdict::TimeLimit);
                b.students[0].cases[1].stalls = vec![
                    run,
                    Stalled {
                        waited_ms: f64::NAN,
                        ..run
                    },
                ];
            },
        );
        fault(
            "students[0] (`alice`).cases[1] (`secret/02`).stalls[0].runnable: 2 of its 1 threads",
            |b| {
                let case = &mut b.students[0].cases[1];
                case.verdict = Verdict::TimeLimit;
                b.students[0].verdict = Mark::Graded(Verdict::TimeLimit);
                b.students[0].cases[1].stalls = vec![Stalled {
                    runnable: Some(2),
                    ..run
                }];
            },
        );
    }
}

/// `Gradebook::rejudge` keeps a gradebook valid by these rules: a shard's runs judged again
/// are checked again, as `merge` does.
#[cfg(test)]
mod rejudged {
    use reference::{Judgement, Verdict};

    use std::collections::BTreeMap;

    use super::validate;
    use crate::results::case::{CaseResult, Figures, Stalled};
    use crate::results::gradebook::{Gradebook, StudentReport, Tally};
    use crate::results::limits::LimitsRecord;
    use crate::results::mark::Mark;

    fn case(name: &str, verdict: Verdict, message: &str) -> CaseResult {
        CaseResult::new(
            name,
            Judgement {
                verdict,
                message: message.to_owned(),
            },
            Figures::default(),
            Vec::new(),
            Vec::new(),
        )
    }

    /// A student graded on `cases`, the gradebook's two (`sample/01`, `secret/01`).
    fn student(name: &str, cases: Vec<CaseResult>) -> StudentReport {
        let passed = cases.iter().filter(|c| c.accepted()).count();
        let mark = crate::results::mark::overall(cases.iter().map(|c| c.verdict), 2);
        StudentReport {
            student: name.to_owned(),
            problem: "flip".to_owned(),
            submission: format!("{name}.py"),
            language: "python".to_owned(),
            verdict: Mark::Graded(mark),
            score: Some(crate::results::mark::score(passed, 2)),
            points: Some(10.0 * passed as f64),
            passed,
            total: 2,
            groups: [
                (
                    "secret".to_owned(),
                    Tally {
                        passed: passed - usize::from(cases[0].accepted()),
                        total: 1,
                    },
                ),
                (
                    "sample".to_owned(),
                    Tally {
                        passed: usize::from(cases[0].accepted()),
                        total: 1,
                    },
                ),
            ]
            .into(),
            compile_error: None,
            suggestion: None,
            error: None,
            stopped: None,
            cases,
        }
    }

    #[test]
    fn a_shards_tle_at_the_wall_limit_that_its_figures_do_not_show_is_no_mark() {
        let wall = "wall time over the 200 ms limit with 13 ms of CPU: the program slept or waited";
        let mut shown = case("secret/01", Verdict::TimeLimit, wall);
        shown.stalls = vec![
            Stalled {
                cpu_ms: 13.0,
                wall_ms: 201.0,
                waited_ms: 1.0,
                threads: 1,
                runnable: None,
                cpus: 2,
            };
            2
        ];
        let ac = || case("sample/01", Verdict::Accepted, "");
        let mut book = Gradebook {
            problem: "flip".to_owned(),
            package: false,
            limits: LimitsRecord {
                cpu_ms: 1000.0,
                wall_ms: 200.0,
                memory_kib: 262_144,
                output_kib: 65_536,
                processes: Some(64),
                sandbox: None,
            },
            shard: None,
            cases: vec!["sample/01".to_owned(), "secret/01".to_owned()],
            groups: [("sample".to_owned(), 1), ("secret".to_owned(), 1)].into(),
            points: Some([("sample".to_owned(), 10.0), ("secret".to_owned(), 10.0)].into()),
            about: BTreeMap::new(),
            students: vec![
                // Graded by an older grader: no figures.
                student(
                    "alice",
                    vec![ac(), case("secret/01", Verdict::TimeLimit, wall)],
                ),
                student("bob", vec![ac(), shown]),
                student(
                    "carol",
                    vec![ac(), case("secret/01", Verdict::Accepted, "")],
                ),
            ],
            skipped: Vec::new(),
            boards: BTreeMap::new(),
        };
        validate(&book).unwrap();
        assert_eq!(book.rejudge(), ["alice"]);
        validate(&book).unwrap();
        let alice = &book.students[0];
        assert_eq!(alice.verdict, Mark::NotGraded);
        assert!(
            alice
                .error
                .as_deref()
                .unwrap()
                .contains("TLE at the wall limit on secret/01"),
            "{alice:?}"
        );
        assert!(alice.cases.is_empty() && alice.passed == 0);
        assert_eq!((alice.score, alice.points), (None, None), "no mark, not 0");
        assert_eq!(book.students[1].verdict, Mark::Graded(Verdict::TimeLimit));
        assert_eq!(book.students[2].verdict, Mark::Graded(Verdict::Accepted));
        // Judged again, nothing changes.
        assert!(book.rejudge().is_empty());
    }
}
