//! Two independent solvers of swap, cross-checked on every row up to length 12.
//!
//! - [`by_search`]: breadth-first search from the row with parent links; the first goal
//!   found gives a minimum sequence.
//! - [`by_counting`]: a memoised depth-first search decides which rows can still reach the
//!   goal, and follows them; the closed form gives the length without any search. Every
//!   `W` left of a `B` must cross it, and only a jump crosses (exactly one pair), so
//!   `moves = total displacement - crossings`: every sequence that reaches the goal has
//!   that length. `Puzzle::solve` uses this one: dead ends are pruned once, so the worst
//!   length-21 row takes microseconds where the search visits every reachable row.

use std::collections::HashMap;

use super::board::{Cell, Row};
use super::moves::successors;

/// The answer: `Impossible`, or the rows after each move of a minimum sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The goal cannot be reached.
    Impossible,
    /// The rows after each move, in order (empty when the start is the goal).
    Moves(Vec<Row>),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Impossible => writeln!(f, "Impossible"),
            Answer::Moves(rows) => {
                writeln!(f, "{}", rows.len())?;
                rows.iter()
                    .try_for_each(|row| writeln!(f, "{}", row.text()))
            }
        }
    }
}

impl Answer {
    /// The number of moves, if the goal can be reached.
    pub fn moves(&self) -> Option<usize> {
        match self {
            Answer::Impossible => None,
            Answer::Moves(rows) => Some(rows.len()),
        }
    }
}

/// Solver A: breadth-first search.
pub fn by_search(start: Row) -> Answer {
    let goal = start.goal();
    let mut parent: HashMap<Row, Row> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = std::collections::HashSet::from([start]);
    while let Some(row) = queue.pop_front() {
        if row == goal {
            let mut rows = vec![row];
            while let Some(&p) = parent.get(rows.last().expect("non-empty")) {
                rows.push(p);
            }
            rows.pop(); // the start itself
            rows.reverse();
            return Answer::Moves(rows);
        }
        for next in successors(row) {
            if seen.insert(next) {
                parent.insert(next, row);
                queue.push_back(next);
            }
        }
    }
    Answer::Impossible
}

/// The closed form: total displacement of the pieces minus the (`W` before `B`) pairs.
/// Meaningful only for solvable rows.
pub fn closed_form(row: Row) -> usize {
    let goal = row.goal();
    let positions = |r: Row, colour: Cell| -> Vec<usize> {
        (0..usize::from(r.len))
            .filter(|&i| r.cell(i) == colour)
            .collect()
    };
    // Pieces of one colour never pass each other (a jump passes the other colour only),
    // so the k-th piece of a colour ends where the goal has its k-th.
    let displacement: usize = [Cell::White, Cell::Black]
        .into_iter()
        .map(|c| {
            positions(row, c)
                .iter()
                .zip(positions(goal, c))
                .map(|(&a, b)| a.abs_diff(b))
                .sum::<usize>()
        })
        .sum();
    let mut whites_seen = 0;
    let mut crossings = 0;
    for i in 0..usize::from(row.len) {
        match row.cell(i) {
            Cell::White => whites_seen += 1,
            Cell::Black => crossings += whites_seen,
            Cell::Empty => {}
        }
    }
    displacement - crossings
}

/// Whether each row can reach its goal, memoised: the dead ends of one search.
#[derive(Debug, Default)]
pub struct Solvable {
    // A fast non-cryptographic hash: the keys are our own rows, not an attacker's, and
    // the default SipHash doubled the cost of a worst-case query.
    memo: rustc_hash::FxHashMap<Row, bool>,
}

impl Solvable {
    /// Whether `row` can reach its goal.
    pub fn check(&mut self, row: Row) -> bool {
        if row.is_goal() {
            return true;
        }
        if let Some(&known) = self.memo.get(&row) {
            return known;
        }
        let answer = successors(row).any(|next| self.check(next));
        self.memo.insert(row, answer);
        answer
    }
}

/// Solver B: follow solvable successors; any path through them is minimal.
pub fn by_counting(start: Row) -> Answer {
    let mut solvable = Solvable::default();
    if !solvable.check(start) {
        return Answer::Impossible;
    }
    let mut rows = Vec::with_capacity(closed_form(start));
    let mut row = start;
    while !row.is_goal() {
        row = successors(row)
            .find(|&next| solvable.check(next))
            .expect("a solvable row that is not the goal has a solvable successor");
        rows.push(row);
    }
    debug_assert_eq!(rows.len(), closed_form(start));
    Answer::Moves(rows)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::board::MAX_PER_COLOUR;
    use super::*;

    /// Every valid row of length `len`.
    pub(crate) fn rows(len: usize) -> impl Iterator<Item = Row> {
        (0..len).flat_map(move |empty| {
            (0u32..1 << len)
                .filter(move |mask| mask >> empty & 1 == 0)
                .map(move |black| Row {
                    len: len as u8,
                    empty: empty as u8,
                    black,
                })
                .filter(|r| r.blacks() <= MAX_PER_COLOUR && r.whites() <= MAX_PER_COLOUR)
        })
    }

    #[test]
    fn the_two_solvers_agree_on_every_row_up_to_length_12() {
        let mut checked = 0;
        for len in 2..=12 {
            for row in rows(len) {
                let a = by_search(row);
                let b = by_counting(row);
                assert_eq!(a.moves(), b.moves(), "{}", row.text());
                if let Some(k) = a.moves() {
                    assert_eq!(k, closed_form(row), "{}", row.text());
                }
                checked += 1;
            }
        }
        assert!(checked > 20_000);
    }

    #[test]
    fn the_sample_takes_15_moves() {
        let start = Row::parse(b"WWWOBBB\n").unwrap();
        let Answer::Moves(rows) = by_counting(start) else {
            panic!()
        };
        assert_eq!(rows.len(), 15);
        assert_eq!(rows.last().unwrap().text(), "BBBOWWW");
        assert_eq!(by_search(start).moves(), Some(15));
    }

    /// How many sequences from `row` reach the goal, and their lengths.
    fn all_paths(row: Row, depth: usize, lengths: &mut Vec<usize>) {
        if row.is_goal() {
            lengths.push(depth);
        }
        for next in successors(row) {
            all_paths(next, depth + 1, lengths);
        }
    }

    #[test]
    fn every_sequence_that_reaches_the_goal_has_the_same_length() {
        for len in 2..=9 {
            for row in rows(len) {
                let mut lengths = Vec::new();
                all_paths(row, 0, &mut lengths);
                lengths.dedup();
                assert!(lengths.len() <= 1, "{}: {lengths:?}", row.text());
                assert_eq!(
                    lengths.first().copied(),
                    by_counting(row).moves(),
                    "{}",
                    row.text()
                );
            }
        }
    }

    fn count_paths(row: Row, memo: &mut HashMap<Row, u64>) -> u64 {
        if row.is_goal() {
            return 1;
        }
        if let Some(&n) = memo.get(&row) {
            return n;
        }
        let n = successors(row).map(|next| count_paths(next, memo)).sum();
        memo.insert(row, n);
        n
    }

    #[test]
    fn standard_starts_need_n_n_plus_2_moves_by_exactly_two_sequences() {
        for n in 1..=10usize {
            let text = format!("{}O{}\n", "W".repeat(n), "B".repeat(n));
            let start = Row::parse(text.as_bytes()).unwrap();
            assert_eq!(by_counting(start).moves(), Some(n * (n + 2)));
            assert_eq!(closed_form(start), n * (n + 2));
            assert_eq!(count_paths(start, &mut HashMap::new()), 2, "n = {n}");
        }
    }

    /// Solvability of every row of one length, memoised in a dense table indexed by
    /// `empty << len | black` (0 unknown, 1 no, 2 yes).
    fn solvable_dense(row: Row, memo: &mut [u8]) -> bool {
        let index = (usize::from(row.empty) << row.len) | row.black as usize;
        match memo[index] {
            1 => return false,
            2 => return true,
            _ => {}
        }
        let answer = row.is_goal() || successors(row).any(|next| solvable_dense(next, memo));
        memo[index] = if answer { 2 } else { 1 };
        answer
    }

    #[test]
    fn ninety_eight_and_a_half_percent_of_rows_are_impossible() {
        let (mut all, mut solvable) = (0u64, 0u64);
        for len in 2..=super::super::board::MAX_LEN {
            let mut memo = vec![0u8; len << len];
            for row in rows(len) {
                all += 1;
                solvable += u64::from(solvable_dense(row, &mut memo));
            }
        }
        let impossible = (all - solvable) as f64 / all as f64;
        assert!(all > 7_000_000, "{all} rows");
        assert_eq!(
            format!("{:.1}", impossible * 100.0),
            "98.5",
            "{solvable} of {all} solvable"
        );
    }
}
