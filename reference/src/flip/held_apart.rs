//! Wrong flip solutions held apart from the fuzz mix (issue 17): each is right on the
//! easy classes and wrong on one narrow class, and was written after the mix and never
//! used to tune it, so the fuzzer's speed on it measures mistakes nobody listed.
#![expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "`Mutant::run` takes every problem's board by reference"
)]

use std::sync::OnceLock;

use super::board::Board;
use super::solve::{PRESSES, UNREACHABLE, distances};
use crate::Count;
use crate::puzzle::Mutant;

/// The held-apart mutants.
pub const HELD_APART: &[Mutant<Board>] = &[Mutant {
    name: "no-last-corner",
    about: "held apart: never presses the bottom-right piece (a loop bound off by one)",
    run: no_last_corner,
}];

fn no_last_corner(board: &Board) -> String {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut masks = PRESSES;
        // Pressing the last piece does nothing: the loop over presses stops one short.
        masks[15] = 0;
        distances(&masks, &[Board::ALL_WHITE.0, Board::ALL_BLACK.0])
    });
    match table[board.0 as usize] {
        UNREACHABLE => Count::Impossible,
        d => Count::Moves(u32::from(d)),
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use crate::flip::check::check;
    use crate::flip::solve::by_table;

    #[test]
    fn no_last_corner_is_wrong_on_a_narrow_class_only() {
        let wrong = (0..=u16::MAX)
            .map(Board)
            .filter(|b| {
                check(by_table(*b), no_last_corner(b).as_bytes()).verdict != Verdict::Accepted
            })
            .count();
        // Wrong somewhere, right on almost every board.
        assert!(wrong > 0 && wrong < 65_536 / 10, "{wrong}");
    }
}
