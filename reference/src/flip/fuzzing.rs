//! How the fuzzer draws, shrinks and enumerates flip boards.

use super::{Board, solve};
use crate::Count;
use crate::puzzle::{Share, cycle_len, schedule};

/// The fuzz mix, the one table of what the fuzzer draws and how often (issue 24): the rare
/// classes first, `Impossible` (93.75% of boards, but the others are what most wrong
/// solutions get wrong), each goal colour, an already solved board, every answer, the
/// hardest boards; each a twelfth of the runs.
pub const SHARES: &[Share] = &[
    Share::new("answer=1", 1),
    Share::new("impossible", 1),
    Share::new("colour=b", 1),
    Share::new("colour=w", 1),
    Share::new("solved", 1),
    Share::new("hardest", 1),
    Share::new("answer=2", 1),
    Share::new("answer=3", 1),
    Share::new("answer=4", 1),
    Share::new("answer=5", 1),
    Share::new("solvable", 1),
    Share::new("random", 1),
];

/// One cycle of [`SHARES`], the kinds of the fuzzer's first runs (see [`schedule`]).
pub const MIX: &[&str] = &CYCLE;
const CYCLE: [&str; cycle_len(SHARES)] = schedule(SHARES);

/// Neighbours to try when shrinking: one press away (the answer moves by one), one piece
/// turned, and the two solved boards.
pub fn candidates(board: Board) -> Vec<Board> {
    let mut out: Vec<Board> = solve::PRESSES.iter().map(|p| Board(board.0 ^ p)).collect();
    out.extend((0..16).map(|i| Board(board.0 ^ (1 << i))));
    out.extend([Board::ALL_WHITE, Board::ALL_BLACK]);
    out
}

/// Smaller is simpler: the answer (`Impossible` after every answer), then how many
/// pieces differ from the nearer solved board.
pub fn size(board: Board) -> (u64, u64) {
    let answer = match solve::by_table(board) {
        Count::Moves(n) => u64::from(n),
        Count::Impossible => 17,
    };
    let black = board.0.count_ones();
    (answer, u64::from(black.min(16 - black)))
}

/// All 65,536 boards.
pub fn enumerate() -> impl Iterator<Item = Board> {
    (0..=u16::MAX).map(Board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_is_the_table_in_its_order() {
        crate::puzzle::assert_cycle_holds(SHARES, MIX);
        let order: Vec<&str> = SHARES.iter().map(|s| s.kind).collect();
        assert_eq!(MIX, order);
    }

    #[test]
    fn every_solvable_board_has_a_candidate_with_a_smaller_answer() {
        for board in enumerate() {
            let (answer, _) = size(board);
            if (1..17).contains(&answer) {
                assert!(
                    candidates(board).into_iter().any(|c| size(c).0 < answer),
                    "{board:?}"
                );
            }
        }
    }
}
