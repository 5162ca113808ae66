//! Per-worker cgroups ("box groups"): the kernel's accounting and limits for everything a
//! run starts, on cgroup v1 or v2 behind one interface.
//!
//! Why cgroups: `wait4` counts only reaped descendants (a `setsid` fork bomb hides its CPU
//! time), `ru_maxrss` inherits the spawner's high-water mark, and `RLIMIT_NPROC` does not
//! bind root. A cgroup sees every process and thread of a run, exited ones included, its
//! memory limit is enforced by the kernel's OOM killer, and `pids.max` binds root too.
//!
//! Layout: below the cgroup the grader runs in (per controller on v1), `grader-<pid>/` holds
//! one group per worker, `grader-<pid>/<name>/`. Directories of graders that died are
//! removed at the next `Group::create` when they are empty.
//!
//! Who joins: on v1 the worker's launcher joins its groups once (`Group::resident`) and
//! every process of every run is born in them. Moving a process between v1 groups takes
//! a lock whose writer waits for an RCU grace period: about 0.1 ms of wall time per run
//! here, a seventh of a trivial run, and 8 to 15 ms when no other move came just before
//! (a worker's first). The launcher joins by its one thread (`tasks`), which the kernel
//! moves without that lock: 0.02 ms. On v2 the launcher cannot live in the group (it is
//! remade whole, below), so each run's first process joins it (`Group::procs`) between
//! clone and exec.
//!
//! Baselines instead of resets: a group's counters (CPU, OOM kills) only grow, so
//! `Group::prepare` remembers them and the run's figures are differences. Memory is the
//! same: page cache a run left behind stays charged to the group, so the peak is reported
//! above the usage at `prepare`. That difference undercounts a run by whatever left-over
//! cache the kernel evicted during it, so on v2, when more than `RENEW_ABOVE` is left
//! over, the group is removed and made afresh (about 0.15 ms here) instead: reclaiming
//! (`memory.force_empty`, or lowering the limit) measured 0.03 to 100 ms per call on this
//! kernel, 100 ms even for an 8 KiB residue, which is the kernel's no-progress reclaim
//! throttle. On v1 the launcher lives in the group, so it is never remade: the launcher
//! empties a run's working folder (a memory file system, whose pages cannot be evicted)
//! before it reports the run's end, so what stays charged is little and stable.
//!
//! cgroup v2's "no internal processes" rule: a cgroup that holds processes cannot enable
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
//!
//! Every file a run's sampling reads stays open and is read with `pread`: 1 µs a read,
//! against 11 µs to open, read and close it.
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::{AccessFlags, Pid, access};

use crate::meter::{self, Boundary, Format, MeterSpec, write_at};

/// Left-over memory above which [`Group::prepare`] renews the memory group rather than
/// subtracting it from the next run's peak.
const RENEW_ABOVE: u64 = 4 << 20;

/// The name of the grader's own leaf below `grader-<pid>` on v2 (see the module doc).
const LEAF: &str = "self";

/// The v2 controllers a box group needs enabled.
const V2_CONTROLLERS: [&str; 2] = ["memory", "pids"];

/// The v1 controllers a box group needs, each its own hierarchy (or co-mounted).
const V1_CONTROLLERS: [&str; 3] = ["memory", "cpuacct", "pids"];

/// How long [`Group::kill_all`] and removal wait for a group to empty.
const EMPTY_WITHIN: Duration = Duration::from_secs(2);

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
fn probe_from(mountinfo: &str, cgroup: &str) -> Result<Hierarchy, String> {
    let mounts = parse_mountinfo(mountinfo);
    let memberships = parse_proc_cgroup(cgroup);
    let v1 = probe_v1(&mounts, &memberships);
    let Err(v1_missing) = v1 else { return v1 };
    let v2 = probe_v2(&mounts, &memberships);
    let Err(v2_missing) = v2 else { return v2 };
    Err(format!("cgroup v1: {v1_missing}; cgroup v2: {v2_missing}"))
}

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

fn probe_v2(mounts: &[Mount], memberships: &[Membership]) -> Result<Hierarchy, String> {
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
        usable_v2(&dir)?;
        return Ok(Hierarchy::V2 { parent: dir });
    }
    // Others share the grader's cgroup (a user's shell in its delegated leaf): the groups
    // go below the nearest cgroup above that the grader may write and that holds no
    // process itself, as systemd's `Delegate=yes` gives a user (the v2 rules let the
    // grader move its runs there from its own cgroup, below the same writable parent).
    let mut above = dir.parent();
    while let Some(candidate) = above.filter(|a| a.starts_with(&top)) {
        if candidate == top || !holds_others(candidate) {
            if usable_v2(candidate).is_ok() && writable(&candidate.join("cgroup.procs")).is_ok() {
                return Ok(Hierarchy::V2 {
                    parent: candidate.to_path_buf(),
                });
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
fn usable_v2(dir: &Path) -> Result<(), String> {
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

fn writable(dir: &Path) -> Result<(), String> {
    access(dir, AccessFlags::W_OK).map_err(|e| format!("{} is not writable ({e})", dir.display()))
}

/// One line of `/proc/self/mountinfo`, the parts that matter here.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mount {
    /// The directory of the hierarchy mounted (`/` unless a subtree is bind-mounted).
    root: String,
    /// Where it is mounted.
    point: PathBuf,
    /// `cgroup` (v1) or `cgroup2`.
    fstype: String,
    /// The superblock options: for v1 they name the controllers.
    options: Vec<String>,
}

fn parse_mountinfo(text: &str) -> Vec<Mount> {
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
struct Membership {
    id: u32,
    /// The v1 controllers of the hierarchy (empty for v2; `name=systemd` for a named one).
    controllers: Vec<String>,
    path: String,
}

fn parse_proc_cgroup(text: &str) -> Vec<Membership> {
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
fn own_dir(mounts: &[Mount], controller: Option<&str>, path: &str) -> Option<PathBuf> {
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

/// The pid in a `grader-<pid>` directory name.
fn grader_pid(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("grader-")?;
    digits
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| digits.parse().ok())?
}

/// What [`Group::sample`] sees during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sample {
    /// CPU time of every process and thread of the run since `prepare`.
    pub(crate) cpu: Duration,
    /// Memory charged to the run now, bytes (page cache and kernel memory included).
    pub(crate) memory: u64,
}

/// What [`Group::finish`] reports after a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Usage {
    /// CPU time of every process and thread of the run.
    pub(crate) cpu: Duration,
    /// The run's peak memory, bytes.
    pub(crate) peak: u64,
    /// Whether the kernel's OOM killer killed a process of the run (the verdict MLE).
    pub(crate) oom_killed: bool,
}

/// One worker's box group, on every controller.
#[derive(Debug)]
pub(crate) struct Group {
    /// The group's directories: memory, cpuacct, pids on v1; one on v2.
    dirs: Vec<PathBuf>,
    files: Files,
    /// The limits last written (the caller's figures), to write only changes.
    memory_limit: Option<u64>,
    max_processes: Option<u64>,
    baseline: Baseline,
    /// The CPU and OOM-kill counters `finish` read, which the next `prepare` starts from
    /// (two reads a run fewer): nothing of a run is left between the two, and what the
    /// launcher does there (a few microseconds of CPU, on v1) only ever counts towards
    /// the early kill at the CPU limit, never the reported time.
    carried: Option<(Duration, u64)>,
    /// Whether the group was made anew since [`Group::take_renewed`] last said so: a
    /// process that opened its `cgroup.procs` files must open them again.
    renewed: bool,
    /// How many times it was made anew ([`Group::made`]).
    made: u64,
}

/// The counters at `prepare`.
#[derive(Debug, Clone, Copy, Default)]
struct Baseline {
    cpu: Duration,
    memory: u64,
    oom_kills: u64,
}

#[derive(Debug)]
enum Files {
    V1 {
        usage: File,
        /// `memory.max_usage_in_bytes`, read and written (`0` resets it).
        max_usage: File,
        oom_control: File,
        limit: File,
        cpu: File,
        pids_max: File,
    },
    V2 {
        current: File,
        peak: Peak,
        events: File,
        cpu_stat: File,
        max: File,
        pids_max: File,
    },
}

/// How a v2 group gives the peak of one run.
#[derive(Debug)]
enum Peak {
    /// Linux 6.12 and later: writing `memory.peak` resets it for reads through the same
    /// descriptor.
    Resettable(File),
    /// Linux 5.19 to 6.11: the peak since the group was made, so the group is renewed
    /// before every run but the first.
    SinceCreation { file: File, used: bool },
    /// Older kernels have no `memory.peak`: the highest usage sampled, a lower bound.
    Sampled { highest: u64 },
}

impl Group {
    /// Makes the box group `name` below each of the grader's cgroups
    /// (`grader-<pid>/<name>`), first removing the empty directories of graders that died.
    /// On v2, enables `memory` and `pids` for it (see the module doc).
    pub(crate) fn create(hierarchy: &Hierarchy, name: &str) -> io::Result<Group> {
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
        let pid = std::process::id();
        let mine = format!("grader-{pid}");
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
                enable_v2(parent, &grader)?;
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
    fn all_procs(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// Before each run (no process in the group): sets the memory limit the kernel
    /// enforces (`memory_limit` plus a sixteenth, so page cache and kernel memory do not
    /// OOM-kill a program right at the limit: the verdict compares the peak with the limit)
    /// and the process limit, writing only changes, and remembers the counters the run's
    /// figures start from.
    pub(crate) fn prepare(&mut self, memory_limit: u64, max_processes: u64) -> io::Result<()> {
        let mut usage = self.usage()?;
        let since_creation = matches!(
            self.files,
            Files::V2 {
                peak: Peak::SinceCreation { used: true, .. },
                ..
            }
        );
        let resident = matches!(self.files, Files::V1 { .. });
        let mut carried = self.carried.take();
        if (usage > RENEW_ABOVE && !resident) || since_creation {
            self.renew()?;
            usage = self.usage()?;
            carried = None;
        }
        if self.memory_limit != Some(memory_limit) {
            let with_margin = memory_limit.saturating_add(memory_limit / 16);
            match &self.files {
                Files::V1 { limit, .. } => write_at(limit, &v1_limit(with_margin))?,
                Files::V2 { max, .. } => write_at(max, &v2_limit(with_margin))?,
            }
            self.memory_limit = Some(memory_limit);
        }
        if self.max_processes != Some(max_processes) {
            // On v1 the launcher is one of the group's processes (see `resident`).
            let (cap, pids_max) = match &self.files {
                Files::V1 { pids_max, .. } => (max_processes.saturating_add(1), pids_max),
                Files::V2 { pids_max, .. } => (max_processes, pids_max),
            };
            write_at(pids_max, &v2_limit(cap))?;
            self.max_processes = Some(max_processes);
        }
        match &mut self.files {
            Files::V1 { max_usage, .. } => meter::reset_peak(Format::V1, max_usage)?,
            Files::V2 { peak, .. } => match peak {
                Peak::Resettable(file) => meter::reset_peak(Format::V2, file)?,
                Peak::SinceCreation { used, .. } => *used = true,
                Peak::Sampled { highest } => *highest = usage,
            },
        }
        let (cpu, oom_kills) = match carried {
            Some(counters) => counters,
            None => (self.cpu()?, self.oom_kills()?),
        };
        self.baseline = Baseline {
            cpu,
            memory: usage,
            oom_kills,
        };
        Ok(())
    }

    /// During a run: CPU time since `prepare` (every process and thread, exited ones
    /// included) and the memory charged now. Two `pread`s.
    pub(crate) fn sample(&mut self) -> io::Result<Sample> {
        let cpu = self.cpu()?.saturating_sub(self.baseline.cpu);
        let usage = self.usage()?;
        if let Files::V2 {
            peak: Peak::Sampled { highest },
            ..
        } = &mut self.files
        {
            *highest = (*highest).max(usage);
        }
        Ok(Sample {
            cpu,
            memory: usage.saturating_sub(self.baseline.memory),
        })
    }

    /// After the run (every process of it gone): its CPU time, its peak memory and whether
    /// the kernel OOM-killed anything in it.
    pub(crate) fn finish(&mut self) -> io::Result<Usage> {
        let cpu_now = self.cpu()?;
        let cpu = cpu_now.saturating_sub(self.baseline.cpu);
        let peak = match &self.files {
            Files::V1 { max_usage, .. } => meter::number(max_usage, "the peak memory")?,
            Files::V2 { peak, current, .. } => match peak {
                Peak::Resettable(file) | Peak::SinceCreation { file, .. } => {
                    meter::number(file, "the peak memory")?
                }
                Peak::Sampled { highest } => {
                    meter::number(current, "the memory usage")?.max(*highest)
                }
            },
        };
        let oom_kills = self.oom_kills()?;
        self.carried = Some((cpu_now, oom_kills));
        Ok(Usage {
            cpu,
            peak: peak.saturating_sub(self.baseline.memory),
            oom_killed: oom_kills > self.baseline.oom_kills,
        })
    }

    /// Whether the launcher can end a run and prepare the next one itself ([`Group::meter`]):
    /// not with a v2 peak that cannot be reset, which makes the group anew before every run
    /// or samples it.
    pub(crate) fn meters(&self) -> bool {
        !matches!(
            self.files,
            Files::V2 {
                peak: Peak::SinceCreation { .. } | Peak::Sampled { .. },
                ..
            }
        )
    }

    /// How many times the group was made anew: its files change each time.
    pub(crate) fn made(&self) -> u64 {
        self.made
    }

    /// What the launcher needs to end a run and prepare the next one itself (see
    /// `meter.rs`): the files' format, the left-over memory above which this group is made
    /// anew, and the files (new descriptors of the same open files, so that a v2 peak reset
    /// through them is this group's). `None` where it cannot ([`Group::meters`]).
    pub(crate) fn meter(&self) -> io::Result<Option<(MeterSpec, Vec<File>)>> {
        let (spec, files) = match &self.files {
            Files::V1 {
                cpu,
                max_usage,
                oom_control,
                usage,
                ..
            } => (
                MeterSpec {
                    format: Format::V1,
                    // The launcher lives in it: never made anew (see `prepare`).
                    renew_above: None,
                },
                [cpu, max_usage, oom_control, usage],
            ),
            Files::V2 {
                cpu_stat,
                peak: Peak::Resettable(peak),
                events,
                current,
                ..
            } => (
                MeterSpec {
                    format: Format::V2,
                    renew_above: Some(RENEW_ABOVE),
                },
                [cpu_stat, peak, events, current],
            ),
            Files::V2 { .. } => return Ok(None),
        };
        let files = files
            .into_iter()
            .map(File::try_clone)
            .collect::<io::Result<_>>()?;
        Ok(Some((spec, files)))
    }

    /// A run ended and the launcher started the next one at once, reading `boundary`
    /// between the two (see [`Group::meter`]): the figures of the run that ended, as
    /// [`Group::finish`] gives them, and the next one's baseline, as [`Group::prepare`]
    /// sets it (same limits; its peak already reset).
    pub(crate) fn finish_between(&mut self, boundary: &Boundary) -> Usage {
        let end = boundary.end;
        let cpu_now = Duration::from_nanos(end.cpu_ns);
        let usage = Usage {
            cpu: cpu_now.saturating_sub(self.baseline.cpu),
            peak: end.peak.saturating_sub(self.baseline.memory),
            oom_killed: end.oom_kills > self.baseline.oom_kills,
        };
        self.carried = None;
        self.baseline = Baseline {
            cpu: cpu_now,
            memory: boundary.usage,
            oom_kills: end.oom_kills,
        };
        usage
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
    fn renew(&mut self) -> io::Result<()> {
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

    fn usage(&self) -> io::Result<u64> {
        let (Files::V1 { usage: file, .. } | Files::V2 { current: file, .. }) = &self.files;
        meter::number(file, "the memory usage")
    }

    fn cpu(&self) -> io::Result<Duration> {
        match &self.files {
            Files::V1 { cpu, .. } => meter::cpu(Format::V1, cpu),
            Files::V2 { cpu_stat, .. } => meter::cpu(Format::V2, cpu_stat),
        }
    }

    fn oom_kills(&self) -> io::Result<u64> {
        let (Files::V1 {
            oom_control: file, ..
        }
        | Files::V2 { events: file, .. }) = &self.files;
        meter::oom_kills(file)
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

/// Opens the files of a group and sets what is set once: no swapping, which would hide
/// memory from the limit and slow the run.
fn set_up(dirs: &[PathBuf]) -> io::Result<Files> {
    let files = open_files(dirs)?;
    if let Files::V1 { .. } = files {
        write_path(&dirs[0].join("memory.swappiness"), "0")?;
    } else if let Ok(swap) = open(&dirs[0].join("memory.swap.max"), Access::Write) {
        write_at(&swap, "0")?;
    }
    Ok(files)
}

fn open_files(dirs: &[PathBuf]) -> io::Result<Files> {
    match dirs {
        [memory, cpuacct, pids] => Ok(Files::V1 {
            usage: open(&memory.join("memory.usage_in_bytes"), Access::Read)?,
            max_usage: open(&memory.join("memory.max_usage_in_bytes"), Access::ReadWrite)?,
            oom_control: open(&memory.join("memory.oom_control"), Access::Read)?,
            limit: open(&memory.join("memory.limit_in_bytes"), Access::Write)?,
            cpu: open(&cpuacct.join("cpuacct.usage"), Access::Read)?,
            pids_max: open(&pids.join("pids.max"), Access::Write)?,
        }),
        [dir] => {
            let peak_path = dir.join("memory.peak");
            let peak = match fs::metadata(&peak_path) {
                // The file became writable with the per-descriptor reset (Linux 6.12).
                Ok(meta) if meta.permissions().mode() & 0o222 != 0 => {
                    Peak::Resettable(open(&peak_path, Access::ReadWrite)?)
                }
                Ok(_) => Peak::SinceCreation {
                    file: open(&peak_path, Access::Read)?,
                    used: false,
                },
                Err(e) if e.kind() == io::ErrorKind::NotFound => Peak::Sampled { highest: 0 },
                Err(e) => return Err(context(&peak_path, &e)),
            };
            Ok(Files::V2 {
                current: open(&dir.join("memory.current"), Access::Read)?,
                peak,
                events: open(&dir.join("memory.events"), Access::Read)?,
                cpu_stat: open(&dir.join("cpu.stat"), Access::Read)?,
                max: open(&dir.join("memory.max"), Access::Write)?,
                pids_max: open(&dir.join("pids.max"), Access::Write)?,
            })
        }
        _ => Err(io::Error::other("a box group has one or three directories")),
    }
}

/// Enables `memory` and `pids` for the children of `parent` (the grader's own cgroup) and
/// of `grader` (its `grader-<pid>` below it), moving the grader into its own leaf when it
/// is what keeps `parent` from enabling them.
fn enable_v2(parent: &Path, grader: &Path) -> io::Result<()> {
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

/// Removes `grader-<pid>` directories below `base` of graders no longer running, with
/// their groups (and v2 leaf), when they hold no process. Our own and live graders' stay.
fn remove_stale(base: &Path, own: u32) {
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

/// A v1 memory limit: `-1` is none.
fn v1_limit(bytes: u64) -> String {
    if bytes >= i64::MAX as u64 {
        "-1".to_owned()
    } else {
        bytes.to_string()
    }
}

/// A v2 limit (and v1 `pids.max`): `max` is none.
fn v2_limit(value: u64) -> String {
    if value >= i64::MAX as u64 {
        "max".to_owned()
    } else {
        value.to_string()
    }
}

#[derive(Debug, Clone, Copy)]
enum Access {
    Read,
    Write,
    ReadWrite,
}

/// Opens a cgroup file (never creating it), naming it in the error.
fn open(path: &Path, access: Access) -> io::Result<File> {
    OpenOptions::new()
        .read(matches!(access, Access::Read | Access::ReadWrite))
        .write(matches!(access, Access::Write | Access::ReadWrite))
        .open(path)
        .map_err(|e| context(path, &e))
}

fn write_path(path: &Path, value: &str) -> io::Result<()> {
    write_at(&open(path, Access::Write)?, value).map_err(|e| context(path, &e))
}

fn context(path: &Path, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The pids of `cgroup.procs`.
fn parse_pids(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Child, Command, Stdio};

    use super::*;

    /// Recorded on the project's machines (Linux 6.18, cgroup v1).
    const V1_OOM_CONTROL: &str = "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n";
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
    /// v2 files as the kernel's cgroup-v2 documentation shows them.
    const V2_EVENTS: &str = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
    const V2_CPU_STAT: &str = "usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n\
        nr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n";

    /// A pid above `PID_MAX_LIMIT` (2^22): never a live process.
    const DEAD: u32 = 4_194_305;

    #[test]
    fn files_parse_as_the_kernel_writes_them() {
        let oom_kill = |text| meter::parse_keyed(text, "oom_kill");
        assert_eq!(oom_kill(V1_OOM_CONTROL), Some(0));
        assert_eq!(oom_kill(V2_EVENTS), Some(1));
        assert_eq!(oom_kill("oom_kill_disable 0\nunder_oom 0\n"), None);
        assert_eq!(meter::parse_keyed(V2_CPU_STAT, "usage_usec"), Some(2500));
        assert_eq!(meter::parse_u64("253541361469\n"), Some(253_541_361_469));
        assert_eq!(meter::parse_u64("max\n"), None);
        assert_eq!(parse_pids("12\n345\n"), vec![12, 345]);
        assert_eq!(parse_pids(""), Vec::<u32>::new());
        assert_eq!(grader_pid("grader-123"), Some(123));
        assert_eq!(grader_pid("grader-"), None);
        assert_eq!(grader_pid("grader-+1"), None);
        assert_eq!(grader_pid("w0"), None);
        assert!(lists("cpu memory pids\n", "pids"));
        assert!(lists("+memory +pids", "memory"));
        assert!(!lists("hugetlb\n", "memory"));
        assert_eq!(v1_limit(u64::MAX), "-1");
        assert_eq!(v2_limit(u64::MAX), "max");
        assert_eq!(v2_limit(64), "64");
    }

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

    fn put(dir: &Path, name: &str, content: &str) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join(name), content).unwrap();
    }

    fn read(dir: &Path, name: &str) -> String {
        fs::read_to_string(dir.join(name)).unwrap()
    }

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

    /// A fake v1 group below `base`, with the files the kernel would make.
    fn fake_v1(base: &Path, name: &str) -> Hierarchy {
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

    #[test]
    fn v1_runs_are_figured_from_baselines_and_limits_written_only_when_changed() {
        let t = tempfile::tempdir().unwrap();
        let h = fake_v1(t.path(), "w0");
        let mut group = Group::create(&h, "w0").unwrap();
        let [memory, cpuacct, pids] = <[PathBuf; 3]>::try_from(group.dirs.clone()).unwrap();
        // On v1 the launcher joins every group once; runs join none.
        assert_eq!(group.resident()[2], pids.join("tasks"));
        assert!(group.procs().is_empty());
        assert_eq!(read(&memory, "memory.swappiness"), "0");

        group.prepare(256 << 20, 8).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "285212672");
        // The launcher is one of the group's processes.
        assert_eq!(read(&pids, "pids.max"), "9");
        assert!(read(&memory, "memory.max_usage_in_bytes").starts_with('0'));

        put(&cpuacct, "cpuacct.usage", "5300000000\n");
        put(&memory, "memory.usage_in_bytes", "41943040\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(300));
        assert_eq!(sample.memory, 39 << 20);

        put(&memory, "memory.max_usage_in_bytes", "62914560\n");
        put(&memory, "memory.usage_in_bytes", "2097152\n");
        put(
            &memory,
            "memory.oom_control",
            "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
        );
        let usage = group.finish().unwrap();
        assert_eq!(
            usage,
            Usage {
                cpu: Duration::from_millis(300),
                peak: 59 << 20,
                oom_killed: true
            }
        );

        // The same limits again: nothing written; the OOM counter is a new baseline.
        put(&memory, "memory.limit_in_bytes", "");
        put(&pids, "pids.max", "");
        group.prepare(256 << 20, 8).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "");
        assert_eq!(read(&pids, "pids.max"), "");
        put(&memory, "memory.max_usage_in_bytes", "3145728\n");
        assert!(!group.finish().unwrap().oom_killed);
        group.prepare(u64::MAX, u64::MAX).unwrap();
        assert_eq!(read(&memory, "memory.limit_in_bytes"), "-1");
        assert_eq!(read(&pids, "pids.max"), "max");
    }

    #[test]
    fn a_run_the_launcher_started_at_once_is_figured_from_what_it_read_between_the_two() {
        let t = tempfile::tempdir().unwrap();
        let h = fake_v1(t.path(), "w0");
        let mut group = Group::create(&h, "w0").unwrap();
        let [memory, cpuacct, _] = <[PathBuf; 3]>::try_from(group.dirs.clone()).unwrap();
        group.prepare(256 << 20, 8).unwrap();
        assert!(group.meters());
        let (spec, files) = group.meter().unwrap().unwrap();
        assert_eq!(spec.renew_above, None);
        // The launcher's side: the first run ends, the next starts.
        let launcher = meter::Meter::new(spec.format, files).unwrap();
        put(&cpuacct, "cpuacct.usage", "5200000000\n");
        put(&memory, "memory.max_usage_in_bytes", "9437184\n");
        put(&memory, "memory.usage_in_bytes", "2097152\n");
        let boundary = launcher.between(spec.renew_above).unwrap().unwrap();
        assert!(read(&memory, "memory.max_usage_in_bytes").starts_with('0'));
        let first = group.finish_between(&boundary);
        assert_eq!(
            first,
            Usage {
                cpu: Duration::from_millis(200),
                peak: 8 << 20,
                oom_killed: false
            }
        );
        // The second run counts from there, as if the grader had prepared it.
        put(&cpuacct, "cpuacct.usage", "5250000000\n");
        put(&memory, "memory.usage_in_bytes", "6291456\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(50));
        assert_eq!(sample.memory, 4 << 20);
        put(&memory, "memory.max_usage_in_bytes", "7340032\n");
        put(
            &memory,
            "memory.oom_control",
            "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
        );
        let second = group.finish().unwrap();
        assert_eq!(second.peak, 5 << 20);
        assert!(second.oom_killed);
        assert_eq!(group.made(), 0);
    }

    /// A fake v2 hierarchy with a group `name` below `base`; `peak` is the mode of
    /// `memory.peak` (`None`: no such file).
    fn fake_v2(base: &Path, name: &str, peak: Option<u32>) -> PathBuf {
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

    #[test]
    fn v2_enables_its_controllers_and_figures_runs_through_the_peak_descriptor() {
        let t = tempfile::tempdir().unwrap();
        let dir = fake_v2(t.path(), "w1", Some(0o644));
        let h = Hierarchy::V2 {
            parent: t.path().to_owned(),
        };
        let mut group = Group::create(&h, "w1").unwrap();
        assert!(matches!(
            group.files,
            Files::V2 {
                peak: Peak::Resettable(_),
                ..
            }
        ));
        assert_eq!(group.procs(), [dir.join("cgroup.procs")]);
        let grader = dir.parent().unwrap();
        assert_eq!(read(t.path(), "cgroup.subtree_control"), "+memory +pids");
        assert_eq!(read(grader, "cgroup.subtree_control"), "+memory +pids");
        assert_eq!(read(&dir, "memory.swap.max"), "0");

        group.prepare(64 << 20, 16).unwrap();
        assert_eq!(read(&dir, "memory.max"), "71303168");
        assert_eq!(read(&dir, "pids.max"), "16");
        assert!(read(&dir, "memory.peak").starts_with("reset"));

        put(
            &dir,
            "cpu.stat",
            "usage_usec 252500\nuser_usec 2000\nsystem_usec 500\n",
        );
        put(&dir, "memory.current", "9437184\n");
        let sample = group.sample().unwrap();
        assert_eq!(sample.cpu, Duration::from_millis(250));
        assert_eq!(sample.memory, 8 << 20);

        put(&dir, "memory.peak", "52428800\n");
        put(&dir, "memory.events", V2_EVENTS);
        let usage = group.finish().unwrap();
        assert_eq!(
            usage,
            Usage {
                cpu: Duration::from_millis(250),
                peak: 49 << 20,
                oom_killed: true
            }
        );
        group.kill_all();
        assert_eq!(read(&dir, "cgroup.kill"), "1");
    }

    #[test]
    fn v2_without_a_resettable_peak_renews_the_group_or_samples() {
        let t = tempfile::tempdir().unwrap();
        let h = Hierarchy::V2 {
            parent: t.path().to_owned(),
        };
        fake_v2(t.path(), "old", Some(0o444));
        let group = Group::create(&h, "old").unwrap();
        assert!(matches!(
            group.files,
            Files::V2 {
                peak: Peak::SinceCreation { used: false, .. },
                ..
            }
        ));
        // Made anew before every run: never between two runs by the launcher alone.
        assert!(!group.meters());
        assert!(group.meter().unwrap().is_none());

        let dir = fake_v2(t.path(), "older", None);
        let mut group = Group::create(&h, "older").unwrap();
        assert!(!group.meters());
        group.prepare(64 << 20, 16).unwrap();
        put(&dir, "memory.current", "20971520\n");
        group.sample().unwrap();
        put(&dir, "memory.current", "3145728\n");
        group.sample().unwrap();
        let usage = group.finish().unwrap();
        assert_eq!(usage.peak, 19 << 20);
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

    // Real-kernel tests: they make groups, run python3 in them and check the figures.

    /// The v1 hierarchy to test on, or `None` (said) when this machine cannot: not root,
    /// or no cgroup v1. CI has both, so there it must not skip.
    fn real_v1() -> Option<Hierarchy> {
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
    fn run_in(group: &Group, script: &str) -> Child {
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
    fn remove(group: Group) {
        let dirs = group.dirs.clone();
        drop(group);
        for dir in dirs {
            assert!(!dir.exists(), "{} was left behind", dir.display());
        }
    }

    const BURN: &str = "
import os, time
def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
";

    #[test]
    fn real_v1_counts_the_cpu_of_every_process_and_the_peak_memory() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-count").unwrap();
        group.prepare(512 << 20, 16).unwrap();
        let script = format!(
            "{BURN}
child = os.fork()
if child == 0:
    burn(0.2)
    os._exit(0)
block = b'x' * (50 << 20)
burn(0.2)
os.waitpid(child, 0)
"
        );
        assert!(run_in(&group, &script).wait().unwrap().success());
        let sample = group.sample().unwrap();
        let usage = group.finish().unwrap();
        // 0.4 s burned by two processes, judged by CPU with a wide margin.
        assert!(
            usage.cpu >= Duration::from_millis(350) && usage.cpu < Duration::from_secs(30),
            "{usage:?}"
        );
        assert_eq!(sample.cpu, usage.cpu);
        assert!(
            usage.peak >= 50 << 20 && usage.peak < 400 << 20,
            "{usage:?}"
        );
        assert!(sample.memory < 40 << 20, "{sample:?}");
        assert!(!usage.oom_killed);
        remove(group);
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
    fn real_v1_the_kernel_oom_kills_past_the_limit_and_finish_says_so() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-oom").unwrap();
        group.prepare(32 << 20, 16).unwrap();
        let status = run_in(&group, "block = b'x' * (200 << 20)").wait().unwrap();
        assert_eq!(status.signal(), Some(9), "{status:?}");
        let usage = group.finish().unwrap();
        assert!(usage.oom_killed, "{usage:?}");
        assert!(usage.peak >= 32 << 20, "{usage:?}");
        // The counter is a baseline: the next run, within the limit, was not killed.
        group.prepare(32 << 20, 16).unwrap();
        assert!(run_in(&group, "pass").wait().unwrap().success());
        let usage = group.finish().unwrap();
        assert!(!usage.oom_killed && usage.peak < 32 << 20, "{usage:?}");
        remove(group);
    }

    #[test]
    fn real_v1_pids_max_makes_a_fork_past_the_cap_fail() {
        let Some(h) = real_v1() else { return };
        let mut group = Group::create(&h, "test-pids").unwrap();
        group.prepare(256 << 20, 4).unwrap();
        let script = "
import os
r, w = os.pipe()
made = 0
for _ in range(10):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(w)
        os.read(r, 1)
        os._exit(0)
    made += 1
os.close(w)
for _ in range(made):
    os.wait()
print(made)
";
        let output = run_in(&group, script).wait_with_output().unwrap();
        assert!(output.status.success());
        // The cap is four plus the launcher (which this test does not have): Python
        // itself and four children make five.
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "4");
        remove(group);
    }

    #[test]
    fn real_v1_left_over_page_cache_stays_in_the_baseline() {
        // v1 never remakes the group (the launcher lives in it): what a run left charged
        // is the next run's baseline, and the next run's peak is figured above it.
        let Some(h) = real_v1() else { return };
        let scratch = tempfile::tempdir().unwrap();
        let mut group = Group::create(&h, "test-baseline").unwrap();
        group.prepare(256 << 20, 16).unwrap();
        let script = format!(
            "open('{}', 'wb').write(b'x' * (16 << 20))",
            scratch.path().join("out").display()
        );
        assert!(run_in(&group, &script).wait().unwrap().success());
        assert!(group.finish().unwrap().peak >= 16 << 20);
        let left = group.sample().unwrap().memory;
        assert!(left > RENEW_ABOVE, "the page cache was not charged: {left}");
        group.prepare(256 << 20, 16).unwrap();
        assert!(!group.take_renewed());
        assert!(group.baseline.memory >= left / 2, "{:?}", group.baseline);
        assert!(run_in(&group, "pass").wait().unwrap().success());
        let usage = group.finish().unwrap();
        assert!(usage.peak < 16 << 20, "{usage:?}");
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
