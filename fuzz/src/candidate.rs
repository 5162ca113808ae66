//! What is being fuzzed: anything that turns an input into an output, or fails to.

use std::convert::Infallible;

use reference::{Problem, Verdict};

/// What a candidate did with one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Observed {
    /// It ended normally with this standard output (judged by the checker).
    Output(Vec<u8>),
    /// It failed on its own account: `TLE`, `MLE`, `OLE` or `RE`, with why.
    Failed {
        /// The verdict.
        verdict: Verdict,
        /// Why, for a person.
        message: String,
    },
}

/// A solution under test. `Err` means the run could not be made at all (a broken setup),
/// never that the solution is wrong.
pub trait Candidate {
    /// Why a run could not be made.
    type Error;

    /// Runs the solution on one input.
    fn run(&mut self, input: &str) -> Result<Observed, Self::Error>;
}

/// One of a problem's classic wrong solutions, run in process: the fuzzer's own test
/// subject.
#[derive(Debug, Clone, Copy)]
pub struct Mutant {
    problem: Problem,
    index: usize,
}

impl Mutant {
    /// Mutant number `index` of `problem.mutants()`.
    pub fn new(problem: Problem, index: usize) -> Mutant {
        Mutant { problem, index }
    }
}

impl Candidate for Mutant {
    type Error = Infallible;

    fn run(&mut self, input: &str) -> Result<Observed, Infallible> {
        Ok(
            match self.problem.run_mutant(self.index, input.as_bytes()) {
                Ok(output) => Observed::Output(output.into_bytes()),
                // A real program would crash on an input it cannot read.
                Err(e) => Observed::Failed {
                    verdict: Verdict::RuntimeError,
                    message: e.to_string(),
                },
            },
        )
    }
}
