//! The shape every problem has: parse an input, solve it, read an answer, check an output;
//! draw inputs of a chosen kind, and the fuzz mix of kinds with their shares; and the
//! classic wrong solutions, as mutants.

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
    /// Whether `spelling` (`answer=4`, `colour=b`) is drawn by this kind: the same name, or
    /// the same stem when this kind's parameter is a placeholder (`answer=N`,
    /// `solved=LINE-C`).
    pub fn covers(&self, spelling: &str) -> bool {
        match self.name.split_once('=') {
            Some((stem, parameter))
                if parameter
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b == b'-') =>
            {
                spelling.split_once('=').is_some_and(|(s, _)| s == stem)
            }
            _ => self.name == spelling,
        }
    }

    /// The error for a kind spelling that is none of `kinds`, listing them.
    pub fn unknown(problem: Problem, spelling: &str, kinds: &[KindDoc]) -> String {
        let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
        format!(
            "unknown {problem} kind `{spelling}` (expected one of: {})",
            names.join(", ")
        )
    }
}

/// One row of a problem's fuzz mix, the one table of what the fuzzer draws (issue 24): a
/// kind, spelled as on the command line (`answer=2`), and its weight. The kind's share of
/// the runs is its weight over the table's total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// The kind, as `grader gen --kind` spells it.
    pub kind: &'static str,
    /// Its runs in each cycle of [`schedule`] (at least 1).
    pub weight: u32,
}

impl Share {
    /// A row of a mix table.
    pub const fn new(kind: &'static str, weight: u32) -> Share {
        Share { kind, weight }
    }
}

/// The most rows a mix table may have (a bound for [`schedule`], which runs at compile time).
pub const MAX_MIX_ROWS: usize = 64;

/// The runs in one cycle of `mix`: its total weight.
pub const fn cycle_len(mix: &[Share]) -> usize {
    let mut total = 0;
    let mut j = 0;
    while j < mix.len() {
        total += mix[j].weight as usize;
        j += 1;
    }
    total
}

/// One cycle of `mix`, the kinds of its runs in order: each row as many times as its weight,
/// spread evenly, the table's order deciding who comes first. Copy `i` of row `j` (of `K`
/// rows) is due at `(i + j / K) / weight` of the cycle; runs go by due time, ties to the
/// earlier row. So a table of weights 1 is drawn in its own order, and a row of weight `w`
/// comes back every `1/w` of the cycle rather than after every other row. Evaluated at
/// compile time (a mix that does not fit `N` runs, or has a row of weight 0, does not build).
pub const fn schedule<const N: usize>(mix: &[Share]) -> [&'static str; N] {
    assert!(mix.len() <= MAX_MIX_ROWS, "too many rows in a fuzz mix");
    assert!(cycle_len(mix) == N, "a cycle holds the mix's total weight");
    let rows = mix.len() as u64;
    let mut used = [0u32; MAX_MIX_ROWS];
    let mut cycle = [""; N];
    let mut run = 0;
    while run < N {
        // The row whose next copy is due first: (used * K + j) / (weight * K), compared
        // across rows without division.
        let mut best = usize::MAX;
        let mut j = 0;
        while j < mix.len() {
            assert!(mix[j].weight > 0, "every row of a fuzz mix has a weight");
            if used[j] < mix[j].weight {
                if best == usize::MAX {
                    best = j;
                } else {
                    let due = (used[j] as u64 * rows + j as u64) * (mix[best].weight as u64);
                    let due_best =
                        (used[best] as u64 * rows + best as u64) * (mix[j].weight as u64);
                    if due < due_best {
                        best = j;
                    }
                }
            }
            j += 1;
        }
        cycle[run] = mix[best].kind;
        used[best] += 1;
        run += 1;
    }
    cycle
}

/// The least share of the fuzz runs every documented kind of a problem with `kinds` kinds
/// keeps, whatever kinds are added: half of an even split, `1 / (2 * kinds)`, as a
/// fraction `(numerator, denominator)`. Tested for every problem's table.
pub const fn floor(kinds: usize) -> (u64, u64) {
    (1, 2 * kinds as u64)
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

/// Panics unless `cycle` holds every row of `shares` exactly as often as its weight, each
/// kind in one row only: the check each problem's mix table is tested with.
#[cfg(test)]
pub(crate) fn assert_cycle_holds(shares: &[Share], cycle: &[&str]) {
    assert_eq!(cycle.len(), cycle_len(shares));
    for (j, row) in shares.iter().enumerate() {
        assert!(
            shares[..j].iter().all(|r| r.kind != row.kind),
            "{} has two rows",
            row.kind
        );
        let runs = cycle.iter().filter(|k| **k == row.kind).count();
        assert_eq!(runs, row.weight as usize, "{}", row.kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVEN: &[Share] = &[Share::new("a", 1), Share::new("b", 1), Share::new("c", 1)];
    const HEAVY: &[Share] = &[
        Share::new("a", 1),
        Share::new("b", 3),
        Share::new("c", 1),
        Share::new("d", 1),
    ];

    #[test]
    fn a_table_of_single_weights_is_drawn_in_its_own_order() {
        const CYCLE: [&str; 3] = schedule(EVEN);
        assert_eq!(CYCLE, ["a", "b", "c"]);
        assert_eq!(cycle_len(EVEN), 3);
    }

    #[test]
    fn a_heavy_row_comes_back_evenly_rather_than_after_every_other_row() {
        const CYCLE: [&str; 6] = schedule(HEAVY);
        assert_eq!(cycle_len(HEAVY), 6);
        // b is due at 1/12, 5/12 and 9/12 of the cycle; a, c and d at 0, 2/4 and 3/4.
        assert_eq!(CYCLE, ["a", "b", "b", "c", "b", "d"]);
        assert_cycle_holds(HEAVY, &CYCLE);
    }

    #[test]
    fn the_floor_is_half_an_even_split() {
        assert_eq!(floor(7), (1, 14));
        assert_eq!(floor(11), (1, 22));
    }
}
