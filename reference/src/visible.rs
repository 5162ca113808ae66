//! Showing a contestant's text so that nothing in it hides: the one escaping rule of
//! every message and report that quotes output.
//!
//! A zero-width space, a no-break space, a byte-order mark or a stray `\r` looks like
//! nothing (or like a plain space) on a terminal and in a browser, so a `WA` that quotes
//! `4` followed by one of them reads as if the program were right. Everything a person
//! cannot tell apart from nothing, or from a space, is written as an escape instead:
//! `\t`, `\r`, `\n`, `\x00` (ASCII controls and bytes that are not UTF-8),
//! `\u{200b}` (the rest); a backslash is doubled so that an escape is never ambiguous.

use std::fmt::Write as _;

/// `bytes` on one line: every invisible character escaped, line ends included.
pub fn escape(bytes: &[u8]) -> String {
    render(bytes, Mode::Line)
}

/// `bytes` as lines, for a block of text (a diff, a `<pre>`): like [`escape`], but each
/// `\n` stays a line end.
pub fn escape_lines(bytes: &[u8]) -> String {
    render(bytes, Mode::Lines)
}

/// `text` on one line for a message that quotes names: like [`escape`], but a backslash
/// stays as it is, so that a name already spelt with escapes (a byte that is not UTF-8
/// as `\xff`) reads the same in the message as where it was spelt.
pub fn escape_message(text: &str) -> String {
    if text.chars().all(|c| c == '\\' || is_visible(c)) {
        return text.to_owned();
    }
    render(text.as_bytes(), Mode::Message)
}

/// What [`render`] keeps as it is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing: one line, every escape unambiguous.
    Line,
    /// Line ends.
    Lines,
    /// Backslashes.
    Message,
}

/// Whether `c` is shown as it is: printable ASCII and ordinary visible Unicode, not a
/// control, a format character, a space other than ` `, or an invisible filler.
pub fn is_visible(c: char) -> bool {
    if c.is_ascii() {
        return c == ' ' || c.is_ascii_graphic();
    }
    !(c.is_control() || is_format(c) || is_odd_space(c) || is_ignorable(c) || is_private(c))
}

fn render(bytes: &[u8], mode: Mode) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push(&mut out, c, mode);
        }
        for &b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

fn push(out: &mut String, c: char, mode: Mode) {
    match c {
        '\n' if mode == Mode::Lines => out.push('\n'),
        '\\' if mode == Mode::Message => out.push('\\'),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\\' => out.push_str("\\\\"),
        c if c.is_ascii_control() => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if is_visible(c) => out.push(c),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// Unicode's format characters (general category Cf): invisible marks that steer
/// layout, such as U+200B ZERO WIDTH SPACE and U+FEFF (a byte-order mark).
fn is_format(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// Spaces that are not U+0020 (categories Zs, Zl, Zp): they look like a space, or like
/// nothing, but are not the space judging.md ignores.
fn is_odd_space(c: char) -> bool {
    matches!(
        u32::from(c),
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000
    )
}

/// Characters Unicode says to draw as nothing when unsupported (default ignorable code
/// points that are not format characters): variation selectors, fillers, joiners.
fn is_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x34F
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x2800
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0xE0000..=0xE0FFF
    )
}

/// Private-use characters: no font agrees on what they look like.
fn is_private(c: char) -> bool {
    matches!(
        u32::from(c),
        0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_left_alone() {
        for text in ["4", "Impossible", "BWBO WBWB", "四子连棋", "é ü ß", "a`b"] {
            assert_eq!(escape(text.as_bytes()), text);
        }
    }

    #[test]
    fn every_kind_of_invisible_character_is_escaped() {
        let cases: &[(&str, &str)] = &[
            ("4\u{200b}", "4\\u{200b}"),
            ("4\u{200c}\u{200d}", "4\\u{200c}\\u{200d}"),
            ("\u{feff}4", "\\u{feff}4"),
            ("4\u{a0}", "4\\u{a0}"),
            ("4\u{3000}", "4\\u{3000}"),
            ("4\u{2028}", "4\\u{2028}"),
            ("\u{202e}4", "\\u{202e}4"),
            ("4\u{ad}", "4\\u{ad}"),
            ("4\u{fe0f}", "4\\u{fe0f}"),
            ("4\u{e000}", "4\\u{e000}"),
            ("4\u{85}", "4\\u{85}"),
            ("4\t5", "4\\t5"),
            ("4\r", "4\\r"),
            ("4\n5", "4\\n5"),
            ("\0", "\\x00"),
            ("\x1b[31m", "\\x1b[31m"),
            ("\x7f", "\\x7f"),
            ("a\\tb", "a\\\\tb"),
        ];
        for &(text, shown) in cases {
            assert_eq!(escape(text.as_bytes()), shown, "{text:?}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_bytes() {
        assert_eq!(escape(b"4\xff\n"), "4\\xff\\n");
        assert_eq!(escape(b"\xe2\x80"), "\\xe2\\x80");
    }

    #[test]
    fn blocks_keep_their_lines() {
        assert_eq!(
            escape_lines("4\u{200b}\r\n\n5\n".as_bytes()),
            "4\\u{200b}\\r\n\n5\n"
        );
    }
}
