//! Reading board and answer text: exact line splitting, cell checks with positions, and
//! the one error type for malformed input.
//!
//! Every parser in this crate is a validator: problems.md says inputs are clean (`\n`
//! line ends and a final newline), so anything else is reported with the line and column
//! where it starts. [`tolerate_line_ends`] is the one concession, for people who type
//! boards by hand.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::RangeInclusive;

/// A malformed input, answer or board: where it goes wrong (1-based) and what was
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in bytes.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl ParseError {
    /// An error at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// Names one byte for an error message: `` `x` `` for printable ASCII, words for the
/// usual invisible ones, hex for the rest.
pub fn describe_byte(byte: u8) -> String {
    match byte {
        b' ' => "a space".to_owned(),
        b'\t' => "a tab".to_owned(),
        b'\r' => "a carriage return (line ends must be `\\n`)".to_owned(),
        b'\n' => "a line end".to_owned(),
        0x21..=0x7e => format!("`{}`", byte as char),
        _ => format!("byte 0x{byte:02X}"),
    }
}

/// Names the character that starts at byte `at` of `bytes` for an error message: as
/// [`describe_byte`] for ASCII; a character beyond ASCII by itself (`` `é` ``), escaped
/// when it cannot be seen (`` `\u{200b}` ``, see [`crate::visible`]); a byte that does not
/// start one by its value.
pub fn describe_at(bytes: &[u8], at: usize) -> String {
    let Some(&byte) = bytes.get(at) else {
        return "the end of the input".to_owned();
    };
    if byte.is_ascii() {
        return describe_byte(byte);
    }
    let first = bytes[at..]
        .utf8_chunks()
        .next()
        .and_then(|chunk| chunk.valid().chars().next());
    match first {
        Some(c) if crate::visible::is_visible(c) => format!("`{c}` (U+{:04X})", u32::from(c)),
        Some(c) => format!(
            "`{}`, an invisible character",
            crate::visible::escape(c.encode_utf8(&mut [0; 4]).as_bytes())
        ),
        None => format!("byte 0x{byte:02X}"),
    }
}

/// Lists allowed cells for an error message: "`b` or `w`", "`B`, `W` or `O`".
pub(crate) fn describe_set(allowed: &[u8]) -> String {
    let mut out = String::new();
    for (i, &b) in allowed.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == allowed.len() { " or " } else { ", " });
        }
        let _ = write!(out, "`{}`", b as char);
    }
    out
}

/// Accepts `\r\n` line ends and a missing final newline, turning them into the clean
/// form; everything else is left for the strict parser to judge. Used where a person, not
/// a generator, wrote the input (`grader solve`, `grader check`).
pub fn tolerate_line_ends(input: &[u8]) -> Cow<'_, [u8]> {
    let has_cr = input.windows(2).any(|w| w == b"\r\n");
    let needs_newline = !input.is_empty() && input.last() != Some(&b'\n');
    if !has_cr && !needs_newline {
        return Cow::Borrowed(input);
    }
    let mut out = Vec::with_capacity(input.len() + 1);
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'\r' && input.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(input[i]);
        i += 1;
    }
    if needs_newline {
        out.push(b'\n');
    }
    Cow::Owned(out)
}

/// Reads `input` as exactly `count` lines, each ended by `\n`, handing each line (its
/// 1-based number and its bytes, without the `\n`) to `each` as soon as it is found.
///
/// Faults are reported in the order of the bytes: what `each` finds wrong inside a line
/// comes before a missing line end, a missing line or extra input after it (a bad cell
/// on line 2 is named even when line 4 is missing). Stops at the first fault.
pub(crate) fn each_line<'a>(
    input: &'a [u8],
    count: usize,
    mut each: impl FnMut(usize, &'a [u8]) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    if input.is_empty() {
        return Err(ParseError::new(
            1,
            1,
            format!(
                "expected {count} line{}, found an empty input",
                plural(count)
            ),
        ));
    }
    let mut rest = input;
    for number in 1..=count {
        if rest.is_empty() {
            return Err(ParseError::new(
                number,
                1,
                format!(
                    "expected {count} line{}, found only {}",
                    plural(count),
                    number - 1
                ),
            ));
        }
        let end = rest.iter().position(|&b| b == b'\n');
        let line = &rest[..end.unwrap_or(rest.len())];
        each(number, line)?;
        let Some(end) = end else {
            return Err(ParseError::new(
                number,
                line.len() + 1,
                "expected a line end (`\\n`), found the end of the input",
            ));
        };
        rest = &rest[end + 1..];
    }
    if !rest.is_empty() {
        return Err(ParseError::new(
            count + 1,
            1,
            format!(
                "expected the end of the input after {count} line{}, found {}",
                plural(count),
                describe_at(rest, 0)
            ),
        ));
    }
    Ok(())
}

/// Checks that `line` (line number `number`) holds only bytes of `allowed` and that its
/// length lies in `len`, handing each good cell (0-based column, byte) to `cell` in
/// order, so that a rule over cells (seven `B` at most, one `O`) is judged at the cell
/// that breaks it, before any fault further right.
pub(crate) fn check_cells(
    number: usize,
    line: &[u8],
    allowed: &[u8],
    len: RangeInclusive<usize>,
    mut cell: impl FnMut(usize, u8) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    for (i, &b) in line.iter().enumerate() {
        if i >= *len.end() {
            return Err(ParseError::new(
                number,
                i + 1,
                format!(
                    "expected the end of the line after {} cells, found {}",
                    len.end(),
                    describe_at(line, i)
                ),
            ));
        }
        if !allowed.contains(&b) {
            return Err(ParseError::new(
                number,
                i + 1,
                format!(
                    "expected {}, found {}",
                    describe_set(allowed),
                    describe_at(line, i)
                ),
            ));
        }
        cell(i, b)?;
    }
    if line.len() < *len.start() {
        let need = if len.start() == len.end() {
            format!("{}", len.start())
        } else {
            format!("at least {}", len.start())
        };
        return Err(ParseError::new(
            number,
            line.len() + 1,
            format!(
                "expected {}, found the end of the line (a row holds {need} cells)",
                describe_set(allowed)
            ),
        ));
    }
    Ok(())
}

/// Parses a move count as written in an answer: plain decimal digits, no sign, no leading
/// zero, at most `max`.
pub(crate) fn parse_count(number: usize, line: &[u8], max: u32) -> Result<u32, ParseError> {
    let bad = |column: usize, what: String| ParseError::new(number, column, what);
    if line.is_empty() {
        return Err(bad(
            1,
            "expected a move count or `Impossible`, found the end of the line".to_owned(),
        ));
    }
    if let Some(i) = line.iter().position(|b| !b.is_ascii_digit()) {
        return Err(bad(
            i + 1,
            format!(
                "expected a digit (or the word `Impossible`), found {}",
                describe_byte(line[i])
            ),
        ));
    }
    if line.len() > 1 && line[0] == b'0' {
        return Err(bad(1, "expected a count without leading zeros".to_owned()));
    }
    // Only ASCII digits remain: the parse fails only on overflow, caught by the bound.
    let value = std::str::from_utf8(line)
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .filter(|&v| v <= max);
    value.ok_or_else(|| bad(1, format!("expected a count of at most {max}")))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact_lines(input: &[u8], count: usize) -> Result<Vec<&[u8]>, ParseError> {
        let mut lines = Vec::new();
        each_line(input, count, |_, line| {
            lines.push(line);
            Ok(())
        })?;
        Ok(lines)
    }

    /// No rule over cells: only the cells and the length are checked.
    #[expect(clippy::unnecessary_wraps, reason = "the shape check_cells asks for")]
    fn no_rule(_: usize, _: u8) -> Result<(), ParseError> {
        Ok(())
    }

    #[test]
    fn exact_lines_accepts_clean_input() {
        let lines = exact_lines(b"ab\ncd\n", 2).unwrap();
        assert_eq!(lines, [b"ab".as_slice(), b"cd".as_slice()]);
    }

    #[test]
    fn exact_lines_reports_each_fault_where_it_starts() {
        let e = exact_lines(b"", 4).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("empty input"), "{e}");

        let e = exact_lines(b"ab\ncd", 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("line end"), "{e}");

        let e = exact_lines(b"ab\n", 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("found only 1"), "{e}");

        let e = exact_lines(b"ab\ncd\n\n", 2).unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("end of the input"), "{e}");
    }

    #[test]
    fn each_line_reports_a_fault_inside_a_line_before_one_after_it() {
        let bad_x = |number: usize, line: &[u8]| match line.iter().position(|&b| b == b'x') {
            Some(i) => Err(ParseError::new(number, i + 1, "an x")),
            None => Ok(()),
        };
        let at = |input: &[u8], count| {
            let e = each_line(input, count, bad_x).unwrap_err();
            (e.line, e.column)
        };
        // The x comes first in the bytes: it is named, not what is missing after it.
        assert_eq!(
            at(
                b"ab
axb
", 3
            ),
            (2, 2)
        );
        assert_eq!(
            at(
                b"ab
axb", 2
            ),
            (2, 2)
        );
        assert_eq!(
            at(
                b"ab
axb
cd
ef
",
                2
            ),
            (2, 2)
        );
        assert_eq!(at(b"abx", 2), (1, 3));
        // Without an x, the faults of the lines themselves.
        assert_eq!(
            at(
                b"ab
ab", 2
            ),
            (2, 3)
        );
        assert_eq!(
            at(
                b"ab
", 2
            ),
            (2, 1)
        );
        assert_eq!(
            at(
                b"ab
ab
ab
",
                2
            ),
            (3, 1)
        );
        assert_eq!(at(b"", 2), (1, 1));
        let mut seen = Vec::new();
        each_line(
            b"ab
cd
",
            2,
            |n, line| {
                seen.push((n, line));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, [(1, b"ab".as_slice()), (2, b"cd".as_slice())]);
    }

    #[test]
    fn check_cells_names_the_column() {
        assert!(check_cells(1, b"bw", b"bw", 2..=2, no_rule).is_ok());
        let e = check_cells(3, b"bxw", b"bw", 3..=3, no_rule).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column 2: expected `b` or `w`, found `x`"
        );
        let e = check_cells(1, b"bwb", b"bw", 2..=2, no_rule).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        let e = check_cells(2, b"B", b"BWO", 4..=4, no_rule).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 2: expected `B`, `W` or `O`, found the end of the line (a row holds 4 cells)"
        );
        let e = check_cells(1, b"b\r", b"bw", 2..=2, no_rule).unwrap_err();
        assert!(e.message.contains("carriage return"), "{e}");
    }

    #[test]
    fn characters_beyond_ascii_are_named_and_shown() {
        let bad = |line: &[u8]| check_cells(1, line, b"bw", 4..=4, no_rule).unwrap_err();
        let e = bad("bw\u{200b}b".as_bytes());
        assert_eq!(e.column, 3);
        assert_eq!(
            e.message,
            "expected `b` or `w`, found `\\u{200b}`, an invisible character"
        );
        assert_eq!(
            bad("bwé".as_bytes()).message,
            "expected `b` or `w`, found `é` (U+00E9)"
        );
        assert_eq!(
            bad(b"bw\xffb").message,
            "expected `b` or `w`, found byte 0xFF"
        );
        assert_eq!(
            bad("bwbb\u{feff}".as_bytes()).message,
            "expected the end of the line after 4 cells, found `\\u{feff}`, an invisible character"
        );
        assert_eq!(describe_at(b"ab", 1), "`b`");
        assert_eq!(describe_at(b"ab", 2), "the end of the input");
    }

    #[test]
    fn tolerate_line_ends_only_fixes_line_ends() {
        assert_eq!(&*tolerate_line_ends(b"ab\r\ncd"), b"ab\ncd\n");
        assert!(matches!(tolerate_line_ends(b"ab\n"), Cow::Borrowed(_)));
        assert_eq!(&*tolerate_line_ends(b"a\rb\n"), b"a\rb\n");
        assert_eq!(&*tolerate_line_ends(b""), b"");
    }

    #[test]
    fn counts_are_plain_decimals() {
        assert_eq!(parse_count(1, b"15", 100), Ok(15));
        assert_eq!(parse_count(1, b"0", 100), Ok(0));
        assert!(parse_count(1, b"015", 100).is_err());
        assert!(parse_count(1, b"+1", 100).is_err());
        assert!(parse_count(1, b"101", 100).is_err());
        assert!(parse_count(1, b"99999999999999999999", 100).is_err());
        assert_eq!(parse_count(1, b"1x", 100).unwrap_err().column, 2);
    }
}
