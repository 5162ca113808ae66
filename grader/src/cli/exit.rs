//! The one mapping from a command's result to an exit status (cli.md). A command that ran
//! to the end has a [`Status`] (0 or 1); one that could not has a [`Fault`], whose
//! [`Cause`] alone decides the status, in [`Cause::exit_code`]: the call, an input it
//! names, an output it would write or the machine's setup is exit 2, the grader itself
//! exit 3, a signal 128 + its number. A site says why it failed, never which status.

use std::fmt;
use std::path::Path;
use std::process::ExitCode;

use nix::sys::signal::Signal;
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
pub(crate) struct Fault {
    cause: Cause,
    /// The one line the user reads (without `internal error: `, which [`fmt::Display`]
    /// adds).
    message: String,
}

/// What a [`Fault`] is the fault of: the caller's to fix (the first four), the grader's,
/// or a signal's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The call itself: a flag's value, a missing or conflicting argument, a choice the
    /// grader does not know.
    Call,
    /// Something the call names is missing or malformed: a board, a submission, a case
    /// folder or a case, a package and its files, a class folder, a gradebook, a language
    /// table, a manifest, a regressions file.
    Input,
    /// A path the call would write is unusable (checked before any work), or a write to
    /// it failed, standard output's included.
    Output,
    /// The machine lacks what the call needs: a toolchain or an interpreter, a working box
    /// (a tier), a usable temp folder or compile cache, a limit the shell set.
    Setup,
    /// The grader is broken, or the machine failed it in a way no call can fix (too busy
    /// to judge fairly: cli.md gives both exit 3).
    Internal,
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped the command.
    Interrupted(Signal),
}

impl Cause {
    /// The exit status of a command that failed for this cause: the one place it is
    /// decided.
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Cause::Call | Cause::Input | Cause::Output | Cause::Setup => 2,
            Cause::Internal => Fault::INTERNAL_EXIT as u8,
            Cause::Interrupted(signal) => 128 + signal as u8,
        }
    }

    /// Whether the user is the one to fix it (the call, an input, an output, the setup),
    /// not the grader's fault nor a signal's: what a command that goes on past one
    /// program's fault (a package's validator that cannot be built) may note and pass.
    pub(crate) fn users_to_fix(self) -> bool {
        matches!(
            self,
            Cause::Call | Cause::Input | Cause::Output | Cause::Setup
        )
    }
}

impl Fault {
    /// The exit status of an internal error (also the panic hook's, which has no `Fault`
    /// to return).
    pub(crate) const INTERNAL_EXIT: i32 = 3;

    fn new(cause: Cause, message: impl Into<String>) -> Fault {
        Fault {
            cause,
            message: message.into(),
        }
    }

    /// The call is wrong: a flag, an argument, a choice.
    pub(crate) fn call(message: impl Into<String>) -> Fault {
        Fault::new(Cause::Call, message)
    }

    /// Something the call names is missing or malformed.
    pub(crate) fn input(message: impl Into<String>) -> Fault {
        Fault::new(Cause::Input, message)
    }

    /// A path the call would write is unusable, or a write to it failed.
    pub(crate) fn output(message: impl Into<String>) -> Fault {
        Fault::new(Cause::Output, message)
    }

    /// The machine lacks what the call needs.
    pub(crate) fn setup(message: impl Into<String>) -> Fault {
        Fault::new(Cause::Setup, message)
    }

    /// The grader is broken, or the machine failed it.
    pub(crate) fn internal(message: impl Into<String>) -> Fault {
        Fault::new(Cause::Internal, message)
    }

    /// A signal stopped the command.
    pub(crate) fn interrupted(signal: Signal) -> Fault {
        Fault::new(
            Cause::Interrupted(signal),
            format!(
                "interrupted by {signal}: the runs were stopped and the temporary folders \
                 removed"
            ),
        )
    }

    /// An input malformed at a place in a file: `FILE:LINE:COL: message`.
    pub(crate) fn at(path: &Path, error: &ParseError) -> Fault {
        Fault::input(located(path, error))
    }

    /// Why the command could not run to the end.
    pub(crate) fn cause(&self) -> Cause {
        self.cause
    }

    /// What the user is told (for an internal error, without its `internal error: `).
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The same fault, told in other words (a package's program told without the flags
    /// that choose a language, which no flag of its own chooses).
    pub(crate) fn map_message(self, map: impl FnOnce(String) -> String) -> Fault {
        Fault {
            cause: self.cause,
            message: map(self.message),
        }
    }

    /// The exit status its cause gives it ([`Cause::exit_code`]).
    pub(crate) fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.cause.exit_code())
    }
}

/// The box's refusal of a tier is the machine's setup (or the tier asked for does not
/// work here): exit 2, its message as it is.
impl From<sandbox::Error> for Fault {
    fn from(error: sandbox::Error) -> Fault {
        match error {
            sandbox::Error::Refused(message) => Fault::setup(message),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cause {
            Cause::Internal => write!(f, "internal error: {}", self.message),
            _ => f.write_str(&self.message),
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
            Fault::at(Path::new("board.txt"), &error).cause(),
            Cause::Input
        );
    }

    /// The statuses cli.md promises, one for each cause: scripts branch on them.
    #[test]
    fn each_cause_has_the_status_cli_md_gives_it() {
        for (fault, status, users) in [
            (Fault::call("--jobs -1: expected a whole number"), 2, true),
            (Fault::input("board.in: cannot read"), 2, true),
            (Fault::output("report.html: cannot write"), 2, true),
            (Fault::setup("gcc: not found"), 2, true),
            (Fault::internal("oops"), 3, false),
            (Fault::interrupted(Signal::SIGINT), 130, false),
            (Fault::interrupted(Signal::SIGHUP), 129, false),
            (Fault::interrupted(Signal::SIGTERM), 143, false),
        ] {
            assert_eq!(fault.cause().exit_code(), status, "{fault:?}");
            assert_eq!(fault.exit_code(), ExitCode::from(status), "{fault:?}");
            assert_eq!(fault.cause().users_to_fix(), users, "{fault:?}");
        }
        assert_eq!(Fault::INTERNAL_EXIT, 3);
        assert_eq!(
            Fault::from(sandbox::Error::Refused("no box here".to_owned())).cause(),
            Cause::Setup
        );
    }

    /// What the user reads is the message as given, an internal error's prefixed, a
    /// signal's in its one sentence: the same bytes whatever the cause.
    #[test]
    fn each_cause_is_told_as_it_was() {
        for (fault, told) in [
            (Fault::call("--layout weird"), "--layout weird"),
            (Fault::input("a.in:1:1: bad"), "a.in:1:1: bad"),
            (Fault::output("out: cannot write"), "out: cannot write"),
            (Fault::setup("TMPDIR /x: is full"), "TMPDIR /x: is full"),
            (Fault::internal("oops"), "internal error: oops"),
            (
                Fault::interrupted(Signal::SIGINT),
                "interrupted by SIGINT: the runs were stopped and the temporary folders removed",
            ),
            (
                Fault::from(sandbox::Error::Refused("no box".to_owned())),
                "no box",
            ),
        ] {
            assert_eq!(fault.to_string(), told);
        }
        assert_eq!(Fault::internal("oops").message(), "oops");
        let told = Fault::setup("gcc: not found, or use --cmd")
            .map_message(|m| m.replace(", or use --cmd", ""));
        assert_eq!(
            (told.cause(), told.message()),
            (Cause::Setup, "gcc: not found")
        );
    }
}
