//! The gradebook, assembled from the builds and the journal's records (old and new alike:
//! a resumed batch and one run in one go give the same gradebook).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use reference::Verdict;

use super::build::Build;
use super::discover::{Skipped, Student};
use super::keys::Keys;
use super::runs::Ran;
use super::sleepers;
use crate::cases::discover::Case;
use crate::cases::points::{self, Points};
use crate::exec::Limits;
use crate::files;
use crate::results::case::{Board, CaseResult};
use crate::results::gradebook::{Gradebook, SkippedReport, StudentReport, Tally};
use crate::results::limits::LimitsRecord;
use crate::results::mark::{self, Mark};
use crate::results::problem::ProblemId;
use crate::submission::diagnosis;

/// What the gradebook says of the whole class.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Heading<'a> {
    /// The problem.
    pub(crate) problem: &'a ProblemId,
    /// The limits of every run.
    pub(crate) limits: &'a Limits,
    /// The class folder (names in the gradebook are relative to it).
    pub(crate) class: &'a Path,
    /// What each group is worth, if anything.
    pub(crate) points: Option<&'a Points>,
    /// What each group is for (`cases::about`).
    pub(crate) about: &'a BTreeMap<String, String>,
}

/// The gradebook of `students` (with `builds`) on `cases`, from what `ran`.
pub(crate) fn gradebook<P>(
    heading: &Heading<'_>,
    students: &[Student],
    skipped: &[Skipped],
    cases: &[Case],
    builds: &[Build<P>],
    mut ran: Ran,
    keys: &Keys,
) -> Gradebook {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases {
        *groups.entry(case.group().to_owned()).or_default() += 1;
    }
    // A result moves from the runs into the gradebook, unless another student has the
    // same program (the same keys): at 3,000 students of 150 cases, two copies of every
    // result were most of a batch's peak memory.
    let mut programs: HashMap<&str, usize> = HashMap::new();
    for build in builds {
        if let Build::Ready { hash, .. } = build {
            *programs.entry(hash.as_str()).or_default() += 1;
        }
    }
    let reports = students
        .iter()
        .zip(builds)
        .enumerate()
        .map(|(s, (student, build))| {
            let mut report = blank(heading, student, cases.len(), &groups);
            match (ran.faults.get(&s), build) {
                (Some(why), _) | (None, Build::Error(why)) => report.error = Some(why.clone()),
                (None, Build::CompileError { language, message }) => {
                    report.language.clone_from(language);
                    report.verdict = Mark::Graded(Verdict::CompileError);
                    report.compile_error = Some(message.clone());
                    report.suggestion = diagnosis::suggestion(language, message);
                }
                (None, Build::Ready { language, hash, .. }) => {
                    report.language.clone_from(language);
                    let shared = programs.get(hash.as_str()).is_some_and(|&n| n > 1);
                    add_runs(&mut report, cases, |c| {
                        let key = keys.run(hash, c);
                        if shared {
                            ran.records.get(&key).map(|r| r.result.clone())
                        } else {
                            ran.records.remove(&key).map(|r| r.result)
                        }
                    });
                    report.stopped = ran.slept.get(&s).and_then(|row| {
                        let not_run = cases.len() - report.cases.len();
                        let row: Vec<&str> = row.clone().map(|c| cases[c].name.as_str()).collect();
                        (not_run > 0).then(|| sleepers::why(&row, not_run))
                    });
                }
            }
            report.score = mark::score(report.passed, cases.len());
            report.points = heading.points.map(|points| {
                points::earned(points, |g| {
                    report.groups.get(g).map_or((0, 0), |t| (t.passed, t.total))
                })
            });
            report
        })
        .collect();
    Gradebook {
        problem: heading.problem.id().to_owned(),
        package: heading.problem.builtin().is_none(),
        limits: LimitsRecord::of(heading.limits),
        cases: cases.iter().map(|c| c.name.clone()).collect(),
        groups,
        points: heading.points.cloned(),
        about: heading.about.clone(),
        students: reports,
        boards: cases.iter().filter_map(board).collect(),
        skipped: skipped
            .iter()
            .map(|s| SkippedReport {
                path: s.path.clone(),
                why: s.why.clone(),
            })
            .collect(),
    }
}

/// A student's report before anything is known of it: not graded, nothing passed.
fn blank(
    heading: &Heading<'_>,
    student: &Student,
    total: usize,
    groups: &BTreeMap<String, usize>,
) -> StudentReport {
    let submission = student
        .entry
        .strip_prefix(heading.class)
        .unwrap_or(&student.entry)
        .to_string_lossy()
        .replace('\\', "/");
    StudentReport {
        student: student.name.clone(),
        problem: heading.problem.id().to_owned(),
        submission,
        language: String::new(),
        verdict: Mark::NotGraded,
        score: 0.0,
        points: None,
        passed: 0,
        total,
        groups: groups
            .iter()
            .map(|(g, &n)| {
                (
                    g.clone(),
                    Tally {
                        passed: 0,
                        total: n,
                    },
                )
            })
            .collect(),
        compile_error: None,
        suggestion: None,
        error: None,
        stopped: None,
        cases: Vec::new(),
    }
}

/// Adds a built student's runs (`result` of each case, when it ran) to its report, and
/// its overall verdict.
fn add_runs(
    report: &mut StudentReport,
    cases: &[Case],
    mut result: impl FnMut(usize) -> Option<CaseResult>,
) {
    for (c, case) in cases.iter().enumerate() {
        let Some(mut r) = result(c) else {
            continue;
        };
        if r.accepted() {
            report.passed += 1;
            if let Some(t) = report.groups.get_mut(case.group()) {
                t.passed += 1;
            }
        }
        // Named as the case folder names it now (the key holds its contents).
        r.name.clone_from(&case.name);
        report.cases.push(r);
    }
    let verdicts = report.cases.iter().map(|c| c.verdict);
    report.verdict = Mark::Graded(mark::overall(verdicts, cases.len()));
}

/// A case's board, for the gradebook's diffs (none when its files are gone).
fn board(case: &Case) -> Option<(String, Board)> {
    let input = files::read_capped(&case.input).ok()?;
    let answer = files::read_capped(case.answer.as_ref()?).ok()?;
    Some((
        case.name.clone(),
        Board {
            input: String::from_utf8_lossy(&input).into_owned(),
            answer: String::from_utf8_lossy(&answer).into_owned(),
        },
    ))
}
