//! The scratch folder a program runs in: one per worker, owned by the user the program
//! runs as, emptied (and its mode restored) before every run, so each run starts in an
//! empty folder of its own, and removed when grading ends.
//!
//! Why one per worker rather than one per run: creating and removing a folder costs about
//! 50 µs on these machines' overlay file system, a tenth of a trivial run's overhead
//! budget; emptying an already empty folder is one directory read.
//!
//! Whatever a run leaves (a chain of folders thousands deep, folders it locked, links to
//! folders outside, FIFOs) is removed by [`remove`], which neither follows
//! links nor needs a descriptor per level, so a hostile program cannot make the cleanup
//! fail (and with it every later run of the batch).

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::remove;

/// A scratch folder; removed on drop.
#[derive(Debug)]
pub(crate) struct Scratch {
    path: PathBuf,
    user: Option<(u32, u32)>,
}

impl Scratch {
    /// Creates `parent/name`, mode 0700, owned by `user` when given.
    pub(crate) fn create(
        parent: &Path,
        name: &str,
        user: Option<(u32, u32)>,
    ) -> io::Result<Scratch> {
        let path = parent.join(name);
        // A folder left by a grader that was killed: its runs' leftovers go too.
        remove::remove_tree(&path).map_err(|e| cleanup_fault(&e))?;
        fs::create_dir(&path).map_err(|e| cannot(&path, "create", &e))?;
        let scratch = Scratch { path, user };
        scratch.own()?;
        Ok(scratch)
    }

    /// The folder.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Empties the folder and restores its mode and owner: whatever the last run left
    /// (files, folders it made unreadable, a changed mode) is gone.
    pub(crate) fn reset(&self) -> io::Result<()> {
        // Mode first: the run may have left its folder unreadable.
        self.own()?;
        let mut entries = fs::read_dir(&self.path).map_err(|e| cannot(&self.path, "read", &e))?;
        if entries.next().is_some() {
            drop(entries);
            remove::empty_dir(&self.path).map_err(|e| cleanup_fault(&e))?;
        }
        Ok(())
    }

    fn own(&self) -> io::Result<()> {
        fs::set_permissions(&self.path, fs::Permissions::from_mode(0o700))
            .map_err(|e| cannot(&self.path, "create", &e))?;
        if let Some((uid, gid)) = self.user {
            std::os::unix::fs::chown(&self.path, Some(uid), Some(gid))
                .map_err(|e| cannot(&self.path, "chown", &e))?;
        }
        Ok(())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = remove::remove_tree(&self.path);
    }
}

/// The error of a failed cleanup: the error names the entry that resisted (the folder
/// alone would not tell which of thousands).
fn cleanup_fault(error: &io::Error) -> io::Error {
    io::Error::other(error.to_string())
}

/// The error of `action` failing on `path`: `PATH: cannot ACTION: REASON`, worded as the
/// grader words a file it cannot use (its `files::cannot`, whose wording this keeps).
fn cannot(path: &Path, action: &str, error: &io::Error) -> io::Error {
    let reason = match error.kind() {
        io::ErrorKind::NotFound => "no such file or folder".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        // `f.txt/x`: name the file in the way, not the OS's "Not a directory".
        io::ErrorKind::NotADirectory => path
            .ancestors()
            .find(|p| !p.as_os_str().is_empty() && fs::metadata(p).is_ok_and(|m| !m.is_dir()))
            .map_or_else(
                || "a folder in the path is a file".to_owned(),
                |file| format!("{} is a file, not a folder", spelt(file)),
            ),
        _ => error.to_string(),
    };
    io::Error::other(format!("{}: cannot {action}: {reason}", spelt(path)))
}

/// `path` spelt losslessly, as the grader spells a name (its `spelling::name`): its UTF-8
/// as it is, and each byte that is not UTF-8 as `\xNN`.
fn spelt(path: &Path) -> String {
    use std::fmt::Write as _;
    use std::os::unix::ffi::OsStrExt as _;
    let bytes = path.as_os_str().as_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// Whether `dir` holds nothing.
#[cfg(test)]
fn is_empty(dir: &Path) -> std::io::Result<bool> {
    Ok(fs::read_dir(dir)?.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_empties_what_a_run_left_even_locked_folders() {
        let parent = tempfile::tempdir().unwrap();
        let scratch = Scratch::create(parent.path(), "run-0", None).unwrap();
        let deep = scratch.path().join("a/b");
        fs::create_dir_all(&deep).unwrap();
        fs::write(deep.join("f"), "x").unwrap();
        fs::set_permissions(scratch.path().join("a"), fs::Permissions::from_mode(0o000)).unwrap();
        fs::set_permissions(scratch.path(), fs::Permissions::from_mode(0o500)).unwrap();
        scratch.reset().unwrap();
        assert!(is_empty(scratch.path()).unwrap());
        let mode = fs::metadata(scratch.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let path = scratch.path().to_path_buf();
        drop(scratch);
        assert!(!path.exists());
    }

    #[test]
    fn a_deep_chain_left_by_a_run_goes_on_reset_and_on_drop() {
        let parent = crate::remove::tests::temp();
        fs::write(parent.path().join("outside"), "keep").unwrap();
        let scratch = Scratch::create(parent.path(), "run-0", None).unwrap();
        for _ in 0..2 {
            // What a hostile run leaves: 5,000 levels (a full path of 10,000 bytes), all
            // locked, a link out at the bottom; its own folder unreadable.
            let bottom = crate::remove::tests::build_chain(scratch.path(), "d", 5_000, 0o000);
            nix::unistd::symlinkat(&parent.path().join("outside"), &bottom, "out").unwrap();
            drop(bottom);
            fs::set_permissions(scratch.path(), fs::Permissions::from_mode(0o000)).unwrap();
            scratch.reset().unwrap();
            assert!(is_empty(scratch.path()).unwrap());
            let mode = fs::metadata(scratch.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        drop(crate::remove::tests::build_chain(
            scratch.path(),
            "d",
            5_000,
            0o000,
        ));
        let path = scratch.path().to_path_buf();
        drop(scratch);
        assert!(!path.exists());
        assert_eq!(fs::read(parent.path().join("outside")).unwrap(), b"keep");
        // A scratch folder a killed grader left behind is cleared when it is made again.
        fs::create_dir(&path).unwrap();
        drop(crate::remove::tests::build_chain(&path, "d", 5_000, 0o000));
        let scratch = Scratch::create(parent.path(), "run-0", None).unwrap();
        assert!(is_empty(scratch.path()).unwrap());
    }
}
