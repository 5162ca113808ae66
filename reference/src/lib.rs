//! The three board-search problems of `grader`: parse, solve, check.
//!
//! This crate knows text and boards only: no processes, no files, no printing. The
//! pipeline, for every problem alike:
//!
//! ```text
//! board text --parse--> Board --solve--> Answer --Display--> answer text
//! contestant output --check(board, answer)--> Judgement { AC | PE | WA, why }
//! ```
//!
//! ```
//! use reference::{Problem, Verdict};
//!
//! let input = b"bwwb\nbbwb\nbwwb\nbwww\n";
//! assert_eq!(Problem::Flip.solve(input).unwrap(), "4\n");
//!
//! let judged = Problem::Flip.check(input, None, b"4\r\n").unwrap();
//! assert_eq!(judged.verdict, Verdict::Accepted);
//! let judged = Problem::Flip.check(input, None, b"5\n").unwrap();
//! assert_eq!(judged.verdict, Verdict::WrongAnswer);
//! assert_eq!(judged.message, "expected `4`, got `5`");
//! ```
//!
//! The same through the typed interface, [`Puzzle`]:
//!
//! ```
//! use reference::{Count, Puzzle, flip::Flip};
//!
//! let board = Flip::parse(b"bwwb\nbbwb\nbwwb\nbwww\n").unwrap();
//! assert_eq!(Flip::solve(&board), Count::Moves(4));
//! ```

pub mod compare;
pub mod count;
mod dispatch;
pub mod explain;
pub mod flip;
pub mod fourinrow;
pub mod problem;
pub mod puzzle;
pub mod rng;
pub mod swap;
pub mod text;
pub mod verdict;
pub mod visible;

pub use compare::Judgement;
pub use count::Count;
pub use explain::judge::Explain;
pub use explain::model::{Explanation, Witness};
pub use problem::{CheckError, Problem, UnknownProblem};
pub use puzzle::Puzzle;
pub use rng::Rng;
pub use text::ParseError;
pub use verdict::Verdict;
