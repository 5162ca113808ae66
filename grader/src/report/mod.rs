//! The only code that writes to the terminal: results on stdout, errors on stderr.
//!
//! Writes ignore a closed stdout (`grader gen ... | head` must not panic), because Rust
//! ignores SIGPIPE and turns it into an `EPIPE` error on write.

pub(crate) mod fuzz;
pub(crate) mod gradebook;
pub(crate) mod html;
pub(crate) mod progress;
pub(crate) mod tables;
pub(crate) mod verdicts;

use std::io::{self, Write};
use std::process::ExitCode;

/// Writes `text` to stdout as is.
pub(crate) fn out(text: &str) {
    out_bytes(text.as_bytes());
}

/// Writes `bytes` to stdout as is.
pub(crate) fn out_bytes(bytes: &[u8]) {
    let mut stdout = io::stdout().lock();
    // A reader that went away (a closed pipe) is not an error of ours.
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
}

/// Writes text with ANSI styles to stdout: kept on a terminal, stripped otherwise or when
/// `NO_COLOR` is set.
pub(crate) fn out_styled(text: &str) {
    let mut stdout = anstream::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// `text` without ANSI styles (for files).
pub(crate) fn plain(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}

/// Writes one line of progress or of a finding to stderr.
pub(crate) fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The one-line error form: `grader: error: ...`.
pub(crate) fn error(message: &str) {
    note(&format!("grader: error: {message}"));
}

/// Prints what clap has to say: help and version to stdout (exit 0), a wrong call as one
/// line on stderr with a pointer to `--help` (exit 2).
pub(crate) fn clap_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            out(&error.render().to_string());
            ExitCode::SUCCESS
        }
        // `grader` alone: the help is the most useful answer, but the call was incomplete.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            note(error.render().to_string().trim_end());
            ExitCode::from(2)
        }
        _ => {
            let rendered = error.render().to_string();
            let first = rendered
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            error_line(first);
            ExitCode::from(2)
        }
    }
}

fn error_line(message: &str) {
    error(&format!("{message} (see `grader --help`)"));
}
