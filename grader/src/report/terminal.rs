//! The writers of the terminal: results on stdout, notes and errors on stderr.
//!
//! Every byte for stdout goes through here, and every write is checked: a write that
//! fails (a full disk under `> marks.csv`, `> /dev/full`) is the call's failure, exit 2
//! with one line, as a write to a file that fails is; a report lost and an exit 0 would
//! read as a success. The first failure is kept and said by [`finish`], which `main` calls
//! last, after the final flush; [`Exporter::print`](super::exporter::Exporter::print) also
//! says it at once. A reader that went away (`grader gen ... | head`: Rust ignores
//! SIGPIPE, so the write fails with `EPIPE`) is no failure of ours and stays quiet.

use std::io::{self, Write};
use std::sync::Mutex;

use crate::cli::exit::Fault;
use sandbox::Locked as _;

/// The first write to stdout that failed, other than to a reader that went away.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

/// The fault of a write to stdout that ended in `error`; `Ok` for a closed pipe. The
/// first such fault is also kept for [`finish`].
pub(crate) fn stdout_failed(error: &io::Error) -> Result<(), Fault> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return Ok(());
    }
    let message = format!("cannot write standard output: {error}");
    let mut failed = FAILED.locked();
    failed.get_or_insert_with(|| message.clone());
    Err(Fault::output(message))
}

/// Checks a write to stdout: see [`stdout_failed`].
fn checked(written: io::Result<()>) -> Result<(), Fault> {
    written.or_else(|e| stdout_failed(&e))
}

/// Flushes stdout for the last time; the first write to it that failed, if one did.
pub(crate) fn finish() -> Result<(), Fault> {
    checked(io::stdout().lock().flush())?;
    match FAILED.locked().take() {
        Some(message) => Err(Fault::output(message)),
        None => Ok(()),
    }
}

/// Writes `text` to stdout as is (a failure is said by [`finish`]).
pub(crate) fn out(text: &str) {
    out_bytes(text.as_bytes());
}

/// Writes `bytes` to stdout as is (a failure is said by [`finish`]).
pub(crate) fn out_bytes(bytes: &[u8]) {
    let mut stdout = io::stdout().lock();
    let _ = checked(stdout.write_all(bytes).and_then(|()| stdout.flush()));
}

/// Writes text with ANSI styles to stdout: kept on a terminal, stripped otherwise or when
/// `NO_COLOR` is set (a failure is said by [`finish`]).
pub(crate) fn out_styled(text: &str) {
    let _ = out_styled_bytes(text.as_bytes());
}

/// [`out_styled`] for bytes an exporter wrote; the fault when the write failed.
pub(crate) fn out_styled_bytes(bytes: &[u8]) -> Result<(), Fault> {
    let mut stdout = anstream::stdout().lock();
    checked(stdout.write_all(bytes).and_then(|()| stdout.flush()))
}

/// Writes one line of progress or of a finding to stderr, as one line a terminal shows
/// as it is (`spelling::one_line`): a name or an echoed byte never splits it or steers
/// the terminal.
pub(crate) fn note(line: &str) {
    let _ = writeln!(
        io::stderr().lock(),
        "{}",
        crate::paths::spelling::one_line(line)
    );
}

/// The one-line error form: `grader: error: ...`.
pub(crate) fn error(message: &str) {
    note(&format!("grader: error: {message}"));
}
