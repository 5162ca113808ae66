//! What `grader fuzz` found: the run, the failure as found and shrunk, where its input
//! came from, and what was done with it.

use std::path::PathBuf;
use std::time::Duration;

use fuzz::{Finding, Regression, Shrunk};
use std::collections::BTreeMap;

use reference::{Problem, Verdict};

use super::case::Explained;
use super::limits::LimitsRecord;
use super::problem::ProblemId;
use crate::submission::diagnosis::{self, Suggestion};

/// Where a failing input came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The regressions file, entry number `.0`.
    Regression(usize),
    /// Drawn from the seed.
    Seeded,
    /// The exhaustive list.
    Exhaustive,
}

impl Source {
    /// As the JSON report names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::Regression(_) => "regression",
            Source::Seeded => "seed",
            Source::Exhaustive => "exhaustive",
        }
    }
}

/// A failure, shrunk, with where it came from and what was done with it.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// Where the input came from.
    pub(crate) source: Source,
    /// The regression it replays, when it came from the file.
    pub(crate) regression: Option<Regression>,
    /// The failing run as found.
    pub(crate) finding: Finding,
    /// The smallest failing input the shrinker reached.
    pub(crate) shrunk: Shrunk,
    /// The command that finds it again, quoted for a shell.
    pub(crate) replay: String,
    /// `--save`: the `.in` and `.ans` written.
    pub(crate) saved: Vec<PathBuf>,
    /// The regressions file it was added to.
    pub(crate) recorded: Option<PathBuf>,
}

impl Found {
    /// Why the shrunk input's output is wrong, as the reference proves it: for a `WA` or
    /// `PE` only (a crash or a timeout is wrong for its own reason).
    pub(crate) fn explanation(&self, problem: Problem) -> Option<Explained> {
        let failure = &self.shrunk.failure;
        Explained::of_run(
            problem,
            failure.verdict,
            self.shrunk.input.as_bytes(),
            &failure.output,
        )
    }
}

/// Everything a fuzz report says.
#[derive(Debug, Clone)]
pub(crate) struct FuzzResult {
    /// The problem.
    pub(crate) problem: ProblemId,
    /// A package's reference answers to the inputs the report shows, by input (a built-in
    /// problem's reference solves them when asked).
    pub(crate) answers: BTreeMap<String, String>,
    /// The submission as the user named it.
    pub(crate) submission: String,
    /// Its language.
    pub(crate) language: String,
    /// The seed.
    pub(crate) seed: u64,
    /// Whether every input was run.
    pub(crate) exhaustive: bool,
    /// The limits of every run.
    pub(crate) limits: LimitsRecord,
    /// Runs made (regressions included; shrinking not).
    pub(crate) runs: u64,
    /// Of those, replays of the regressions file.
    pub(crate) replayed: u64,
    /// Time spent running (shrinking not included).
    pub(crate) elapsed: Duration,
    /// The compiler's message when it did not compile.
    pub(crate) compile_error: Option<String>,
    /// The failure, if any.
    pub(crate) found: Option<Found>,
}

impl FuzzResult {
    /// The overall verdict: `CE`, the shrunk failure's, or `AC` when nothing was found.
    pub(crate) fn verdict(&self) -> Verdict {
        if self.compile_error.is_some() {
            Verdict::CompileError
        } else {
            self.found
                .as_ref()
                .map_or(Verdict::Accepted, |f| f.shrunk.failure.verdict)
        }
    }

    /// The profile a `CE`'s message points to (`--lang poj`), if any.
    pub(crate) fn suggestion(&self) -> Option<Suggestion> {
        diagnosis::suggestion(&self.language, self.compile_error.as_ref()?)
    }

    /// The reference's answer to `input` (empty when it has none), for expected-and-got.
    pub(crate) fn expected(&self, input: &str) -> String {
        match &self.problem {
            ProblemId::Builtin(problem) => problem.solve(input.as_bytes()).unwrap_or_default(),
            ProblemId::Package(_) => self.answers.get(input).cloned().unwrap_or_default(),
        }
    }

    /// Why the shrunk input's output of `found` is wrong, as a built-in problem's
    /// reference proves it (a package's validator says only its message).
    pub(crate) fn explanation(&self, found: &Found) -> Option<Explained> {
        found.explanation(self.problem.builtin()?)
    }

    /// Runs per second.
    pub(crate) fn rate(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.runs as f64 / secs
        } else {
            0.0
        }
    }
}
