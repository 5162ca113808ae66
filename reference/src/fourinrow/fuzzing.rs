//! How the fuzzer draws, shrinks and enumerates fourinrow boards.

use super::board::{Board, Colour};
use super::table;

/// The kinds the fuzzer cycles through, the rare classes first: boards where only one
/// first move keeps the minimum (a solver missing any one move is wrong there), boards
/// where the first mover matters, goals of each line kind and colour (a third of random boards are goals,
/// but rarely of a diagonal), touching empty squares, every answer, the hardest boards.
pub const MIX: &[&str] = &[
    "answer=2",
    "one-way",
    "first-mover=B",
    "first-mover=W",
    "solved=diagonal-B",
    "solved=antidiagonal-W",
    "touching",
    "answer=1",
    "solved=row-W",
    "solved=column-B",
    "answer=3",
    "hardest",
    "answer=4",
    "answer=5",
    "answer=6",
    "one-way",
    "random",
];

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
