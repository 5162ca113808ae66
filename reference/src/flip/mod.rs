//! `flip`: POJ 1753 Flip Game.
//!
//! A 4x4 field of two-sided pieces, `b` or `w`. A round flips one piece and its
//! orthogonal neighbours; the goal is a field of one colour (problems.md). The answer is
//! the minimum number of rounds, `0` for a uniform field, or `Impossible`.

pub mod board;
pub mod check;
pub mod fuzzing;
pub mod generate;
pub mod held_apart;
pub mod mutants;
pub mod solve;

pub use board::Board;
pub use generate::Kind;

use crate::puzzle::{KindDoc, Mutant};
use crate::{Count, Judgement, ParseError, Problem, Puzzle, Rng};

/// The `flip` problem.
#[derive(Debug, Clone, Copy)]
pub struct Flip;

impl Puzzle for Flip {
    const PROBLEM: Problem = Problem::Flip;
    type Board = Board;
    type Answer = Count;
    type Kind = Kind;
    const KINDS: &'static [KindDoc] = generate::KINDS;
    const MUTANTS: &'static [Mutant<Board>] = mutants::MUTANTS;
    const HELD_APART: &'static [Mutant<Board>] = held_apart::HELD_APART;

    fn parse(input: &[u8]) -> Result<Board, ParseError> {
        Board::parse(input)
    }

    fn solve(board: &Board) -> Count {
        solve::by_table(*board)
    }

    fn parse_answer(_board: &Board, text: &[u8]) -> Result<Count, ParseError> {
        // 16 rounds (every piece once) bounds any minimum: pressing twice undoes a press.
        Count::parse(text, 16)
    }

    fn check(_board: &Board, answer: &Count, output: &[u8]) -> Judgement {
        check::check(*answer, output)
    }

    fn generate(kind: &Kind, rng: &mut Rng) -> Board {
        generate::generate(*kind, rng)
    }

    const FUZZ_MIX: &'static [&'static str] = fuzzing::MIX;

    fn shrink(board: &Board) -> Vec<Board> {
        fuzzing::candidates(*board)
    }

    fn size(board: &Board) -> (u64, u64) {
        fuzzing::size(*board)
    }

    fn enumerate() -> Option<Box<dyn Iterator<Item = Board>>> {
        Some(Box::new(fuzzing::enumerate()))
    }
}
