//! How the fuzzer draws and shrinks swap rows (the space is too large to enumerate).

use super::board::{Cell, Row};
use super::solve;
use crate::puzzle::{Share, cycle_len, schedule};

/// The fuzz mix, the one table of what the fuzzer draws and how often (issue 24): the rare
/// classes first, rows that trap a solver without backtracking (about 0.4% of random rows
/// expose one) and walked-back rows, two fifteenths each; then solvable rows (98.5% of
/// random rows are `Impossible`), blocked rows one swap from solvable, goals, the longest
/// rows, uneven counts, the empty cell at an end and the standard starts, a fifteenth
/// each.
pub const SHARES: &[Share] = &[
    Share::new("trap", 2),
    Share::new("walked-back", 2),
    Share::new("standard=2", 1),
    Share::new("deep-trap", 1),
    Share::new("impossible", 1),
    Share::new("solved", 1),
    Share::new("blocked", 1),
    Share::new("longest", 1),
    Share::new("uneven", 1),
    Share::new("empty-at-end", 1),
    Share::new("standard=1", 1),
    Share::new("standard=4", 1),
    Share::new("random", 1),
];

/// One cycle of [`SHARES`], the kinds of the fuzzer's first runs (see [`schedule`]).
pub const MIX: &[&str] = &CYCLE;
const CYCLE: [&str; cycle_len(SHARES)] = schedule(SHARES);

/// Neighbours to try when shrinking: one piece removed (a shorter row), the empty cell
/// swapped with a neighbour, one piece turned. Rows the input contract refuses (fewer
/// than 2 cells, more than 10 of a colour) are left out.
pub fn candidates(row: Row) -> Vec<Row> {
    let cells: Vec<Cell> = (0..usize::from(row.len)).map(|i| row.cell(i)).collect();
    let mut out = Vec::new();
    for i in 0..cells.len() {
        if cells[i] != Cell::Empty && cells.len() > 2 {
            let mut shorter = cells.clone();
            shorter.remove(i);
            out.push(Row::from_cells(&shorter));
        }
    }
    let e = usize::from(row.empty);
    for j in [e.wrapping_sub(1), e + 1] {
        if j < cells.len() {
            let mut moved = cells.clone();
            moved.swap(e, j);
            out.push(Row::from_cells(&moved));
        }
    }
    for i in 0..cells.len() {
        let turned = match cells[i] {
            Cell::White => Cell::Black,
            Cell::Black => Cell::White,
            Cell::Empty => continue,
        };
        let mut other = cells.clone();
        other[i] = turned;
        out.push(Row::from_cells(&other));
    }
    out.retain(|r| r.blacks() <= 10 && r.whites() <= 10);
    out
}

/// Smaller is simpler: a shorter row, then a shorter answer (`Impossible` last).
pub fn size(row: Row) -> (u64, u64) {
    let answer = solve::by_counting(row)
        .moves()
        .map_or(u64::MAX, |n| n as u64);
    (u64::from(row.len), answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_holds_every_row_as_often_as_its_weight() {
        crate::puzzle::assert_cycle_holds(SHARES, MIX);
        assert_eq!(&MIX[..2], ["trap", "walked-back"]);
    }

    #[test]
    fn candidates_are_valid_rows_and_include_shorter_ones() {
        let row = Row::parse(b"WWWOBBB\n").unwrap();
        let all = candidates(row);
        assert!(all.iter().any(|r| r.len == 6));
        for r in all {
            let text = format!("{}\n", r.text());
            assert_eq!(Row::parse(text.as_bytes()).unwrap(), r);
        }
    }
}
