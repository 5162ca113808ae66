//! Differential testing: draw inputs from a seed, run a [`Candidate`] (anything that turns
//! an input into an output: a program under limits in `grader`, a mutant in tests), judge
//! its output against the reference through the problem's checker (so swap's many optimal
//! answers are all fine), and shrink the first failure to a small reproducer.
//!
//! No processes, files or printing here: `grader` implements [`Candidate`] for a program,
//! reads and writes the regressions file, and reports.
//!
//! ```
//! use fuzz::{Budget, Inputs, Mutant, search};
//! use reference::Problem;
//!
//! // The classic "forgot that all-black is a goal too" flip solution, found at once.
//! let index = Problem::Flip.mutants().iter().position(|m| m.0 == "one-colour").unwrap();
//! let mut candidates = [Mutant::new(Problem::Flip, index)];
//! let inputs = Inputs::Seeded { seed: 1 };
//! let found = search(Problem::Flip, &inputs, &mut candidates, &Budget::runs(100), &|_| {}).unwrap();
//! assert!(found.finding.is_some());
//! ```

pub mod candidate;
pub mod differ;
pub mod power;
pub mod regressions;
pub mod shrink;
pub mod targets;

pub use candidate::{Candidate, Mutant, Observed};
pub use differ::{
    Budget, Failure, Finding, Inputs, Judged, Search, Trial, draw, judge, search, search_trials,
};
pub use regressions::Regression;
pub use shrink::{ShrinkBudget, Shrunk, shrink, shrink_by_seed};
