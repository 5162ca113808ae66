//! Classic wrong swap solutions, each a small plausible change to a correct one. Each
//! `run` prints exactly what that wrong program would print.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use std::collections::{HashMap, VecDeque};

use super::board::{Cell, Row};
use super::moves::successors;
use super::solve::{Answer, by_counting};
use crate::puzzle::Mutant;

/// The mutants, in the order of the kill matrix.
pub const MUTANTS: &[Mutant<Row>] = &[
    Mutant {
        name: "own-colour-jump",
        about: "lets a piece jump over its own colour too",
        run: own_colour_jump,
    },
    Mutant {
        name: "backwards",
        about: "lets pieces move either way",
        run: backwards,
    },
    Mutant {
        name: "count-off-by-one",
        about: "prints one more move than the rows it lists",
        run: count_off_by_one,
    },
    Mutant {
        name: "no-impossible",
        about: "prints 0 for a row with no solution",
        run: no_impossible,
    },
    Mutant {
        name: "no-final-row",
        about: "leaves out the last row (the goal)",
        run: no_final_row,
    },
    Mutant {
        name: "lowercase",
        about: "prints `impossible` instead of `Impossible`",
        run: lowercase,
    },
    Mutant {
        name: "greedy",
        about: "takes the first legal move every time and gives up at a dead end",
        run: greedy,
    },
    Mutant {
        name: "start-row",
        about: "prints the start row as the first of the k rows",
        run: start_row,
    },
];

/// How many rows a wrong search visits before it gives up and prints `Impossible`: with
/// extra moves the reachable set of a length-21 row has millions of rows, and power is
/// measured on every case, so the mutants must stay fast (a few milliseconds a row).
const SEARCH_CAP: usize = 20_000;

/// Breadth-first search with a (wrong) move generator, printed as an answer.
fn search(start: Row, next: impl Fn(Row) -> Vec<Row>) -> String {
    let goal = start.goal();
    let mut parent: HashMap<Row, Row> = HashMap::from([(start, start)]);
    let mut queue = VecDeque::from([start]);
    while let Some(row) = queue.pop_front() {
        if row == goal {
            let mut rows = vec![row];
            while rows.last() != Some(&start) {
                rows.push(parent[rows.last().expect("non-empty")]);
            }
            rows.pop();
            rows.reverse();
            return Answer::Moves(rows).to_string();
        }
        if parent.len() > SEARCH_CAP {
            break;
        }
        for n in next(row) {
            parent.entry(n).or_insert_with(|| {
                queue.push_back(n);
                row
            });
        }
    }
    Answer::Impossible.to_string()
}

/// Moves the piece at `from` into the empty cell, if it is on the board and a piece.
fn shift(row: Row, from: usize) -> Option<Row> {
    if from >= usize::from(row.len) || from == usize::from(row.empty) {
        return None;
    }
    let e = usize::from(row.empty);
    let mut next = Row {
        empty: from as u8,
        ..row
    };
    if row.cell(from) == Cell::Black {
        next.black = (row.black & !(1 << from)) | 1 << e;
    }
    Some(next)
}

fn own_colour_jump(row: &Row) -> String {
    search(*row, |r| {
        let e = usize::from(r.empty);
        let mut next: Vec<Row> = successors(r).collect();
        // The wrong extra rule: a jump over a piece of either colour.
        if e >= 2 && r.cell(e - 2) == Cell::White && r.cell(e - 1) == Cell::White {
            next.extend(shift(r, e - 2));
        }
        if r.cell_or_empty(e + 2) == Cell::Black && r.cell_or_empty(e + 1) == Cell::Black {
            next.extend(shift(r, e + 2));
        }
        next
    })
}

fn backwards(row: &Row) -> String {
    search(*row, |r| {
        let e = usize::from(r.empty);
        // Any piece beside the empty cell steps in; any piece jumps the other colour.
        let mut next = Vec::new();
        for from in [e.wrapping_sub(1), e + 1] {
            next.extend(shift(r, from));
        }
        for (from, over) in [(e.wrapping_sub(2), e.wrapping_sub(1)), (e + 2, e + 1)] {
            if from < usize::from(r.len) {
                let (a, b) = (r.cell(from), r.cell(over));
                if a != b && b != Cell::Empty {
                    next.extend(shift(r, from));
                }
            }
        }
        next
    })
}

fn count_off_by_one(row: &Row) -> String {
    match by_counting(*row) {
        Answer::Moves(rows) if !rows.is_empty() => {
            let mut text = Answer::Moves(rows.clone()).to_string();
            let first_line = format!("{}\n", rows.len());
            text.replace_range(..first_line.len(), &format!("{}\n", rows.len() + 1));
            text
        }
        answer => answer.to_string(),
    }
}

fn no_impossible(row: &Row) -> String {
    match by_counting(*row) {
        Answer::Impossible => "0\n".to_owned(),
        answer @ Answer::Moves(_) => answer.to_string(),
    }
}

fn no_final_row(row: &Row) -> String {
    match by_counting(*row) {
        Answer::Moves(mut rows) if !rows.is_empty() => {
            let k = rows.len();
            rows.pop();
            let mut text = format!("{k}\n");
            for r in rows {
                text.push_str(&r.to_string());
            }
            text
        }
        answer => answer.to_string(),
    }
}

fn lowercase(row: &Row) -> String {
    by_counting(*row)
        .to_string()
        .replace("Impossible", "impossible")
}

fn greedy(row: &Row) -> String {
    let mut rows = Vec::new();
    let mut current = *row;
    while !current.is_goal() {
        match successors(current).next() {
            Some(next) => {
                rows.push(next);
                current = next;
            }
            None => return Answer::Impossible.to_string(),
        }
    }
    Answer::Moves(rows).to_string()
}

fn start_row(row: &Row) -> String {
    match by_counting(*row) {
        Answer::Moves(mut rows) if !rows.is_empty() => {
            rows.pop();
            rows.insert(0, *row);
            Answer::Moves(rows).to_string()
        }
        answer => answer.to_string(),
    }
}

impl Row {
    /// The cell at `i`, or `Empty` beyond the end (for the mutants' bounds-free tests).
    fn cell_or_empty(self, i: usize) -> Cell {
        if i < usize::from(self.len) {
            self.cell(i)
        } else {
            Cell::Empty
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::swap::check::check;

    /// The classic mutants and the held-apart ones alike.
    #[test]
    fn every_mutant_is_wrong_somewhere_and_right_somewhere() {
        let rows: Vec<Row> = (2..=9).flat_map(crate::swap::solve::tests::rows).collect();
        for mutant in MUTANTS.iter().chain(crate::swap::held_apart::HELD_APART) {
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
