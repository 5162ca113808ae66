//! How the grader spells what is not of its making in what it writes: a file's name,
//! which need not be UTF-8, and any text a message echoes (a name, a line of the user's
//! file), which may hold a line end or the control bytes a terminal obeys.
//!
//! - [`name`]: a name's UTF-8 as it is, and each byte that is not UTF-8 as `\xNN`. Two
//!   names that differ in such bytes are spelt apart (`\xff.c` and `\xfe.c` are two
//!   students, where a lossy spelling made both `�`), and a UTF-8 name, by far the most
//!   common, is spelt as it always was, so gradebooks and journals keep their keys.
//! - [`one_line`]: what a message shows, on one line that a terminal shows as it is:
//!   line ends, tabs and controls (`ESC`, `BEL`, the C1 byte `0x9b` that some terminals
//!   take for `ESC [`), and characters nobody can see, escaped as the reports escape a
//!   program's output (`reference::visible`). A backslash is kept: a name spelt by
//!   [`name`] reads the same in a message as in the gradebook.
//!
//! Every message line goes through [`one_line`] where it is written
//! (`report::terminal::note`), so no caller can forget it.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

/// `name` spelt losslessly: see the module's rule.
pub(crate) fn name(name: &OsStr) -> String {
    let bytes = name.as_bytes();
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// A path spelt as [`name`] spells a name, for messages and reports.
pub(crate) fn path(path: &Path) -> String {
    name(path.as_os_str())
}

/// `text` as one line a terminal shows as it is: see the module's rule.
pub(crate) fn one_line(text: &str) -> String {
    reference::visible::escape_message(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_not_utf8_are_spelt_apart_and_utf8_names_as_they_are() {
        let ff = name(OsStr::from_bytes(b"\xff.c"));
        let fe = name(OsStr::from_bytes(b"\xfe.c"));
        assert_eq!(ff, "\\xff.c");
        assert_eq!(fe, "\\xfe.c");
        assert_eq!(name(OsStr::new("élève/alice.c")), "élève/alice.c");
        assert_eq!(
            name(OsStr::from_bytes(b"caf\xc3\xa9-\xe9t\xe9")),
            "café-\\xe9t\\xe9"
        );
        assert_eq!(path(Path::new("a b/c.in")), "a b/c.in");
    }

    #[test]
    fn a_message_is_one_line_with_no_control_a_terminal_obeys() {
        assert_eq!(one_line("plain `x` é \\xff"), "plain `x` é \\xff");
        assert_eq!(one_line("a\nb.in:1:1"), "a\\nb.in:1:1");
        assert_eq!(
            one_line("\u{1b}]0;x\u{7} \u{9b}2J\r\t\u{200b}"),
            "\\x1b]0;x\\x07 \\u{9b}2J\\r\\t\\u{200b}"
        );
    }
}
