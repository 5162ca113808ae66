//! `fourinrow`: WikiOI/Codevs 1004 四子连棋.
//!
//! A 4x4 board with 7 `B`, 7 `W` and 2 empty `O`. A move slides a piece into an adjacent
//! empty square; the colours alternate and either may move first; the goal is four of one
//! colour in a row, a column or a main diagonal (problems.md). The answer is the minimum
//! number of moves, `0` for a board that already is a goal.

pub mod board;
pub mod fuzzing;
pub mod search;
pub mod table;

pub use board::{Board, Colour};
pub mod check;
pub mod generate;
pub mod held_apart;
pub mod mutants;

pub use generate::Kind;

use crate::puzzle::{KindDoc, Mutant};
use crate::{Count, Judgement, ParseError, Problem, Puzzle, Rng};

/// The `fourinrow` problem.
#[derive(Debug, Clone, Copy)]
pub struct FourInRow;

impl Puzzle for FourInRow {
    const PROBLEM: Problem = Problem::FourInRow;
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
        search::solve(*board, &search::RULES)
    }

    fn parse_answer(_board: &Board, text: &[u8]) -> Result<Count, ParseError> {
        // Checks the form only; 64 is far above any answer (the largest is 7).
        Count::parse(text, 64)
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
