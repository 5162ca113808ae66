//! The regressions file: failing inputs found earlier, replayed before any new run (as
//! proptest does with its seeds). One line per failure, readable and diffable:
//!
//! ```text
//! flip seed=7 run=12 input="bwwb\nbbwb\nbwwb\nbwww\n" # WA: expected `3`, got `4`
//! ```
//!
//! The input itself is stored, not only the seed, so a replay does not depend on the
//! generator staying the same. Parsing and formatting only: `grader` does the file I/O.

use std::fmt::Write as _;

use reference::Problem;

/// One earlier failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regression {
    /// The problem.
    pub problem: Problem,
    /// The seed it was found with.
    pub seed: u64,
    /// The run it was found at.
    pub run: u64,
    /// The (shrunk) failing input.
    pub input: String,
    /// What went wrong, for the reader (not parsed back).
    pub note: String,
}

/// A line of the file that is not a regression: 1-based line and column, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
    /// What was expected.
    pub message: String,
}

/// The first lines of a new file.
pub const HEADER: &str = "# grader fuzz regressions: failing inputs found earlier, replayed first.\n\
# One per line: PROBLEM seed=S run=R input=\"...\" # note\n";

impl Regression {
    /// The line for this regression, with its line end.
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{} seed={} run={} input=\"",
            self.problem, self.seed, self.run
        );
        for c in self.input.chars() {
            match c {
                '\n' => line.push_str("\\n"),
                '\r' => line.push_str("\\r"),
                '\\' => line.push_str("\\\\"),
                '"' => line.push_str("\\\""),
                c => line.push(c),
            }
        }
        line.push('"');
        let note = self.note.lines().next().unwrap_or_default();
        if !note.is_empty() {
            let _ = write!(line, " # {note}");
        }
        line.push('\n');
        line
    }
}

/// Parses a regressions file; blank lines and `#` comments are skipped.
pub fn parse(text: &str) -> Result<Vec<Regression>, BadLine> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|(column, message)| BadLine {
            line: i + 1,
            column,
            message,
        })?);
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<Regression, (usize, String)> {
    let column = |rest: &str| line.len() - rest.len() + 1;
    let (problem, rest) = line.split_once(' ').ok_or((
        1,
        "expected `PROBLEM seed=S run=R input=\"...\"`".to_owned(),
    ))?;
    let problem: Problem = problem
        .parse()
        .map_err(|_| (1, format!("unknown problem `{problem}`")))?;
    let (seed, rest) = number(line, rest, "seed=")?;
    let (run, rest) = number(line, rest, "run=")?;
    let quoted = rest
        .strip_prefix("input=\"")
        .ok_or((column(rest), "expected `input=\"`".to_owned()))?;
    let mut input = String::new();
    let mut chars = quoted.char_indices();
    let rest = loop {
        match chars.next() {
            None => {
                return Err((
                    line.len() + 1,
                    "the input's closing `\"` is missing".to_owned(),
                ));
            }
            Some((i, '"')) => break &quoted[i + 1..],
            Some((i, '\\')) => match chars.next() {
                Some((_, 'n')) => input.push('\n'),
                Some((_, 'r')) => input.push('\r'),
                Some((_, '\\')) => input.push('\\'),
                Some((_, '"')) => input.push('"'),
                _ => {
                    return Err((
                        column(&quoted[i..]),
                        "unknown escape (\\n, \\r, \\\\, \\\")".to_owned(),
                    ));
                }
            },
            Some((_, c)) => input.push(c),
        }
    };
    let rest = rest.trim();
    let note = match rest.strip_prefix('#') {
        Some(note) => note.trim().to_owned(),
        None if rest.is_empty() => String::new(),
        None => {
            return Err((
                column(rest),
                "expected the end of the line or `# note`".to_owned(),
            ));
        }
    };
    Ok(Regression {
        problem,
        seed,
        run,
        input,
        note,
    })
}

/// Reads `KEY=N` at the start of `rest` (a tail of `line`); returns `N` and what follows.
fn number<'a>(line: &str, rest: &'a str, key: &str) -> Result<(u64, &'a str), (usize, String)> {
    let column = |tail: &str| line.len() - tail.len() + 1;
    let after = rest
        .strip_prefix(key)
        .ok_or((column(rest), format!("expected `{key}`")))?;
    let end = after.find(' ').unwrap_or(after.len());
    let value = after[..end]
        .parse()
        .map_err(|_| (column(after), format!("expected a number after `{key}`")))?;
    Ok((value, after[end..].trim_start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let r = Regression {
            problem: Problem::Swap,
            seed: 7,
            run: 12,
            input: "WO\"B\\\r\n".to_owned(),
            note: "WA: expected `1`".to_owned(),
        };
        let text = format!("{HEADER}\n{}", r.to_line());
        assert_eq!(parse(&text), Ok(vec![r]));
    }

    #[test]
    fn bad_lines_name_their_line_and_column() {
        let text = "# c\nflip seed=x run=1 input=\"\"\n";
        let bad = parse(text).unwrap_err();
        assert_eq!((bad.line, bad.column), (2, 11));
        assert!(parse("chess seed=1 run=1 input=\"\"").is_err());
        assert!(parse("flip seed=1 run=1 input=\"open").is_err());
        assert!(parse("flip seed=1 run=1 input=\"\" trailing").is_err());
    }
}
