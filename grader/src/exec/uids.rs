//! One uid per worker when the grader is root, leased from a range like isolate's boxes:
//! a run can then signal, trace or starve only processes of its own worker (in `basic`,
//! where no PID namespace separates runs, `kill(-1)` reaches nothing else), and the
//! per-user process cap is a per-worker cap.
//!
//! A lease is an exclusive `flock` on a file named for the uid in a root-only folder, held
//! for the life of the worker: two graders running at once never share a uid, and a
//! grader that was killed releases its leases with its descriptors.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use nix::fcntl::{Flock, FlockArg};

/// The first uid (and gid) of the range: far from the ids distributions hand out
/// (below 65,536) and from user-namespace ranges (100,000 and up in steps of 65,536).
pub(crate) const FIRST: u32 = 990_000;
/// How many uids the range holds: workers of all graders running at once.
pub(crate) const COUNT: u32 = 1_000;

/// Where the lock files are.
const LOCKS: &str = "/run/grader-uids";

/// A uid (used as the gid too) held by this worker.
#[derive(Debug)]
pub(crate) struct Lease {
    uid: u32,
    _lock: Flock<File>,
}

impl Lease {
    /// The uid and gid.
    pub(crate) fn ids(&self) -> (u32, u32) {
        (self.uid, self.uid)
    }
}

/// Leases a free uid of the range. Needs root.
pub(crate) fn lease() -> io::Result<Lease> {
    let dir = Path::new(LOCKS);
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    // A lock folder someone else could write is no lock at all.
    let meta = fs::symlink_metadata(dir)?;
    if !meta.is_dir() || meta.uid() != 0 || meta.permissions().mode() & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "{LOCKS}: must be a folder owned by root and writable only by it"
        )));
    }
    let taken = known_ids();
    for uid in (FIRST..FIRST + COUNT).filter(|uid| !taken.contains(uid)) {
        let file = File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir.join(uid.to_string()))?;
        if let Ok(lock) = Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            return Ok(Lease { uid, _lock: lock });
        }
    }
    Err(io::Error::other(format!(
        "all {COUNT} uids from {FIRST} are in use by other workers"
    )))
}

/// Uids and gids the machine's account files name: never leased, so a run never acts as
/// a real account.
fn known_ids() -> Vec<u32> {
    let mut ids = Vec::new();
    for file in ["/etc/passwd", "/etc/group"] {
        if let Ok(text) = fs::read_to_string(file) {
            ids.extend(
                text.lines()
                    .filter_map(|line| line.split(':').nth(2)?.parse::<u32>().ok()),
            );
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_are_distinct_while_held_and_free_again_after() {
        if !nix::unistd::geteuid().is_root() {
            return;
        }
        let a = lease().unwrap();
        let b = lease().unwrap();
        assert_ne!(a.ids(), b.ids());
        assert!((FIRST..FIRST + COUNT).contains(&a.ids().0));
        let uid = a.ids().0;
        drop(a);
        // Free again once dropped (while `b` is still held).
        let file = File::open(Path::new(LOCKS).join(uid.to_string())).unwrap();
        let again = Flock::lock(file, FlockArg::LockExclusiveNonblock);
        assert!(again.is_ok(), "the lease of uid {uid} outlived its drop");
        drop(again);
        drop(b);
    }
}
