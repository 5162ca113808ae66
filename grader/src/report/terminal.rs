//! The writers of the terminal: results on stdout, notes and errors on stderr.
//!
//! Writes ignore a closed stdout (`grader gen ... | head` must not panic), because Rust
//! ignores SIGPIPE and turns it into an `EPIPE` error on write.

use std::io::{self, Write};

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
    out_styled_bytes(text.as_bytes());
}

/// [`out_styled`] for bytes an exporter wrote.
pub(crate) fn out_styled_bytes(bytes: &[u8]) {
    let mut stdout = anstream::stdout().lock();
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
}

/// Writes one line of progress or of a finding to stderr.
pub(crate) fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The one-line error form: `grader: error: ...`.
pub(crate) fn error(message: &str) {
    note(&format!("grader: error: {message}"));
}
