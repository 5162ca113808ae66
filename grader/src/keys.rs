//! Keys kept on disk, all framed one way. A key names what made a result, so that the
//! result is reused exactly when all of it is unchanged:
//!
//! - the compile cache's entries (`submission::compile`, `submission::precompiled`): the
//!   toolchain (the language's name, the command, the compiler's version and real files,
//!   the tier) and the source;
//! - the batch journal's runs (`batch::run_keys`): the program (`Program::hash`: its
//!   language, command line and staged files), the case (name, input, answer), the limits
//!   record (`LimitsRecord::key`) and, on a package, its judge (`PackageJudge::hash`).
//!
//! **The framing.** A key is the SHA-256 of its parts in order, each part its length as
//! eight little-endian bytes and then its bytes; the first part names what the key is of
//! (`compile`, `run`, ...), so keys of two kinds never meet; a list is its length (a part
//! of eight bytes) and then its items, each of one or more parts. No two different lists
//! of parts give the same bytes, and nothing depends on how the compiler formats a type
//! (no `Debug` text). A key is written as 64 lowercase hex digits.
//!
//! **When a key changes.** What goes into a key, or how, is part of the format of the
//! store that keeps it. A change makes every old key unmatched: the journal says so by its
//! version (`batch::journal::VERSION`, read with a message, never a silent re-run of a
//! class); the compile cache simply compiles again, each entry being named by its key.

use sha2::{Digest, Sha256};

/// A key being made: parts are added in order, framed as the module's doc says.
pub(crate) struct Key(Sha256);

impl Key {
    /// A key of the kind `kind` (its first part).
    pub(crate) fn new(kind: &str) -> Key {
        let mut key = Key(Sha256::new());
        key.part(kind.as_bytes());
        key
    }

    /// Adds `bytes` as one part.
    pub(crate) fn part(&mut self, bytes: impl AsRef<[u8]>) -> &mut Key {
        let bytes = bytes.as_ref();
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds the length of a list whose items follow, each of one or more parts (a list of
    /// single parts is [`Key::list`]).
    pub(crate) fn count(&mut self, items: usize) -> &mut Key {
        self.part((items as u64).to_le_bytes())
    }

    /// Adds a list: its length, then each item as a part.
    pub(crate) fn list<I>(&mut self, items: I) -> &mut Key
    where
        I: IntoIterator,
        I::IntoIter: ExactSizeIterator,
        I::Item: AsRef<[u8]>,
    {
        let items = items.into_iter();
        self.count(items.len());
        for item in items {
            self.part(item);
        }
        self
    }

    /// The key's 32 bytes.
    pub(crate) fn bytes(self) -> [u8; 32] {
        self.0.finalize().into()
    }

    /// The key as it is written: 64 hex digits.
    pub(crate) fn hex(self) -> String {
        hex(&self.bytes())
    }
}

/// `bytes` as lowercase hex digits.
pub(crate) fn hex(bytes: &[u8]) -> String {
    // By table, not `write!`: a batch's rerun keys every (student, case) run, 450,000 of
    // them for a class of 3,000, and formatting each byte showed in its profile.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_framing_is_the_one_the_doc_gives_byte_for_byte() {
        let mut key = Key::new("run");
        key.part("ab").list(["c", ""]);
        // Pinned, and made outside Rust by the doc's rule (two lines of Python):
        // import hashlib, struct; p = lambda b: struct.pack("<Q", len(b)) + b
        // hashlib.sha256(p(b"run") + p(b"ab") + p(struct.pack("<Q", 2)) + p(b"c") + p(b""))
        // A change here changes every key on disk: bump the journal's version with it.
        assert_eq!(
            key.hex(),
            "3184a2e5e598b6ad03cffcc3b319980ad9bf07e18e1416d76fc46cba5ccd77f5"
        );
    }

    #[test]
    fn parts_are_kept_apart_and_kinds_never_meet() {
        let of = |kind: &str, parts: &[&str]| {
            let mut key = Key::new(kind);
            for part in parts {
                key.part(part);
            }
            key.hex()
        };
        assert_ne!(of("run", &["ab", "c"]), of("run", &["a", "bc"]));
        assert_ne!(of("run", &["a"]), of("case", &["a"]));
        assert_ne!(of("run", &["", "a"]), of("run", &["a", ""]));
        let listed = |items: &[&str], then: &str| {
            let mut key = Key::new("k");
            key.list(items).part(then);
            key.hex()
        };
        // A list's end is known: an item moved out of it is another key.
        assert_ne!(listed(&["a", "b"], "c"), listed(&["a"], "b"));
    }

    #[test]
    fn hex_is_lowercase_two_digits_a_byte() {
        assert_eq!(hex(&[0, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }
}
