//! One file per subcommand: each turns parsed arguments into domain calls and a
//! [`Status`](crate::cli::exit::Status). `dispatch.rs` picks the subcommand; `flags.rs` reads
//! the flags several of them share; `graded.rs` reads the problem or package `test` and
//! `batch` grade against.

mod batch;
mod cases;
mod check;
mod dispatch;
mod doctor;
mod flags;
mod fuzz;
mod fuzz_package;
mod generate;
mod graded;
mod merge;
mod mutant;
mod package;
mod problems;
mod solve;
mod test;
mod validate;

pub(crate) use dispatch::run;
