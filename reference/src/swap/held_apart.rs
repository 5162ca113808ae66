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

use super::board::Row;
use super::moves::successors;
use super::solve::Answer;
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
        name: "sample-tuned-greedy",
        about: "held apart: the known sequence for W^n O B^n, else jump-first greedy; no backtracking",
        run: sample_tuned_greedy,
    },
    Mutant {
        name: "keep-a-jump",
        about: "held apart: greedy, a move after which a jump is possible, else a step; no backtracking",
        run: keep_a_jump,
    },
];

/// Follows `choose` (given the row and its successors) from `start` until the goal, or
/// prints `Impossible` at a dead end.
fn follow(start: Row, choose: impl Fn(Row, &[Row]) -> Option<Row>) -> String {
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

fn sample_tuned_greedy(row: &Row) -> String {
    // A contestant whose greedy failed the sample hard-codes the classic starts (their
    // sequence is well known: the reference stands in for it) and keeps the greedy for
    // the rest: right on every standard start, wrong where the greedy walks into a trap.
    let n = row.whites();
    let standard = row.blacks() == n
        && usize::from(row.empty) == n
        && (0..n).all(|i| row.cell(i) == super::board::Cell::White);
    if standard {
        super::solve::by_counting(*row).to_string()
    } else {
        jump_first(row)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::swap::check::check;
    use crate::swap::solve::by_counting;

    #[test]
    fn every_held_apart_mutant_is_wrong_somewhere_and_right_somewhere() {
        let rows: Vec<Row> = (2..=9).flat_map(crate::swap::solve::tests::rows).collect();
        for mutant in HELD_APART {
            let (mut wrong, mut right) = (0, 0);
            for &row in &rows {
                let judged = check(row, &by_counting(row), (mutant.run)(&row).as_bytes());
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
