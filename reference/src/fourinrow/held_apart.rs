//! Wrong fourinrow solutions held apart from the fuzz mix (issues 17 and 24): each is right
//! on the easy classes and wrong on one narrow class. `stuck-last-column` was written after
//! the mix and never used to tune it, so the fuzzer's speed on it measures a mistake nobody
//! listed. Issue 24 added one per structural feature of the game: touching empty squares,
//! a line one move away, a side with no legal move; the mix's weights (the hardest boards'
//! share above all) were set with them measured, so they hold the mix to its bounds rather
//! than measure it blind. Those three are a contestant's own search, written the way such
//! a program is written (a queue of boards as cells), not the reference with a rule
//! changed.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use std::collections::{HashSet, VecDeque};

use super::board::{Board, LINES};
use super::search::{RULES, Rules, orthogonal, solve};
use crate::Count;
use crate::puzzle::Mutant;

/// The held-apart mutants.
pub const HELD_APART: &[Mutant<Board>] = &[
    Mutant {
        name: "stuck-last-column",
        about: "held apart: a piece in the last column never moves left (a bound off by one)",
        run: stuck_last_column,
    },
    Mutant {
        name: "empty-into-empty",
        about: "held apart: when the empty squares touch, one moves into the other, a wasted move that hands over the turn (the move loop skips the other colour's pieces, not the other empty square)",
        run: empty_into_empty,
    },
    Mutant {
        name: "slide-along-line",
        about: "held apart: a shortcut for a line one move away (three of a colour and an empty square) answers 1 when any piece of that colour touches the empty square, even the line's own, which leaves a hole as it slides in",
        run: slide_along_line,
    },
    Mutant {
        name: "stuck-side-passes",
        about: "held apart: a side with no legal move passes, and the other side moves again",
        run: stuck_side_passes,
    },
];

fn stuck_last_column(board: &Board) -> String {
    fn sources(e: usize) -> Vec<usize> {
        let mut out = orthogonal(e);
        out.retain(|&s| !(s % 4 == 3 && e % 4 == 2));
        out
    }
    solve(*board, &Rules { sources, ..RULES }).to_string()
}

/// A square: empty, black or white, as a contestant stores the board.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

type Cells = [u8; 16];

fn cells(board: Board) -> Cells {
    std::array::from_fn(|i| {
        if board.empty >> i & 1 == 1 {
            EMPTY
        } else if board.black >> i & 1 == 1 {
            BLACK
        } else {
            WHITE
        }
    })
}

fn is_goal(cells: &Cells) -> bool {
    LINES.iter().any(|&line| {
        let squares: Vec<usize> = (0..16).filter(|&i| line >> i & 1 == 1).collect();
        let first = cells[squares[0]];
        first != EMPTY && squares.iter().all(|&i| cells[i] == first)
    })
}

fn other(colour: u8) -> u8 {
    if colour == BLACK { WHITE } else { BLACK }
}

/// One way of moving on: the board after, who moves next, and how many moves it took
/// (0 for a pass that is not counted).
type Step = (Cells, u8, u32);

/// A contestant's breadth-first search from both first movers: `steps` lists the ways on
/// from a board with `colour` to move; the first goal reached by a counted move answers.
fn search(board: Board, steps: fn(&Cells, u8, &mut Vec<Step>)) -> String {
    let start = cells(board);
    if is_goal(&start) {
        return Count::Moves(0).to_string();
    }
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for first in [BLACK, WHITE] {
        seen.insert((start, first));
        queue.push_back((start, first, 0));
    }
    let mut next = Vec::new();
    while let Some((now, colour, depth)) = queue.pop_front() {
        next.clear();
        steps(&now, colour, &mut next);
        for &(after, to_move, cost) in &next {
            if cost > 0 && is_goal(&after) {
                return Count::Moves(depth + cost).to_string();
            }
            if seen.insert((after, to_move)) {
                queue.push_back((after, to_move, depth + cost));
            }
        }
    }
    Count::Impossible.to_string()
}

/// Every move of `colour`: a piece next to an empty square slides into it.
fn moves(now: &Cells, colour: u8, out: &mut Vec<Step>) {
    for e in (0..16).filter(|&e| now[e] == EMPTY) {
        for s in orthogonal(e) {
            if now[s] == colour {
                let mut after = *now;
                after.swap(e, s);
                out.push((after, other(colour), 1));
            }
        }
    }
}

fn empty_into_empty(board: &Board) -> String {
    fn steps(now: &Cells, colour: u8, out: &mut Vec<Step>) {
        for e in (0..16).filter(|&e| now[e] == EMPTY) {
            for s in orthogonal(e) {
                // The mistake: "not the other colour" lets the other empty square through.
                if now[s] == other(colour) {
                    continue;
                }
                let mut after = *now;
                after.swap(e, s);
                out.push((after, other(colour), 1));
            }
        }
    }
    search(*board, steps)
}

fn slide_along_line(board: &Board) -> String {
    let now = cells(*board);
    if !is_goal(&now) {
        for line in LINES {
            let squares: Vec<usize> = (0..16).filter(|&i| line >> i & 1 == 1).collect();
            let Some(&hole) = squares.iter().find(|&&i| now[i] == EMPTY) else {
                continue;
            };
            for colour in [BLACK, WHITE] {
                let three = squares.iter().filter(|&&i| now[i] == colour).count() == 3;
                // The mistake: a piece of the line itself touches the hole too, but sliding
                // it in leaves its own square empty.
                if three && orthogonal(hole).iter().any(|&s| now[s] == colour) {
                    return Count::Moves(1).to_string();
                }
            }
        }
    }
    search(*board, moves)
}

fn stuck_side_passes(board: &Board) -> String {
    fn steps(now: &Cells, colour: u8, out: &mut Vec<Step>) {
        moves(now, colour, out);
        if out.is_empty() {
            // The mistake: the rules have no pass; a side that cannot move has lost the race.
            out.push((*now, other(colour), 0));
        }
    }
    search(*board, steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::fourinrow::check::check;
    use crate::fourinrow::table::{BOARDS, all_boards, table, unrank};

    fn is_wrong(mutant: fn(&Board) -> String, board: Board) -> bool {
        check(solve(board, &RULES), mutant(&board).as_bytes()).verdict != Verdict::Accepted
    }

    /// How many of every 97th board `mutant` gets wrong, and how many it gets right.
    fn sample(mutant: fn(&Board) -> String) -> (usize, usize) {
        let wrong = (0..BOARDS)
            .step_by(97)
            .filter(|&i| is_wrong(mutant, unrank(i)))
            .count();
        (wrong, BOARDS.div_ceil(97) - wrong)
    }

    #[test]
    fn stuck_last_column_is_wrong_somewhere_and_right_mostly() {
        let (wrong, right) = sample(stuck_last_column);
        assert!(wrong > 0 && right > wrong, "{wrong} wrong, {right} right");
    }

    #[test]
    fn the_search_of_the_held_apart_mutants_is_right_with_the_right_moves() {
        // Their own search, with the rules of problems.md, agrees with the reference on a
        // spread sample: each mutant's mistake is its one changed line.
        let ours = |board: &Board| search(*board, moves);
        assert_eq!(sample(ours).0, 0);
    }

    #[test]
    fn empty_into_empty_is_wrong_on_a_third_of_the_hardest_boards_and_rare_elsewhere() {
        // A wasted move pays only where a tempo matters: about 1 board in 2,200, most of
        // them among the deepest.
        let table = table();
        let hardest: Vec<Board> = all_boards().filter(|&b| table.answer(b) == 7).collect();
        let wrong = hardest
            .iter()
            .filter(|&&b| is_wrong(empty_into_empty, b))
            .count();
        assert_eq!((hardest.len(), wrong), (128, 40));
        let (wrong, right) = sample(empty_into_empty);
        assert!(wrong <= 10 && right > 4000, "{wrong} wrong, {right} right");
    }

    #[test]
    fn slide_along_line_is_wrong_on_a_real_fraction_and_right_on_every_line_one_move_away() {
        let (wrong, right) = sample(slide_along_line);
        assert!(
            wrong > 300 && right > 3 * wrong,
            "{wrong} wrong, {right} right"
        );
        let table = table();
        assert!(
            (0..BOARDS)
                .step_by(7)
                .map(unrank)
                .filter(|&b| table.answer(b) == 1)
                .all(|b| !is_wrong(slide_along_line, b))
        );
    }

    #[test]
    fn stuck_side_passes_is_wrong_where_a_side_cannot_move_on_the_way() {
        let (wrong, right) = sample(stuck_side_passes);
        assert!(
            wrong > 10 && right > 50 * wrong,
            "{wrong} wrong, {right} right"
        );
        // Never wrong on a goal or a line one move away: a pass cannot shorten those.
        let table = table();
        assert!(
            (0..BOARDS)
                .step_by(7)
                .map(unrank)
                .filter(|&b| table.answer(b) <= 1)
                .all(|b| !is_wrong(stuck_side_passes, b))
        );
    }
}
