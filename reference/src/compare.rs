//! judging.md's comparison of contestant output with an answer, in one place.
//!
//! Every checker in this crate goes through [`normalized_lines`] and [`tokens`], so the
//! rules of line ends, trailing blanks and layout are written once.

use crate::verdict::Verdict;

/// A verdict and why. A checker decides `AC`, `PE` or `WA` about one output; the
/// grader's judge decides every verdict of a run in the same form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The verdict (a checker gives `Accepted`, `Presentation` or `WrongAnswer`).
    pub verdict: Verdict,
    /// Empty for `AC`; otherwise a short, exact reason for a person.
    pub message: String,
}

impl Judgement {
    /// `AC`.
    pub fn accepted() -> Self {
        Judgement {
            verdict: Verdict::Accepted,
            message: String::new(),
        }
    }

    /// `PE`, with the reason.
    pub fn presentation(message: impl Into<String>) -> Self {
        Judgement {
            verdict: Verdict::Presentation,
            message: message.into(),
        }
    }

    /// `WA`, with the reason.
    pub fn wrong(message: impl Into<String>) -> Self {
        Judgement {
            verdict: Verdict::WrongAnswer,
            message: message.into(),
        }
    }
}

/// The output as text, or the `WA` that judging.md gives bytes that are not UTF-8, naming
/// the line and column (in bytes) of the first such byte.
pub fn as_text(output: &[u8]) -> Result<&str, Judgement> {
    std::str::from_utf8(output).map_err(|e| {
        let at = e.valid_up_to();
        let (mut line, mut column) = (0, 1);
        for part in output[..at].split(|&b| b == b'\n') {
            line += 1;
            column = part.len() + 1;
        }
        Judgement::wrong(format!(
            "line {line}: output is not valid UTF-8 (byte 0x{:02X} at column {column})",
            output[at]
        ))
    })
}

/// The lines of `text` as judging.md compares them: `\r\n` is a line end like `\n`,
/// trailing spaces and tabs on a line are dropped, and so are trailing empty lines.
pub fn normalized_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|line| {
            // judging.md: `\r\n` and `\n` are the same line end.
            let line = line.strip_suffix('\r').unwrap_or(line);
            // judging.md: trailing spaces/tabs at the end of a line are ignored.
            line.trim_end_matches([' ', '\t'])
        })
        .collect();
    // judging.md: trailing empty lines at the end of the output are ignored.
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// The whitespace-separated tokens of `text`: what is left when layout is ignored.
pub fn tokens(text: &str) -> Vec<&str> {
    text.split_ascii_whitespace().collect()
}

/// Compares `output` with the expected answer `expected` (itself clean text).
pub fn compare(expected: &str, output: &[u8]) -> Judgement {
    let got = match as_text(output) {
        Ok(text) => text,
        Err(judgement) => return judgement,
    };
    let want_lines = normalized_lines(expected);
    let got_lines = normalized_lines(got);
    if want_lines == got_lines {
        return Judgement::accepted();
    }
    let difference = first_difference(&want_lines, &got_lines);
    if tokens(expected) == tokens(got) {
        return Judgement::presentation(format!("right answer, wrong layout: {difference}"));
    }
    if tokens(got).is_empty() {
        let what = if got.is_empty() {
            "no output"
        } else {
            "only whitespace"
        };
        return Judgement::wrong(format!("expected {}, got {what}", quote(want_lines[0])));
    }
    Judgement::wrong(difference)
}

/// "expected `3`, got `4`", or "line 6: expected the end of the output, got `x`": the
/// first line of `got` (normalised lines, see [`normalized_lines`]) that keeps it from
/// equalling `want`. The line is named unless both sides are a single line.
pub fn first_difference(want: &[&str], got: &[&str]) -> String {
    let at = difference_at(want, got);
    let show = |lines: &[&str]| {
        lines
            .get(at)
            .map_or_else(|| "the end of the output".to_owned(), |l| quote(l))
    };
    let (w, g) = (show(want), show(got));
    if want.len() <= 1 && got.len() <= 1 {
        format!("expected {w}, got {g}")
    } else {
        format!("line {}: expected {w}, got {g}", at + 1)
    }
}

/// The index of the first line of `got` that differs from `want`, in the contestant's
/// numbering (normalising drops no line before the last non-empty one).
///
/// judging.md: empty lines after the answer are ignored only when nothing follows them,
/// so when `want` has ended, the fault is the first non-empty line after it (`4`, four
/// empty lines and `x`: line 6), not the first empty one.
fn difference_at(want: &[&str], got: &[&str]) -> usize {
    let common = want.len().min(got.len());
    if let Some(at) = want.iter().zip(got).position(|(w, g)| w != g) {
        return at;
    }
    if common < want.len() {
        return common;
    }
    got[common..]
        .iter()
        .position(|line| !line.is_empty())
        .map_or(common, |i| common + i)
}

/// The whitespace-separated tokens of `text`, each with the 1-based number of the line it
/// is on: so that a checker working on tokens still names lines of the output.
pub fn tokens_with_lines(text: &str) -> Vec<(usize, &str)> {
    text.split('\n')
        .enumerate()
        .flat_map(|(i, line)| line.split_ascii_whitespace().map(move |t| (i + 1, t)))
        .collect()
}

/// Quotes a line for a message: backticks, invisible characters escaped (see
/// [`crate::visible`]), long lines cut.
pub fn quote(line: &str) -> String {
    const MAX_CHARS: usize = 48;
    let (shown, cut) = match line.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => (&line[..at], "…"),
        None => (line, ""),
    };
    format!("`{}{cut}`", crate::visible::escape(shown.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Accepted as AC, Presentation as PE, WrongAnswer as WA};

    /// judging.md, rule by rule: (expected, output, verdict).
    const TABLE: &[(&str, &[u8], Verdict)] = &[
        // Exact.
        ("4\n", b"4\n", AC),
        // `\r\n` and `\n` are the same line end.
        ("4\n", b"4\r\n", AC),
        ("2\nab\n", b"2\r\nab\r\n", AC),
        // A missing final line end is a trailing-empty-line difference.
        ("4\n", b"4", AC),
        // Trailing spaces and tabs on a line are ignored.
        ("4\n", b"4  \t\n", AC),
        ("2\nab\n", b"2 \nab\t\n", AC),
        ("4\n", b"4 \r\n", AC),
        // Trailing empty lines are ignored, with either line end.
        ("4\n", b"4\n\n\n", AC),
        ("4\n", b"4\r\n\r\n", AC),
        ("4\n", b"4\n  \n\t\n", AC),
        // Leading blanks are layout: PE.
        ("4\n", b" 4\n", PE),
        ("4\n", b"\n4\n", PE),
        ("4\n", b"\t4\n", PE),
        // Tokens equal, lines not: PE.
        ("2\nab\n", b"2 ab\n", PE),
        ("2\nab\n", b"2\n\nab\n", PE),
        ("4\n", b"4\r\r\n", PE),
        ("4\n", b"4\x0c\n", PE),
        // Case matters: WA.
        ("Impossible\n", b"impossible\n", WA),
        ("Impossible\n", b"IMPOSSIBLE\n", WA),
        // Different or extra tokens: WA.
        ("4\n", b"5\n", WA),
        ("4\n", b"4 4\n", WA),
        ("4\n", b"4\n4\n", WA),
        ("4\n", b"04\n", WA),
        // Empty output and whitespace only: WA.
        ("4\n", b"", WA),
        ("4\n", b"\n \n", WA),
        // Bytes that are not UTF-8: WA, even when the rest matches.
        ("4\n", b"4\n\xff", WA),
        ("4\n", b"\xc3\n", WA),
        // A NUL is a byte like any other: WA.
        ("4\n", b"4\0\n", WA),
    ];

    #[test]
    fn every_rule_of_judging_md() {
        for &(expected, output, verdict) in TABLE {
            let j = compare(expected, output);
            assert_eq!(
                j.verdict,
                verdict,
                "expected {expected:?} vs output {:?}: {}",
                String::from_utf8_lossy(output),
                j.message
            );
            assert_eq!(j.message.is_empty(), verdict == AC, "{j:?}");
        }
    }

    #[test]
    fn messages_are_short_and_exact() {
        assert_eq!(compare("3\n", b"4\n").message, "expected `3`, got `4`");
        assert_eq!(compare("3\n", b"").message, "expected `3`, got no output");
        assert_eq!(
            compare("3\n", b" \n").message,
            "expected `3`, got only whitespace"
        );
        assert_eq!(
            compare("3\n", b" 3\n").message,
            "right answer, wrong layout: expected `3`, got ` 3`"
        );
        assert_eq!(
            compare("2\nab\ncd\n", b"2\nab\nce\n").message,
            "line 3: expected `cd`, got `ce`"
        );
        assert_eq!(
            compare("2\nab\n", b"2\n").message,
            "line 2: expected `ab`, got the end of the output"
        );
        assert_eq!(
            compare("4\n", b"4\n\xff").message,
            "line 2: output is not valid UTF-8 (byte 0xFF at column 1)"
        );
        assert_eq!(
            compare("4\n", b"4\t\t5\n").message,
            "expected `4`, got `4\\t\\t5`"
        );
    }

    #[test]
    fn the_line_named_is_the_first_that_keeps_the_output_from_being_ac() {
        let message = |expected: &str, output: &str| compare(expected, output.as_bytes()).message;
        // Empty lines are trailing only when nothing follows: `x` is the fault, on line 6.
        assert_eq!(
            message("4\n", "4\n\n\n\n\nx\n"),
            "line 6: expected the end of the output, got `x`"
        );
        assert_eq!(
            message("4\n", "4\r\n \n\t\n\n5\n"),
            "line 5: expected the end of the output, got `5`"
        );
        assert_eq!(
            message("4\n", "4\n4\n"),
            "line 2: expected the end of the output, got `4`"
        );
        // A leading empty line is the layout fault, on line 1.
        assert_eq!(
            message("4\n", "\n4\n"),
            "right answer, wrong layout: line 1: expected `4`, got ``"
        );
        assert_eq!(
            message("2\nab\n", "2\n\nab\n"),
            "right answer, wrong layout: line 2: expected `ab`, got ``"
        );
        assert_eq!(
            message("2\nab\n", "2\nab\n\n\nab\n"),
            "line 5: expected the end of the output, got `ab`"
        );
        assert_eq!(
            message("2\nab\ncd\n", "2\nab\n"),
            "line 3: expected `cd`, got the end of the output"
        );
        assert_eq!(
            message("4\n", "4\n\n\n\n \u{200b}\n"),
            "line 5: expected the end of the output, got ` \\u{200b}`"
        );
    }

    #[test]
    fn invisible_characters_are_shown_escaped() {
        assert_eq!(
            compare("4\n", "4\u{200b}\n".as_bytes()).message,
            "expected `4`, got `4\\u{200b}`"
        );
        assert_eq!(
            compare("4\n", "\u{feff}4\n".as_bytes()).message,
            "expected `4`, got `\\u{feff}4`"
        );
        assert_eq!(
            compare("4\n", "4\u{a0}\n".as_bytes()).message,
            "expected `4`, got `4\\u{a0}`"
        );
        assert_eq!(
            compare("4\n", b"4\0\n").message,
            "expected `4`, got `4\\x00`"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        assert_eq!(
            compare("4\n", b"\xc3").message,
            "line 1: output is not valid UTF-8 (byte 0xC3 at column 1)"
        );
        assert_eq!(
            compare("4\n", b"4\n\n ab\xfe\n").message,
            "line 3: output is not valid UTF-8 (byte 0xFE at column 4)"
        );
    }

    #[test]
    fn tokens_know_their_lines() {
        assert_eq!(
            tokens_with_lines("3 OWB\r\n\n  BWO\tBOW\n"),
            [(1, "3"), (1, "OWB"), (3, "BWO"), (3, "BOW")]
        );
        assert!(tokens_with_lines("").is_empty());
    }

    #[test]
    fn quote_cuts_long_lines() {
        let long = "x".repeat(100);
        let q = quote(&long);
        assert!(q.chars().count() < 60, "{q}");
        assert!(q.ends_with("…`"));
    }
}
