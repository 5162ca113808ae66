//! Problem packages in the Kattis/ICPC format (docs/packages.md), in three layers that
//! point one way:
//!
//! - `format`: reading a package, purely (files in, values out, nothing run):
//!   `problem.yaml`, the test data, the submissions and what their folders expect, the
//!   default output validator and the scoring rules;
//! - `programs`: the package's programs, which run in the box: its submissions built, its
//!   input and output validators, the judge of an output, its part of a fuzz run;
//! - `checks`: a package checked as a whole (`package verify`): its data by its
//!   validators, then its submissions against their folders' verdicts.
//!
//! `as_problem` is a package where a command takes a problem's name (`test`, `batch`);
//! `export` writes a built-in problem as a package.

pub(crate) mod as_problem;
pub(crate) mod checks;
pub(crate) mod export;
pub(crate) mod format;
pub(crate) mod programs;
