//! What killed graders leave in the compile cache: an entry is staged in a folder of its
//! own (`.compile-*`, and `.probe-*` for the check that the cache can be written) and
//! renamed into place, so a grader killed in between (SIGKILL, a second Ctrl-C) leaves
//! that folder behind. A live grader holds one for milliseconds; one older than [`STALE`]
//! is a dead grader's, and the first compile of each process removes them.

use sandbox::Locked as _;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The age past which a staging folder is a dead grader's.
const STALE: Duration = Duration::from_hours(1);

/// The names staging folders start with.
const STAGING: [&str; 2] = [".compile-", ".probe-"];

/// The caches swept by this process (a process uses one, but may be handed another).
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Removes the stale staging folders of `cache`, once per process.
pub(super) fn once(cache: &Path) {
    let mut swept = SWEPT.locked();
    if swept
        .get_or_insert_with(HashSet::new)
        .insert(cache.to_path_buf())
    {
        sweep(cache, SystemTime::now());
    }
}

/// Removes the staging folders of `cache` last changed more than [`STALE`] before `now`;
/// how many. Nothing else is touched, and a folder that cannot be removed is left.
fn sweep(cache: &Path, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(cache) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !STAGING.iter().any(|prefix| name.starts_with(prefix)) {
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|at| now.duration_since(at).ok())
            .is_some_and(|age| age > STALE);
        if meta.is_dir() && old && sandbox::remove::remove_tree(&entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_staging_folders_older_than_an_hour_go() {
        let cache = tempfile::tempdir().unwrap();
        let two_hours_ago = SystemTime::now() - Duration::from_hours(2);
        for (name, old) in [
            (".compile-old", true),
            (".probe-old", true),
            (".compile-new", false),
            ("0123abcd", true),
            (".other", true),
        ] {
            let dir = cache.path().join(name);
            fs::create_dir(&dir).unwrap();
            fs::write(dir.join("program"), b"x").unwrap();
            if old {
                fs::File::open(&dir)
                    .unwrap()
                    .set_modified(two_hours_ago)
                    .unwrap();
            }
        }
        assert_eq!(sweep(cache.path(), SystemTime::now()), 2);
        let mut left: Vec<String> = fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".compile-new", ".other", "0123abcd"]);
        // A live grader's folder goes once it is as old as a dead one's.
        assert_eq!(sweep(cache.path(), SystemTime::now() + STALE * 2), 1);
    }
}
