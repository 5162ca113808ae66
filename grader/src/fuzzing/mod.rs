//! The fuzzing work around a search (which the `fuzz` crate does): the regressions file
//! (`regressions_file.rs`), shrinking a finding (`shrink.rs`), saving it as a case
//! (`save.rs`), and the command that replays it (`replay.rs`, quoted by `shell_quote.rs`); the program under test as the `fuzz` crate's
//! candidate (`under_test.rs`).
//! `commands/fuzz.rs` reads the arguments and wires these together; `mix.rs` prints every
//! problem's fuzz mix for `grader fuzz --help`.

pub(crate) mod mix;
pub(crate) mod regressions_file;
pub(crate) mod replay;
pub(crate) mod save;
mod shell_quote;
pub(crate) mod shrink;
pub(crate) mod under_test;
