//! Two independent solvers of flip, cross-checked over all 65,536 boards in the tests.
//!
//! - [`table`]: one breadth-first search from the two goal boards over all 2^16 boards;
//!   a round is an XOR with a press mask and is its own inverse, so distances from the
//!   goals are distances to them. `Puzzle::solve` reads this table: it builds in well
//!   under 0.2 ms (see `cargo bench -p reference`), after which a query is one load.
//! - [`by_chasing`]: press-set enumeration with row chasing: the presses of row 1 decide
//!   every later press (each piece of a row can then only be fixed from the row below),
//!   so 16 choices per goal colour cover every minimal solution.

use std::sync::OnceLock;

use super::board::Board;
use crate::Count;

/// Table value of a board no round sequence makes uniform.
pub const UNREACHABLE: u8 = u8::MAX;

/// The mask a press of piece `i` flips: the piece and its orthogonal neighbours.
pub const fn press_mask(i: usize) -> u16 {
    let (row, col) = (i / 4, i % 4);
    let mut mask = 1u16 << i;
    if row > 0 {
        mask |= 1 << (i - 4);
    }
    if row < 3 {
        mask |= 1 << (i + 4);
    }
    if col > 0 {
        mask |= 1 << (i - 1);
    }
    if col < 3 {
        mask |= 1 << (i + 1);
    }
    mask
}

/// The sixteen press masks.
pub const PRESSES: [u16; 16] = {
    let mut masks = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        masks[i] = press_mask(i);
        i += 1;
    }
    masks
};

/// Minimum rounds from every board to any of `goals` with moves `presses`, by BFS;
/// [`UNREACHABLE`] where no goal is reachable. Shared with the mutants, which are the same
/// search with a wrong move set or wrong goals.
pub fn distances(presses: &[u16; 16], goals: &[u16]) -> Box<[u8; 65536]> {
    let mut dist: Box<[u8; 65536]> = vec![UNREACHABLE; 65536]
        .into_boxed_slice()
        .try_into()
        .expect("65,536 entries");
    let mut queue = Vec::with_capacity(65536);
    for &goal in goals {
        if dist[goal as usize] == UNREACHABLE {
            dist[goal as usize] = 0;
            queue.push(goal);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let board = queue[head];
        head += 1;
        let next = dist[board as usize] + 1;
        for &mask in presses {
            let to = board ^ mask;
            if dist[to as usize] == UNREACHABLE {
                dist[to as usize] = next;
                queue.push(to);
            }
        }
    }
    dist
}

/// Builds the complete table afresh (for the bench; use [`table`] otherwise).
pub fn build_table() -> Box<[u8; 65536]> {
    distances(&PRESSES, &[Board::ALL_WHITE.0, Board::ALL_BLACK.0])
}

/// The table, built on first use.
pub fn table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Solver A: a table lookup.
pub fn by_table(board: Board) -> Count {
    match table()[board.0 as usize] {
        UNREACHABLE => Count::Impossible,
        n => Count::Moves(u32::from(n)),
    }
}

/// Solver B: for each goal colour and each of the 16 press sets of row 1, chase the rest.
pub fn by_chasing(board: Board) -> Count {
    let mut best: Option<u32> = None;
    for target in [Board::ALL_WHITE.0, Board::ALL_BLACK.0] {
        for first_row in 0u16..16 {
            let mut state = board.0;
            let mut presses = 0;
            let mut press = |state: &mut u16, i: usize| {
                *state ^= PRESSES[i];
                presses += 1;
            };
            for col in 0..4 {
                if first_row >> col & 1 == 1 {
                    press(&mut state, col);
                }
            }
            // A piece of row r that still differs from the target can only be fixed by
            // pressing the piece below it: rows above are final.
            for row in 1..4 {
                for col in 0..4 {
                    let above = (row - 1) * 4 + col;
                    if (state ^ target) >> above & 1 == 1 {
                        press(&mut state, row * 4 + col);
                    }
                }
            }
            if state == target {
                best = Some(best.map_or(presses, |b: u32| b.min(presses)));
            }
        }
    }
    best.map_or(Count::Impossible, Count::Moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_solvers_agree_on_every_board() {
        for bits in 0..=u16::MAX {
            assert_eq!(
                by_table(Board(bits)),
                by_chasing(Board(bits)),
                "{bits:#06x}"
            );
        }
    }

    #[test]
    fn the_answer_histogram_is_the_known_one() {
        let mut histogram = [0usize; 7];
        let mut impossible = 0;
        for &d in table() {
            match d {
                UNREACHABLE => impossible += 1,
                d => histogram[d as usize] += 1,
            }
        }
        assert_eq!(histogram, [2, 32, 228, 880, 1562, 1136, 256]);
        assert_eq!(impossible, 61_440);
    }

    #[test]
    fn the_sample_needs_four_rounds() {
        let board = Board::parse(b"bwwb\nbbwb\nbwwb\nbwww\n").unwrap();
        assert_eq!(by_table(board), Count::Moves(4));
        assert_eq!(by_chasing(board), Count::Moves(4));
    }

    #[test]
    fn press_masks_flip_three_to_five_pieces() {
        assert_eq!(PRESSES[0], 0b0000_0000_0001_0011);
        assert_eq!(PRESSES[5].count_ones(), 5);
        assert_eq!(PRESSES[15].count_ones(), 3);
    }
}
