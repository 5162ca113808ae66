//! Solver B: a forward breadth-first search per query, on its own simple representation
//! (an array of cells), with either colour to move first. Its rules are data, so the
//! classic wrong solutions (the mutants) are this search with one rule changed.
//!
//! `Puzzle::solve` uses this solver: one query explores a few thousand states at most
//! (answer 7), well under a millisecond, where building the complete table takes tens of
//! milliseconds (see `cargo bench -p reference`).

use std::collections::{HashSet, VecDeque};

use super::board::{Board, Colour};
use crate::Count;

/// A square's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
}

/// The rules of one search.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// The goal lines, as squares (`row * 4 + col`).
    pub lines: &'static [[usize; 4]],
    /// The colours that may make the first move.
    pub first_movers: &'static [Colour],
    /// Whether the colours alternate; when not, either may move at any time.
    pub alternate: bool,
    /// Whether a start board that already is a goal answers 0.
    pub test_start: bool,
    /// The squares from which a piece may move into square `e` when it is empty.
    pub sources: fn(usize) -> Vec<usize>,
    /// Whether only the first empty square (in reading order) may be filled.
    pub first_empty_only: bool,
}

/// The goal lines of problems.md: rows, columns, both main diagonals.
pub const ALL_LINES: [[usize; 4]; 10] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [3, 6, 9, 12],
];

/// The orthogonal neighbours of a square.
pub fn orthogonal(e: usize) -> Vec<usize> {
    let (row, col) = (e / 4, e % 4);
    let mut out = Vec::with_capacity(4);
    if row > 0 {
        out.push(e - 4);
    }
    if row < 3 {
        out.push(e + 4);
    }
    if col > 0 {
        out.push(e - 1);
    }
    if col < 3 {
        out.push(e + 1);
    }
    out
}

/// The rules of problems.md.
pub const RULES: Rules = Rules {
    lines: &ALL_LINES,
    first_movers: &[Colour::Black, Colour::White],
    alternate: true,
    test_start: true,
    sources: orthogonal,
    first_empty_only: false,
};

fn cells(board: Board) -> [Cell; 16] {
    std::array::from_fn(|i| {
        if board.empty >> i & 1 == 1 {
            Cell::Empty
        } else if board.black >> i & 1 == 1 {
            Cell::Black
        } else {
            Cell::White
        }
    })
}

fn is_goal(cells: &[Cell; 16], lines: &[[usize; 4]]) -> bool {
    lines.iter().any(|line| {
        let first = cells[line[0]];
        first != Cell::Empty && line.iter().all(|&i| cells[i] == first)
    })
}

/// A search state: the cells and who moves next (`None`: anyone).
fn key(cells: &[Cell; 16], next: Option<Colour>) -> u64 {
    let packed = cells.iter().fold(0u64, |acc, &c| acc << 2 | c as u64);
    packed << 2
        | match next {
            None => 0,
            Some(Colour::Black) => 1,
            Some(Colour::White) => 2,
        }
}

/// The minimum number of moves to a goal under `rules`.
pub fn solve(board: Board, rules: &Rules) -> Count {
    let start = cells(board);
    if rules.test_start && is_goal(&start, rules.lines) {
        return Count::Moves(0);
    }
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let starts: Vec<Option<Colour>> = if rules.alternate {
        rules.first_movers.iter().map(|&c| Some(c)).collect()
    } else {
        vec![None]
    };
    for next in starts {
        seen.insert(key(&start, next));
        queue.push_back((start, next, 0u32));
    }
    while let Some((cells, next, depth)) = queue.pop_front() {
        let empties: Vec<usize> = (0..16).filter(|&i| cells[i] == Cell::Empty).collect();
        let empties = if rules.first_empty_only {
            &empties[..1]
        } else {
            &empties[..]
        };
        for &e in empties {
            for s in (rules.sources)(e) {
                let piece = cells[s];
                let allowed = match (piece, next) {
                    (Cell::Empty, _) => false,
                    (_, None) => true,
                    (Cell::Black, Some(c)) => c == Colour::Black,
                    (Cell::White, Some(c)) => c == Colour::White,
                };
                if !allowed {
                    continue;
                }
                let mut moved = cells;
                moved.swap(e, s);
                if is_goal(&moved, rules.lines) {
                    return Count::Moves(depth + 1);
                }
                let after = next.map(Colour::other);
                if seen.insert(key(&moved, after)) {
                    queue.push_back((moved, after, depth + 1));
                }
            }
        }
    }
    Count::Impossible
}

#[cfg(test)]
mod tests {
    use super::super::table::{UNREACHABLE, all_boards, table};
    use super::*;

    #[test]
    fn the_search_agrees_with_the_table_on_every_board() {
        let boards: Vec<Board> = all_boards().collect();
        let table = table();
        std::thread::scope(|scope| {
            for half in boards.chunks(boards.len().div_ceil(2)) {
                scope.spawn(move || {
                    for &board in half {
                        let expected = match table.answer(board) {
                            UNREACHABLE => Count::Impossible,
                            n => Count::Moves(u32::from(n)),
                        };
                        assert_eq!(solve(board, &RULES), expected, "{board}");
                    }
                });
            }
        });
    }

    #[test]
    fn the_sample_takes_five_moves() {
        let board = Board::parse(b"BWBO\nWBWB\nBWBW\nWBWO\n").unwrap();
        assert_eq!(solve(board, &RULES), Count::Moves(5));
    }
}
