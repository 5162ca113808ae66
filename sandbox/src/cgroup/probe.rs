//! What the machine has: the hierarchy to make box groups in, v1 (`memory`, `cpuacct` and
//! `pids` each mounted) or v2 (placed by `v2.rs`'s rules), or why there is none.

use std::fs;
use std::path::PathBuf;

use super::access::writable;
use super::proc_self::{Membership, Mount, own_dir, parse_mountinfo, parse_proc_cgroup};
use super::v2;

/// The v1 controllers a box group needs, each its own hierarchy (or co-mounted).
const V1_CONTROLLERS: [&str; 3] = ["memory", "cpuacct", "pids"];

/// Where the grader's own cgroups are: the directory of the cgroup it runs in, per
/// controller. Box groups are made below these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hierarchy {
    /// cgroup v1: one hierarchy per controller.
    V1 {
        /// The grader's cgroup in the `memory` hierarchy.
        memory: PathBuf,
        /// The grader's cgroup in the `cpuacct` hierarchy.
        cpuacct: PathBuf,
        /// The grader's cgroup in the `pids` hierarchy.
        pids: PathBuf,
    },
    /// cgroup v2: one hierarchy.
    V2 {
        /// The grader's cgroup (or, when the grader sits in its own `grader-<pid>/self`
        /// leaf, the cgroup above that).
        parent: PathBuf,
    },
}

/// Finds the cgroup hierarchy to use: v1 when its `memory`, `cpuacct` and `pids`
/// controllers are all mounted and writable, else v2 when `memory` and `pids` are
/// available and writable. `Err` says what each lacks (for `grader doctor` and for the
/// error of a tier that needs cgroups).
pub fn probe() -> Result<Hierarchy, String> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo")
        .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
    let cgroup = fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    probe_from(&mountinfo, &cgroup)
}

/// [`probe`] on given contents of `/proc/self/mountinfo` and `/proc/self/cgroup`.
pub(super) fn probe_from(mountinfo: &str, cgroup: &str) -> Result<Hierarchy, String> {
    let mounts = parse_mountinfo(mountinfo);
    let memberships = parse_proc_cgroup(cgroup);
    let v1 = probe_v1(&mounts, &memberships);
    let Err(v1_missing) = v1 else { return v1 };
    let v2 = v2::probe(&mounts, &memberships).map(|parent| Hierarchy::V2 { parent });
    let Err(v2_missing) = v2 else { return v2 };
    Err(format!("cgroup v1: {v1_missing}; cgroup v2: {v2_missing}"))
}

/// The v1 hierarchies of the controllers a box group needs (`Err`: what each lacks).
fn probe_v1(mounts: &[Mount], memberships: &[Membership]) -> Result<Hierarchy, String> {
    let mut dirs = Vec::new();
    let mut missing = Vec::new();
    for controller in V1_CONTROLLERS {
        let found = memberships
            .iter()
            .find(|m| m.controllers.iter().any(|c| c == controller))
            .ok_or_else(|| format!("the process is in no {controller} hierarchy"))
            .and_then(|m| {
                own_dir(mounts, Some(controller), &m.path)
                    .ok_or_else(|| format!("no {controller} hierarchy is mounted"))
            })
            .and_then(|dir| writable(&dir).map(|()| dir));
        match found {
            Ok(dir) => dirs.push(dir),
            Err(why) => missing.push(why),
        }
    }
    match <[PathBuf; 3]>::try_from(dirs) {
        Ok([memory, cpuacct, pids]) => Ok(Hierarchy::V1 {
            memory,
            cpuacct,
            pids,
        }),
        Err(_) => Err(missing.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::cgroup::fixtures::put;

    #[test]
    fn probe_prefers_v1_then_v2_and_says_what_is_missing() {
        let t = tempfile::tempdir().unwrap();
        let t = t.path().display();
        let v1 = format!(
            "1 0 0:1 / {t}/memory rw - cgroup cgroup rw,memory\n\
             2 0 0:2 / {t}/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n\
             3 0 0:3 / {t}/pids rw - cgroup cgroup rw,pids\n"
        );
        let v2 = format!("4 0 0:4 / {t}/unified rw - cgroup2 cgroup2 rw\n");
        let cgroup = "4:memory:/api/x\n3:pids:/\n2:cpu,cpuacct:/\n0::/grader-7/self\n";
        for dir in [
            "memory/api/x",
            "cpu,cpuacct",
            "pids",
            "unified/grader-7/self",
        ] {
            fs::create_dir_all(format!("{t}/{dir}")).unwrap();
        }
        put(
            Path::new(&format!("{t}/unified")),
            "cgroup.controllers",
            "hugetlb\n",
        );

        assert_eq!(
            probe_from(&format!("{v1}{v2}"), cgroup),
            Ok(Hierarchy::V1 {
                memory: format!("{t}/memory/api/x").into(),
                cpuacct: format!("{t}/cpu,cpuacct").into(),
                pids: format!("{t}/pids").into(),
            })
        );
        let no_pids = v1.lines().take(2).collect::<Vec<_>>().join("\n") + "\n";
        let why = probe_from(&format!("{no_pids}{v2}"), cgroup).unwrap_err();
        assert!(
            why.contains("no pids hierarchy is mounted")
                && why.contains("offers no memory or pids controller")
                && why.contains("hugetlb"),
            "{why}"
        );
        // Pure v2: the groups go beside the grader's own leaf, not below it.
        put(
            Path::new(&format!("{t}/unified")),
            "cgroup.controllers",
            "cpu memory pids\n",
        );
        assert_eq!(
            probe_from(&v2, cgroup),
            Ok(Hierarchy::V2 {
                parent: format!("{t}/unified").into()
            })
        );
        let why = probe_from("", "").unwrap_err();
        assert!(
            why.contains("no memory hierarchy") && why.contains("no v2 hierarchy"),
            "{why}"
        );
    }

    #[test]
    fn on_v2_a_shared_cgroup_sends_the_groups_to_the_delegated_one_above() {
        let t = tempfile::tempdir().unwrap();
        let t = t.path().display();
        let v2 = format!("4 0 0:4 / {t}/unified rw - cgroup2 cgroup2 rw\n");
        let cgroup = "0::/deleg/shell\n";
        let root = PathBuf::from(format!("{t}/unified"));
        let (deleg, shell) = (root.join("deleg"), root.join("deleg/shell"));
        for dir in [&root, &deleg, &shell] {
            fs::create_dir_all(dir).unwrap();
            put(dir, "cgroup.controllers", "cpu memory pids\n");
            put(dir, "cgroup.procs", "");
        }
        let own = format!("{}\n", std::process::id());
        // The grader alone in its cgroup: there (it moves into a leaf when it enables).
        put(&shell, "cgroup.procs", &own);
        let at = |dir: &Path| {
            Ok(Hierarchy::V2 {
                parent: dir.to_path_buf(),
            })
        };
        assert_eq!(probe_from(&v2, cgroup), at(&shell));
        // Beside the user's shell: the delegated parent, which holds no process.
        put(&shell, "cgroup.procs", &format!("1\n{own}"));
        assert_eq!(probe_from(&v2, cgroup), at(&deleg));
        // A parent that holds processes cannot have groups with controllers: the next.
        put(&deleg, "cgroup.procs", "2\n");
        assert_eq!(probe_from(&v2, cgroup), at(&root));
        // One without the controllers stops the search, saying how to get a cgroup.
        put(&deleg, "cgroup.procs", "");
        put(&deleg, "cgroup.controllers", "cpu\n");
        let why = probe_from(&v2, cgroup).unwrap_err();
        assert!(
            why.contains("deleg/shell holds processes other than the grader")
                && why.contains("systemd-run --user --scope -p Delegate=yes"),
            "{why}"
        );
    }
}
