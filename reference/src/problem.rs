//! The three problems by name: ids, aliases and titles. What each problem does (solve,
//! check, generate, ...) is handed to its puzzle in `dispatch.rs`; this file names them
//! and nothing more, so that every puzzle can name itself without a circle.

use std::fmt;
use std::str::FromStr;

use crate::text::ParseError;

/// One of the problems of problems.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Problem {
    /// POJ 1753 Flip Game.
    Flip,
    /// WikiOI/Codevs 1004 四子连棋.
    FourInRow,
    /// The black-and-white swap puzzle, generalised.
    Swap,
}

/// A problem name that is neither an id nor an alias.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown problem `{0}` (expected flip, fourinrow or swap; aliases: poj1753, codevs1004, wikioi1004)"
)]
pub struct UnknownProblem(pub String);

/// Which file of a check was malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The input board breaks the contract.
    #[error("input: {0}")]
    Input(ParseError),
    /// The answer file is not a well-formed answer.
    #[error("answer: {0}")]
    Answer(ParseError),
    /// The answer file is well-formed but not a correct answer.
    #[error("answer is wrong: {0}")]
    Wrong(String),
}

impl Problem {
    /// Every problem, in a fixed order.
    pub const ALL: [Problem; 3] = [Problem::Flip, Problem::FourInRow, Problem::Swap];

    /// The id used on the command line and in folder names.
    pub fn id(self) -> &'static str {
        match self {
            Problem::Flip => "flip",
            Problem::FourInRow => "fourinrow",
            Problem::Swap => "swap",
        }
    }

    /// Other names the command line accepts.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Problem::Flip => &["poj1753"],
            Problem::FourInRow => &["codevs1004", "wikioi1004"],
            Problem::Swap => &[],
        }
    }

    /// The title people know the problem by.
    pub fn title(self) -> &'static str {
        match self {
            Problem::Flip => "Flip Game (POJ 1753)",
            Problem::FourInRow => "四子连棋 (WikiOI/Codevs 1004)",
            Problem::Swap => "black-and-white swap puzzle, generalised",
        }
    }

    /// Whether outputs need a checker (many correct answers) rather than a comparison.
    pub fn needs_checker(self) -> bool {
        matches!(self, Problem::Swap)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Problem {
    type Err = UnknownProblem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Problem::ALL
            .into_iter()
            .find(|p| p.id() == s || p.aliases().contains(&s))
            .ok_or_else(|| UnknownProblem(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_resolve() {
        assert_eq!("flip".parse(), Ok(Problem::Flip));
        assert_eq!("poj1753".parse(), Ok(Problem::Flip));
        assert_eq!("codevs1004".parse(), Ok(Problem::FourInRow));
        assert_eq!("wikioi1004".parse(), Ok(Problem::FourInRow));
        assert_eq!("swap".parse(), Ok(Problem::Swap));
        assert!("Flip".parse::<Problem>().is_err());
        for p in Problem::ALL {
            assert_eq!(p.id().parse(), Ok(p));
        }
    }
}
