//! A gradebook as its files are written from it: the class ([`Head`]), each student's
//! [`Standing`], and each student in full, read when a file reaches it and dropped after.
//! A batch reads its students back from its journal, so that its memory does not grow
//! with students x cases; a merge holds its shards whole ([`Held`]). The same writers
//! serve both.
//!
//! A standing is what the parts of the files that come before or stand apart from the
//! students read of one (the human summary, the page's histogram, table and matrix, the
//! JUnit totals, the page's reasons): its report without its cases, and what its cases
//! come to. It is made by [`Standing::of`] from the full report, for both kinds of
//! gradebook.

use std::borrow::Cow;
use std::io;

use super::html::parts::group_class;
use super::junit_suite::{self, Counts};
use super::reasons::{self, Reason};
use crate::results::case::CaseResult;
use crate::results::gradebook::{Gradebook, Head, StudentReport};
use crate::results::mark::Mark;

/// Where a gradebook's students come from, one at a time.
pub(crate) trait Students {
    /// Student number `index`, in full.
    fn read(&self, index: usize) -> io::Result<Cow<'_, StudentReport>>;
}

impl Students for Vec<StudentReport> {
    fn read(&self, index: usize) -> io::Result<Cow<'_, StudentReport>> {
        self.get(index)
            .map(Cow::Borrowed)
            .ok_or_else(|| io::Error::other(format!("no student number {index}")))
    }
}

/// What the class-wide parts of the files read of one student.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Standing {
    /// Its report, without its cases (`cases` is empty: they are read with the student).
    pub(crate) report: StudentReport,
    /// How many of its cases were not run (`StudentReport::not_run`): `--`, neither
    /// passed nor failed.
    pub(crate) not_run: usize,
    /// The same in each group, in the groups' order.
    pub(crate) not_run_by_group: Vec<usize>,
    /// Its first failing case, without its output, stderr and explanation.
    pub(crate) first_failure: Option<CaseResult>,
    /// Its JUnit suite's counts.
    pub(crate) suite: Counts,
    /// The class of each of its cells in the page's matrix, in the groups' order.
    pub(crate) cells: Vec<&'static str>,
    /// Why it fails, as the page groups students, with how many cases each reason has.
    pub(crate) reasons: Vec<(Reason, usize)>,
}

impl Standing {
    /// The standing of `student`, of the class `head`.
    pub(crate) fn of(head: &Head, student: &StudentReport) -> Standing {
        let first_failure = student.failures().next().map(|c| CaseResult {
            output: Vec::new(),
            stderr: Vec::new(),
            interaction: Vec::new(),
            explanation: None,
            stalls: Vec::new(),
            ..c.clone()
        });
        Standing {
            report: student.without_cases(),
            not_run: student.not_run(None),
            not_run_by_group: head
                .groups
                .keys()
                .map(|group| student.not_run(Some(group)))
                .collect(),
            first_failure,
            suite: junit_suite::counts(student, &head.cases),
            cells: head
                .groups
                .keys()
                .map(|group| group_class(student, group))
                .collect(),
            reasons: reasons::reasons(head, student),
        }
    }
}

/// Every student's standing, each student read once.
pub(crate) fn standings(
    head: &Head,
    count: usize,
    students: &dyn Students,
) -> io::Result<Vec<Standing>> {
    (0..count)
        .map(|index| Ok(Standing::of(head, &*read(students, index)?)))
        .collect()
}

/// Student `index` of `students`, unless the grader was told to stop: a file being written
/// is then left unfinished, and its temp file removed.
fn read(students: &dyn Students, index: usize) -> io::Result<Cow<'_, StudentReport>> {
    if let Some(signal) = crate::cli::interrupt::received() {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            format!("stopped by {}", signal.as_str()),
        ));
    }
    students.read(index)
}

/// A gradebook as its writers read it.
#[derive(Clone, Copy)]
pub(crate) struct Book<'a> {
    /// The class.
    pub(crate) head: &'a Head,
    /// Each student's standing, in the students' order.
    pub(crate) standings: &'a [Standing],
    /// The students in full.
    students: &'a dyn Students,
}

impl<'a> Book<'a> {
    /// The book of `head`, its students' `standings`, and the `students` themselves.
    pub(crate) fn new(
        head: &'a Head,
        standings: &'a [Standing],
        students: &'a dyn Students,
    ) -> Book<'a> {
        Book {
            head,
            standings,
            students,
        }
    }

    /// Student number `index` in full.
    pub(crate) fn student(&self, index: usize) -> io::Result<Cow<'a, StudentReport>> {
        read(self.students, index)
    }

    /// How many students got each overall mark, in judging.md order (`--` last); marks
    /// nobody got are left out.
    pub(crate) fn histogram(&self) -> Vec<(Mark, usize)> {
        Mark::all()
            .map(|mark| {
                let n = self
                    .standings
                    .iter()
                    .filter(|s| s.report.verdict == mark)
                    .count();
                (mark, n)
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Whether every student is `AC`.
    pub(crate) fn all_accepted(&self) -> bool {
        self.standings.iter().all(|s| s.report.verdict.accepted())
    }

    /// Whether the class ended as its exit status asks: every student `AC`, or with
    /// `graded_is_enough` (`--exit-zero-when-graded`) every student given a verdict, none
    /// `--`.
    pub(crate) fn passed(&self, graded_is_enough: bool) -> bool {
        if graded_is_enough {
            self.standings
                .iter()
                .all(|s| s.report.verdict != Mark::NotGraded)
        } else {
            self.all_accepted()
        }
    }
}

impl std::fmt::Debug for Book<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("head", self.head)
            .field("students", &self.standings.len())
            .finish_non_exhaustive()
    }
}

/// A gradebook held whole (a merge's, read from its shards), as its files read it.
#[derive(Debug, Clone)]
pub(crate) struct Held {
    head: Head,
    students: Vec<StudentReport>,
    standings: Vec<Standing>,
}

impl Held {
    /// `book`, with its standings.
    pub(crate) fn new(book: Gradebook) -> Held {
        let (head, students) = book.into_parts();
        let standings = students.iter().map(|s| Standing::of(&head, s)).collect();
        Held {
            head,
            students,
            standings,
        }
    }

    /// As its writers read it.
    pub(crate) fn book(&self) -> Book<'_> {
        Book::new(&self.head, &self.standings, &self.students)
    }
}
