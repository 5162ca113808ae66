//! A package checked as a whole, as `grader package verify` does: its test data by its
//! own validators (`data_check`), then every submission against the verdict its folder
//! asks for (`verify`).

pub(crate) mod data_check;
pub(crate) mod verify;
