//! `grader batch`'s work: finding the students of a class folder, building them, making
//! their runs on the worker pool with a journal to resume from, and assembling the
//! gradebook.

pub(crate) mod assemble;
pub(crate) mod class;
pub(crate) mod class_build;
pub(crate) mod compact;
pub(crate) mod doze;
pub(crate) mod gradebook_check;
pub(crate) mod journal;
pub(crate) mod lang_for;
pub(crate) mod places;
pub(crate) mod run_keys;
pub(crate) mod runs;
pub(crate) mod shard;
pub(crate) mod sleepers;
pub(crate) mod students;
