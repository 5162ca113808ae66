//! The one mapping from a command's result to an exit status (cli.md).

use std::fmt;
use std::path::Path;
use std::process::ExitCode;

use reference::ParseError;

/// How a command that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// All good: exit 0.
    Ok,
    /// The submission or the data failed (a verdict, a finding): exit 1.
    Failed,
}

impl Status {
    /// `Failed` when `failed`, else `Ok`.
    pub(crate) fn failed_if(failed: bool) -> Status {
        if failed { Status::Failed } else { Status::Ok }
    }

    pub(crate) fn exit_code(self) -> ExitCode {
        match self {
            Status::Ok => ExitCode::SUCCESS,
            Status::Failed => ExitCode::from(1),
        }
    }
}

/// Why a command could not run to the end. A contestant's failure is never a `Fault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The call is wrong (bad flag, missing file, malformed input): exit 2.
    Usage(String),
    /// The grader is broken or the machine failed us: exit 3.
    Internal(String),
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped the command: exit 128 + its number.
    Interrupted(nix::sys::signal::Signal),
}

impl Fault {
    /// The exit status of an internal error.
    pub(crate) const INTERNAL_EXIT: i32 = 3;

    /// A usage fault located in a file: `FILE:LINE:COL: message`.
    pub(crate) fn at(path: &Path, error: &ParseError) -> Fault {
        Fault::Usage(located(path, error))
    }

    pub(crate) fn exit_code(&self) -> ExitCode {
        match self {
            Fault::Usage(_) => ExitCode::from(2),
            Fault::Internal(_) => ExitCode::from(Self::INTERNAL_EXIT as u8),
            Fault::Interrupted(signal) => ExitCode::from(128 + *signal as u8),
        }
    }
}

/// The box's refusal of a tier is the caller's to fix: exit 2, its message as it is.
impl From<sandbox::Error> for Fault {
    fn from(error: sandbox::Error) -> Fault {
        match error {
            sandbox::Error::Refused(message) => Fault::Usage(message),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Usage(message) => f.write_str(message),
            Fault::Internal(message) => write!(f, "internal error: {message}"),
            Fault::Interrupted(signal) => write!(
                f,
                "interrupted by {signal}: the runs were stopped and the temporary folders removed"
            ),
        }
    }
}

/// `FILE:LINE:COL: message`, the form editors and terminals make clickable.
pub(crate) fn located(path: &Path, error: &ParseError) -> String {
    format!(
        "{}:{}:{}: {}",
        crate::paths::spelling::path(path),
        error.line,
        error.column,
        error.message
    )
}

/// The position of byte `offset` in `text` as a 1-based line and column (in characters),
/// for a `FILE:LINE:COL` message about a file read as text.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit_once('\n')
        .map_or(before, |(_, last)| last)
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "ab\ncd\n四e";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 4), (2, 2));
        assert_eq!(line_column(text, 6), (3, 1));
        assert_eq!(line_column(text, 9), (3, 2));
        assert_eq!(line_column(text, 999), (3, 3));
    }

    #[test]
    fn located_errors_read_like_compiler_errors() {
        let error = ParseError::new(2, 3, "expected `b` or `w`, found `x`");
        assert_eq!(
            Fault::at(Path::new("board.txt"), &error).to_string(),
            "board.txt:2:3: expected `b` or `w`, found `x`"
        );
        assert_eq!(
            Fault::Internal("oops".into()).to_string(),
            "internal error: oops"
        );
    }
}
