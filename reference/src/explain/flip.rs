//! flip's explanations: a minimum set of presses, read off the distance table, and for a
//! board that cannot be solved, an invariant that shows it.
//!
//! The invariant: a press changes the squares of its mask, so over GF(2) the boards a
//! sequence of presses reaches from `b` are `b` plus the span of the 16 press masks. A
//! set of squares `q` that every press mask meets in an even number of squares (a
//! "quiet" set) keeps the parity of the `b` pieces on it under every press. When `b` holds
//! an odd number of `b` on such a `q` and both solved boards hold an even number, no
//! sequence of presses solves `b`. For the 4x4 field the press masks span 4,096 boards,
//! exactly the solvable ones, and every unsolvable board has such a `q` (checked over all
//! 65,536 boards in the tests).

use std::sync::OnceLock;

use super::count::Facts;
use super::judge::Explain;
use super::model::{Explanation, FlipWitness, Square, Witness};
use crate::compare::Judgement;
use crate::count::Count;
use crate::flip::solve::{PRESSES, UNREACHABLE, table};
use crate::flip::{Board, Flip};

impl Explain for Flip {
    fn witness(board: &Board) -> Explanation {
        let (facts, witness) = explain_board(*board);
        Explanation {
            reason: facts.statement(),
            witness: Witness::Flip(witness),
        }
    }

    fn wrong(board: &Board, output: &[u8], judgement: &Judgement) -> Explanation {
        let (facts, witness) = explain_board(*board);
        Explanation {
            reason: facts.reason(output, judgement),
            witness: Witness::Flip(witness),
        }
    }
}

/// The facts of a board's answer and its witness.
fn explain_board(board: Board) -> (Facts, FlipWitness) {
    let witness = witness(board);
    let listing = join(&witness.presses);
    let impossible = witness
        .invariant
        .as_deref()
        .map_or_else(String::new, |cells| {
            format!(
                "this board cannot be solved: whatever you press, the squares {} keep an odd \
             number of `b` (every press flips an even number of them), and a solved board \
             has an even number there",
                join(cells)
            )
        });
    let answer = match table()[board.0 as usize] {
        UNREACHABLE => Count::Impossible,
        d => Count::Moves(u32::from(d)),
    };
    let facts = Facts {
        answer,
        noun: ("press", "presses"),
        listing,
        solved: "the board is already solved, so the answer is 0".to_owned(),
        impossible,
    };
    (facts, witness)
}

/// Squares as reasons list them: `(1,2) (3,3) (4,1)`.
fn join(squares: &[Square]) -> String {
    squares
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A minimum solution of `board` (every press once, in reading order, with the board after
/// each), or for a board that cannot be solved, the invariant that shows it.
pub fn witness(board: Board) -> FlipWitness {
    let table = table();
    if table[board.0 as usize] == UNREACHABLE {
        return FlipWitness {
            start: board,
            presses: Vec::new(),
            boards: Vec::new(),
            invariant: Some(invariant(board)),
        };
    }
    // Down the distance table: some press always leads one step nearer a solved board.
    // A minimum solution presses no piece twice (two presses of one piece cancel), so the
    // presses are a set, and any order of them gives the same board.
    let mut pressed = 0u16;
    let mut at = board.0;
    while table[at as usize] > 0 {
        let nearer = table[at as usize] - 1;
        let i = (0..16)
            .find(|&i| table[(at ^ PRESSES[i]) as usize] == nearer)
            .expect("a board at distance d > 0 has a neighbour at distance d - 1");
        pressed |= 1 << i;
        at ^= PRESSES[i];
    }
    let presses: Vec<Square> = (0..16)
        .filter(|i| pressed >> i & 1 == 1)
        .map(Square::of_bit)
        .collect();
    let boards = presses
        .iter()
        .scan(board.0, |bits, square| {
            *bits ^= PRESSES[square.bit()];
            Some(Board(*bits))
        })
        .collect();
    FlipWitness {
        start: board,
        presses,
        boards,
        invariant: None,
    }
}

/// The quiet sets: the squares that every press mask meets in an even number of squares
/// (including the empty set). They are the kernel of the press matrix over GF(2).
pub fn quiet_sets() -> &'static [u16] {
    static SETS: OnceLock<Vec<u16>> = OnceLock::new();
    SETS.get_or_init(|| {
        (0..=u16::MAX)
            .filter(|&q| PRESSES.iter().all(|&p| even(p & q)))
            .collect()
    })
}

/// Whether `mask` has an even number of squares.
fn even(mask: u16) -> bool {
    mask.count_ones().is_multiple_of(2)
}

/// The smallest quiet set on which `board` holds an odd number of `b`: it exists exactly
/// when the board cannot be solved (both solved boards hold an even number on every quiet
/// set; see the tests).
fn invariant(board: Board) -> Vec<Square> {
    let q = quiet_sets()
        .iter()
        .copied()
        .filter(|q| !even(q & board.0))
        .min_by_key(|q| (q.count_ones(), *q))
        .expect("an unsolvable board is odd on some quiet set");
    (0..16)
        .filter(|i| q >> i & 1 == 1)
        .map(Square::of_bit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flip::solve::by_chasing;

    #[test]
    fn every_witness_solves_its_board_in_exactly_the_minimum_and_every_invariant_holds() {
        let quiet = quiet_sets();
        // The kernel of the 4x4 press matrix has dimension 4.
        assert_eq!(quiet.len(), 16);
        for &q in quiet {
            assert!(PRESSES.iter().all(|&p| even(p & q)));
            // Both solved boards are even on it.
            assert!(even(q), "{q:#06x}");
        }
        for bits in 0..=u16::MAX {
            let board = Board(bits);
            let w = witness(board);
            // An independent solver, not the table the witness was read from.
            match by_chasing(board) {
                Count::Moves(n) => {
                    assert_eq!(w.presses.len(), n as usize, "{bits:#06x}");
                    assert_eq!(w.boards.len(), w.presses.len());
                    assert!(w.invariant.is_none());
                    // Replayed press by press from the start, it ends solved, and each
                    // drawn board is the one the press makes.
                    let mut at = bits;
                    for (square, drawn) in w.presses.iter().zip(&w.boards) {
                        at ^= PRESSES[square.bit()];
                        assert_eq!(at, drawn.0);
                    }
                    assert!(Board(at).is_goal(), "{bits:#06x}");
                    assert!(w.presses.windows(2).all(|p| p[0] < p[1]));
                }
                Count::Impossible => {
                    assert!(w.presses.is_empty() && w.boards.is_empty());
                    let cells = w.invariant.expect("an invariant");
                    let q: u16 = cells.iter().map(|s| 1u16 << s.bit()).sum();
                    // The claim of the reason, checked as stated: odd here, every press
                    // flips an even number of the squares, even on both solved boards.
                    assert!(!even(bits & q), "{bits:#06x}");
                    assert!(PRESSES.iter().all(|&p| even(p & q)));
                    assert!(even(Board::ALL_WHITE.0 & q));
                    assert!(even(Board::ALL_BLACK.0 & q));
                }
            }
        }
    }

    #[test]
    fn reasons_have_the_shapes_of_issue_16() {
        let sample = Board::parse(b"bwwb\nbbwb\nbwwb\nbwww\n").unwrap();
        let judge = |board: Board, out: &[u8]| {
            super::super::judge::explain::<Flip>(&board, out).map(|e| e.reason)
        };
        let listing = join(&witness(sample).presses);
        assert_eq!(
            judge(sample, b"5\n").unwrap(),
            format!("you printed 5; 4 presses suffice: {listing}")
        );
        assert_eq!(
            judge(sample, b"Impossible\n").unwrap(),
            "you printed Impossible; this board is solved in 4"
        );
        assert_eq!(
            judge(sample, b"2\n").unwrap(),
            "no 2 presses solve this board; the minimum is 4"
        );
        assert_eq!(
            judge(sample, b"1\n").unwrap(),
            "no 1 press solves this board; the minimum is 4"
        );
        assert_eq!(
            judge(sample, b"0\n").unwrap(),
            "you printed 0, but the board is not solved; the minimum is 4"
        );
        assert_eq!(judge(sample, b"4\n"), None);
        assert_eq!(
            judge(sample, b"abc\n").unwrap(),
            format!("expected `4`, got `abc`; the minimum is 4 presses: {listing}")
        );
        assert_eq!(
            judge(sample, b" 4\n").unwrap(),
            "right answer, wrong layout: expected `4`, got ` 4`"
        );
        assert_eq!(
            judge(Board::ALL_BLACK, b"2\n").unwrap(),
            "the board is already solved, so the answer is 0"
        );
        let impossible = Board::parse(b"bwww\nwwww\nwwww\nwwww\n").unwrap();
        assert_eq!(
            judge(impossible, b"3\n").unwrap(),
            "this board cannot be solved, and the answer for that is `Impossible`, written \
             exactly so; you printed `3`"
        );
        let one = Board(PRESSES[5]);
        assert_eq!(
            judge(one, b"2\n").unwrap(),
            "you printed 2; 1 press suffices: (2,2)"
        );
    }
}
