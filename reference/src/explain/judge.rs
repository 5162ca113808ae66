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
