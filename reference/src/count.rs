//! The answer of `flip` and `fourinrow`: a minimum number of moves, or `Impossible`.

use std::fmt;

use crate::text::{self, ParseError};

/// A one-line answer: the minimum number of moves, or `Impossible`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Count {
    /// The goal is reached in this many moves at the least.
    Moves(u32),
    /// No sequence of moves reaches the goal.
    Impossible,
}

impl Count {
    /// The number of moves, if the goal can be reached.
    pub fn moves(self) -> Option<u32> {
        match self {
            Count::Moves(n) => Some(n),
            Count::Impossible => None,
        }
    }

    /// Parses an answer file strictly: one line, `N` or `Impossible`, ended by `\n`;
    /// counts above `max` are rejected.
    pub fn parse(text: &[u8], max: u32) -> Result<Count, ParseError> {
        let mut count = Count::Impossible;
        text::each_line(text, 1, |number, line| {
            if line != b"Impossible" {
                count = Count::Moves(text::parse_count(number, line, max)?);
            }
            Ok(())
        })?;
        Ok(count)
    }
}

/// The exact text a correct contestant prints, final newline included.
impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Moves(n) => writeln!(f, "{n}"),
            Count::Impossible => writeln!(f, "Impossible"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_as_a_contestant_prints() {
        assert_eq!(Count::Moves(4).to_string(), "4\n");
        assert_eq!(Count::Impossible.to_string(), "Impossible\n");
    }

    #[test]
    fn parses_strictly() {
        assert_eq!(Count::parse(b"4\n", 6), Ok(Count::Moves(4)));
        assert_eq!(Count::parse(b"Impossible\n", 6), Ok(Count::Impossible));
        assert!(Count::parse(b"7\n", 6).is_err());
        assert!(Count::parse(b"4", 6).is_err());
        assert!(Count::parse(b"impossible\n", 6).is_err());
        assert!(Count::parse(b"4\n\n", 6).is_err());
        // The first bad byte is named, before a missing line end or extra lines.
        let at = |text: &[u8]| {
            let e = Count::parse(text, 6).unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at(b"4x"), (1, 2));
        assert_eq!(at(b"4x\n\n\n"), (1, 2));
        assert_eq!(at(b"4"), (1, 2));
        assert_eq!(at(b"4\n5\n"), (2, 1));
    }
}
