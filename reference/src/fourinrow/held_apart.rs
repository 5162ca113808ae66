//! Wrong fourinrow solutions held apart from the fuzz mix (issue 17): each is right on
//! the easy classes and wrong on one narrow class, and was written after the mix and
//! never used to tune it, so the fuzzer's speed on it measures mistakes nobody listed.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use super::board::Board;
use super::search::{RULES, Rules, orthogonal, solve};
use crate::puzzle::Mutant;

/// The held-apart mutants.
pub const HELD_APART: &[Mutant<Board>] = &[Mutant {
    name: "stuck-last-column",
    about: "held apart: a piece in the last column never moves left (a bound off by one)",
    run: stuck_last_column,
}];

fn stuck_last_column(board: &Board) -> String {
    fn sources(e: usize) -> Vec<usize> {
        let mut out = orthogonal(e);
        out.retain(|&s| !(s % 4 == 3 && e % 4 == 2));
        out
    }
    solve(*board, &Rules { sources, ..RULES }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::fourinrow::check::check;
    use crate::fourinrow::table::{BOARDS, unrank};

    #[test]
    fn stuck_last_column_is_wrong_somewhere_and_right_mostly() {
        let (mut wrong, mut right) = (0, 0);
        for index in (0..BOARDS).step_by(97) {
            let board = unrank(index);
            if check(solve(board, &RULES), stuck_last_column(&board).as_bytes()).verdict
                == Verdict::Accepted
            {
                right += 1;
            } else {
                wrong += 1;
            }
        }
        assert!(wrong > 0 && right > wrong, "{wrong} wrong, {right} right");
    }
}
