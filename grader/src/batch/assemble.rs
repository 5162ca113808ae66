//! The gradebook, assembled from the builds and the journal's lines (old and new alike: a
//! resumed batch and one run in one go give the same gradebook), a student at a time: a
//! student's report is made when a file reaches it, its results read back from the
//! journal, and dropped after.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use reference::Verdict;
use sandbox::Limits;

use super::class_build::Build;
use super::journal::Journal;
use super::runs::Ran;
use super::sleepers;
use super::students::{Skipped, Student};
use crate::cases::find::Case;
use crate::cases::points::{self, Points};
use crate::paths::files;
use crate::report::book::Students;
use crate::results::case::{Board, CaseResult};
use crate::results::gradebook::{Head, ShardOf, SkippedReport, StudentReport, Tally};
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
    /// The shard of the class graded, when it is one.
    pub(crate) shard: Option<ShardOf>,
}

/// The class-wide fields of the gradebook of `cases`, with what was `skipped`.
pub(crate) fn head(heading: &Heading<'_>, cases: &[Case], skipped: &[Skipped]) -> Head {
    Head {
        problem: heading.problem.id().to_owned(),
        package: heading.problem.builtin().is_none(),
        limits: LimitsRecord::of(heading.limits),
        shard: heading.shard,
        cases: cases.iter().map(|c| c.name.clone()).collect(),
        groups: groups(cases),
        points: heading.points.cloned(),
        about: heading.about.clone(),
        skipped: skipped
            .iter()
            .map(|s| SkippedReport {
                path: s.path.clone(),
                why: s.why.clone(),
            })
            .collect(),
        boards: cases.iter().filter_map(board).collect(),
    }
}

/// Every group of `cases`, with its number of cases.
fn groups(cases: &[Case]) -> BTreeMap<String, usize> {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases {
        *groups.entry(case.group().to_owned()).or_default() += 1;
    }
    groups
}

/// A batch's students, as the gradebook's files read them: each student's report made
/// from its build and what its runs left, its results read back from the journal.
#[derive(Debug)]
pub(crate) struct Reports<'a, P> {
    heading: Heading<'a>,
    students: &'a [Student],
    cases: &'a [Case],
    builds: &'a [Build<P>],
    ran: &'a Ran,
    journal: &'a Journal,
    groups: BTreeMap<String, usize>,
}

impl<'a, P> Reports<'a, P> {
    /// The reports of `students` (with `builds`) on `cases`, from what `ran` and the
    /// `journal` it ran into.
    pub(crate) fn new(
        heading: Heading<'a>,
        students: &'a [Student],
        cases: &'a [Case],
        builds: &'a [Build<P>],
        ran: &'a Ran,
        journal: &'a Journal,
    ) -> Reports<'a, P> {
        Reports {
            heading,
            students,
            cases,
            builds,
            ran,
            journal,
            groups: groups(cases),
        }
    }

    /// Student number `s`'s report.
    fn report(&self, s: usize) -> io::Result<StudentReport> {
        let (student, build) = (&self.students[s], &self.builds[s]);
        let cases = self.cases;
        let mut report = blank(&self.heading, student, cases.len(), &self.groups);
        match (self.ran.faults.get(&s), build) {
            (Some(why), _) | (None, Build::Error(why)) => report.error = Some(why.clone()),
            (None, Build::CompileError { language, message }) => {
                report.language.clone_from(language);
                report.verdict = Mark::Graded(Verdict::CompileError);
                report.compile_error = Some(message.clone());
                report.suggestion = diagnosis::suggestion(language, message);
            }
            (None, Build::Ready { language, .. }) => {
                report.language.clone_from(language);
                let (ran, places): (Vec<usize>, Vec<_>) = (0..cases.len())
                    .filter_map(|c| Some((c, self.ran.places.get(s, c)?)))
                    .unzip();
                // The fault names the journal: its line is the error's.
                let results = self
                    .journal
                    .read(&places)
                    .map_err(|e| io::Error::other(e.to_string()))?;
                add_runs(&mut report, cases, ran.into_iter().zip(results));
                report.stopped = self.ran.slept.get(&s).and_then(|row| {
                    let not_run = cases.len() - report.cases.len();
                    let row: Vec<&str> = row.clone().map(|c| cases[c].name.as_str()).collect();
                    (not_run > 0).then(|| sleepers::why(&row, not_run))
                });
            }
        }
        // A student who was not graded earned no mark, not 0: no score and no points.
        let graded = report.verdict != Mark::NotGraded;
        report.score = graded.then(|| mark::score(report.passed, cases.len()));
        report.points = self.heading.points.filter(|_| graded).map(|points| {
            points::earned(points, |g| {
                report.groups.get(g).map_or((0, 0), |t| (t.passed, t.total))
            })
        });
        Ok(report)
    }
}

impl<P> Students for Reports<'_, P> {
    fn read(&self, index: usize) -> io::Result<Cow<'_, StudentReport>> {
        self.report(index).map(Cow::Owned)
    }
}

/// A student's report before anything is known of it: not graded, nothing passed.
fn blank(
    heading: &Heading<'_>,
    student: &Student,
    total: usize,
    groups: &BTreeMap<String, usize>,
) -> StudentReport {
    let submission = super::students::relative(heading.class, &student.entry);
    StudentReport {
        student: student.name.clone(),
        problem: heading.problem.id().to_owned(),
        submission,
        language: String::new(),
        verdict: Mark::NotGraded,
        score: None,
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

/// Adds a built student's runs (the result of each case that ran, in case order) to its
/// report, and its overall verdict.
fn add_runs(
    report: &mut StudentReport,
    cases: &[Case],
    results: impl Iterator<Item = (usize, CaseResult)>,
) {
    for (c, mut r) in results {
        let case = &cases[c];
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
            interaction: Board::interaction_beside(&case.input),
        },
    ))
}
