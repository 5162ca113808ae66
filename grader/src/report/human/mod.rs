//! The human reports: what a person reads on a terminal (coloured there, plain in a pipe,
//! a file or under `NO_COLOR`), one module per kind of result.

pub(crate) mod case_table;
pub(crate) mod cases;
pub(crate) mod check;
pub(crate) mod compile_error;
pub(crate) mod explanation;
pub(crate) mod fuzz;
pub(crate) mod gradebook;
pub(crate) mod solve;
pub(crate) mod submission;
