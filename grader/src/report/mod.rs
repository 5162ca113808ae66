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
mod wrong_call;

use std::io::{self, Write};
use std::process::ExitCode;

use reference::Verdict;

use crate::results::mark::Mark;

/// `text` in `style` (the ANSI codes are stripped by the writers when not wanted).
pub(crate) fn paint(style: anstyle::Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// How a verdict or mark is shown: `AC` green, `--` (not graded) yellow, any other red;
/// bold.
pub(crate) fn verdict_style(mark: impl Into<Mark>) -> anstyle::Style {
    let colour = match mark.into() {
        Mark::Graded(Verdict::Accepted) => anstyle::AnsiColor::Green,
        Mark::NotGraded => anstyle::AnsiColor::Yellow,
        Mark::Graded(_) => anstyle::AnsiColor::Red,
    };
    anstyle::Style::new().fg_color(Some(colour.into())).bold()
}

/// The JUnit status of a verdict: success for `AC`; a failure for a wrong output (`WA`,
/// `PE`); an error for everything else (limits, crashes, compile errors). Typed by the
/// verdict code, with `message` as its message.
pub(crate) fn junit_status(verdict: Verdict, message: String) -> quick_junit::TestCaseStatus {
    use quick_junit::{NonSuccessKind, TestCaseStatus};
    let kind = match verdict {
        Verdict::Accepted => return TestCaseStatus::success(),
        Verdict::WrongAnswer | Verdict::Presentation => NonSuccessKind::Failure,
        _ => NonSuccessKind::Error,
    };
    let mut status = TestCaseStatus::non_success(kind);
    status.set_type(verdict.code());
    status.set_message(message);
    status
}

/// The JUnit status of a compile error: its first error line as the message; the whole
/// compiler message, and the profile it points to, as the description. One for `test`'s
/// cases and `fuzz`'s.
pub(crate) fn junit_compile_error(
    message: &str,
    suggestion: Option<&crate::submission::diagnosis::Suggestion>,
) -> quick_junit::TestCaseStatus {
    let mut status = junit_status(
        Verdict::CompileError,
        format!(
            "compile error: {}",
            crate::submission::diagnosis::summary(message)
        ),
    );
    let advice = suggestion.map(|s| format!("\n\n{}", s.for_test()));
    status.set_description(format!("{message}{}", advice.unwrap_or_default()));
    status
}

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
        _ => {
            let command = wrong_call::command_path(std::env::args_os().skip(1));
            self::error(&wrong_call::one_line(error, &command));
            ExitCode::from(2)
        }
    }
}
