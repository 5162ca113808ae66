//! An exporter: one format of one kind of result, written to any [`Write`]r, and how its
//! text reaches the reader (stdout, or a file written atomically).
//!
//! Each format's module (`human`, `json`, `junit`, `csv`, `html`) writes from the
//! results model alone; the commands pick an [`Exporter`] and a destination.

use std::io::{self, Write};
use std::path::Path;

use super::{style, terminal};
use crate::cli::exit::Fault;
use crate::paths::files;

/// Stdout, noting whether a write to it failed.
struct Stdout<W> {
    out: W,
    failed: bool,
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.out.write(bytes);
        self.failed |= written.is_err();
        written
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.out.flush();
        self.failed |= flushed.is_err();
        flushed
    }
}

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

    /// Prints `value` on stdout (styles kept only on a terminal); exact bytes are streamed
    /// as written (a gradebook is written a student at a time). A write to stdout that
    /// fails is the call's failure (`terminal::stdout_failed`), but for a reader that went
    /// away (a closed pipe); a writer that fails for another reason (a journal that cannot
    /// be read back) is the call's failure too.
    pub(crate) fn print(self, value: &T) -> Result<(), Fault> {
        if self.text == Text::Styled {
            return terminal::out_styled_bytes(&self.render(value));
        }
        let mut out = Stdout {
            out: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            failed: false,
        };
        match (self.write)(value, &mut out).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if out.failed => terminal::stdout_failed(&e),
            Err(e) => {
                crate::cli::interrupt::check()?;
                Err(Fault::output(format!("cannot print the report: {e}")))
            }
        }
    }

    /// Writes `value` to the file `path`, atomically, without styles: exact bytes streamed
    /// into the temp file as written.
    pub(crate) fn save(self, path: &Path, value: &T) -> Result<(), Fault> {
        match self.text {
            Text::Styled => {
                let bytes = self.render(value);
                let text = String::from_utf8_lossy(&bytes);
                files::write_atomic(path, style::plain(&text).as_bytes())
            }
            Text::Raw => files::write_atomic_with(path, |out| (self.write)(value, out)),
        }
    }
}
