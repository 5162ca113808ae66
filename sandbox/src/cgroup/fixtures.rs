//! What the tests of the box groups share: the kernel's files as it writes them, fake
//! hierarchies in a temporary folder, and for the real-kernel tests (root with cgroup
//! v1), the hierarchy and a way to run a program in a group.
//!
//! Tests only, and the folder's one cycle: the tests of `group.rs`, `figures.rs`,
//! `probe.rs` and `meter.rs` use these, which make the groups and hierarchies they test.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::group::Group;
use super::probe::{Hierarchy, probe};

/// Recorded on the project's machines (Linux 6.18, cgroup v1).
pub(super) const V1_OOM_CONTROL: &str = "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n";
/// v2 files as the kernel's cgroup-v2 documentation shows them.
pub(super) const V2_EVENTS: &str = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
pub(super) const V2_CPU_STAT: &str = "usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n\
    nr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n";

/// A pid above `PID_MAX_LIMIT` (2^22): never a live process.
pub(super) const DEAD: u32 = 4_194_305;

/// Writes `content` to `dir/name`, making `dir`.
pub(super) fn put(dir: &Path, name: &str, content: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join(name), content).unwrap();
}

/// What `dir/name` holds.
pub(super) fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap()
}

/// A fake v1 group below `base`, with the files the kernel would make.
pub(super) fn fake_v1(base: &Path, name: &str) -> Hierarchy {
    let own = format!("grader-{}", std::process::id());
    let [memory, cpuacct, pids] =
        ["memory", "cpuacct", "pids"].map(|c| base.join(c).join(&own).join(name));
    put(&memory, "memory.usage_in_bytes", "1048576\n");
    put(&memory, "memory.max_usage_in_bytes", "2097152\n");
    put(&memory, "memory.oom_control", V1_OOM_CONTROL);
    // Files only written start empty, to read back exactly what was written.
    put(&memory, "memory.limit_in_bytes", "");
    put(&memory, "memory.swappiness", "");
    put(&cpuacct, "cpuacct.usage", "5000000000\n");
    put(&pids, "pids.max", "");
    for dir in [&memory, &cpuacct, &pids] {
        put(dir, "cgroup.procs", "");
    }
    Hierarchy::V1 {
        memory: base.join("memory"),
        cpuacct: base.join("cpuacct"),
        pids: base.join("pids"),
    }
}

/// A fake v2 hierarchy with a group `name` below `base`; `peak` is the mode of
/// `memory.peak` (`None`: no such file).
pub(super) fn fake_v2(base: &Path, name: &str, peak: Option<u32>) -> PathBuf {
    let grader = base.join(format!("grader-{}", std::process::id()));
    let dir = grader.join(name);
    put(base, "cgroup.controllers", "cpuset cpu io memory pids\n");
    put(base, "cgroup.subtree_control", "\n");
    put(&grader, "cgroup.subtree_control", "\n");
    for file in ["memory.max", "memory.swap.max", "pids.max"] {
        put(&dir, file, "");
    }
    put(&dir, "memory.current", "1048576\n");
    put(
        &dir,
        "memory.events",
        "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n",
    );
    put(&dir, "cpu.stat", V2_CPU_STAT);
    put(&dir, "cgroup.procs", "");
    put(&dir, "cgroup.kill", "");
    if let Some(mode) = peak {
        put(&dir, "memory.peak", "1048576\n");
        fs::set_permissions(dir.join("memory.peak"), fs::Permissions::from_mode(mode)).unwrap();
    }
    dir
}

// Real-kernel tests: they make groups, run python3 in them and check the figures.

/// The v1 hierarchy to test on, or `None` (said) when this machine cannot: not root,
/// or no cgroup v1. CI has both, so there it must not skip.
pub(super) fn real_v1() -> Option<Hierarchy> {
    let why = if nix::unistd::geteuid().is_root() {
        match probe() {
            Ok(h @ Hierarchy::V1 { .. }) => return Some(h),
            Ok(Hierarchy::V2 { .. }) => "this machine has cgroup v2, not v1".to_owned(),
            Err(e) => e,
        }
    } else {
        "cgroups need root".to_owned()
    };
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must be root with cgroup v1 for this test: {why}"
    );
    eprintln!("skipped: {why}");
    None
}

/// Runs a Python script in `group`: `sh` joins it and execs Python.
pub(super) fn run_in(group: &Group, script: &str) -> Child {
    let python = if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    };
    // Both ways of joining: the launcher's, once, and each run's.
    let joins: Vec<String> = group
        .resident()
        .iter()
        .chain(&group.procs())
        .map(|p| format!("echo 0 > '{}'; ", p.display()))
        .collect();
    let joins = joins.concat();
    Command::new("sh")
        .arg("-c")
        .arg(format!("set -e; {joins}exec {python} -c \"$0\""))
        .arg(script)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Drops `group` and checks it left no directory behind.
pub(super) fn remove(group: Group) {
    let dirs = group.dirs.clone();
    drop(group);
    for dir in dirs {
        assert!(!dir.exists(), "{} was left behind", dir.display());
    }
}
