//! Quoting one word for a POSIX shell, so that a command printed in a report can be pasted
//! back and mean the same words, whatever bytes a path holds.
//!
//! Plain words stay bare (`grader`, `--seed`, `sol.c`); anything else is single-quoted. A
//! path need not be UTF-8 and a report is text: such bytes, and control characters that
//! would garble a terminal line, are written as `"$(printf '\ooo')"`, which every POSIX
//! shell turns back into the bytes (dash has no `$'...'`).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt as _;

/// `word`, quoted so that `sh` reads it back as exactly these bytes.
pub(crate) fn quote(word: &OsStr) -> String {
    let bytes = word.as_bytes();
    if is_plain(bytes) {
        // Plain ASCII, checked just above.
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::new();
    for piece in pieces(bytes) {
        match piece {
            Piece::Text(text) => {
                out.push('\'');
                // A single quote cannot appear inside single quotes: close, escape, reopen.
                out.push_str(&text.replace('\'', r"'\''"));
                out.push('\'');
            }
            Piece::Bytes(raw) => {
                out.push_str("\"$(printf '");
                for b in raw {
                    let _ = write!(out, "\\{b:03o}");
                }
                out.push_str("')\"");
            }
        }
    }
    out
}

/// Whether `bytes` mean themselves to every shell, unquoted.
fn is_plain(bytes: &[u8]) -> bool {
    let safe = |b: &u8| b.is_ascii_alphanumeric() || b"_-+=%@:,./".contains(b);
    // `=word` at the start of a word is a path lookup in zsh.
    !bytes.is_empty() && bytes[0] != b'=' && bytes.iter().all(safe)
}

/// A run of a word: text that reads well in single quotes, or bytes that do not.
#[derive(Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Bytes(Vec<u8>),
}

/// `bytes` cut into text and raw bytes (not UTF-8, or control characters other than the
/// newline: a newline inside single quotes is exact, and `$(...)` would drop a trailing one).
fn pieces(bytes: &[u8]) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && c != '\n' {
                push_bytes(&mut pieces, c.encode_utf8(&mut [0; 4]).as_bytes());
            } else if let Some(Piece::Text(text)) = pieces.last_mut() {
                text.push(c);
            } else {
                pieces.push(Piece::Text(c.to_string()));
            }
        }
        push_bytes(&mut pieces, chunk.invalid());
    }
    if pieces.is_empty() {
        // The empty word: `''`.
        pieces.push(Piece::Text(String::new()));
    }
    pieces
}

/// Adds `raw` to the last piece when it holds bytes too (one `printf` for a run of them).
fn push_bytes(pieces: &mut Vec<Piece>, raw: &[u8]) {
    if raw.is_empty() {
        return;
    }
    if let Some(Piece::Bytes(bytes)) = pieces.last_mut() {
        bytes.extend_from_slice(raw);
    } else {
        pieces.push(Piece::Bytes(raw.to_vec()));
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt as _;
    use std::process::Command;

    use super::*;

    /// What `sh` makes of `quoted`: the bytes of its one word.
    fn through_sh(quoted: &str) -> Vec<u8> {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s' {quoted}"))
            .output()
            .expect("sh runs");
        assert!(output.status.success(), "{quoted}: {output:?}");
        output.stdout
    }

    fn word(bytes: &[u8]) -> OsString {
        OsString::from_vec(bytes.to_vec())
    }

    #[test]
    fn plain_words_stay_bare() {
        for plain in [
            "grader",
            "--seed",
            "12",
            "sol.c",
            "/tmp/a-b_c/x+y",
            "--lang=c99",
        ] {
            assert_eq!(quote(OsStr::new(plain)), plain);
        }
    }

    #[test]
    fn spaces_quotes_and_shell_characters_are_single_quoted() {
        assert_eq!(quote(OsStr::new("my sol.c")), "'my sol.c'");
        assert_eq!(quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(quote(OsStr::new("")), "''");
        assert_eq!(quote(OsStr::new("=x")), "'=x'");
        assert_eq!(quote(OsStr::new("$HOME")), "'$HOME'");
        assert_eq!(quote(OsStr::new("élève.py")), "'élève.py'");
    }

    #[test]
    fn bytes_that_are_not_text_are_written_with_printf() {
        assert_eq!(
            quote(&word(b"sol\xff\xfe.c")),
            r#"'sol'"$(printf '\377\376')"'.c'"#
        );
        assert_eq!(quote(&word(b"a\tb")), r#"'a'"$(printf '\011')"'b'"#);
    }

    #[test]
    fn sh_reads_every_quoted_word_back_as_its_bytes() {
        let words: [&[u8]; 12] = [
            b"plain",
            b"two words",
            b"it's \"quoted\"",
            b"",
            b"'",
            b"\\ $x `y` !z *?[a] ~ # ; & | < > ( ) { }",
            b"line one\nline two\n",
            b"\xff",
            b"caf\xc3\xa9 \xe9t\xe9",
            b"\t\x01\x7f",
            b"-starts-with-dash",
            b"=zsh",
        ];
        for bytes in words {
            let quoted = quote(&word(bytes));
            assert_eq!(through_sh(&quoted), bytes, "{quoted}");
        }
    }
}
