//! `swap`: the black-and-white swap puzzle, generalised.
//!
//! A row of `W`, `B` and one empty `O`; `W` moves right, `B` left, by a step or a jump over
//! one piece of the other colour; the goal is `B...BOW...W` (problems.md). The answer is
//! `Impossible` or a minimum sequence of rows; any minimum sequence is correct, so this
//! problem has a checker.

pub mod board;
pub mod check;
pub mod fuzzing;
pub mod generate;
pub mod held_apart;
pub mod moves;
pub mod mutants;
pub mod solve;
pub mod traps;

pub use board::Row;
pub use generate::Kind;
pub use solve::Answer;

use crate::puzzle::{KindDoc, Mutant};
use crate::{Judgement, ParseError, Problem, Puzzle, Rng};

/// The `swap` problem.
#[derive(Debug, Clone, Copy)]
pub struct Swap;

impl Puzzle for Swap {
    const PROBLEM: Problem = Problem::Swap;
    type Board = Row;
    type Answer = Answer;
    type Kind = Kind;
    const KINDS: &'static [KindDoc] = generate::KINDS;
    const MUTANTS: &'static [Mutant<Row>] = mutants::MUTANTS;
    const HELD_APART: &'static [Mutant<Row>] = held_apart::HELD_APART;

    fn parse(input: &[u8]) -> Result<Row, ParseError> {
        Row::parse(input)
    }

    fn solve(row: &Row) -> Answer {
        solve::by_counting(*row)
    }

    fn parse_answer(row: &Row, text: &[u8]) -> Result<Answer, ParseError> {
        check::parse_answer(*row, text)
    }

    fn check(row: &Row, answer: &Answer, output: &[u8]) -> Judgement {
        check::check(*row, answer, output)
    }

    fn generate(kind: &Kind, rng: &mut Rng) -> Row {
        generate::generate(*kind, rng)
    }

    const FUZZ_MIX: &'static [&'static str] = fuzzing::MIX;

    fn shrink(board: &Row) -> Vec<Row> {
        fuzzing::candidates(*board)
    }

    fn size(board: &Row) -> (u64, u64) {
        fuzzing::size(*board)
    }

    fn enumerate() -> Option<Box<dyn Iterator<Item = Row>>> {
        None
    }
}
