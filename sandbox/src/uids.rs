//! One uid per worker when the grader is root, leased from a range like isolate's boxes:
//! a run can then signal, trace or starve only processes of its own worker (in `basic`,
//! where no PID namespace separates runs, `kill(-1)` reaches nothing else), and the
//! per-user process cap is a per-worker cap.
//!
//! The range must be ids the grader's user namespace maps: a rootless container (Podman,
//! Docker with a remap, unprivileged LXC) maps 65,536 ids or fewer, and an unmapped uid
//! makes every `chown` and every `uid=` mount option fail with `EINVAL`. `range` takes
//! the usual range when it is mapped, else the top of the largest mapped stretch of ids
//! away from the system's and `nobody`'s; with none (a namespace that maps one id), there
//! is no range and each worker's box gets a user namespace of its own instead.
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

/// The fewest ids a range outside the usual one must hold: a worker each, on a machine
/// of a few cores.
const FEWEST: u32 = 16;

/// Ids never leased from a mapped stretch: the system's accounts (below 1,000), and
/// `nobody`/`nogroup` (65,534) and the 16-bit `-1` (65,535).
const RESERVED: [std::ops::Range<u64>; 2] = [0..1_000, 65_534..65_536];

/// The uids (and gids) workers may lease: ids the grader's user namespace maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// The first id.
    pub first: u32,
    /// How many.
    pub count: u32,
}

/// The range of this process's user namespace, or `None` when it maps too few ids.
pub(crate) fn range() -> Option<Range> {
    let uids = fs::read_to_string("/proc/self/uid_map").ok()?;
    let gids = fs::read_to_string("/proc/self/gid_map").ok()?;
    range_from(&uids, &gids)
}

/// [`range`] on given contents of `uid_map` and `gid_map` (`inside outside count` lines).
fn range_from(uid_map: &str, gid_map: &str) -> Option<Range> {
    let usual = u64::from(FIRST)..u64::from(FIRST) + u64::from(COUNT);
    let (uids, gids) = (extents(uid_map), extents(gid_map));
    let mapped = |ids: &std::ops::Range<u64>| {
        [&uids, &gids]
            .iter()
            .all(|map| map.iter().any(|e| e.start <= ids.start && ids.end <= e.end))
    };
    if mapped(&usual) {
        return Some(Range {
            first: FIRST,
            count: COUNT,
        });
    }
    // Every stretch mapped for both uids and gids, cut around the reserved ids.
    let mut stretches: Vec<std::ops::Range<u64>> = uids
        .iter()
        .flat_map(|u| {
            gids.iter()
                .map(|g| u.start.max(g.start)..u.end.min(g.end))
                .filter(|both| !both.is_empty())
        })
        .collect();
    for reserved in RESERVED {
        stretches = stretches
            .into_iter()
            .flat_map(|s| {
                [
                    s.start..s.end.min(reserved.start),
                    s.start.max(reserved.end)..s.end,
                ]
            })
            .filter(|s| !s.is_empty())
            .collect();
    }
    let widest = stretches
        .into_iter()
        .max_by_key(|s| (s.end - s.start, s.start))?;
    let count = (widest.end - widest.start).min(u64::from(COUNT));
    (count >= u64::from(FEWEST)).then(|| Range {
        first: u32::try_from(widest.end - count).expect("a mapped id"),
        count: u32::try_from(count).expect("at most COUNT"),
    })
}

/// The ids a `uid_map` or `gid_map` maps, inside the namespace.
fn extents(map: &str) -> Vec<std::ops::Range<u64>> {
    map.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().map(|f| f.parse::<u64>().ok());
            let (inside, _outside, count) = (fields.next()??, fields.next()??, fields.next()??);
            // Ids stop below 2^32 - 1, which is `-1`, never an id.
            Some(inside..(inside + count).min(u64::from(u32::MAX)))
        })
        .collect()
}

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

/// Leases a free uid of `range`. Needs root.
pub(crate) fn lease(range: Range) -> io::Result<Lease> {
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
    for uid in (range.first..range.first + range.count).filter(|uid| !taken.contains(uid)) {
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
        "all {} uids from {} are in use by other workers",
        range.count, range.first
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
        let usual = Range {
            first: FIRST,
            count: COUNT,
        };
        let a = lease(usual).unwrap();
        let b = lease(usual).unwrap();
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

    #[test]
    fn the_range_is_what_the_namespace_maps() {
        let usual = Some(Range {
            first: FIRST,
            count: COUNT,
        });
        // The machine's own namespace, and one that maps the usual range.
        let all = "0 0 4294967295\n";
        assert_eq!(range_from(all, all), usual);
        let wide = "0 100000 1000000\n1000000 2000000 1000\n";
        assert_eq!(range_from(wide, wide), usual);
        // Rootless Podman: 0..65535; the top of it, below nobody.
        let podman = "0 1000 1\n1 100000 65536\n";
        assert_eq!(
            range_from(podman, podman),
            Some(Range {
                first: 65_534 - COUNT,
                count: COUNT
            })
        );
        // Only the ids both maps hold.
        assert_eq!(
            range_from("0 0 65536\n", "0 0 2000\n"),
            Some(Range {
                first: 1_000,
                count: 1_000
            })
        );
        // `unshare -r` maps one id; a narrow map, nothing but system ids.
        assert_eq!(range_from("0 0 1\n", "0 0 1\n"), None);
        assert_eq!(range_from("0 0 1000\n", "0 0 1000\n"), None);
        assert_eq!(range_from("", ""), None);
        assert_eq!(range_from("garbage\n", "0 0 4294967295\n"), None);
    }
}
