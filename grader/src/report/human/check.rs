//! The report of `grader check`: the verdict, and why when it is not `AC`.

use std::io::{self, Write};

use crate::results::check::CheckResult;

/// `AC`, or `WA: why`.
pub(crate) fn verdict(result: &CheckResult, out: &mut dyn Write) -> io::Result<()> {
    let judgement = &result.judgement;
    if judgement.message.is_empty() {
        writeln!(out, "{}", judgement.verdict.code())
    } else {
        writeln!(out, "{}: {}", judgement.verdict.code(), judgement.message)
    }
}
