//! Opening, writing and checking cgroup files, naming the file in every error.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use nix::unistd::{AccessFlags, access};

use super::meter::write_at;

/// How a cgroup file is opened.
#[derive(Debug, Clone, Copy)]
pub(super) enum Access {
    Read,
    Write,
    ReadWrite,
}

/// Opens a cgroup file (never creating it), naming it in the error.
pub(super) fn open(path: &Path, access: Access) -> io::Result<File> {
    OpenOptions::new()
        .read(matches!(access, Access::Read | Access::ReadWrite))
        .write(matches!(access, Access::Write | Access::ReadWrite))
        .open(path)
        .map_err(|e| context(path, &e))
}

/// Writes `value` to the cgroup file at `path`.
pub(super) fn write_path(path: &Path, value: &str) -> io::Result<()> {
    write_at(&open(path, Access::Write)?, value).map_err(|e| context(path, &e))
}

/// `error`, naming `path`.
pub(super) fn context(path: &Path, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// Whether this process may write in `dir` (`Err` says why not).
pub(super) fn writable(dir: &Path) -> Result<(), String> {
    access(dir, AccessFlags::W_OK).map_err(|e| format!("{} is not writable ({e})", dir.display()))
}
