//! judging.md's comparison of contestant output with an answer, in one place.
//!
//! Every checker in this crate goes through [`normalized_lines`] and [`tokens`], so the
//! rules of line ends, trailing blanks and layout are written once.

use crate::verdict::Verdict;

/// What a checker decides about one output: `AC`, `PE` or `WA`, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// `Accepted`, `Presentation` or `WrongAnswer`.
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

/// The output as text, or the `WA` that judging.md gives bytes that are not UTF-8.
pub fn as_text(output: &[u8]) -> Result<&str, Judgement> {
    std::str::from_utf8(output).map_err(|e| {
        let at = e.valid_up_to();
        Judgement::wrong(format!(
            "output is not valid UTF-8 (byte 0x{:02X} at offset {at})",
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

/// "expected `3`, got `4`", with a line number when the answer has more than one line.
pub fn first_difference(want: &[&str], got: &[&str]) -> String {
    let at = want
        .iter()
        .zip(got)
        .position(|(w, g)| w != g)
        .unwrap_or(want.len().min(got.len()));
    let show = |lines: &[&str]| {
        lines
            .get(at)
            .map_or_else(|| "the end of the output".to_owned(), |l| quote(l))
    };
    let (w, g) = (show(want), show(got));
    if want.len() <= 1 && at == 0 {
        format!("expected {w}, got {g}")
    } else {
        format!("line {}: expected {w}, got {g}", at + 1)
    }
}

/// Quotes a line for a message: backticks, invisible characters escaped, long lines cut.
pub fn quote(line: &str) -> String {
    const MAX_CHARS: usize = 48;
    let mut out = String::from("`");
    for (i, c) in line.chars().enumerate() {
        if i == MAX_CHARS {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('`');
    out
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
            "output is not valid UTF-8 (byte 0xFF at offset 2)"
        );
        assert_eq!(
            compare("4\n", b"4\t\t5\n").message,
            "expected `4`, got `4\\t\\t5`"
        );
    }

    #[test]
    fn quote_cuts_long_lines() {
        let long = "x".repeat(100);
        let q = quote(&long);
        assert!(q.chars().count() < 60, "{q}");
        assert!(q.ends_with("…`"));
    }
}
