//! The one shape of every explanation: `AC` has none, `PE` says what layout was wrong (the
//! checker knows it) beside the witness, and `WA` gets its problem's reason.

use super::model::Explanation;
use crate::compare::Judgement;
use crate::puzzle::Puzzle;
use crate::verdict::Verdict;

/// A problem whose reference can explain its answers. Implemented beside [`Puzzle`], per
/// problem, in this module tree.
pub trait Explain: Puzzle {
    /// The reference's explanation of the answer of `board`, for any board: a minimum
    /// solution, or why none exists.
    fn witness(board: &Self::Board) -> Explanation;

    /// Why `output` is wrong for `board`, given the checker's `judgement` of it (`WA`
    /// against the reference's answer).
    fn wrong(board: &Self::Board, output: &[u8], judgement: &Judgement) -> Explanation;
}

/// The explanation of `output` for `board`: `None` when it is accepted.
pub fn explain<P: Explain>(board: &P::Board, output: &[u8]) -> Option<Explanation> {
    let judgement = P::check(board, &P::solve(board), output);
    match judgement.verdict {
        Verdict::Accepted => None,
        Verdict::Presentation => Some(Explanation {
            reason: judgement.message,
            witness: P::witness(board).witness,
        }),
        _ => Some(P::wrong(board, output, &judgement)),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Problem, Rng, Verdict};

    /// Every mutant on boards of every kind the fuzzer draws: an explanation exactly when
    /// the checker does not accept, its witness as long as the reference's answer, and the
    /// reason never empty.
    #[test]
    fn every_wrong_output_of_every_mutant_is_explained_with_a_minimum_witness() {
        for problem in Problem::ALL {
            let mut rng = Rng::new(1600);
            let mut explained = 0;
            for kind in problem.fuzz_mix() {
                for _ in 0..12 {
                    let input = problem.generate(kind, &mut rng).unwrap();
                    let input = input.as_bytes();
                    let answer = problem.solve(input).unwrap();
                    let first = answer.lines().next().unwrap();
                    let minimum = first.parse::<usize>().unwrap_or(0);
                    let witness = problem.witness(input).unwrap();
                    assert_eq!(witness.witness.steps(), minimum, "{problem} {input:?}");
                    assert!(!witness.reason.is_empty());
                    for (index, _) in problem.mutants().iter().enumerate() {
                        let output = problem.run_mutant(index, input).unwrap();
                        let verdict = problem.check(input, None, output.as_bytes()).unwrap();
                        let why = problem.explain(input, output.as_bytes()).unwrap();
                        assert_eq!(
                            why.is_none(),
                            verdict.verdict == Verdict::Accepted,
                            "{problem} {input:?} {output:?}"
                        );
                        if let Some(why) = why {
                            assert_eq!(why.witness.steps(), minimum, "{problem} {input:?}");
                            assert!(!why.reason.is_empty());
                            explained += 1;
                        }
                    }
                }
            }
            assert!(explained > 20, "{problem}: only {explained} explained");
        }
    }
}
