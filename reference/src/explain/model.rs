//! What an explanation is: a one-line reason and the reference's witness, typed so that a
//! report can draw every step, and serialised to exactly the JSON of the CLI contract:
//! `{"reason": "...", "witness": [...]}` (and `"first"` for fourinrow).

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::fourinrow::Colour;
use crate::swap::check::Replay;
use crate::{flip, fourinrow, swap};

/// Why an answer is what it is, or why a contestant's output is wrong: one line for a
/// person, and the steps that prove it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// One line: what was printed, what is right, and why.
    pub reason: String,
    /// The reference's proof: a minimum solution, or what blocks every solution.
    pub witness: Witness,
}

/// The proof behind an explanation, one shape per problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Witness {
    /// A minimum set of presses (empty when the board is solved or cannot be).
    Flip(FlipWitness),
    /// A minimum move sequence to a goal line.
    FourInRow(FourInRowWitness),
    /// A minimum sequence of rows, and the contestant's rows replayed.
    Swap(SwapWitness),
}

/// A square of a 4x4 board, 1-based: serialised as `[row, col]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// 1 (top) to 4.
    pub row: u8,
    /// 1 (left) to 4.
    pub col: u8,
}

impl Square {
    /// The square of bit `index` (`row * 4 + col`, 0-based) of a board mask.
    pub fn of_bit(index: u32) -> Square {
        Square {
            row: (index / 4 + 1) as u8,
            col: (index % 4 + 1) as u8,
        }
    }

    /// The bit index (`row * 4 + col`, 0-based) of this square.
    pub fn bit(self) -> usize {
        usize::from(self.row - 1) * 4 + usize::from(self.col - 1)
    }
}

/// `(row,col)`, as reasons name squares.
impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// flip's witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlipWitness {
    /// The board explained.
    pub start: flip::Board,
    /// The pieces to press, in reading order (the order of presses does not matter).
    pub presses: Vec<Square>,
    /// The board after each press, in order; the last is solved.
    pub boards: Vec<flip::Board>,
    /// For a board that cannot be solved: squares of which every press flips an even
    /// number, holding an odd number of `b` here and an even number on both solved boards.
    pub invariant: Option<Vec<Square>>,
}

/// One fourinrow move: a piece slides from one square to an adjacent empty one.
/// Serialised as `[[row, col], [row, col]]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    /// The square the piece leaves.
    pub from: Square,
    /// The empty square it moves into.
    pub to: Square,
}

/// fourinrow's witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FourInRowWitness {
    /// The board explained.
    pub start: fourinrow::Board,
    /// The colour that moves first; `None` when no move is needed.
    pub first: Option<Colour>,
    /// The moves, in order; colours alternate from `first`.
    pub moves: Vec<Slide>,
    /// The board after each move, in order; the last holds a line of four.
    pub boards: Vec<fourinrow::Board>,
}

/// swap's witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwapWitness {
    /// The row explained.
    pub start: swap::Row,
    /// The rows after each move of a minimum sequence; empty when the start is the goal
    /// or the goal cannot be reached.
    pub rows: Vec<swap::Row>,
    /// The contestant's rows replayed, when an output was explained and it had rows.
    pub replay: Option<Replay>,
}

impl Witness {
    /// The number of steps of the minimum solution shown (0 when none is needed or none
    /// exists).
    pub fn steps(&self) -> usize {
        match self {
            Witness::Flip(w) => w.presses.len(),
            Witness::FourInRow(w) => w.moves.len(),
            Witness::Swap(w) => w.rows.len(),
        }
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.row, self.col].serialize(serializer)
    }
}

impl Serialize for Slide {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.from, self.to].serialize(serializer)
    }
}

/// The list of the CLI contract: presses, moves or rows.
impl Serialize for Witness {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Witness::Flip(w) => w.presses.serialize(serializer),
            Witness::FourInRow(w) => w.moves.serialize(serializer),
            Witness::Swap(w) => serializer.collect_seq(w.rows.iter().map(|r| r.text())),
        }
    }
}

/// `{"reason": ..., "witness": [...]}`, with `"first": "B"|"W"` (or `null` when no move is
/// needed) for fourinrow. The boards are not serialised: they follow from the start board
/// and the witness.
impl Serialize for Explanation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("reason", &self.reason)?;
        map.serialize_entry("witness", &self.witness)?;
        if let Witness::FourInRow(w) = &self.witness {
            map.serialize_entry("first", &w.first.map(colour_letter))?;
        }
        map.end()
    }
}

/// `B` or `W`, as boards spell the colours.
pub fn colour_letter(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "B",
        Colour::White => "W",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Problem;

    fn json_of(problem: Problem, input: &str, output: &str) -> serde_json::Value {
        let why = problem
            .explain(input.as_bytes(), output.as_bytes())
            .unwrap()
            .unwrap();
        serde_json::to_value(&why).unwrap()
    }

    #[test]
    fn explanations_serialise_to_the_shape_of_the_cli_contract() {
        let flip = json_of(Problem::Flip, "bwww\nbwww\nwwww\nwwww\n", "3\n");
        assert_eq!(flip["witness"], json!([]));
        let flip = json_of(Problem::Flip, "wbww\nbbbw\nwbww\nwwww\n", "3\n");
        assert_eq!(
            flip,
            json!({"reason": "you printed 3; 1 press suffices: (2,2)", "witness": [[2, 2]]})
        );
        let four = json_of(Problem::FourInRow, "BWBO\nWBWB\nBWBW\nWBWO\n", "4\n");
        let object = four.as_object().unwrap();
        assert_eq!(
            object.keys().collect::<Vec<_>>(),
            ["first", "reason", "witness"]
        );
        assert!(["B", "W"].contains(&object["first"].as_str().unwrap()));
        let moves = object["witness"].as_array().unwrap();
        assert_eq!(moves.len(), 5);
        for step in moves {
            let [from, to] = step.as_array().unwrap().as_slice() else {
                panic!("{step}")
            };
            for square in [from, to] {
                let rc = square.as_array().unwrap();
                assert_eq!(rc.len(), 2);
                assert!(rc.iter().all(|v| (1..=4).contains(&v.as_u64().unwrap())));
            }
        }
        let solved = json_of(Problem::FourInRow, "BBBB\nWWWW\nBBBW\nWWOO\n", "1\n");
        assert_eq!(solved["first"], serde_json::Value::Null);
        assert_eq!(solved["witness"], json!([]));
        let swap = json_of(Problem::Swap, "WOB\n", "4\n");
        assert_eq!(swap["witness"], json!(["OWB", "BWO", "BOW"]));
        assert_eq!(swap.as_object().unwrap().len(), 2);
    }
}
