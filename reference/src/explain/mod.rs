//! Explanations: why an answer is what it is, and why a contestant's output is wrong, with
//! the reference's witness (a minimum solution, or what blocks every solution) for people
//! and reports.
//!
//! ```
//! use reference::Problem;
//!
//! let input = b"bwwb\nbbwb\nbwwb\nbwww\n";
//! let why = Problem::Flip.explain(input, b"5\n").unwrap().unwrap();
//! assert!(why.reason.starts_with("you printed 5; 4 presses suffice: "));
//! assert_eq!(why.witness.steps(), 4);
//! assert_eq!(Problem::Flip.explain(input, b"4\n").unwrap(), None);
//! ```

pub mod count;
pub mod draw;
pub mod flip;
pub mod fourinrow;
pub mod judge;
pub mod model;
pub mod swap;
