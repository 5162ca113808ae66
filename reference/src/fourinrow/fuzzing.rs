//! How the fuzzer draws, shrinks and enumerates fourinrow boards.

use super::board::{Board, Colour};
use super::table;
use crate::puzzle::{Share, cycle_len, schedule};

/// The fuzz mix, the one table of what the fuzzer draws and how often (issue 24), out of 25
/// runs:
///
/// - the hardest boards, 4: the 128 boards that need 7 moves are where a solver that
///   gains or loses a tempo (a wasted move, a pass) is wrong, and nearly nowhere else;
/// - boards where only one first move keeps the minimum, 3: a solver missing any one
///   move is wrong there;
/// - every answer, 10 (2 each for 2, 4, 5 and 6; 1 each for 1 and 3, the commonest);
/// - the structural kinds, 2 each: touching empty squares, boards where the first mover
///   matters (one per colour), goals on the diagonal and the antidiagonal alone (a third
///   of random boards are goals, but rarely of a diagonal);
/// - uniform boards, 2.
///
/// Every documented kind keeps at least its floor, half of an even split (1/14; tested in
/// `problem.rs`).
pub const SHARES: &[Share] = &[
    Share::new("hardest", 4),
    Share::new("one-way", 3),
    Share::new("answer=2", 2),
    Share::new("first-mover=B", 1),
    Share::new("solved=diagonal-B", 1),
    Share::new("touching", 2),
    Share::new("answer=5", 2),
    Share::new("first-mover=W", 1),
    Share::new("solved=antidiagonal-W", 1),
    Share::new("answer=4", 2),
    Share::new("answer=3", 1),
    Share::new("answer=6", 2),
    Share::new("answer=1", 1),
    Share::new("random", 2),
];

/// One cycle of [`SHARES`], the kinds of the fuzzer's first runs (see [`schedule`]).
pub const MIX: &[&str] = &CYCLE;
const CYCLE: [&str; cycle_len(SHARES)] = schedule(SHARES);

/// Neighbours to try when shrinking: every board one move of either colour away (along
/// an optimal line one of them is a move closer to a goal).
pub fn candidates(board: Board) -> Vec<Board> {
    let mut out = Vec::new();
    for colour in [Colour::Black, Colour::White] {
        table::for_each_move(board, colour, |next| out.push(next));
    }
    out
}

/// Smaller is simpler: the answer (every board has one), then the board's rank, a fixed
/// order that makes shrinking deterministic.
pub fn size(board: Board) -> (u64, u64) {
    (
        u64::from(table::table().answer(board)),
        table::rank(board) as u64,
    )
}

/// All 411,840 boards.
pub fn enumerate() -> impl Iterator<Item = Board> {
    table::all_boards()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_holds_every_row_as_often_as_its_weight_spread_out() {
        crate::puzzle::assert_cycle_holds(SHARES, MIX);
        assert_eq!(
            MIX,
            [
                "hardest",
                "one-way",
                "answer=2",
                "touching",
                "first-mover=B",
                "answer=5",
                "hardest",
                "solved=diagonal-B",
                "answer=4",
                "one-way",
                "answer=6",
                "random",
                "hardest",
                "first-mover=W",
                "answer=2",
                "solved=antidiagonal-W",
                "touching",
                "one-way",
                "answer=5",
                "answer=3",
                "hardest",
                "answer=4",
                "answer=1",
                "answer=6",
                "random",
            ]
        );
    }

    #[test]
    fn every_unsolved_board_has_a_candidate_with_a_smaller_answer() {
        for board in enumerate().step_by(97) {
            let (answer, _) = size(board);
            if answer > 0 {
                assert!(
                    candidates(board).into_iter().any(|c| size(c).0 < answer),
                    "{board:?}"
                );
            }
        }
    }
}
