//! Problem packages in the Kattis/ICPC format (docs/packages.md): the built-in problems
//! written as packages (`export`), packages read (`read`), and their submissions checked
//! against the verdicts their folders ask for (`verify`), after its data is checked by its
//! validators (`data_check`); the package's programs are built by `build`, its outputs
//! judged by `judge`; `problem` is a package where a command takes a problem's name, and
//! `trial` its part of a fuzz run.

pub(crate) mod build;
pub(crate) mod data_check;
pub(crate) mod export;
pub(crate) mod judge;
pub(crate) mod problem;
pub(crate) mod read;
pub(crate) mod trial;
pub(crate) mod verify;
