//! Classic wrong flip solutions, each a small plausible change to a correct one. Each
//! `run` prints exactly what that wrong program would print.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use std::sync::OnceLock;

use super::board::Board;
use super::solve::{PRESSES, UNREACHABLE, by_table, distances, table};
use crate::Count;
use crate::puzzle::Mutant;

/// The mutants, in the order of the kill matrix.
pub const MUTANTS: &[Mutant<Board>] = &[
    Mutant {
        name: "no-impossible",
        about: "never prints Impossible: prints 16, the depth cap of its search",
        run: no_impossible,
    },
    Mutant {
        name: "one-colour",
        about: "only tries to make every piece white",
        run: one_colour,
    },
    Mutant {
        name: "no-zero",
        about: "never tests the start board: a uniform board gets a positive answer",
        run: no_zero,
    },
    Mutant {
        name: "lowercase",
        about: "prints `impossible` instead of `Impossible`",
        run: lowercase,
    },
    Mutant {
        name: "depth-cap-5",
        about: "iterative deepening that gives up after 5 rounds and prints Impossible",
        run: depth_cap_5,
    },
    Mutant {
        name: "no-centre",
        about: "a press flips the neighbours but not the pressed piece itself",
        run: no_centre,
    },
    Mutant {
        name: "wrapping-neighbours",
        about: "left and right neighbours wrap around the ends of a row",
        run: wrapping_neighbours,
    },
    Mutant {
        name: "linear-neighbours",
        about: "neighbours are i-1 and i+1 in reading order, across row ends",
        run: linear_neighbours,
    },
];

fn count(d: u8) -> String {
    if d == UNREACHABLE {
        Count::Impossible
    } else {
        Count::Moves(u32::from(d))
    }
    .to_string()
}

fn no_impossible(board: &Board) -> String {
    match by_table(*board) {
        Count::Impossible => Count::Moves(16).to_string(),
        answer @ Count::Moves(_) => answer.to_string(),
    }
}

fn one_colour(board: &Board) -> String {
    static TO_WHITE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    count(TO_WHITE.get_or_init(|| distances(&PRESSES, &[Board::ALL_WHITE.0]))[board.0 as usize])
}

fn no_zero(board: &Board) -> String {
    if !board.is_goal() {
        return by_table(*board).to_string();
    }
    // It expands the start before testing for a goal: the first goal it sees is one
    // press away from the start at the earliest.
    let best = PRESSES
        .iter()
        .map(|&p| table()[(board.0 ^ p) as usize])
        .filter(|&d| d != UNREACHABLE)
        .map(|d| d + 1)
        .min()
        .unwrap_or(UNREACHABLE);
    count(best)
}

fn lowercase(board: &Board) -> String {
    by_table(*board)
        .to_string()
        .replace("Impossible", "impossible")
}

fn depth_cap_5(board: &Board) -> String {
    match by_table(*board) {
        Count::Moves(n) if n > 5 => Count::Impossible.to_string(),
        answer => answer.to_string(),
    }
}

/// The answer of a search with press masks `masks` (built once) and both goals.
fn with_masks(
    cell: &'static OnceLock<Box<[u8; 65536]>>,
    masks: fn() -> [u16; 16],
    board: Board,
) -> String {
    let table = cell.get_or_init(|| distances(&masks(), &[Board::ALL_WHITE.0, Board::ALL_BLACK.0]));
    count(table[board.0 as usize])
}

fn no_centre(board: &Board) -> String {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    with_masks(
        &TABLE,
        || {
            let mut masks = PRESSES;
            for (i, mask) in masks.iter_mut().enumerate() {
                *mask &= !(1u16 << i);
            }
            masks
        },
        *board,
    )
}

fn wrapping_neighbours(board: &Board) -> String {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    with_masks(
        &TABLE,
        || {
            std::array::from_fn(|i| {
                let (row, col) = (i / 4, i % 4);
                let mut mask =
                    1u16 << i | 1 << (row * 4 + (col + 1) % 4) | 1 << (row * 4 + (col + 3) % 4);
                if row > 0 {
                    mask |= 1 << (i - 4);
                }
                if row < 3 {
                    mask |= 1 << (i + 4);
                }
                mask
            })
        },
        *board,
    )
}

fn linear_neighbours(board: &Board) -> String {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    with_masks(
        &TABLE,
        || {
            std::array::from_fn(|i| {
                let mut mask = 1u16 << i;
                for n in [i.wrapping_sub(4), i.wrapping_sub(1), i + 1, i + 4] {
                    if n < 16 {
                        mask |= 1 << n;
                    }
                }
                mask
            })
        },
        *board,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::flip::check::check;

    #[test]
    fn every_mutant_is_wrong_somewhere_and_right_often() {
        for mutant in MUTANTS {
            let mut wrong = 0u32;
            let mut first_wrong = None;
            for bits in 0..=u16::MAX {
                let board = Board(bits);
                let judged = check(by_table(board), (mutant.run)(&board).as_bytes());
                if judged.verdict != Verdict::Accepted {
                    wrong += 1;
                    first_wrong.get_or_insert(board);
                }
            }
            assert!(first_wrong.is_some(), "{} is never wrong", mutant.name);
            assert!(wrong < 65_536, "{} is always wrong", mutant.name);
        }
    }

    #[test]
    fn no_zero_answers_a_uniform_board_with_a_positive_count() {
        assert_ne!(no_zero(&Board::ALL_WHITE), "0\n");
        assert_eq!(no_zero(&Board(1)), by_table(Board(1)).to_string());
    }
}
