//! The report of `grader solve`: the answer as a contestant prints it; with the
//! explanation, an empty line, its reason, and its steps drawn.

use std::io::{self, Write};

use crate::results::solved::Solved;

/// The answer, then the explanation when there is one.
pub(crate) fn answer(result: &Solved, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(result.answer.as_bytes())?;
    if let Some(explanation) = &result.explanation {
        write!(
            out,
            "\n{}\n{}",
            explanation.reason,
            explanation.witness.draw()
        )?;
    }
    Ok(())
}
