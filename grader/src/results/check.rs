//! What `grader check` decided about one output.

use reference::{Judgement, Problem};

/// The problem and the judgement.
#[derive(Debug, Clone)]
pub(crate) struct CheckResult {
    /// The problem.
    pub(crate) problem: Problem,
    /// The verdict (`AC`, `PE` or `WA`) and why.
    pub(crate) judgement: Judgement,
}
