//! `fourinrow`: placeholder until its module lands.

use crate::{Judgement, ParseError, Problem, Puzzle};

/// The `fourinrow` problem.
#[derive(Debug, Clone, Copy)]
pub struct FourInRow;

impl Puzzle for FourInRow {
    const PROBLEM: Problem = Problem::FourInRow;
    type Board = String;
    type Answer = String;
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
}
