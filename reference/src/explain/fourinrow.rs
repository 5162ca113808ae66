//! fourinrow's explanations: a minimum move sequence to a line of four, read off the
//! distance table of every state (board, colour to move), and the colour that moves first.
//! Every valid board reaches a goal (the table's tests), so no board needs an invariant.

use super::count::Facts;
use super::judge::Explain;
use super::model::{Explanation, FourInRowWitness, Slide, Square, Witness, colour_letter};
use crate::compare::Judgement;
use crate::count::Count;
use crate::fourinrow::board::LINES;
use crate::fourinrow::table::{UNREACHABLE, for_each_move, table};
use crate::fourinrow::{Board, Colour, FourInRow};

impl Explain for FourInRow {
    fn witness(board: &Board) -> Explanation {
        let (facts, witness) = explain_board(*board);
        Explanation {
            reason: facts.statement(),
            witness: Witness::FourInRow(witness),
        }
    }

    fn wrong(board: &Board, output: &[u8], judgement: &Judgement) -> Explanation {
        let (facts, witness) = explain_board(*board);
        Explanation {
            reason: facts.reason(output, judgement),
            witness: Witness::FourInRow(witness),
        }
    }
}

/// The facts of a board's answer and its witness.
fn explain_board(board: Board) -> (Facts, FourInRowWitness) {
    let witness = witness(board);
    let answer = match &witness {
        Some(w) => Count::Moves(w.moves.len() as u32),
        None => Count::Impossible,
    };
    let listing = witness.as_ref().map_or_else(String::new, |w| {
        let moves: Vec<String> = w
            .moves
            .iter()
            .map(|m| format!("{}->{}", m.from, m.to))
            .collect();
        let first = w.first.map_or("", colour_letter);
        format!("`{first}` first, {}", moves.join(" "))
    });
    let solved = match line_of(board) {
        Some(line) => format!("the board is already solved, so the answer is 0: {line}"),
        None => String::new(),
    };
    let facts = Facts {
        answer,
        noun: ("move", "moves"),
        listing,
        solved,
        impossible: "this board cannot be solved: whatever you move, no line of four \
                     is ever reached"
            .to_owned(),
    };
    let witness = witness.unwrap_or(FourInRowWitness {
        start: board,
        first: None,
        moves: Vec::new(),
        boards: Vec::new(),
    });
    (facts, witness)
}

/// Which line of four a goal board holds, in words: `row 2 holds four `W``.
fn line_of(board: Board) -> Option<String> {
    const NAMES: [&str; 10] = [
        "row 1",
        "row 2",
        "row 3",
        "row 4",
        "column 1",
        "column 2",
        "column 3",
        "column 4",
        "the diagonal from (1,1)",
        "the diagonal from (1,4)",
    ];
    LINES.iter().zip(NAMES).find_map(|(&line, name)| {
        let colour = [Colour::Black, Colour::White]
            .into_iter()
            .find(|&c| board.pieces(c) & line == line)?;
        Some(format!("{name} holds four `{}`", colour_letter(colour)))
    })
}

/// A minimum move sequence from `board` to a goal (black first when either colour may
/// start it), with the board after each move; `None` if no goal can be reached.
pub fn witness(board: Board) -> Option<FourInRowWitness> {
    let table = table();
    let mut moves = Vec::new();
    let mut boards = Vec::new();
    if board.is_goal() {
        return Some(FourInRowWitness {
            start: board,
            first: None,
            moves,
            boards,
        });
    }
    let first = [Colour::Black, Colour::White]
        .into_iter()
        .min_by_key(|&c| table.distance(board, c))
        .filter(|&c| table.distance(board, c) != UNREACHABLE)?;
    let (mut at, mut mover) = (board, first);
    // Down the distance table: from a state at distance d > 0 some move of the colour to
    // move leads to a state at d - 1 (a goal board is at 0).
    while !at.is_goal() {
        let nearer = table.distance(at, mover) - 1;
        let mut next = None;
        for_each_move(at, mover, |after| {
            let distance = if after.is_goal() {
                0
            } else {
                table.distance(after, mover.other())
            };
            if next.is_none() && distance == nearer {
                next = Some(after);
            }
        });
        let after = next.expect("a state at distance d > 0 has a successor at d - 1");
        moves.push(Slide {
            // The piece leaves the square that becomes empty, for the one that was.
            from: Square::of_bit(only_in(after.empty, at.empty)),
            to: Square::of_bit(only_in(at.empty, after.empty)),
        });
        boards.push(after);
        at = after;
        mover = mover.other();
    }
    Some(FourInRowWitness {
        start: board,
        first: Some(first),
        moves,
        boards,
    })
}

/// The index of the one square of mask `a` that is not in mask `b`.
fn only_in(a: u16, b: u16) -> u32 {
    (a & !b).trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourinrow::search::{RULES, solve};
    use crate::fourinrow::table::all_boards;

    /// Replays `w` from its start by the rules of problems.md, without the table: each
    /// move slides a piece of the colour to move into an orthogonally adjacent empty
    /// square, colours alternate, and the last board (only) is a goal. The number of moves.
    fn replay(w: &FourInRowWitness) -> usize {
        let mut at = w.start;
        let mut mover = w.first;
        assert_eq!(w.moves.len(), w.boards.len());
        for (slide, drawn) in w.moves.iter().zip(&w.boards) {
            assert!(!at.is_goal(), "a goal before the end: {}", w.start);
            let colour = mover.expect("a first colour when there are moves");
            let (from, to) = (slide.from.bit(), slide.to.bit());
            let steps = (from / 4).abs_diff(to / 4) + (from % 4).abs_diff(to % 4);
            assert_eq!(steps, 1, "orthogonally adjacent");
            assert_eq!(at.pieces(colour) >> from & 1, 1, "a piece of the mover");
            assert_eq!(at.empty >> to & 1, 1, "into an empty square");
            let swap = (1u16 << from) | (1 << to);
            at = Board {
                empty: at.empty ^ swap,
                black: if colour == Colour::Black {
                    at.black ^ swap
                } else {
                    at.black
                },
            };
            assert_eq!(at, *drawn);
            mover = Some(colour.other());
        }
        assert!(at.is_goal(), "{}", w.start);
        w.moves.len()
    }

    #[test]
    fn every_witness_solves_its_board_in_exactly_the_minimum() {
        let boards: Vec<Board> = all_boards().collect();
        let table = table();
        std::thread::scope(|scope| {
            for half in boards.chunks(boards.len().div_ceil(2)) {
                scope.spawn(move || {
                    for &board in half {
                        let w = witness(board).expect("every board reaches a goal");
                        assert_eq!(replay(&w), usize::from(table.answer(board)), "{board}");
                    }
                });
            }
        });
        // Against the other solver too, the one `Puzzle::solve` uses, on a sample.
        for &board in boards.iter().step_by(97) {
            let w = witness(board).expect("every board reaches a goal");
            assert_eq!(
                Count::Moves(replay(&w) as u32),
                solve(board, &RULES),
                "{board}"
            );
        }
    }

    #[test]
    fn reasons_have_the_shapes_of_issue_16() {
        let judge = |text: &[u8], out: &[u8]| {
            let board = Board::parse(text).unwrap();
            super::super::judge::explain::<FourInRow>(&board, out).map(|e| e.reason)
        };
        let sample = b"BWBO\nWBWB\nBWBW\nWBWO\n";
        let reason = judge(sample, b"7\n").unwrap();
        assert!(
            reason.starts_with("you printed 7; 5 moves suffice: `"),
            "{reason}"
        );
        assert_eq!(reason.matches("->").count(), 5, "{reason}");
        assert_eq!(
            judge(sample, b"Impossible\n").unwrap(),
            "you printed Impossible; this board is solved in 5"
        );
        assert_eq!(
            judge(sample, b"3\n").unwrap(),
            "no 3 moves solve this board; the minimum is 5"
        );
        assert_eq!(judge(sample, b"5\n"), None);
        assert_eq!(
            judge(b"BBBB\nWWWW\nBBBW\nWWOO\n", b"1\n").unwrap(),
            "the board is already solved, so the answer is 0: row 1 holds four `B`"
        );
        assert_eq!(
            judge(b"BWWO\nWBWB\nWBBW\nBWOB\n", b"2\n").unwrap(),
            "the board is already solved, so the answer is 0: \
             the diagonal from (1,1) holds four `B`"
        );
    }
}
