//! Classic wrong fourinrow solutions, each the reference search with one rule changed.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use super::board::{Board, Colour};
use super::search::{ALL_LINES, RULES, Rules, orthogonal, solve};
use crate::puzzle::Mutant;

/// The mutants, in the order of the kill matrix.
pub const MUTANTS: &[Mutant<Board>] = &[
    Mutant {
        name: "no-zero",
        about: "never tests the start board: a goal gets a positive answer",
        run: no_zero,
    },
    Mutant {
        name: "black-first",
        about: "black always makes the first move",
        run: black_first,
    },
    Mutant {
        name: "white-first",
        about: "white always makes the first move",
        run: white_first,
    },
    Mutant {
        name: "no-alternation",
        about: "either colour may move at any time",
        run: no_alternation,
    },
    Mutant {
        name: "no-diagonals",
        about: "checks rows and columns only",
        run: no_diagonals,
    },
    Mutant {
        name: "no-antidiagonal",
        about: "checks only the diagonal from the top left",
        run: no_antidiagonal,
    },
    Mutant {
        name: "one-empty",
        about: "only moves pieces into the first empty square",
        run: one_empty,
    },
    Mutant {
        name: "diagonal-moves",
        about: "lets pieces move diagonally too",
        run: diagonal_moves,
    },
];

fn with(board: &Board, rules: Rules) -> String {
    solve(*board, &rules).to_string()
}

fn no_zero(board: &Board) -> String {
    with(
        board,
        Rules {
            test_start: false,
            ..RULES
        },
    )
}

fn black_first(board: &Board) -> String {
    with(
        board,
        Rules {
            first_movers: &[Colour::Black],
            ..RULES
        },
    )
}

fn white_first(board: &Board) -> String {
    with(
        board,
        Rules {
            first_movers: &[Colour::White],
            ..RULES
        },
    )
}

fn no_alternation(board: &Board) -> String {
    with(
        board,
        Rules {
            alternate: false,
            ..RULES
        },
    )
}

/// The first `N` goal lines of [`ALL_LINES`] (rows, columns, diagonal, antidiagonal).
const fn first_lines<const N: usize>() -> [[usize; 4]; N] {
    let mut lines = [[0; 4]; N];
    let mut i = 0;
    while i < N {
        lines[i] = ALL_LINES[i];
        i += 1;
    }
    lines
}

fn no_diagonals(board: &Board) -> String {
    static LINES: [[usize; 4]; 8] = first_lines();
    with(
        board,
        Rules {
            lines: &LINES,
            ..RULES
        },
    )
}

fn no_antidiagonal(board: &Board) -> String {
    static LINES: [[usize; 4]; 9] = first_lines();
    with(
        board,
        Rules {
            lines: &LINES,
            ..RULES
        },
    )
}

fn one_empty(board: &Board) -> String {
    with(
        board,
        Rules {
            first_empty_only: true,
            ..RULES
        },
    )
}

fn diagonal_moves(board: &Board) -> String {
    fn eight_neighbours(e: usize) -> Vec<usize> {
        let (row, col) = (e / 4, e % 4);
        let mut out = orthogonal(e);
        for (r, c) in [
            (row.wrapping_sub(1), col.wrapping_sub(1)),
            (row.wrapping_sub(1), col + 1),
            (row + 1, col.wrapping_sub(1)),
            (row + 1, col + 1),
        ] {
            if r < 4 && c < 4 {
                out.push(r * 4 + c);
            }
        }
        out
    }
    with(
        board,
        Rules {
            sources: eight_neighbours,
            ..RULES
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::fourinrow::check::check;
    use crate::fourinrow::table::{BOARDS, unrank};

    #[test]
    fn every_mutant_is_wrong_somewhere_and_right_somewhere() {
        for mutant in MUTANTS {
            let (mut wrong, mut right) = (0, 0);
            // Every 97th board: a spread sample of all classes, fast enough for a test.
            for index in (0..BOARDS).step_by(97) {
                let board = unrank(index);
                let judged = check(solve(board, &RULES), (mutant.run)(&board).as_bytes());
                if judged.verdict == Verdict::Accepted {
                    right += 1;
                } else {
                    wrong += 1;
                }
            }
            assert!(wrong > 0, "{} is never wrong", mutant.name);
            assert!(right > 0, "{} is never right", mutant.name);
        }
    }
}
