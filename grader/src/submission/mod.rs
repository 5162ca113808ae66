//! Submissions: an executable, a source file compiled or interpreted by its extension (or
//! `--lang`), or a `--cmd` line; turned into a [`Program`] staged where an unprivileged
//! user can run it, or a compile error.
//!
//! `program.rs` says what a submission is and becomes, `build.rs` makes it (`folder.rs`
//! reads a program given as a folder, `added.rs` adds a package's included files), `setup.rs`
//! checks its toolchain first, `staging.rs` holds its files, `lookup.rs` finds programs
//! (and where they really are, through what `sandbox::trace` sees them start), and
//! `compile.rs` compiles with its cache (`cache_sweep.rs` clears what killed graders left
//! in it, `precompiled.rs` keeps a header most sources include compiled once).

pub(crate) mod added;
mod build;
pub(crate) mod cache_entry;
mod cache_sweep;
pub(crate) mod compile;
pub(crate) mod compiler;
pub(crate) mod diagnosis;
pub(crate) mod folder;
pub(crate) mod languages;
mod lookup;
mod main_class;
pub(crate) mod naming;
mod precompiled;
mod program;
mod setup;
mod staging;

pub(crate) use build::{Foreseen, build_one};
pub(crate) use languages::without_flag_advice;
pub(crate) use lookup::PATH;
pub(crate) use precompiled::HeaderUse;
pub(crate) use program::{Built, Options, Program, Submission, WorkingFolder};
pub(crate) use setup::check_toolchain;
