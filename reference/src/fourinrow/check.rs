//! The fourinrow checker: one line, compared by judging.md's rules.

use crate::Count;
use crate::compare::{Judgement, compare};

/// Judges `output` against the correct `answer`.
pub fn check(answer: Count, output: &[u8]) -> Judgement {
    compare(&answer.to_string(), output)
}
