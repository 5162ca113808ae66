//! Keys kept on disk: the compile cache's entry names and the batch journal's run keys.
//! One framing for every key: each part hashed (SHA-256) after its length as eight
//! little-endian bytes, so that no two lists of parts give the same bytes; written as 64
//! lowercase hex digits.

use sha2::{Digest, Sha256};

/// A key from its parts (a cache entry's name, a package judge's journal key): each
/// hashed after its length, so that no two lists of parts give the same bytes. The one
/// framing of keys kept on disk.
pub(crate) fn hash_of(parts: &[&[u8]]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hex(&hash.finalize())
}

/// Lower-case hexadecimal, for digests used as names and keys.
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
