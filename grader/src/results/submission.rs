//! One submission on a case folder (`grader test`): how it was built, under which limits,
//! and each case's result.

use std::collections::BTreeMap;

use reference::{Problem, Verdict};

use super::case::{Board, CaseResult};
use super::limits::LimitsRecord;
use super::mark;
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
    pub(crate) problem: Problem,
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
