//! Paths and the files at them: `files` (bounded reading, atomic writing, trees replaced
//! whole), `folders` (the folders a user names, opened or made in one place), `outputs`
//! (every path a call writes, checked before any work), `temp` (the grader's own temporary
//! folder) and `spelling` (how a name that is not the grader's is spelt in what it writes).

pub(crate) mod files;
pub(crate) mod folders;
pub(crate) mod outputs;
pub(crate) mod spelling;
pub(crate) mod temp;
