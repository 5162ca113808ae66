//! Wrong swap solutions held apart from the fuzz mix (issue 17): greedy solvers with no
//! backtracking, the approach of the best-known published solution. They were written
//! before the trap kinds and are never used to tune the mix; the fuzzer's speed on them
//! measures how it does on heuristics nobody listed. Every goal-reaching sequence has the
//! same length (see `solve`), so such a solver is wrong exactly when its rule walks into
//! a dead end of a solvable row.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use super::board::{Cell, Row};
use super::moves::successors;
use super::solve::{Answer, by_counting};
use crate::puzzle::Mutant;

/// The held-apart mutants.
pub const HELD_APART: &[Mutant<Row>] = &[
    Mutant {
        name: "jump-first",
        about: "held apart: greedy, a jump whenever there is one, else a step; no backtracking",
        run: jump_first,
    },
    Mutant {
        name: "look-one-ahead",
        about: "held apart: greedy, the first move that is not a dead end at once; no backtracking",
        run: look_one_ahead,
    },
    Mutant {
        name: "avoid-blocks",
        about: "held apart: greedy, a jump before a step, never into a W W B B block; no backtracking",
        run: avoid_blocks,
    },
    Mutant {
        name: "few-backtracks",
        about: "held apart: depth-first search that gives up (Impossible) after 64 dead ends",
        run: few_backtracks,
    },
    Mutant {
        name: "keep-a-jump",
        about: "held apart: greedy, a move after which a jump is possible, else a step; no backtracking",
        run: keep_a_jump,
    },
];

/// Whether `row` is a classic start `W^n O B^n`.
fn is_standard(row: Row) -> bool {
    let n = row.whites();
    row.blacks() == n && usize::from(row.empty) == n && (0..n).all(|i| row.cell(i) == Cell::White)
}

/// Follows `choose` (given the row and its successors) from `start` until the goal, or
/// prints `Impossible` at a dead end. A classic start gets its known sequence: each of
/// these greedy rules fails `WWOBB` already, and a contestant tunes a greedy to the
/// sample before submitting it (the published solutions are right on every classic
/// start), so the mutants are too; the reference stands in for the known sequence.
fn follow(start: Row, choose: impl Fn(Row, &[Row]) -> Option<Row>) -> String {
    if is_standard(start) {
        return by_counting(start).to_string();
    }
    let mut rows = Vec::new();
    let mut current = start;
    while !current.is_goal() {
        let next: Vec<Row> = successors(current).collect();
        match choose(current, &next) {
            Some(row) => {
                rows.push(row);
                current = row;
            }
            None => return Answer::Impossible.to_string(),
        }
    }
    Answer::Moves(rows).to_string()
}

/// Whether the move from `from` to `to` was a jump (the empty cell moved two cells).
fn is_jump(from: Row, to: Row) -> bool {
    from.empty.abs_diff(to.empty) == 2
}

fn jump_first(row: &Row) -> String {
    follow(*row, |current, next| {
        next.iter()
            .copied()
            .find(|&n| is_jump(current, n))
            .or_else(|| next.first().copied())
    })
}

/// Whether `row` holds a `W W B B` block (or `W W B` at the right end, `W B B` at the
/// left end): the inner `W` and `B` block each other for good, the dead end a
/// contestant spots by hand.
fn visibly_stuck(row: Row) -> bool {
    let text = format!("|{}|", row.text());
    text.contains("WWBB") || text.contains("WWB|") || text.contains("|WBB")
}

fn avoid_blocks(row: &Row) -> String {
    follow(*row, |current, next| {
        let fine = |n: &&Row| !visibly_stuck(**n);
        next.iter()
            .filter(fine)
            .copied()
            .find(|&n| is_jump(current, n))
            .or_else(|| next.iter().filter(fine).copied().next())
            .or_else(|| next.first().copied())
    })
}

fn look_one_ahead(row: &Row) -> String {
    follow(*row, |_, next| {
        next.iter()
            .copied()
            .find(|&n| n.is_goal() || successors(n).next().is_some())
            .or_else(|| next.first().copied())
    })
}

fn keep_a_jump(row: &Row) -> String {
    follow(*row, |current, next| {
        next.iter()
            .copied()
            .find(|&n| n.is_goal() || successors(n).any(|m| is_jump(n, m)))
            .or_else(|| next.iter().copied().find(|&n| is_jump(current, n)))
            .or_else(|| next.first().copied())
    })
}

/// How many dead ends `few_backtracks` backs out of before it gives up: a time-saving
/// cap that holds on the classic starts and on most rows.
const DEAD_END_BUDGET: usize = 64;

fn few_backtracks(row: &Row) -> String {
    /// Depth-first in successor order: whether the goal was reached, the way to it in
    /// `path`; false once the budget is spent or there is no way on.
    fn dive(row: Row, budget: &mut usize, path: &mut Vec<Row>) -> bool {
        if row.is_goal() {
            return true;
        }
        for next in successors(row) {
            path.push(next);
            if dive(next, budget, path) {
                return true;
            }
            path.pop();
            if *budget == 0 {
                return false;
            }
        }
        *budget = budget.saturating_sub(1);
        false
    }
    if is_standard(*row) {
        return by_counting(*row).to_string();
    }
    let mut budget = DEAD_END_BUDGET;
    let mut path = Vec::new();
    if dive(*row, &mut budget, &mut path) {
        Answer::Moves(path).to_string()
    } else {
        Answer::Impossible.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::swap::check::check;

    #[test]
    fn every_held_apart_mutant_is_right_on_every_standard_start() {
        for mutant in HELD_APART {
            for n in 1..=10 {
                let text = format!("{}O{}\n", "W".repeat(n), "B".repeat(n));
                let row = Row::parse(text.as_bytes()).unwrap();
                assert!(is_standard(row));
                let judged = check(row, &by_counting(row), (mutant.run)(&row).as_bytes());
                assert_eq!(judged.verdict, Verdict::Accepted, "{} {text}", mutant.name);
            }
        }
        assert!(!is_standard(Row::parse(b"WOBB\n").unwrap()));
        assert!(!is_standard(Row::parse(b"WBOWB\n").unwrap()));
    }
}
