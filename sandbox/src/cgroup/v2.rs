//! cgroup v2's rules for where box groups may go, and enabling their controllers.
//!
//! The "no internal processes" rule: a cgroup that holds processes cannot enable
//! controllers for its children (the root is exempt). When the grader's own cgroup holds
//! the grader, it moves itself into the leaf `grader-<pid>/self` and then enables
//! `memory` and `pids` (everything it starts outside a box goes there too). When other
//! processes share its cgroup (an unprivileged user's shell in the leaf of the subtree
//! systemd delegated to it), it does not move them: the groups go below the nearest
//! cgroup above that it may write and that holds no process (the delegated subtree's
//! top), and each run's first process moves there from the grader's cgroup, which the v2
//! rules allow below a common writable parent. With none, [`probe`] says to start the
//! grader in a cgroup of its own (`systemd-run --user --scope -p Delegate=yes`).
//! The `cpu` controller is not needed: `cpu.stat`'s `usage_usec` is kept by the core of
//! every v2 cgroup.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::access::{context, writable, write_path};
use super::layout::{LEAF, grader_pid};
use super::proc_self::{Membership, Mount, own_dir};

/// The v2 controllers a box group needs enabled.
const V2_CONTROLLERS: [&str; 2] = ["memory", "pids"];

/// The v2 cgroup to make box groups below, as the rules above place them (`Err`: why
/// there is none).
pub(super) fn probe(mounts: &[Mount], memberships: &[Membership]) -> Result<PathBuf, String> {
    let membership = memberships
        .iter()
        .find(|m| m.id == 0 && m.controllers.is_empty())
        .ok_or("the process is in no v2 hierarchy")?;
    let mut path = membership.path.as_str();
    // Inside our own (or a parent grader's) leaf, the groups go beside the leaf's parent.
    if let Some((above, leaf)) = path.rsplit_once('/')
        && leaf == LEAF
        && let Some((base, grader)) = above.rsplit_once('/')
        && grader_pid(grader).is_some()
    {
        path = if base.is_empty() { "/" } else { base };
    }
    let dir = own_dir(mounts, None, path).ok_or("no cgroup2 hierarchy is mounted")?;
    let top = mounts
        .iter()
        .filter(|m| m.fstype == "cgroup2")
        .find(|m| dir.starts_with(&m.point))
        .map_or_else(|| dir.clone(), |m| m.point.clone());
    if dir == top || !holds_others(&dir) {
        usable(&dir)?;
        return Ok(dir);
    }
    // Others share the grader's cgroup (a user's shell in its delegated leaf): the groups
    // go below the nearest cgroup above that the grader may write and that holds no
    // process itself, as systemd's `Delegate=yes` gives a user (the v2 rules let the
    // grader move its runs there from its own cgroup, below the same writable parent).
    let mut above = dir.parent();
    while let Some(candidate) = above.filter(|a| a.starts_with(&top)) {
        if candidate == top || !holds_others(candidate) {
            if usable(candidate).is_ok() && writable(&candidate.join("cgroup.procs")).is_ok() {
                return Ok(candidate.to_path_buf());
            }
            break;
        }
        above = candidate.parent();
    }
    Err(format!(
        "{} holds processes other than the grader, and no cgroup above it is the grader's \
         to write; start the grader in a cgroup of its own: systemd-run --user --scope -p \
         Delegate=yes grader ...",
        dir.display()
    ))
}

/// Whether v2 cgroup `dir` offers the controllers a box group needs and may be written.
fn usable(dir: &Path) -> Result<(), String> {
    let controllers = fs::read_to_string(dir.join("cgroup.controllers"))
        .map_err(|e| format!("{}/cgroup.controllers: {e}", dir.display()))?;
    let absent: Vec<&str> = V2_CONTROLLERS
        .into_iter()
        .filter(|c| !lists(&controllers, c))
        .collect();
    if !absent.is_empty() {
        return Err(format!(
            "{} offers no {} controller (its cgroup.controllers: {})",
            dir.display(),
            absent.join(" or "),
            match controllers.trim() {
                "" => "none",
                listed => listed,
            }
        ));
    }
    writable(dir)
}

/// Whether v2 cgroup `dir` holds a process other than this one (one it cannot read
/// counts as such).
fn holds_others(dir: &Path) -> bool {
    let own = std::process::id();
    match fs::read_to_string(dir.join("cgroup.procs")) {
        Ok(text) => text
            .lines()
            .any(|line| line.trim().parse::<u32>() != Ok(own)),
        Err(e) => e.kind() != io::ErrorKind::NotFound,
    }
}

/// Whether a space-separated controller list (`cgroup.controllers`,
/// `cgroup.subtree_control`) names `controller`.
fn lists(text: &str, controller: &str) -> bool {
    text.split_whitespace()
        .any(|word| word.trim_start_matches('+') == controller)
}

/// Enables `memory` and `pids` for the children of `parent` (the grader's own cgroup) and
/// of `grader` (its `grader-<pid>` below it), moving the grader into its own leaf when it
/// is what keeps `parent` from enabling them.
pub(super) fn enable(parent: &Path, grader: &Path) -> io::Result<()> {
    fs::create_dir_all(grader).map_err(|e| context(grader, &e))?;
    let enable = |dir: &Path| -> io::Result<()> {
        let control = dir.join("cgroup.subtree_control");
        let enabled = fs::read_to_string(&control).map_err(|e| context(&control, &e))?;
        if V2_CONTROLLERS.iter().all(|c| lists(&enabled, c)) {
            return Ok(());
        }
        let wanted: Vec<String> = V2_CONTROLLERS.iter().map(|c| format!("+{c}")).collect();
        fs::write(&control, wanted.join(" "))
    };
    match enable(parent) {
        Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
            let leaf = grader.join(LEAF);
            fs::create_dir_all(&leaf).map_err(|e| context(&leaf, &e))?;
            write_path(&leaf.join("cgroup.procs"), "0")?;
            enable(parent).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "{} holds processes other than the grader, so it cannot enable \
                         memory and pids for the grader's cgroups; start the grader in a \
                         cgroup of its own (systemd-run --scope -p Delegate=yes): {e}",
                        parent.display()
                    ),
                )
            })?;
        }
        other => other.map_err(|e| context(&parent.join("cgroup.subtree_control"), &e))?,
    }
    enable(grader).map_err(|e| context(&grader.join("cgroup.subtree_control"), &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controller_lists_are_read_word_by_word() {
        assert!(lists("cpu memory pids\n", "pids"));
        assert!(lists("+memory +pids", "memory"));
        assert!(!lists("hugetlb\n", "memory"));
    }
}
