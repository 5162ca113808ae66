//! The format's default output validator, in process: the output is compared with the
//! answer token by token (tokens are the pieces between whitespace), as the flags of
//! `validator_flags` say:
//!
//! - `case_sensitive`: `Yes` is not `yes` (by default letters are compared without case);
//! - `space_change_sensitive`: the whitespace between and around the tokens must be the
//!   answer's too (by default any run of whitespace is as good as any other);
//! - `float_absolute_tolerance E`, `float_relative_tolerance E`, `float_tolerance E` (both):
//!   where the answer's token is a number, any number within the tolerance is accepted
//!   (within either, when both are given).

use reference::{Judgement, Verdict};

/// The default validator's flags.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Flags {
    case_sensitive: bool,
    space_change_sensitive: bool,
    absolute: Option<f64>,
    relative: Option<f64>,
}

impl Flags {
    /// Reads `validator_flags`; an unknown flag, or a tolerance that is not a number, is
    /// named.
    pub(crate) fn parse(words: &[String]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let mut tolerance = || -> Result<f64, String> {
                let value = words
                    .next()
                    .ok_or_else(|| format!("`{word}` needs a number after it"))?;
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("`{word} {value}`: not a tolerance"))
            };
            match word.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => flags.absolute = Some(tolerance()?),
                "float_relative_tolerance" => flags.relative = Some(tolerance()?),
                "float_tolerance" => {
                    let value = tolerance()?;
                    flags.absolute = Some(value);
                    flags.relative = Some(value);
                }
                other => return Err(format!("`{other}` is not a flag of the default validator")),
            }
        }
        Ok(flags)
    }
}

/// One piece of a text: a token, or (when space changes count) a run of whitespace; with
/// the line it starts on.
struct Piece<'a> {
    text: &'a [u8],
    line: usize,
}

/// The pieces of `text`: its tokens, and with `spaces` its whitespace runs too.
fn pieces(text: &[u8], spaces: bool) -> Vec<Piece<'_>> {
    let mut found = Vec::new();
    let (mut at, mut line) = (0, 1);
    while at < text.len() {
        let blank = text[at].is_ascii_whitespace();
        let end = text[at..]
            .iter()
            .position(|b| b.is_ascii_whitespace() != blank)
            .map_or(text.len(), |n| at + n);
        if !blank || spaces {
            found.push(Piece {
                text: &text[at..end],
                line,
            });
        }
        line += text[at..end].split(|&b| b == b'\n').count() - 1;
        at = end;
    }
    found
}

/// Judges `output` against `answer` under `flags`: `AC`, or `WA` naming the first piece
/// that differs and its line.
pub(crate) fn judge(answer: &[u8], output: &[u8], flags: &Flags) -> Judgement {
    let expected = pieces(answer, flags.space_change_sensitive);
    let got = pieces(output, flags.space_change_sensitive);
    for (index, want) in expected.iter().enumerate() {
        let Some(piece) = got.get(index) else {
            return wrong(format!(
                "the output ended early: expected `{}`",
                shown(want.text)
            ));
        };
        if !same(want.text, piece.text, flags) {
            return wrong(format!(
                "line {}: expected `{}`, got `{}`",
                piece.line,
                shown(want.text),
                shown(piece.text)
            ));
        }
    }
    if let Some(extra) = got.get(expected.len()) {
        return wrong(format!(
            "line {}: expected the end of the output, got `{}`",
            extra.line,
            shown(extra.text)
        ));
    }
    Judgement {
        verdict: Verdict::Accepted,
        message: String::new(),
    }
}

/// Whether the output's piece `got` stands for the answer's `want`.
fn same(want: &[u8], got: &[u8], flags: &Flags) -> bool {
    if (flags.absolute.is_some() || flags.relative.is_some())
        && let Some(expected) = number(want)
    {
        let Some(value) = number(got) else {
            return false;
        };
        let error = (value - expected).abs();
        return flags.absolute.is_some_and(|e| error <= e)
            || flags.relative.is_some_and(|e| error <= e * expected.abs());
    }
    if flags.case_sensitive {
        want == got
    } else {
        want.eq_ignore_ascii_case(got)
    }
}

/// The number a token writes (`3`, `-0.5`, `1e-3`), if it is one; `inf` and `nan` are
/// words, not numbers, here.
fn number(token: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(token).ok()?;
    if !text.bytes().any(|b| b.is_ascii_digit())
        || !text
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    text.parse().ok().filter(|v: &f64| v.is_finite())
}

fn wrong(message: String) -> Judgement {
    Judgement {
        verdict: Verdict::WrongAnswer,
        message,
    }
}

/// A piece as a message quotes it: its invisible characters escaped (judging.md).
fn shown(piece: &[u8]) -> String {
    const MOST: usize = 60;
    let text = reference::visible::escape(&piece[..piece.len().min(MOST)]);
    if piece.len() > MOST {
        format!("{text}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(words: &str) -> Flags {
        let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
        Flags::parse(&words).unwrap()
    }

    fn verdict(answer: &str, output: &str, with: &str) -> Verdict {
        judge(answer.as_bytes(), output.as_bytes(), &flags(with)).verdict
    }

    #[test]
    fn tokens_are_compared_without_case_or_spacing_unless_the_flags_say() {
        assert_eq!(
            verdict("Hello World!\n", "hello   world!", ""),
            Verdict::Accepted
        );
        assert_eq!(
            verdict("Hello World!\n", "hello world!\n", "case_sensitive"),
            Verdict::WrongAnswer
        );
        assert_eq!(verdict("1 2\n", "1\n2\n", ""), Verdict::Accepted);
        assert_eq!(
            verdict("1 2\n", "1\n2\n", "space_change_sensitive"),
            Verdict::WrongAnswer
        );
        assert_eq!(
            verdict("1 2\n", "1 2\n", "space_change_sensitive"),
            Verdict::Accepted
        );
        assert_eq!(verdict("1 2\n", "1 2 3\n", ""), Verdict::WrongAnswer);
        assert_eq!(verdict("1 2\n", "1\n", ""), Verdict::WrongAnswer);
    }

    #[test]
    fn numbers_are_accepted_within_either_tolerance() {
        assert_eq!(
            verdict("0.0314\n", "3.14e-2\n", "float_tolerance 1e-6"),
            Verdict::Accepted
        );
        assert_eq!(verdict("0.0314\n", "3.14e-2\n", ""), Verdict::WrongAnswer);
        assert_eq!(
            verdict("100\n", "100.5\n", "float_absolute_tolerance 1"),
            Verdict::Accepted
        );
        assert_eq!(
            verdict("100\n", "101.5\n", "float_absolute_tolerance 1"),
            Verdict::WrongAnswer
        );
        assert_eq!(
            verdict("100\n", "101.5\n", "float_relative_tolerance 0.02"),
            Verdict::Accepted
        );
        assert_eq!(
            verdict("100\n", "nan\n", "float_tolerance 1"),
            Verdict::WrongAnswer
        );
        // Words in the answer are still words.
        assert_eq!(
            verdict("yes\n", "YES\n", "float_tolerance 1"),
            Verdict::Accepted
        );
    }

    #[test]
    fn the_first_difference_is_named_with_its_line() {
        let said = judge(b"1\n2\n3\n", b"1\n2\n4\n", &Flags::default()).message;
        assert_eq!(said, "line 3: expected `3`, got `4`");
        let said = judge(b"1\n", b"1\n\nx\n", &Flags::default()).message;
        assert_eq!(said, "line 3: expected the end of the output, got `x`");
        let said = judge(b"1 2\n", b"1", &Flags::default()).message;
        assert_eq!(said, "the output ended early: expected `2`");
        assert!(Flags::parse(&["float_tolerance".to_owned()]).is_err());
        assert!(Flags::parse(&["fuzzy".to_owned()]).is_err());
    }
}
