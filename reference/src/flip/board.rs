//! The flip board: 16 two-sided pieces as the bits of a `u16`, strictly parsed.

use std::fmt;

use crate::text::{self, ParseError};

/// A 4x4 field: bit `row * 4 + col` is set when that piece shows `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board(pub u16);

impl Board {
    /// All sixteen pieces `w`.
    pub const ALL_WHITE: Board = Board(0);
    /// All sixteen pieces `b`.
    pub const ALL_BLACK: Board = Board(0xFFFF);

    /// Parses an input strictly: exactly 4 lines of exactly 4 cells from `{b, w}`, each
    /// ended by `\n` (problems.md).
    pub fn parse(input: &[u8]) -> Result<Board, ParseError> {
        let mut bits = 0u16;
        text::each_line(input, 4, |number, line| {
            text::check_cells(number, line, b"bw", 4..=4, |col, cell| {
                if cell == b'b' {
                    bits |= 1 << ((number - 1) * 4 + col);
                }
                Ok(())
            })
        })?;
        Ok(Board(bits))
    }

    /// Whether every piece shows the same colour.
    pub fn is_goal(self) -> bool {
        self == Board::ALL_WHITE || self == Board::ALL_BLACK
    }
}

/// The clean input text: 4 lines of 4 cells, each ended by `\n`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..4 {
            for col in 0..4 {
                let black = self.0 >> (row * 4 + col) & 1 == 1;
                f.write_str(if black { "b" } else { "w" })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_round_trips_through_its_text() {
        for bits in 0..=u16::MAX {
            let board = Board(bits);
            assert_eq!(Board::parse(board.to_string().as_bytes()), Ok(board));
        }
    }

    #[test]
    fn faults_are_located() {
        let err = |input: &[u8]| {
            let e = Board::parse(input).unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(err(b"bwwb\nbbxb\nbwwb\nbwww\n"), (2, 3));
        assert_eq!(err(b"bwwb\nbbwbb\nbwwb\nbwww\n"), (2, 5));
        assert_eq!(err(b"bwwb\nbbw\nbwwb\nbwww\n"), (2, 4));
        assert_eq!(err(b"bwwb\nbbwb\nbwwb\n"), (4, 1));
        assert_eq!(err(b"bwwb\nbbwb\nbwwb\nbwww\nbwww\n"), (5, 1));
        assert_eq!(err(b"bwwb\nbbwb\nbwwb\nbwww"), (4, 5));
        assert_eq!(err(b"BWWB\nbbwb\nbwwb\nbwww\n"), (1, 1));
        assert_eq!(err(b""), (1, 1));
        assert_eq!(err(b"bwwb\r\nbbwb\nbwwb\nbwww\n"), (1, 5));
        // The first bad byte is named, whatever is wrong after it.
        assert_eq!(err(b"bwwb\nbbxb\nbwwb\n"), (2, 3));
        assert_eq!(err(b"bwwb\nbbxb\nbwwb\nbwww"), (2, 3));
        assert_eq!(err(b"bwwb\nbbxb\nbwwb\nbwww\nbwww\n"), (2, 3));
        assert_eq!(err(b"bwwb\nbbwb\nbwwb\nbwwx"), (4, 4));
        assert_eq!(
            err(b"bwwbwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"),
            (1, 5)
        );
        assert_eq!(err(b"bwwbbbbbbbbbbbbb\n"), (1, 5));
        assert_eq!(err(b"bwwb\nbbwb\nbwwb\nbwwwb"), (4, 5));
        assert_eq!(err(b"bw\nbbwb\nbw"), (1, 3));
    }

    #[test]
    fn garbage_never_panics() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    [b'b', b'w', b'\n', b'x', 0xff][(state % 5) as usize]
                })
                .collect();
            let _ = Board::parse(&bytes);
        }
    }
}
