//! One submission on a case folder (`grader test`): how it was built, under which limits,
//! and each case's result.

use std::collections::BTreeMap;

use reference::Verdict;

use super::case::{Board, CaseResult};
use super::limits::LimitsRecord;
use super::mark;
use super::problem::ProblemId;
use crate::cases::find::Case;
use crate::cases::points::{self, Points};
use crate::submission::diagnosis::{self, Suggestion};

/// How a submission was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Build {
    /// Compiled now.
    Compiled,
    /// Compiled earlier: the program came from the cache.
    Cached,
    /// Nothing to compile (an interpreted language, a program, a command).
    Ready,
    /// The compiler refused it, with this message.
    CompileError(String),
}

impl Build {
    /// How a program that compiled (or needed none) was built: whether its language has a
    /// compile step, and whether the program came from the cache.
    pub(crate) fn of(compiled: bool, cached: bool) -> Build {
        match (compiled, cached) {
            (true, true) => Build::Cached,
            (true, false) => Build::Compiled,
            (false, _) => Build::Ready,
        }
    }

    /// As the report's header says it.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Build::Compiled => "compiled",
            Build::Cached => "compiled earlier (cached)",
            Build::Ready => "ready",
            Build::CompileError(_) => "did not compile",
        }
    }

    /// The compiler's message, for `CE`.
    pub(crate) fn compile_error(&self) -> Option<&str> {
        match self {
            Build::CompileError(message) => Some(message),
            _ => None,
        }
    }
}

/// Everything a report says about one submission.
#[derive(Debug, Clone)]
pub(crate) struct SubmissionResult {
    /// The problem.
    pub(crate) problem: ProblemId,
    /// The submission as the user named it.
    pub(crate) submission: String,
    /// Its language (or `executable`, `command`).
    pub(crate) language: String,
    /// How it was built.
    pub(crate) build: Build,
    /// The limits of every run.
    pub(crate) limits: LimitsRecord,
    /// Every case's name, in order (for `CE`, where no case ran).
    pub(crate) names: Vec<String>,
    /// The results, in name order (fewer than `names` after `--fail-fast`).
    pub(crate) cases: Vec<CaseResult>,
    /// Each case's input and answer, by name.
    pub(crate) boards: BTreeMap<String, Board>,
    /// What the cases are worth, and who sees a secret case (`--report gradescope`).
    pub(crate) scoring: Scoring,
}

/// When a student sees a secret case's result on Gradescope (its `visibility` values,
/// which `--gradescope-visibility` takes as Gradescope spells them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Visibility {
    /// Never (the teacher sees it).
    Hidden,
    /// After the due date.
    #[value(name = "after_due_date")]
    AfterDueDate,
    /// Once the grades are published.
    #[default]
    #[value(name = "after_published")]
    AfterPublished,
    /// At once.
    Visible,
}

/// What the cases of a folder are worth: the groups' points (a manifest's `points`, or
/// `--points`), each case's group, and who sees a secret case.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scoring {
    /// Points by group; `None` when none are given (each case is then worth 1).
    pub(crate) points: Option<Points>,
    /// Each case's group, by case name.
    pub(crate) groups: BTreeMap<String, String>,
    /// When a student sees a secret (not sample) case's result.
    pub(crate) secret_visibility: Visibility,
}

/// The group of the sample cases, which every student sees.
const SAMPLE: &str = "sample";

impl Scoring {
    /// The scoring of `cases` with `points` (from [`points::of_folder`]).
    pub(crate) fn of(
        points: Option<Points>,
        cases: &[Case],
        secret_visibility: Visibility,
    ) -> Scoring {
        Scoring {
            points,
            groups: cases
                .iter()
                .map(|c| (c.name.clone(), c.group().to_owned()))
                .collect(),
            secret_visibility,
        }
    }

    /// What the whole folder is worth.
    pub(crate) fn most(&self) -> f64 {
        self.points
            .as_ref()
            .map_or(self.groups.len() as f64, points::most)
    }

    /// Whether case `name` is a sample (every student sees it).
    pub(crate) fn is_sample(&self, name: &str) -> bool {
        self.groups.get(name).is_some_and(|g| g == SAMPLE)
    }
}

impl SubmissionResult {
    /// How many cases the folder has.
    pub(crate) fn total(&self) -> usize {
        self.names.len()
    }

    /// The overall verdict ([`mark::overall`]); `CE` when it did not compile.
    pub(crate) fn verdict(&self) -> Verdict {
        if self.build.compile_error().is_some() {
            return Verdict::CompileError;
        }
        mark::overall(self.cases.iter().map(|c| c.verdict), self.total())
    }

    /// How many cases are `AC`.
    pub(crate) fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.accepted()).count()
    }

    /// The cases that are not `AC`, in name order.
    pub(crate) fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| !c.accepted())
    }

    /// The profile a `CE`'s message points to (`--lang poj`), if any.
    pub(crate) fn suggestion(&self) -> Option<Suggestion> {
        diagnosis::suggestion(&self.language, self.build.compile_error()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scoring(points: Option<Points>) -> Scoring {
        Scoring {
            points,
            groups: [
                ("sample/01", "sample"),
                ("a/01", "a"),
                ("a/02", "a"),
                ("a/03", "a"),
            ]
            .into_iter()
            .map(|(n, g)| (n.to_owned(), g.to_owned()))
            .collect(),
            secret_visibility: Visibility::AfterPublished,
        }
    }

    #[test]
    fn the_whole_is_worth_its_groups_points_and_samples_are_known() {
        let s = scoring(Some(Points::from([
            ("sample".to_owned(), 0.0),
            ("a".to_owned(), 10.0),
        ])));
        assert!((s.most() - 10.0).abs() < f64::EPSILON);
        assert!(s.is_sample("sample/01") && !s.is_sample("a/01"));
    }

    #[test]
    fn without_points_the_whole_is_worth_a_point_a_case() {
        let s = scoring(None);
        assert!((s.most() - 4.0).abs() < f64::EPSILON);
    }
}
