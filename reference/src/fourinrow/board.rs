//! The fourinrow board: 7 `B`, 7 `W` and 2 empty `O` on 4x4 squares, as two masks; strictly
//! parsed; the goal lines.

use std::fmt;

use crate::text::{self, ParseError};

/// A board: bit `row * 4 + col` of `empty` set for an `O`, of `black` for a `B`; every
/// other square holds a `W`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    /// The two empty squares.
    pub empty: u16,
    /// The seven black pieces.
    pub black: u16,
}

/// A colour of pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// `B`.
    Black,
    /// `W`.
    White,
}

impl Colour {
    /// The other colour.
    #[must_use]
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

/// How many pieces of each colour a board holds.
pub const PIECES: u32 = 7;

/// The ten goal lines: four rows, four columns, the diagonal and the antidiagonal.
pub const LINES: [u16; 10] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, // rows
    0x1111, 0x2222, 0x4444, 0x8888, // columns
    0x8421, // diagonal: (0,0) (1,1) (2,2) (3,3)
    0x1248, // antidiagonal: (0,3) (1,2) (2,1) (3,0)
];

impl Board {
    /// The white pieces.
    pub fn white(self) -> u16 {
        !(self.empty | self.black)
    }

    /// The pieces of `colour`.
    pub fn pieces(self, colour: Colour) -> u16 {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white(),
        }
    }

    /// Whether some line of `lines` holds four pieces of one colour.
    pub fn has_line(self, lines: &[u16]) -> bool {
        let (black, white) = (self.black, self.white());
        lines.iter().any(|&l| black & l == l || white & l == l)
    }

    /// Whether this board is a goal (problems.md: any row, column or main diagonal).
    pub fn is_goal(self) -> bool {
        self.has_line(&LINES)
    }

    /// Parses an input strictly: exactly 4 lines of exactly 4 cells from `{B, W, O}`, with
    /// exactly 7 `B`, 7 `W` and 2 `O` (problems.md).
    pub fn parse(input: &[u8]) -> Result<Board, ParseError> {
        let mut board = Board { empty: 0, black: 0 };
        let mut counts = [0u32; 3];
        text::each_line(input, 4, |number, line| {
            // The count is judged cell by cell, so one piece too many is named where it
            // stands, before any fault to its right.
            text::check_cells(number, line, b"BWO", 4..=4, |col, cell| {
                let (slot, limit, name) = match cell {
                    b'B' => (0, PIECES, "B"),
                    b'W' => (1, PIECES, "W"),
                    _ => (2, 2, "O"),
                };
                counts[slot] += 1;
                if counts[slot] > limit {
                    return Err(ParseError::new(
                        number,
                        col + 1,
                        format!(
                            "{} `{name}`; a board holds exactly 7 `B`, 7 `W` and 2 `O`",
                            ordinal(counts[slot])
                        ),
                    ));
                }
                let bit = 1 << ((number - 1) * 4 + col);
                match cell {
                    b'B' => board.black |= bit,
                    b'O' => board.empty |= bit,
                    _ => {}
                }
                Ok(())
            })
        })?;
        // Every count is at most its limit and 16 cells were read: 7 + 7 + 2 = 16, so no
        // count can fall short.
        debug_assert_eq!(counts, [PIECES, PIECES, 2]);
        Ok(board)
    }
}

fn ordinal(n: u32) -> String {
    match n {
        3 => "a third".to_owned(),
        n => format!("an {n}th"),
    }
}

/// The clean input text: 4 lines of 4 cells, each ended by `\n`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..4 {
            for col in 0..4 {
                let bit = 1 << (row * 4 + col);
                let cell = if self.empty & bit != 0 {
                    "O"
                } else if self.black & bit != 0 {
                    "B"
                } else {
                    "W"
                };
                f.write_str(cell)?;
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
    fn the_sample_round_trips_and_is_not_a_goal() {
        let text = "BWBO\nWBWB\nBWBW\nWBWO\n";
        let board = Board::parse(text.as_bytes()).unwrap();
        assert_eq!(board.to_string(), text);
        assert!(!board.is_goal());
        assert!(Board::parse(b"BBBB\nWWWW\nBBBW\nWWOO\n").unwrap().is_goal());
        assert!(Board::parse(b"BWWO\nWBWB\nWBBW\nBWOB\n").unwrap().is_goal());
    }

    #[test]
    fn faults_are_located() {
        let err = |input: &[u8]| {
            let e = Board::parse(input).unwrap_err();
            (e.line, e.column, e.message)
        };
        let (line, column, message) = err(b"BWBO\nWBWB\nBBBW\nBBWO\n");
        assert_eq!((line, column), (4, 1));
        assert!(message.starts_with("an 8th `B`"), "{message}");
        let (line, column, message) = err(b"BWBO\nWBWB\nBWBW\nWBWW\n");
        assert_eq!((line, column), (4, 4));
        assert!(message.starts_with("an 8th `W`"), "{message}");
        let (_, column, message) = err(b"OWBO\nWBWB\nBWBW\nWBWO\n");
        assert_eq!(column, 4);
        assert!(message.starts_with("a third `O`"), "{message}");
        assert_eq!(err(b"BWBO\nWBWB\nBWXW\nWBWO\n").1, 3);
        assert_eq!(err(b"BWBO\nWBWB\n").0, 3);
        assert_eq!(err(b"bwbo\nWBWB\nBWBW\nWBWO\n").1, 1);
        // The first bad byte is named, whatever is wrong after it.
        let at = |input: &[u8]| {
            let (line, column, _) = err(input);
            (line, column)
        };
        assert_eq!(at(b"BWBO\nWBXB\n"), (2, 3));
        assert_eq!(at(b"BWBO\nWBXB\nBWBW\nWBWO"), (2, 3));
        assert_eq!(at(b"BBBB\nBBBBW\nBWBW\nWBWO\n"), (2, 4));
        assert_eq!(at(b"OOOW\n"), (1, 3));
        assert_eq!(at(b"BWBOBWBWBWBWBWBWBWBW\n"), (1, 5));
        assert_eq!(at(b"BWBO\nWBWB\nBWBW\nWBWO\nBWBO\n"), (5, 1));
    }
}
