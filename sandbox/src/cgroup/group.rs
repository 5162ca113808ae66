//! Making a worker's box group, joining it, killing what is in it, and removing it.
//!
//! Who joins: on v1 the worker's launcher joins its groups once (`Group::resident`) and
//! every process of every run is born in them. Moving a process between v1 groups takes
//! a lock whose writer waits for an RCU grace period: about 0.1 ms of wall time per run
//! here, a seventh of a trivial run, and 8 to 15 ms when no other move came just before
//! (a worker's first). The launcher joins by its one thread (`tasks`), which the kernel
//! moves without that lock: 0.02 ms. On v2 the launcher cannot live in the group (it is
//! remade whole, see `figures.rs`), so each run's first process joins it (`Group::procs`) between
//! clone and exec.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::access::{Access, context, open};
use super::files::{Files, set_up};
use super::layout::{self, check_name, remove_stale};
use super::meter::write_at;
use super::probe::Hierarchy;
use super::v2;

/// How long [`Group::kill_all`] and removal wait for a group to empty.
const EMPTY_WITHIN: Duration = Duration::from_secs(2);

/// One worker's box group, on every controller.
#[derive(Debug)]
pub(crate) struct Group {
    /// The group's directories: memory, cpuacct, pids on v1; one on v2.
    pub(super) dirs: Vec<PathBuf>,
    pub(super) files: Files,
    /// The limits last written (the caller's figures), to write only changes.
    pub(super) memory_limit: Option<u64>,
    pub(super) max_processes: Option<u64>,
    pub(super) baseline: Baseline,
    /// The CPU and OOM-kill counters `finish` read, which the next `prepare` starts from
    /// (two reads a run fewer): nothing of a run is left between the two, and what the
    /// launcher does there (a few microseconds of CPU, on v1) only ever counts towards
    /// the early kill at the CPU limit, never the reported time.
    pub(super) carried: Option<(Duration, u64)>,
    /// Whether the group was made anew since [`Group::take_renewed`] last said so: a
    /// process that opened its `cgroup.procs` files must open them again.
    pub(super) renewed: bool,
    /// How many times it was made anew ([`Group::made`]).
    pub(super) made: u64,
}

/// The counters at `prepare`, which a run's figures are differences from (`figures.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Baseline {
    pub(super) cpu: Duration,
    pub(super) memory: u64,
    pub(super) oom_kills: u64,
}

impl Group {
    /// Makes the box group `name` below each of the grader's cgroups
    /// (`grader-<pid>/<name>`), first removing the empty directories of graders that died.
    /// On v2, enables `memory` and `pids` for it (see `v2.rs`).
    pub(crate) fn create(hierarchy: &Hierarchy, name: &str) -> io::Result<Group> {
        check_name(name)?;
        let pid = std::process::id();
        let mine = layout::grader_folder(pid);
        match hierarchy {
            Hierarchy::V1 {
                memory,
                cpuacct,
                pids,
            } => {
                let dirs: Vec<PathBuf> = [memory, cpuacct, pids]
                    .into_iter()
                    .map(|base| {
                        remove_stale(base, pid);
                        base.join(&mine).join(name)
                    })
                    .collect();
                let made = dirs
                    .iter()
                    .try_for_each(|dir| fs::create_dir_all(dir).map_err(|e| context(dir, &e)));
                made.and_then(|()| Group::at(dirs.clone()))
                    .inspect_err(|_| remove_dirs(&dirs))
            }
            Hierarchy::V2 { parent } => {
                remove_stale(parent, pid);
                let grader = parent.join(&mine);
                v2::enable(parent, &grader)?;
                let dir = grader.join(name);
                let dirs = vec![dir];
                fs::create_dir_all(&dirs[0])
                    .map_err(|e| context(&dirs[0], &e))
                    .and_then(|()| Group::at(dirs.clone()))
                    .inspect_err(|_| remove_dirs(&dirs))
            }
        }
    }

    /// Opens the group whose directories exist: three (memory, cpuacct, pids) for v1, one
    /// for v2.
    fn at(dirs: Vec<PathBuf>) -> io::Result<Group> {
        Ok(Group {
            files: set_up(&dirs)?,
            dirs,
            memory_limit: None,
            max_processes: None,
            baseline: Baseline::default(),
            carried: None,
            renewed: false,
            made: 0,
        })
    }

    /// Whether `prepare` made the group anew since the last call (its `cgroup.procs`
    /// files are then new files).
    pub(crate) fn take_renewed(&mut self) -> bool {
        std::mem::take(&mut self.renewed)
    }

    /// Says again that the group was made anew: its new files, taken by
    /// [`Group::take_renewed`], never reached the launcher.
    pub(crate) fn keep_renewed(&mut self) {
        self.renewed = true;
    }

    /// The `cgroup.procs` files each run's first process writes `0` to, to join the
    /// group: the one group on v2; none on v1, where the launcher lives in the groups.
    pub(crate) fn procs(&self) -> Vec<PathBuf> {
        match self.files {
            Files::V1 { .. } => Vec::new(),
            Files::V2 { .. } => self.all_procs(),
        }
    }

    /// The files the launcher writes `0` to once, at its start, so that its children are
    /// born in its groups (see the module's documentation): every v1 group's `tasks`,
    /// which moves the writing thread alone. The launcher has one thread then, so that is
    /// the whole process, and the kernel skips the process-wide lock a `cgroup.procs`
    /// write takes, whose first writer waits for an RCU grace period (8 to 15 ms here, of
    /// every worker's start). The
    /// launcher's own CPU time then shows in the samples (a few microseconds a run; the
    /// run's reported CPU time comes from reaping, without it), it counts as one process
    /// of the cap (see [`Group::prepare`]), and its few pages stay in the baseline. The
    /// launcher must keep the kernel's OOM killer off itself. Nothing on v2.
    pub(crate) fn resident(&self) -> Vec<PathBuf> {
        match self.files {
            Files::V1 { .. } => self.dirs.iter().map(|d| d.join("tasks")).collect(),
            Files::V2 { .. } => Vec::new(),
        }
    }

    /// Every `cgroup.procs` file of the group.
    pub(super) fn all_procs(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// How many times the group was made anew: its files change each time.
    pub(crate) fn made(&self) -> u64 {
        self.made
    }

    /// Kills every process in the group and waits (a bounded time) until it is empty: a
    /// safety net, the normal kill is the process group's. v2 uses `cgroup.kill`; v1
    /// SIGKILLs each listed pid, round after round, as a fork bomb may add more between.
    pub(crate) fn kill_all(&self) {
        self.kill_listed(&self.all_procs());
    }

    /// Kills every process listed in `procs` (see [`Group::kill_all`]).
    fn kill_listed(&self, procs: &[PathBuf]) {
        let v2_kill = match self.files {
            Files::V2 { .. } => open(&self.dirs[0].join("cgroup.kill"), Access::Write).ok(),
            Files::V1 { .. } => None,
        };
        // Without `cgroup.kill` (before Linux 5.14), the v1 way.
        let v2_kill = v2_kill.filter(|file| write_at(file, "1").is_ok());
        let own = std::process::id();
        let deadline = Instant::now() + EMPTY_WITHIN;
        let mut pause = Duration::from_micros(50);
        loop {
            // On v1 every process is listed once per controller.
            let mut pids: Vec<u32> = procs
                .iter()
                .filter_map(|path| fs::read_to_string(path).ok())
                .flat_map(|text| parse_pids(&text))
                .filter(|&pid| pid != own)
                .collect();
            pids.sort_unstable();
            pids.dedup();
            if pids.is_empty() || Instant::now() >= deadline {
                return;
            }
            if v2_kill.is_none() {
                for pid in pids {
                    if let Ok(pid) = i32::try_from(pid) {
                        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                    }
                }
            }
            // The killed take a moment to leave the list.
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// Removes the memory group and makes it afresh, to start from zero usage (and, on v2
    /// without a resettable peak, from a fresh peak). A straggler of the last run would
    /// keep the directory, so it is killed.
    pub(super) fn renew(&mut self) -> io::Result<()> {
        // Only the memory group's processes: the launcher lives in the others.
        self.kill_listed(&self.procs());
        let memory = &self.dirs[0];
        remove_group(memory).map_err(|e| context(memory, &e))?;
        fs::create_dir(memory).map_err(|e| context(memory, &e))?;
        self.files = set_up(&self.dirs)?;
        self.renewed = true;
        self.made += 1;
        self.memory_limit = None;
        if let Files::V2 { .. } = self.files {
            // One directory on v2: the process limit was renewed too.
            self.max_processes = None;
        }
        Ok(())
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill_all();
        remove_dirs(&self.dirs);
    }
}

/// Removes a group's directories and, when it was the last group, the grader's
/// `grader-<pid>` above them. Never fails: what cannot go is left for the next grader.
fn remove_dirs(dirs: &[PathBuf]) {
    for dir in dirs {
        let _ = remove_group(dir);
    }
    for dir in dirs {
        if let Some(parent) = dir.parent() {
            let _ = fs::remove_dir(parent);
        }
    }
}

/// Removes a group's directory, waiting (bounded) while the last processes leave it.
fn remove_group(dir: &Path) -> io::Result<()> {
    let deadline = Instant::now() + EMPTY_WITHIN;
    loop {
        match fs::remove_dir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            other => return other,
        }
    }
}

/// The pids of `cgroup.procs`.
fn parse_pids(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::process::ExitStatusExt;

    use super::*;
    use crate::cgroup::fixtures::{DEAD, fake_v1, put, real_v1, remove, run_in};

    #[test]
    fn pids_parse_as_the_kernel_writes_them() {
        assert_eq!(parse_pids("12\n345\n"), vec![12, 345]);
        assert_eq!(parse_pids(""), Vec::<u32>::new());
    }

    #[test]
    fn stale_directories_of_dead_graders_go_when_empty() {
        let t = tempfile::tempdir().unwrap();
        let h = fake_v1(t.path(), "w0");
        let base = t.path().join("memory");
        fs::create_dir_all(base.join(format!("grader-{DEAD}/w0"))).unwrap();
        fs::create_dir_all(base.join(format!("grader-{DEAD}/w1"))).unwrap();
        put(
            &t.path().join(format!("cpuacct/grader-{DEAD}/w0")),
            "busy",
            "",
        );
        fs::create_dir_all(base.join("grader-1/w0")).unwrap();
        fs::create_dir_all(base.join("grader-other")).unwrap();
        let _group = Group::create(&h, "w0").unwrap();
        assert!(!base.join(format!("grader-{DEAD}")).exists());
        assert!(t.path().join(format!("cpuacct/grader-{DEAD}/w0")).exists());
        assert!(base.join("grader-1/w0").exists(), "pid 1 is alive");
        assert!(base.join("grader-other").exists());
        assert!(Group::create(&h, "a/b").is_err());
        assert!(Group::create(&h, "self").is_err());
        assert!(Group::create(&h, "grader-3").is_err());
    }

    #[test]
    fn real_v1_samples_a_running_group_and_kills_it_all() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-kill").unwrap();
        group.prepare(512 << 20, 16).unwrap();
        let mut child = run_in(
            &group,
            // Bounded even if this test fails before its kill: a CPU limit of 10 s per
            // process and a 30 s wall deadline.
            "import os, resource, time\nresource.setrlimit(resource.RLIMIT_CPU, (10, 10))\nend = time.time() + 30\nfor _ in range(3):\n    if os.fork() == 0:\n        break\nwhile time.time() < end:\n    pass\n",
        );
        let deadline = Instant::now() + Duration::from_mins(1);
        let sample = loop {
            let sample = group.sample().unwrap();
            if sample.cpu >= Duration::from_millis(300) {
                break sample;
            }
            assert!(Instant::now() < deadline, "no CPU seen: {sample:?}");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(sample.memory > 0, "{sample:?}");
        group.kill_all();
        for procs in group.all_procs() {
            assert_eq!(fs::read_to_string(procs).unwrap(), "");
        }
        assert_eq!(child.wait().unwrap().signal(), Some(9));
        assert!(group.finish().unwrap().cpu >= Duration::from_millis(300));
        remove(group);
    }

    #[test]
    fn real_v1_stale_groups_of_dead_graders_are_removed() {
        let Some(h) = real_v1() else { return };
        let Hierarchy::V1 { memory, .. } = &h else {
            unreachable!()
        };
        let stale = memory.join(format!("grader-{DEAD}"));
        fs::create_dir_all(stale.join("w0")).unwrap();
        let group = Group::create(&h, "test-stale").unwrap();
        let gone = !stale.exists();
        let _ = fs::remove_dir(stale.join("w0"));
        let _ = fs::remove_dir(&stale);
        assert!(gone, "{} was not removed", stale.display());
        remove(group);
    }
}
