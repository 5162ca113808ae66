//! The command line, from the words a user typed to the status the grader exits with:
//! `args` (clap's types, the only module that knows clap), `values` (how limits and counts
//! are spelt on it), `interrupt` (the signals that end a command cleanly) and `exit` (a
//! command's result as an exit status). What each command does is `commands/`.

pub(crate) mod args;
pub(crate) mod exit;
pub(crate) mod interrupt;
pub(crate) mod values;
