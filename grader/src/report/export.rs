//! An exporter: one format of one kind of result, written to any [`Write`]r, and how its
//! text reaches the reader (stdout, or a file written atomically).
//!
//! Each format's module (`human`, `json`, `junit`, `csv`, `html`) writes from the
//! results model alone; the commands pick an [`Exporter`] and a destination.

use std::io::{self, Write};
use std::path::Path;

use super::{style, terminal};
use crate::files;
use crate::status::Fault;

/// Writes `value` in one format.
pub(crate) type WriteFn<T> = fn(&T, &mut dyn Write) -> io::Result<()>;

/// What an exporter writes besides its format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text {
    /// ANSI styles (the human reports): kept on a terminal, stripped in a file, in a
    /// pipe or under `NO_COLOR`.
    Styled,
    /// Exactly its format's bytes, wherever they go.
    Raw,
}

/// One format of results of type `T`.
pub(crate) struct Exporter<T: ?Sized> {
    write: WriteFn<T>,
    text: Text,
}

impl<T: ?Sized> Clone for Exporter<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Exporter<T> {}

impl<T: ?Sized> Exporter<T> {
    /// A format with ANSI styles (a human report).
    pub(crate) const fn styled(write: WriteFn<T>) -> Exporter<T> {
        Exporter {
            write,
            text: Text::Styled,
        }
    }

    /// A format of exact bytes (JSON, JUnit, CSV, HTML).
    pub(crate) const fn raw(write: WriteFn<T>) -> Exporter<T> {
        Exporter {
            write,
            text: Text::Raw,
        }
    }

    /// The bytes of `value` in this format, styles and all.
    pub(crate) fn render(self, value: &T) -> Vec<u8> {
        let mut bytes = Vec::new();
        // Writing to memory cannot fail; an exporter that did would show as a short text.
        let _ = (self.write)(value, &mut bytes);
        bytes
    }

    /// Prints `value` on stdout (styles kept only on a terminal).
    pub(crate) fn print(self, value: &T) {
        let bytes = self.render(value);
        match self.text {
            Text::Styled => terminal::out_styled_bytes(&bytes),
            Text::Raw => terminal::out_bytes(&bytes),
        }
    }

    /// Writes `value` to the file `path`, atomically, without styles.
    pub(crate) fn save(self, path: &Path, value: &T) -> Result<(), Fault> {
        let bytes = self.render(value);
        match self.text {
            Text::Styled => {
                let text = String::from_utf8_lossy(&bytes);
                files::write_atomic(path, style::plain(&text).as_bytes())
            }
            Text::Raw => files::write_atomic(path, &bytes),
        }
    }
}
