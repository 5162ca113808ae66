//! The box's own error: what it refuses to do, and why, in words a user can act on.
//!
//! Starting workers and running programs fail as [`std::io::Error`]s naming what failed
//! (the system's error, a folder that could not be made); this type is for what the box
//! decides itself.

use std::fmt;

/// What the box refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The tier asked for (or `auto`) cannot be had here: the machine lacks what it needs,
    /// or a worker of it failed when tried. The message says why and what to ask for
    /// instead; the caller's choice, not a fault of the box (the grader's exit status 2).
    Refused(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}
