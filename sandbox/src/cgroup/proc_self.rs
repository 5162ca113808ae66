//! What the kernel says of this process's cgroups: where each hierarchy is mounted
//! (`/proc/self/mountinfo`) and which cgroup of each the process is in
//! (`/proc/self/cgroup`), parsed, and the folder that shows a cgroup of a hierarchy.

use std::path::{Path, PathBuf};

/// One line of `/proc/self/mountinfo`, the parts that matter here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mount {
    /// The directory of the hierarchy mounted (`/` unless a subtree is bind-mounted).
    pub(super) root: String,
    /// Where it is mounted.
    pub(super) point: PathBuf,
    /// `cgroup` (v1) or `cgroup2`.
    pub(super) fstype: String,
    /// The superblock options: for v1 they name the controllers.
    pub(super) options: Vec<String>,
}

/// The lines of `/proc/self/mountinfo` (those it cannot read are left out).
pub(super) fn parse_mountinfo(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let before: Vec<&str> = before.split(' ').collect();
            let mut after = after.split(' ');
            let fstype = after.next()?;
            let _source = after.next()?;
            let options = after.next().unwrap_or("");
            Some(Mount {
                root: unescape(before.get(3)?),
                point: PathBuf::from(unescape(before.get(4)?)),
                fstype: fstype.to_owned(),
                options: options.split(',').map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// Undoes mountinfo's octal escapes (`\040` for a space).
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|digits| {
            digits
                .iter()
                .all(|d| (b'0'..=b'7').contains(d))
                .then(|| digits.iter().fold(0u32, |n, d| n * 8 + u32::from(d - b'0')))
        });
        match octal {
            Some(code) if bytes[i] == b'\\' && code <= 0xff => {
                out.push(code as u8);
                i += 4;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One line of `/proc/self/cgroup`: `id:controllers:path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Membership {
    /// The hierarchy's number (0 for v2).
    pub(super) id: u32,
    /// The v1 controllers of the hierarchy (empty for v2; `name=systemd` for a named one).
    pub(super) controllers: Vec<String>,
    /// The cgroup's path in the hierarchy.
    pub(super) path: String,
}

/// The lines of `/proc/self/cgroup` (those it cannot read are left out).
pub(super) fn parse_proc_cgroup(text: &str) -> Vec<Membership> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let id = parts.next()?.parse().ok()?;
            let controllers = parts.next()?;
            Some(Membership {
                id,
                controllers: controllers
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned)
                    .collect(),
                path: parts.next()?.to_owned(),
            })
        })
        .collect()
}

/// The directory of cgroup `path` in the v1 hierarchy of `controller` (`None`: the v2
/// one), through a mount that shows it.
pub(super) fn own_dir(mounts: &[Mount], controller: Option<&str>, path: &str) -> Option<PathBuf> {
    mounts
        .iter()
        .filter(|m| match controller {
            Some(c) => m.fstype == "cgroup" && m.options.iter().any(|o| o == c),
            None => m.fstype == "cgroup2",
        })
        .find_map(|m| {
            let below = Path::new(path).strip_prefix(&m.root).ok()?;
            Some(if below.as_os_str().is_empty() {
                m.point.clone()
            } else {
                m.point.join(below)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1_MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const V1_PROC_CGROUP: &str = "\
9:name=systemd:/
8:pids:/
4:memory:/process_api/1acca6a9c1fcb789285c2665278126b0
2:cpuacct:/
1:cpu:/
0::/
";

    #[test]
    fn mountinfo_and_proc_cgroup_locate_the_grader_s_own_cgroups() {
        let mounts = parse_mountinfo(V1_MOUNTINFO);
        assert_eq!(mounts.len(), 7);
        assert_eq!(mounts[3].point, Path::new("/sys/fs/cgroup/memory"));
        assert_eq!(mounts[3].options, ["rw", "memory"]);
        let memberships = parse_proc_cgroup(V1_PROC_CGROUP);
        assert_eq!(memberships[2].controllers, ["memory"]);
        assert_eq!(memberships[5].id, 0);
        assert!(memberships[5].controllers.is_empty());
        assert_eq!(
            own_dir(&mounts, Some("memory"), &memberships[2].path),
            Some(PathBuf::from(
                "/sys/fs/cgroup/memory/process_api/1acca6a9c1fcb789285c2665278126b0"
            ))
        );
        assert_eq!(
            own_dir(&mounts, Some("pids"), "/"),
            Some(PathBuf::from("/sys/fs/cgroup/pids"))
        );
        assert_eq!(
            own_dir(&mounts, None, "/"),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        // A co-mounted hierarchy, a container's bind-mounted subtree, an escaped space.
        let mounts = parse_mountinfo(
            "1 0 0:1 / /cg/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n\
             2 0 0:2 /docker/abc /cg/my\\040memory rw - cgroup cgroup rw,memory\n",
        );
        assert_eq!(
            own_dir(&mounts, Some("cpuacct"), "/a"),
            Some(PathBuf::from("/cg/cpu,cpuacct/a"))
        );
        assert_eq!(
            own_dir(&mounts, Some("memory"), "/docker/abc/x"),
            Some(PathBuf::from("/cg/my memory/x"))
        );
        assert_eq!(own_dir(&mounts, Some("memory"), "/elsewhere"), None);
        assert_eq!(own_dir(&mounts, Some("pids"), "/"), None);
    }
}
