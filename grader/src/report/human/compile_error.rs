//! A `CE` in a human report, one for `test`'s report and `fuzz`'s.

use std::io::{self, Write};

use anstyle::Style;
use reference::Verdict;

use crate::report::style::{paint, verdict_style};
use crate::submission::diagnosis::Suggestion;

/// The verdict, the compiler's message escaped (the compiler echoes the student's source:
/// what a terminal would hide or obey in it is escaped), and the profile it points to.
pub(crate) fn body(
    out: &mut dyn Write,
    message: &str,
    suggestion: Option<&Suggestion>,
) -> io::Result<()> {
    let ce = Verdict::CompileError;
    writeln!(out, "\n{}", paint(verdict_style(ce), ce.code()))?;
    for line in reference::visible::escape_lines(message.as_bytes()).lines() {
        writeln!(out, "  {line}")?;
    }
    if let Some(suggestion) = suggestion {
        writeln!(
            out,
            "\n{}",
            paint(Style::new().bold(), &suggestion.for_test())
        )?;
    }
    Ok(())
}
