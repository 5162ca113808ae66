//! What `grader solve` found for one input: the reference answer, and why it is the
//! answer when asked.

use reference::{Explanation, Problem};

/// The answer to one input of a problem.
#[derive(Debug, Clone)]
pub(crate) struct Solved {
    /// The problem.
    pub(crate) problem: Problem,
    /// The answer, exactly as a correct contestant prints it.
    pub(crate) answer: String,
    /// Why it is the answer (`--explain`): a minimum solution, or what blocks every one.
    pub(crate) explanation: Option<Explanation>,
}
