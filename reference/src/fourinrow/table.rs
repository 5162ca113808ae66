//! Solver A: the answer of every board from one backward multi-source breadth-first
//! search over all 823,680 states (board, colour to move next), from the goal boards.
//!
//! Boards are ranked densely: the rank of the pair of empty squares (120) times the rank of
//! the black subset of the 14 other squares (3,432), so distances live in a flat array of
//! 823,680 bytes. Moves are their own inverses (a piece moves back into the square it
//! left), so the predecessors of a state are found with the forward move generator.

use std::sync::OnceLock;

use super::board::{Board, Colour, PIECES};

/// Boards: 120 pairs of empty squares x 3,432 black subsets.
pub const BOARDS: usize = 120 * 3432;
/// States: a board and the colour to move next.
pub const STATES: usize = 2 * BOARDS;
/// Distance of a state from which no goal is reachable.
pub const UNREACHABLE: u8 = u8::MAX;

/// The orthogonal neighbours of each square, as a mask.
const NEIGHBOURS: [u16; 16] = {
    let mut masks = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        let (row, col) = (i / 4, i % 4);
        if row > 0 {
            masks[i] |= 1 << (i - 4);
        }
        if row < 3 {
            masks[i] |= 1 << (i + 4);
        }
        if col > 0 {
            masks[i] |= 1 << (i - 1);
        }
        if col < 3 {
            masks[i] |= 1 << (i + 1);
        }
        i += 1;
    }
    masks
};

/// Lookup tables of the ranking.
struct Ranks {
    /// `pair[i * 16 + j]` (i < j): the rank of empty squares `{i, j}`.
    pair: [u8; 256],
    /// The pairs by rank.
    pairs: [(u8, u8); 120],
    /// The rank of a 14-bit mask with 7 bits set (other masks: unused).
    subset: Vec<u16>,
    /// The 14-bit masks with 7 bits set, by rank.
    subsets: Vec<u16>,
}

fn ranks() -> &'static Ranks {
    static RANKS: OnceLock<Ranks> = OnceLock::new();
    RANKS.get_or_init(|| {
        let mut ranks = Ranks {
            pair: [0; 256],
            pairs: [(0, 0); 120],
            subset: vec![0; 1 << 14],
            subsets: Vec::with_capacity(3432),
        };
        let mut n = 0;
        for i in 0..16u8 {
            for j in i + 1..16 {
                ranks.pair[usize::from(i) * 16 + usize::from(j)] = n as u8;
                ranks.pairs[n] = (i, j);
                n += 1;
            }
        }
        for mask in 0u16..1 << 14 {
            if mask.count_ones() == PIECES {
                ranks.subset[mask as usize] = ranks.subsets.len() as u16;
                ranks.subsets.push(mask);
            }
        }
        ranks
    })
}

/// Removes bit `at` from `x`, shifting the higher bits down.
fn remove_bit(x: u16, at: u32) -> u16 {
    let x = u32::from(x);
    ((x & ((1 << at) - 1)) | ((x >> (at + 1)) << at)) as u16
}

/// Inserts a zero bit at `at` into `x`, shifting the higher bits up.
fn insert_bit(x: u16, at: u32) -> u16 {
    let x = u32::from(x);
    ((x & ((1 << at) - 1)) | ((x >> at) << (at + 1))) as u16
}

/// The dense rank of a valid board, in `0..BOARDS`.
pub fn rank(board: Board) -> usize {
    let r = ranks();
    let low = board.empty.trailing_zeros();
    let high = board.empty.ilog2();
    let squeezed = remove_bit(remove_bit(board.black, high), low);
    usize::from(r.pair[(low * 16 + high) as usize]) * 3432
        + usize::from(r.subset[squeezed as usize])
}

/// The board of a rank (the inverse of [`rank`]).
pub fn unrank(index: usize) -> Board {
    let r = ranks();
    let (low, high) = r.pairs[index / 3432];
    let black = insert_bit(
        insert_bit(r.subsets[index % 3432], u32::from(low)),
        u32::from(high),
    );
    Board {
        empty: 1 << low | 1 << high,
        black,
    }
}

/// Every valid board, in rank order (the canonical order of generation).
pub fn all_boards() -> impl Iterator<Item = Board> {
    (0..BOARDS).map(unrank)
}

fn state(board: Board, next: Colour) -> usize {
    rank(board) * 2 + usize::from(next == Colour::White)
}

/// Calls `visit` with each board reached by one move of a piece of `colour`.
pub(crate) fn for_each_move(board: Board, colour: Colour, mut visit: impl FnMut(Board)) {
    let pieces = board.pieces(colour);
    let mut empties = board.empty;
    while empties != 0 {
        let e = empties.trailing_zeros();
        empties &= empties - 1;
        let mut movers = NEIGHBOURS[e as usize] & pieces;
        while movers != 0 {
            let s = movers.trailing_zeros();
            movers &= movers - 1;
            let swap = 1 << e | 1 << s;
            visit(Board {
                empty: board.empty ^ swap,
                black: if colour == Colour::Black {
                    board.black ^ swap
                } else {
                    board.black
                },
            });
        }
    }
}

/// The distances of every state: moves to a goal with that colour to move next.
pub struct Table {
    dist: Box<[u8]>,
}

impl Table {
    /// The distance of `board` with `next` to move.
    pub fn distance(&self, board: Board, next: Colour) -> u8 {
        self.dist[state(board, next)]
    }

    /// The answer of `board`: either colour may move first.
    pub fn answer(&self, board: Board) -> u8 {
        self.distance(board, Colour::Black)
            .min(self.distance(board, Colour::White))
    }
}

/// Builds the complete table afresh (for the bench and tests; use [`table`] otherwise).
pub fn build_table() -> Table {
    let mut dist = vec![UNREACHABLE; STATES].into_boxed_slice();
    // A queue of state indices (board rank * 2 + colour to move next); goals first, at 0.
    let mut queue: Vec<u32> = Vec::with_capacity(STATES);
    for index in 0..BOARDS {
        if unrank(index).is_goal() {
            for s in [index * 2, index * 2 + 1] {
                dist[s] = 0;
                queue.push(s as u32);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let index = queue[head] as usize;
        head += 1;
        let board = unrank(index / 2);
        let next = if index & 1 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let d = dist[index] + 1;
        // The state before: the other colour was to move, and its move led here.
        let mover = next.other();
        for_each_move(board, mover, |before| {
            let index = state(before, mover);
            if dist[index] == UNREACHABLE && !before.is_goal() {
                dist[index] = d;
                queue.push(index as u32);
            }
        });
    }
    Table { dist }
}

/// The table, built on first use.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_the_valid_boards() {
        let mut boards = std::collections::HashSet::new();
        for index in 0..BOARDS {
            let board = unrank(index);
            assert_eq!(board.empty.count_ones(), 2);
            assert_eq!(board.black.count_ones(), PIECES);
            assert_eq!(board.black & board.empty, 0);
            assert_eq!(rank(board), index);
            boards.insert(board);
        }
        assert_eq!(boards.len(), BOARDS);
    }

    #[test]
    fn the_answer_histogram_is_the_known_one() {
        let table = table();
        let mut histogram = [0usize; 8];
        for board in all_boards() {
            let answer = table.answer(board);
            assert_ne!(answer, UNREACHABLE, "{board}");
            histogram[usize::from(answer)] += 1;
        }
        assert_eq!(
            histogram,
            [141_536, 104_256, 58_096, 74_512, 23_184, 9_248, 880, 128]
        );
        assert_eq!(histogram.iter().sum::<usize>(), 411_840);
    }

    #[test]
    fn the_sample_takes_five_moves() {
        let board = Board::parse(b"BWBO\nWBWB\nBWBW\nWBWO\n").unwrap();
        assert_eq!(table().answer(board), 5);
    }
}
