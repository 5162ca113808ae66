//! How the fuzzer draws and shrinks swap rows (the space is too large to enumerate).

use super::board::{Cell, Row};
use super::solve;

/// The kinds the fuzzer cycles through, the rare classes first: rows that trap a solver
/// without backtracking (about 0.4% of random rows expose one), solvable rows (98.5% of
/// random rows are `Impossible`), blocked rows one swap from solvable, goals, uneven
/// counts, the empty cell at an end, the standard starts and the longest rows.
pub const MIX: &[&str] = &[
    "trap",
    "walked-back",
    "standard=2",
    "deep-trap",
    "impossible",
    "solved",
    "blocked",
    "uneven",
    "empty-at-end",
    "standard=1",
    "walked-back",
    "standard=4",
    "longest",
    "trap",
    "random",
];

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
