//! The swap row: up to 21 cells of `W`, `B` and one `O`, as a length, the position of the
//! empty cell and a mask of the black pieces; strictly parsed.

use std::fmt;

use crate::text::{self, ParseError};

/// The longest row problems.md allows.
pub const MAX_LEN: usize = 21;
/// The most pieces of one colour problems.md allows.
pub const MAX_PER_COLOUR: usize = 10;

/// One cell of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A white piece (moves right).
    White,
    /// A black piece (moves left).
    Black,
    /// The empty cell.
    Empty,
}

/// A row: `len` cells, the empty one at `empty`, bit `i` of `black` set for a `B` at `i`
/// (every other cell is a `W`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Row {
    /// The number of cells, 2 to 21.
    pub len: u8,
    /// The position of the empty cell.
    pub empty: u8,
    /// Bit `i` set: a black piece at `i`.
    pub black: u32,
}

impl Row {
    /// The cell at `i` (`i < len`).
    pub fn cell(self, i: usize) -> Cell {
        if i == usize::from(self.empty) {
            Cell::Empty
        } else if self.black >> i & 1 == 1 {
            Cell::Black
        } else {
            Cell::White
        }
    }

    /// The number of black pieces.
    pub fn blacks(self) -> usize {
        self.black.count_ones() as usize
    }

    /// The number of white pieces.
    pub fn whites(self) -> usize {
        usize::from(self.len) - 1 - self.blacks()
    }

    /// The goal row with the same pieces: `B...BOW...W`.
    #[must_use]
    pub fn goal(self) -> Row {
        let blacks = self.blacks();
        Row {
            len: self.len,
            empty: blacks as u8,
            black: (1u32 << blacks) - 1,
        }
    }

    /// Whether this row is the goal.
    pub fn is_goal(self) -> bool {
        self == self.goal()
    }

    /// Builds a row from cells (any length up to 32; the caller keeps the contract).
    pub fn from_cells(cells: &[Cell]) -> Row {
        let mut row = Row {
            len: cells.len() as u8,
            empty: 0,
            black: 0,
        };
        for (i, cell) in cells.iter().enumerate() {
            match cell {
                Cell::Black => row.black |= 1 << i,
                Cell::Empty => row.empty = i as u8,
                Cell::White => {}
            }
        }
        row
    }

    /// The row's text without a line end.
    pub fn text(self) -> String {
        (0..usize::from(self.len))
            .map(|i| match self.cell(i) {
                Cell::White => 'W',
                Cell::Black => 'B',
                Cell::Empty => 'O',
            })
            .collect()
    }

    /// Parses one row of cells, as in an input or an answer line (`number` is its line).
    /// Checks the cells, the length range and a single `O`; not the colour counts.
    pub fn parse_line(
        number: usize,
        line: &[u8],
        len: std::ops::RangeInclusive<usize>,
    ) -> Result<Row, ParseError> {
        Row::parse_cells(number, line, len, None)
    }

    /// Parses an input strictly: one line of 2 to 21 cells from `{W, B, O}`, exactly one
    /// `O`, at most 10 `W` and 10 `B`, ended by `\n` (problems.md).
    pub fn parse(input: &[u8]) -> Result<Row, ParseError> {
        let mut row = None;
        text::each_line(input, 1, |number, line| {
            row = Some(Row::parse_cells(
                number,
                line,
                2..=MAX_LEN,
                Some(MAX_PER_COLOUR),
            )?);
            Ok(())
        })?;
        // `each_line` hands over its one line before it returns `Ok`.
        row.ok_or_else(|| ParseError::new(1, 1, "expected a row, found none"))
    }

    /// The one pass over a row's cells: every rule (the cells, the length, one `O`, at
    /// most `per_colour` pieces of a colour) judged cell by cell, so the first bad byte
    /// is the one named.
    fn parse_cells(
        number: usize,
        line: &[u8],
        len: std::ops::RangeInclusive<usize>,
        per_colour: Option<usize>,
    ) -> Result<Row, ParseError> {
        let mut empty = None;
        let mut black = 0u32;
        let (mut whites, mut blacks) = (0, 0);
        text::check_cells(number, line, b"WBO", len, |i, b| {
            let seen = match b {
                b'O' if empty.is_some() => {
                    return Err(ParseError::new(
                        number,
                        i + 1,
                        "a second `O`; a row holds exactly one empty cell",
                    ));
                }
                b'O' => {
                    empty = Some(i as u8);
                    return Ok(());
                }
                b'B' => {
                    black |= 1 << i;
                    blacks += 1;
                    (blacks, "B")
                }
                _ => {
                    whites += 1;
                    (whites, "W")
                }
            };
            match (seen, per_colour) {
                ((n, name), Some(max)) if n > max => Err(ParseError::new(
                    number,
                    i + 1,
                    format!(
                        "an {}th `{name}`; a row holds at most {max} pieces of each colour",
                        max + 1
                    ),
                )),
                _ => Ok(()),
            }
        })?;
        let Some(empty) = empty else {
            return Err(ParseError::new(
                number,
                line.len() + 1,
                "expected one `O` (the empty cell) in the row, found none",
            ));
        };
        Ok(Row {
            len: line.len() as u8,
            empty,
            black,
        })
    }
}

/// The clean input text: the row and `\n`.
impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_know_their_goal() {
        let row = Row::parse(b"WWWOBBB\n").unwrap();
        assert_eq!(row.to_string(), "WWWOBBB\n");
        assert_eq!((row.whites(), row.blacks()), (3, 3));
        assert_eq!(row.goal().text(), "BBBOWWW");
        assert!(Row::parse(b"BOW\n").unwrap().is_goal());
        assert!(Row::parse(b"OWW\n").unwrap().goal().is_goal());
        assert_eq!(Row::parse(b"OWW\n").unwrap().goal().text(), "OWW");
    }

    #[test]
    fn faults_are_located() {
        let err = |input: &[u8]| {
            let e = Row::parse(input).unwrap_err();
            (e.line, e.column, e.message)
        };
        assert_eq!(err(b"WWOOB\n").1, 4);
        assert!(err(b"WWOOB\n").2.contains("second `O`"));
        assert_eq!(err(b"WWWB\n").1, 5);
        assert_eq!(err(b"WWxOB\n").1, 3);
        assert_eq!(err(b"O\n").1, 2);
        assert_eq!(err(b"WWWWWWWWWWWOB\n").1, 11);
        assert!(err(b"WWWWWWWWWWWOB\n").2.contains("11th `W`"));
        // The 11th `B` (column 13) comes before the 22nd cell.
        assert_eq!(err(b"WOBBBBBBBBBBBWWWWWWWWW\n").1, 13);
        assert_eq!(err(b"WOB\nWOB\n").0, 2);
        assert_eq!(err(b"WOB").1, 4);
        assert_eq!(err(b"").0, 1);
        // The first bad byte is named, whatever is wrong after it.
        let at = |input: &[u8]| {
            let (line, column, _) = err(input);
            (line, column)
        };
        assert_eq!(at(b"WWWWWWWWWWWOBO\n"), (1, 11));
        assert_eq!(at(b"WOBBBBBBBBBBBO\n"), (1, 13));
        assert_eq!(at(b"WxOO"), (1, 2));
        assert_eq!(at(b"WOB\r\n"), (1, 4));
        assert_eq!(at(b"WOBWBWBWBWBWBWBWBWBWBWBWBWBWBWBWBWBWB"), (1, 22));
        assert_eq!(at(b"WOB\nx\n"), (2, 1));
    }
}
