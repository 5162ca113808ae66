//! The shape every problem has: parse an input, solve it, read an answer, check an output;
//! draw inputs of a chosen kind; and the classic wrong solutions, as mutants.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::compare::Judgement;
use crate::problem::Problem;
use crate::rng::Rng;
use crate::text::ParseError;

/// One problem of problems.md. Implemented by a unit type per problem; [`Problem`] is the
/// value-level handle that dispatches to these.
pub trait Puzzle {
    /// Which problem this is.
    const PROBLEM: Problem;

    /// A valid input. `Display` writes the exact clean input text (final newline
    /// included), so `parse(board.to_string())` gives the board back.
    type Board: Clone + Eq + Hash + Debug + Display + 'static;

    /// A correct output. `Display` writes exactly what a correct contestant prints, final
    /// newline included.
    type Answer: Clone + Eq + Debug + Display;

    /// A way of drawing inputs. `Display` and `FromStr` use the command-line spelling
    /// (`random`, `answer=4`); `FromStr` explains what it expected on failure.
    type Kind: Clone + Eq + Debug + Display + FromStr<Err = String>;

    /// Every kind of [`Self::Kind`], for `--help` and manifests.
    const KINDS: &'static [KindDoc];

    /// The classic wrong solutions of this problem.
    const MUTANTS: &'static [Mutant<Self::Board>];

    /// Wrong solutions held apart from the fuzz mix: written after it and never used to
    /// tune it, so how fast the fuzzer finds them measures mistakes nobody listed.
    const HELD_APART: &'static [Mutant<Self::Board>];

    /// Validates and parses an input strictly per problems.md.
    fn parse(input: &[u8]) -> Result<Self::Board, ParseError>;

    /// The reference answer.
    fn solve(board: &Self::Board) -> Self::Answer;

    /// Parses an answer file (`.ans`) strictly; checks its form, not its truth.
    fn parse_answer(board: &Self::Board, text: &[u8]) -> Result<Self::Answer, ParseError>;

    /// Judges a contestant's `output` for `board`, given a correct `answer`.
    fn check(board: &Self::Board, answer: &Self::Answer, output: &[u8]) -> Judgement;

    /// Draws one input of `kind` from `rng`. Deterministic: the same stream gives the same
    /// board on every platform.
    fn generate(kind: &Self::Kind, rng: &mut Rng) -> Self::Board;

    /// The kinds (spelled as on the command line) a fuzzer cycles through, the rare
    /// classes first, so that they come up early rather than at their natural rate.
    const FUZZ_MIX: &'static [&'static str];

    /// Simpler neighbours of a board, for shrinking a failing input (not all of them are
    /// smaller: the shrinker keeps those that are, by [`Puzzle::size`]).
    fn shrink(board: &Self::Board) -> Vec<Self::Board>;

    /// How big a failing input is; smaller is simpler (for flip and fourinrow the answer
    /// comes first, so a shrunk failure has the smallest answer the shrinker saw).
    fn size(board: &Self::Board) -> (u64, u64);

    /// Every valid board, when the space is small enough to run a program on each.
    fn enumerate() -> Option<Box<dyn Iterator<Item = Self::Board>>>;
}

/// One kind of generated input, as documented to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindDoc {
    /// The spelling on the command line; a parameter is shown as `name=N`.
    pub name: &'static str,
    /// One line: what the kind draws and what wrong solutions it catches.
    pub about: &'static str,
}

impl KindDoc {
    /// The error for a kind spelling that is none of `kinds`, listing them.
    pub fn unknown(problem: Problem, spelling: &str, kinds: &[KindDoc]) -> String {
        let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
        format!(
            "unknown {problem} kind `{spelling}` (expected one of: {})",
            names.join(", ")
        )
    }
}

/// Mutant number `index` of `P`: its classic mutants first, then its held-apart ones.
pub(crate) fn mutant<P: Puzzle>(index: usize) -> Option<&'static Mutant<P::Board>> {
    match index.checked_sub(P::MUTANTS.len()) {
        None => P::MUTANTS.get(index),
        Some(held) => P::HELD_APART.get(held),
    }
}

/// A classic wrong solution, written as a small change to the reference.
#[derive(Debug)]
pub struct Mutant<B: 'static> {
    /// A short kebab-case name (`no-impossible`).
    pub name: &'static str,
    /// One line: the mistake it makes.
    pub about: &'static str,
    /// Its output for a board, as the wrong program would print it.
    pub run: fn(&B) -> String,
}
