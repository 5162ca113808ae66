//! The scratch folder a program runs in: one per worker, owned by the user the program
//! runs as, emptied (and its mode restored) before every run, so each run starts in an
//! empty folder of its own, and removed when grading ends.
//!
//! Why one per worker rather than one per run: creating and removing a folder costs about
//! 50 µs on these machines' overlay file system, a tenth of a trivial run's overhead
//! budget; emptying an already empty folder is one directory read.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::files;
use crate::status::Fault;

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
    ) -> Result<Scratch, Fault> {
        let path = parent.join(name);
        let _ = fs::remove_dir_all(&path);
        fs::create_dir(&path).map_err(|e| files::cannot(&path, "create", &e))?;
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
    pub(crate) fn reset(&self) -> Result<(), Fault> {
        let mut entries =
            fs::read_dir(&self.path).map_err(|e| files::cannot(&self.path, "read", &e))?;
        if entries.next().is_some() {
            // Restore every folder's permissions first: a run may have left a folder
            // that even its owner cannot list.
            unlock(&self.path);
            fs::remove_dir_all(&self.path).map_err(|e| files::cannot(&self.path, "empty", &e))?;
            fs::create_dir(&self.path).map_err(|e| files::cannot(&self.path, "create", &e))?;
        }
        self.own()
    }

    fn own(&self) -> Result<(), Fault> {
        fs::set_permissions(&self.path, fs::Permissions::from_mode(0o700))
            .map_err(|e| files::cannot(&self.path, "create", &e))?;
        if let Some((uid, gid)) = self.user {
            std::os::unix::fs::chown(&self.path, Some(uid), Some(gid))
                .map_err(|e| files::cannot(&self.path, "chown", &e))?;
        }
        Ok(())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        unlock(&self.path);
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Gives the owner full access to `dir` and every folder below it (never following
/// symbolic links), so that it can be removed.
fn unlock(dir: &Path) {
    let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o700));
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            unlock(&entry.path());
        }
    }
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
}
