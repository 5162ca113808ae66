//! Rows that trap heuristic solvers, derived from the search (issue 17): a solvable row
//! where some legal first move can no longer reach the goal. Every goal-reaching
//! sequence has the same length (see `solve`), so a solver that commits to a move by a
//! local rule, without backtracking, is wrong exactly when it walks into such a move;
//! these rows put the fork at the very start, whatever rule picks the move. Found by
//! the reference's solvability search, not by a list of known programs.

use super::board::Row;
use super::moves::{MOVES, Move, apply, predecessors, successors};
use super::solve::Solvable;
use crate::rng::Rng;

/// Which trap a row must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trap {
    /// At least two legal first moves, and one of them cannot reach the goal.
    Fork,
    /// A losing first move that still leaves [`DEEP`] more moves: a solver that looks a
    /// few moves ahead does not see the dead end.
    Deep,
}

/// How many moves a [`Trap::Deep`] losing move still allows, at least.
pub const DEEP: usize = 3;

/// The legal first moves of `row` that cannot reach its goal.
pub fn losing_first_moves(row: Row, solvable: &mut Solvable) -> Vec<(Move, Row)> {
    MOVES
        .into_iter()
        .filter_map(|mv| apply(row, mv).map(|next| (mv, next)))
        .filter(|&(_, next)| !solvable.check(next))
        .collect()
}

/// Whether some sequence of `moves` legal moves starts at `row` (goal or not).
fn walks(row: Row, moves: usize) -> bool {
    moves == 0 || successors(row).any(|next| walks(next, moves - 1))
}

/// The losing first moves by which `row` holds `trap`, as a set of bits by [`MOVES`]
/// index; 0 when `row` does not hold it or is not solvable.
fn losing_kinds(row: Row, trap: Trap, solvable: &mut Solvable) -> u8 {
    if !solvable.check(row) || successors(row).count() < 2 {
        return 0;
    }
    losing_first_moves(row, solvable)
        .into_iter()
        .filter(|&(_, next)| trap == Trap::Fork || walks(next, DEEP))
        .map(|(mv, _)| MOVES.iter().position(|&m| m == mv).map_or(0, |i| 1 << i))
        .fold(0, |all, bit| all | bit)
}

/// Whether `row` is solvable and holds `trap` at its first move.
pub fn holds(row: Row, trap: Trap, solvable: &mut Solvable) -> bool {
    losing_kinds(row, trap, solvable) != 0
}

/// How many walks [`draw`] makes, keeping the row with the most forks behind it.
pub const WALKS: usize = 8;

/// Draws a row holding `trap`: goals of a random shape (from `shape`) walked back by
/// random legal moves. The walk read forwards is a way to the goal through every row
/// on it, so a row with forks behind it gives a local rule more chances to take a
/// losing move, and forks where different moves lose (a white step here, a black step
/// there) catch a rule whichever move it prefers: of [`WALKS`] walks, the row holding
/// the trap with the most kinds of losing move behind it, then the most forks. Every
/// row on a walk is solvable; shapes with no such row are drawn again.
pub fn draw(rng: &mut Rng, trap: Trap, shape: impl Fn(&mut Rng) -> Row) -> Row {
    let mut solvable = Solvable::default();
    loop {
        let goal = shape(rng);
        // ((kinds of losing move behind, forks behind), row): the best row so far.
        let mut best: Option<((u32, usize), Row)> = None;
        for _ in 0..WALKS {
            let mut row = goal;
            let (mut kinds, mut forks) = (0u8, 0);
            for _ in 0..4 * usize::from(goal.len) {
                // A walk that reaches a row with no predecessor ends there: stepping to
                // rows that have one keeps it going, to rows with longer answers.
                let mut before = predecessors(row);
                if before.is_empty() {
                    break;
                }
                let onwards: Vec<Row> = before
                    .iter()
                    .copied()
                    .filter(|&r| !predecessors(r).is_empty())
                    .collect();
                if !onwards.is_empty() {
                    before = onwards;
                }
                row = *rng.pick(&before);
                let losing = losing_kinds(row, trap, &mut solvable);
                if losing != 0 {
                    kinds |= losing;
                    forks += 1;
                    let score = (kinds.count_ones(), forks);
                    if best.is_none_or(|(most, _)| score > most) {
                        best = Some((score, row));
                    }
                }
            }
        }
        if let Some((_, row)) = best {
            return row;
        }
    }
}
