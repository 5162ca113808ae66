//! Where a grader's box groups are: below the cgroup the grader runs in (per controller
//! on v1), `grader-<pid>/` holds one group per worker, `grader-<pid>/<name>/`, and on v2
//! the grader's own leaf `grader-<pid>/self` (`v2.rs`). Directories of graders that died
//! are removed at the next `Group::create` when they are empty.

use std::fs;
use std::io;
use std::path::Path;

/// The name of the grader's own leaf below `grader-<pid>` on v2 (see `v2.rs`).
pub(super) const LEAF: &str = "self";

/// The folder of the groups of the grader whose pid is `pid`.
pub(super) fn grader_folder(pid: u32) -> String {
    format!("grader-{pid}")
}

/// The pid in a `grader-<pid>` directory name.
pub(super) fn grader_pid(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("grader-")?;
    digits
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| digits.parse().ok())?
}

/// Whether `name` may name a box group: one folder, neither the grader's leaf nor a
/// grader's folder.
pub(super) fn check_name(name: &str) -> io::Result<()> {
    if name.is_empty()
        || name.contains('/')
        || name == "."
        || name == ".."
        || name == LEAF
        || grader_pid(name).is_some()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name:?} cannot name a box group"),
        ));
    }
    Ok(())
}

/// Removes `grader-<pid>` directories below `base` of graders no longer running, with
/// their groups (and v2 leaf), when they hold no process. Our own and live graders' stay.
pub(super) fn remove_stale(base: &Path, own: u32) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(grader_pid) else {
            continue;
        };
        if pid == own || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let dir = entry.path();
        if let Ok(groups) = fs::read_dir(&dir) {
            for group in groups.flatten() {
                if group.file_type().is_ok_and(|t| t.is_dir()) {
                    let _ = fs::remove_dir(group.path());
                }
            }
        }
        let _ = fs::remove_dir(&dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grader_folders_are_told_by_name() {
        assert_eq!(grader_pid("grader-123"), Some(123));
        assert_eq!(grader_pid("grader-"), None);
        assert_eq!(grader_pid("grader-+1"), None);
        assert_eq!(grader_pid("w0"), None);
    }
}
