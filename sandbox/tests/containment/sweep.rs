//! The machine's processes and the marks hostile programs leave, as seen from outside
//! every namespace: what a test looks for once a call ended.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use nix::sys::signal::{Signal, kill as signal};
use nix::unistd::Pid;

/// The uids a worker of a root process gives its programs: never the machine's users'.
const BOX_UIDS: RangeInclusive<u32> = 990_000..=990_999;

/// The name the fixtures give their processes.
const HOSTILE: &str = "grader-hostile";

/// One process, as /proc shows it.
#[derive(Debug, Clone)]
pub(crate) struct Proc {
    pub(crate) pid: i32,
    pub(crate) ppid: i32,
    state: char,
    pub(crate) comm: String,
    pub(crate) uid: u32,
    pub(crate) cmdline: String,
}

/// `(state, ppid, comm)` from `/proc/PID/stat`.
fn stat_of(pid: i32) -> Option<(char, i32, String)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
    let (head, rest) = stat.rsplit_once(')')?;
    let comm = head.split_once('(')?.1.to_owned();
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid, comm))
}

pub(crate) fn pids() -> Vec<i32> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect()
}

/// Every process of the machine, by pid.
fn processes() -> HashMap<i32, Proc> {
    let mut all = HashMap::new();
    for pid in pids() {
        let Some((state, ppid, comm)) = stat_of(pid) else {
            continue;
        };
        let uid = fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("Uid:"))?
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(0);
        let cmdline = fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        all.insert(
            pid,
            Proc {
                pid,
                ppid,
                state,
                comm,
                uid,
                cmdline,
            },
        );
    }
    all
}

/// Whether `p` belongs to a program that still runs boxes and is not this one (another
/// test's, another worktree's): one of its ancestors is a grader, a launcher or a process
/// of a build of this test binary (`containment-<hash>`, which is its workers' launcher
/// too), and none is this process (what is below this process is this test's).
fn under_another_runner(p: &Proc, all: &HashMap<i32, Proc>) -> bool {
    let me = i32::try_from(std::process::id()).unwrap();
    let mut pid = p.ppid;
    let mut runner = false;
    for _ in 0..64 {
        if pid == me {
            return false;
        }
        let Some(q) = all.get(&pid) else {
            break;
        };
        runner |= q.comm == "grader"
            || q.comm.starts_with("grader-launch")
            || q.comm.split('-').next() == Some("containment");
        pid = q.ppid;
    }
    runner
}

/// The processes of a finished call still alive: new since `before`, named
/// `grader-hostile`, under a box uid or running with one of `markers` in their command
/// line, and not another runner's.
pub(crate) fn leftovers(before: &HashSet<i32>, markers: &[String]) -> Vec<Proc> {
    let all = processes();
    let me = i32::try_from(std::process::id()).unwrap();
    all.values()
        .filter(|p| p.pid != me && !before.contains(&p.pid) && p.state != 'Z')
        .filter(|p| {
            p.comm == HOSTILE
                || BOX_UIDS.contains(&p.uid)
                || markers.iter().any(|m| p.cmdline.contains(m.as_str()))
        })
        .filter(|p| !under_another_runner(p, &all))
        .cloned()
        .collect()
}

/// Kills a left-over process that is surely a fixture's: named so, or found by one of
/// `markers` (not merely under a box uid, which a process of another runner may be too).
pub(crate) fn kill(p: &Proc, markers: &[String]) {
    if p.comm == HOSTILE || markers.iter().any(|m| p.cmdline.contains(m.as_str())) {
        let _ = signal(Pid::from_raw(p.pid), Signal::SIGKILL);
    }
}

/// Entries of /tmp and /dev/shm that hostile programs leave: named `grader-hostile*`.
pub(crate) fn marks_outside() -> HashSet<PathBuf> {
    ["/tmp", "/dev/shm"]
        .into_iter()
        .filter_map(|dir| fs::read_dir(dir).ok())
        .flat_map(Iterator::flatten)
        .filter(|e| e.file_name().to_string_lossy().starts_with(HOSTILE))
        .map(|e| e.path())
        .collect()
}
