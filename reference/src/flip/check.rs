//! The flip checker: one line, compared by judging.md's rules.

use crate::Count;
use crate::compare::{Judgement, compare};

/// Judges `output` against the correct `answer`.
pub fn check(answer: Count, output: &[u8]) -> Judgement {
    compare(&answer.to_string(), output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    #[test]
    fn judging_follows_the_comparison_rules() {
        let verdict = |answer, out: &[u8]| check(answer, out).verdict;
        assert_eq!(verdict(Count::Moves(4), b"4\n"), Verdict::Accepted);
        assert_eq!(verdict(Count::Moves(4), b"4"), Verdict::Accepted);
        assert_eq!(verdict(Count::Moves(4), b" 4\n"), Verdict::Presentation);
        assert_eq!(verdict(Count::Moves(4), b"5\n"), Verdict::WrongAnswer);
        assert_eq!(
            verdict(Count::Impossible, b"Impossible\r\n"),
            Verdict::Accepted
        );
        assert_eq!(
            verdict(Count::Impossible, b"impossible\n"),
            Verdict::WrongAnswer
        );
    }
}
