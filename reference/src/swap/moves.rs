//! The moves of problems.md: a `W` moves right, a `B` left, by a step into the empty cell
//! or a jump over exactly one piece of the other colour into it.

use super::board::{Cell, Row};

/// One move, named by what moves and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// The `W` left of the empty cell steps right.
    WhiteStep,
    /// The `W` two left of the empty cell jumps a `B`.
    WhiteJump,
    /// The `B` right of the empty cell steps left.
    BlackStep,
    /// The `B` two right of the empty cell jumps a `W`.
    BlackJump,
}

/// Every move, in the fixed order the solvers try them (so their answers are
/// deterministic).
pub const MOVES: [Move; 4] = [
    Move::WhiteStep,
    Move::WhiteJump,
    Move::BlackStep,
    Move::BlackJump,
];

/// The row after `mv`, or `None` when `mv` is not legal in `row`.
pub fn apply(row: Row, mv: Move) -> Option<Row> {
    let e = usize::from(row.empty);
    let len = usize::from(row.len);
    let (from, over, colour, other) = match mv {
        Move::WhiteStep => (e.checked_sub(1)?, None, Cell::White, Cell::Black),
        Move::WhiteJump => (e.checked_sub(2)?, Some(e - 1), Cell::White, Cell::Black),
        Move::BlackStep => (e + 1, None, Cell::Black, Cell::White),
        Move::BlackJump => (e + 2, Some(e + 1), Cell::Black, Cell::White),
    };
    if from >= len || row.cell(from) != colour {
        return None;
    }
    if over.is_some_and(|m| row.cell(m) != other) {
        return None;
    }
    let mut next = row;
    next.empty = from as u8;
    if colour == Cell::Black {
        next.black = (next.black & !(1 << from)) | 1 << e;
    }
    Some(next)
}

/// The legal successors of `row`, in [`MOVES`] order.
pub fn successors(row: Row) -> impl Iterator<Item = Row> {
    MOVES.into_iter().filter_map(move |mv| apply(row, mv))
}

/// The rows from which one legal move leads to `row`: a piece now beside (or one beyond)
/// the empty cell, on the side it moved towards, goes back.
pub fn predecessors(row: Row) -> Vec<Row> {
    let e = usize::from(row.empty);
    let len = usize::from(row.len);
    let mut rows = Vec::new();
    // A `W` moved right into its cell `t`, leaving the empty cell at `e < t`.
    for t in [e + 1, e + 2] {
        if t < len && row.cell(t) == Cell::White && (t == e + 1 || row.cell(e + 1) == Cell::Black) {
            rows.push(Row {
                empty: t as u8,
                ..row
            });
        }
    }
    // A `B` moved left into its cell `t`, leaving the empty cell at `e > t`.
    for t in [e.wrapping_sub(1), e.wrapping_sub(2)] {
        if t < len && row.cell(t) == Cell::Black && (t + 1 == e || row.cell(e - 1) == Cell::White) {
            rows.push(Row {
                empty: t as u8,
                black: (row.black & !(1 << t)) | 1 << e,
                ..row
            });
        }
    }
    rows
}

/// Why `next` is not one legal move from `prev` (both well-formed rows of the same length),
/// or `None` when it is.
pub fn why_illegal(prev: Row, next: Row) -> Option<String> {
    if prev == next {
        return Some("no piece moved".to_owned());
    }
    if prev.blacks() != next.blacks() {
        return Some("the pieces changed colour".to_owned());
    }
    let (from, to) = (usize::from(next.empty), usize::from(prev.empty));
    let moved = prev.cell(from);
    let others_same = (0..usize::from(prev.len))
        .filter(|&i| i != from && i != to)
        .all(|i| prev.cell(i) == next.cell(i));
    if !others_same || next.cell(to) != moved {
        return Some("more than one piece moved".to_owned());
    }
    let name = if moved == Cell::White { "W" } else { "B" };
    if moved == Cell::White && to < from {
        return Some(format!("a `{name}` moved left; `W` moves only right"));
    }
    if moved == Cell::Black && to > from {
        return Some(format!("a `{name}` moved right; `B` moves only left"));
    }
    match from.abs_diff(to) {
        1 => None,
        2 => {
            let over = prev.cell(from.min(to) + 1);
            (over == moved).then(|| format!("a `{name}` jumped over its own colour"))
        }
        n => Some(format!(
            "a `{name}` moved {n} cells; a jump passes exactly one piece"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str) -> Row {
        Row::parse(format!("{text}\n").as_bytes()).unwrap()
    }

    #[test]
    fn moves_follow_the_rules() {
        let next: Vec<String> = successors(row("WBOWB")).map(Row::text).collect();
        assert_eq!(next, ["OBWWB", "WBBWO"]);
        assert_eq!(successors(row("BOW")).count(), 0);
        assert_eq!(successors(row("WWOBB")).count(), 2);
    }

    #[test]
    fn predecessors_are_exactly_the_rows_one_move_before() {
        for text in ["WBOWB", "OWBWB", "BWWOB", "WWOBB", "BBOWW", "BOW"] {
            let r = row(text);
            for p in predecessors(r) {
                assert!(successors(p).any(|s| s == r), "{} -> {text}", p.text());
            }
            let brute = (0..r.len)
                .flat_map(|empty| {
                    (0u32..1 << r.len).map(move |black| Row {
                        len: r.len,
                        empty,
                        black,
                    })
                })
                .filter(|p| p.black >> p.empty & 1 == 0 && p.blacks() == r.blacks())
                .filter(|&p| successors(p).any(|s| s == r))
                .count();
            assert_eq!(predecessors(r).len(), brute, "{text}");
        }
    }

    #[test]
    fn illegal_moves_are_explained() {
        let why = |a: &str, b: &str| why_illegal(row(a), row(b));
        assert_eq!(why("WOB", "OWB"), None);
        assert_eq!(why("WBO", "OBW"), None);
        assert_eq!(why("WOB", "WOB").unwrap(), "no piece moved");
        assert_eq!(
            why("OWB", "WOB").unwrap(),
            "a `W` moved left; `W` moves only right"
        );
        assert_eq!(
            why("BOW", "OBW").unwrap(),
            "a `B` moved right; `B` moves only left"
        );
        assert_eq!(
            why("WWO", "OWW").unwrap(),
            "a `W` jumped over its own colour"
        );
        assert_eq!(
            why("WBBO", "OBBW").unwrap(),
            "a `W` moved 3 cells; a jump passes exactly one piece"
        );
        assert_eq!(why("WOBB", "BOWB").unwrap(), "more than one piece moved");
        assert_eq!(why("WOB", "BOW").unwrap(), "more than one piece moved");
    }
}
