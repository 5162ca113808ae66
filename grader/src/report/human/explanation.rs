//! A wrong answer's explanation for a person: `why: REASON`, then the reference's steps
//! drawn as small grids (a minimum solution; for `swap`, the contestant's rows beside a
//! minimum sequence when the output at hand is the one explained).

use std::io::{self, Write};

use anstyle::Style;
use reference::Problem;

use crate::report::style::paint;
use crate::results::case::Explained;

/// How wide the drawn steps are at most, with their indent: a terminal of 100 columns.
const COLUMNS: usize = 100;

/// The indent of the drawn steps under a case.
const INDENT: &str = "    ";

/// Writes `explained` (the stored reason of `output` for `input`) and the steps drawn.
pub(crate) fn write(
    out: &mut dyn Write,
    problem: Problem,
    input: &str,
    output: &[u8],
    explained: &Explained,
) -> io::Result<()> {
    writeln!(
        out,
        "  {} {}",
        paint(Style::new().bold(), "why:"),
        explained.reason
    )?;
    let Some(drawing) = drawing(problem, input, output, &explained.reason) else {
        return Ok(());
    };
    for line in drawing.lines() {
        if line.is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "{INDENT}{line}")?;
        }
    }
    Ok(())
}

/// The steps of the explanation whose reason is `reason`, drawn: asked of the reference
/// again from the input (the stored witness has no boards). The output a report keeps may
/// be only the start of what was printed: when it no longer explains the same way, the
/// drawing is the input's minimum solution alone.
fn drawing(problem: Problem, input: &str, output: &[u8], reason: &str) -> Option<String> {
    let columns = COLUMNS - INDENT.len();
    let again = problem
        .explain(input.as_bytes(), output)
        .ok()
        .flatten()
        .filter(|e| e.reason == reason);
    let explanation = match again {
        Some(e) => e,
        None => problem.witness(input.as_bytes()).ok()?,
    };
    Some(explanation.witness.draw_within(columns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::style::plain;

    fn shown(problem: Problem, input: &str, output: &str, kept: &str) -> String {
        let explained = Explained::of(problem, input.as_bytes(), output.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        write(&mut bytes, problem, input, kept.as_bytes(), &explained).unwrap();
        plain(&String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn the_reason_comes_first_then_the_minimum_press_by_press() {
        let text = shown(Problem::Flip, "wbww\nbbbw\nwbww\nwwww\n", "3\n", "3\n");
        assert_eq!(
            text,
            "  why: you printed 3; 1 press suffices: (2,2)\n\
             \x20   start         press (2,2)\n\
             \x20   wbww          wwww\n\
             \x20   bbbw          wwww\n\
             \x20   wbww          wwww\n\
             \x20   wwww          wwww\n"
        );
    }

    #[test]
    fn swap_rows_are_replayed_beside_a_minimum_and_fall_back_to_it_when_cut() {
        let whole = shown(
            Problem::Swap,
            "WOB\n",
            "3\nOWB\nOBW\nBOW\n",
            "3\nOWB\nOBW\nBOW\n",
        );
        assert!(whole.contains("<- line 3"), "{whole}");
        // The report kept only the start of the output: the minimum alone is drawn.
        let cut = shown(Problem::Swap, "WOB\n", "3\nOWB\nOBW\nBOW\n", "3\n");
        assert!(
            cut.starts_with("  why: ") && !cut.contains("yours"),
            "{cut}"
        );
        assert!(cut.contains("a minimum"), "{cut}");
    }

    #[test]
    fn no_line_of_grids_is_wider_than_a_terminal_of_100_columns() {
        let text = shown(Problem::FourInRow, "BWBO\nWBWB\nBWBW\nWBWO\n", "9\n", "9\n");
        let grids = text.lines().filter(|l| l.starts_with(INDENT));
        assert!(grids.clone().count() > 5, "{text}");
        assert!(
            grids.clone().all(|l| l.chars().count() <= COLUMNS),
            "{text}"
        );
        // Every move is drawn, wrapped to a second band.
        let moves: usize = grids.map(|l| l.matches("->").count()).sum();
        assert_eq!(moves, 5, "{text}");
    }
}
