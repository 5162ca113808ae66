//! The shape every problem has: parse an input, solve it, read an answer, check an output.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::compare::Judgement;
use crate::problem::Problem;
use crate::text::ParseError;

/// One problem of problems.md. Implemented by a unit type per problem; [`Problem`] is the
/// value-level handle that dispatches to these.
pub trait Puzzle {
    /// Which problem this is.
    const PROBLEM: Problem;

    /// A valid input. `Display` writes the exact clean input text (final newline
    /// included), so `parse(board.to_string())` gives the board back.
    type Board: Clone + Eq + Hash + Debug + Display;

    /// A correct output. `Display` writes exactly what a correct contestant prints, final
    /// newline included.
    type Answer: Clone + Eq + Debug + Display;

    /// Validates and parses an input strictly per problems.md.
    fn parse(input: &[u8]) -> Result<Self::Board, ParseError>;

    /// The reference answer.
    fn solve(board: &Self::Board) -> Self::Answer;

    /// Parses an answer file (`.ans`) strictly; checks its form, not its truth.
    fn parse_answer(board: &Self::Board, text: &[u8]) -> Result<Self::Answer, ParseError>;

    /// Judges a contestant's `output` for `board`, given a correct `answer`.
    fn check(board: &Self::Board, answer: &Self::Answer, output: &[u8]) -> Judgement;
}
