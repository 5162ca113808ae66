//! `grader package export`: a built-in problem written as a problem package in the
//! Kattis/ICPC format (docs/packages.md), which that format's tools read as they read any.

pub(crate) mod carried;
pub(crate) mod metadata;
pub(crate) mod statement;
pub(crate) mod tree;
pub(crate) mod write;
