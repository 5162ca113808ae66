//! Why a student fails, as the gradebook page groups students: it did not compile, it
//! could not be graded, a right answer laid out wrongly (one mistake for all its cases),
//! or a failing case by the kind of mistake a feedback page names; with how many cases
//! each reason has. Read from the results alone, for [`Standing`](super::book::Standing).

use reference::Verdict;

use crate::results::case::{Board, CaseResult};
use crate::results::feedback::{Mistake, Reveal};
use crate::results::gradebook::{Head, StudentReport};
use crate::results::layout_mistake::Layout;

/// Why a student fails, as the page groups students.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Reason {
    /// It did not compile.
    Build,
    /// It could not be graded.
    NotGraded,
    /// A right answer laid out wrongly: the mistake, when the answer is known.
    Layout(Option<Layout>),
    /// Any other failing case, by the kind a feedback page gives it (the teacher sees
    /// every case's answer, so a `WA` is told apart by what it printed).
    Case(Mistake),
}

impl Reason {
    /// The reason of failing case `c` (its board `board`).
    pub(crate) fn of(c: &CaseResult, board: Option<&Board>) -> Reason {
        if c.verdict == Verdict::Presentation {
            return Reason::Layout(board.map(|b| Layout::of(&b.answer, &c.output)));
        }
        Reason::Case(Mistake::of(c, board, Reveal::All.of("")))
    }

    /// Its verdict's code.
    pub(crate) fn code(self) -> &'static str {
        match self {
            Reason::Build => Verdict::CompileError.code(),
            Reason::NotGraded => "--",
            Reason::Layout(_) => Verdict::Presentation.code(),
            Reason::Case(mistake) => mistake.verdict().code(),
        }
    }
}

/// Why `s` fails, as the page groups students: each reason with how many of its cases
/// have it (none for a build, or a student not graded).
pub(crate) fn reasons(head: &Head, s: &StudentReport) -> Vec<(Reason, usize)> {
    if s.compile_error.is_some() {
        return vec![(Reason::Build, 0)];
    }
    if s.error.is_some() {
        return vec![(Reason::NotGraded, 0)];
    }
    let mut reasons: Vec<(Reason, usize)> = Vec::new();
    for c in s.failures() {
        let reason = Reason::of(c, head.boards.get(&c.name));
        match reasons.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => reasons.push((reason, 1)),
        }
    }
    reasons
}
