//! `grader batch`'s work: finding the students of a class folder, building them, making
//! their runs on the worker pool with a journal to resume from, and assembling the
//! gradebook.

pub(crate) mod assemble;
pub(crate) mod build;
pub(crate) mod class;
pub(crate) mod compact;
pub(crate) mod discover;
pub(crate) mod journal;
pub(crate) mod keys;
pub(crate) mod lang_for;
pub(crate) mod places;
pub(crate) mod runs;
pub(crate) mod shard;
pub(crate) mod sleepers;
pub(crate) mod validate;
