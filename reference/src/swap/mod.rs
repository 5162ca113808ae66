//! `swap`: placeholder until its module lands.

use crate::puzzle::{KindDoc, Mutant};
use crate::{Judgement, ParseError, Problem, Puzzle, Rng};

/// The `swap` problem.
#[derive(Debug, Clone, Copy)]
pub struct Swap;

impl Puzzle for Swap {
    const PROBLEM: Problem = Problem::Swap;
    type Board = String;
    type Answer = String;
    type Kind = Placeholder;
    const KINDS: &'static [KindDoc] = &[];
    const MUTANTS: &'static [Mutant<String>] = &[];
    fn parse(_input: &[u8]) -> Result<String, ParseError> {
        todo!()
    }
    fn solve(_board: &String) -> String {
        todo!()
    }
    fn parse_answer(_board: &String, _text: &[u8]) -> Result<String, ParseError> {
        todo!()
    }
    fn check(_board: &String, _answer: &String, _output: &[u8]) -> Judgement {
        todo!()
    }
    fn generate(_kind: &Placeholder, _rng: &mut Rng) -> String {
        todo!()
    }
}

/// Placeholder kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder;

impl std::fmt::Display for Placeholder {
    fn fmt(&self, _f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        todo!()
    }
}

impl std::str::FromStr for Placeholder {
    type Err = String;
    fn from_str(_s: &str) -> Result<Self, String> {
        todo!()
    }
}
