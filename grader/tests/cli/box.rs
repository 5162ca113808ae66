//! The box suite (issues 12 and 26): hostile programs of every class that only a box holds,
//! run through `grader test` and `grader batch`. A box is a run's own session, its own PID,
//! mount, network, IPC and UTS namespaces, a cgroup that counts and caps every process of
//! the run, a uid per worker, a system-call allow-list, compiles in the same kind of box, a
//! compile cache nobody else can write, and nothing of one run left for the next.
//!
//! What a box holds by itself, run by run, is the sandbox's to test, through its own API
//! (`sandbox/tests/containment`: CPU and memory of every process, the process cap, foreign
//! process groups, kill(-1) and ptrace, sockets and io_uring, nothing of the run before
//! nor of the host, the hostile suite). Here is what needs the grader: a class in
//! `batch`, compiles and the compile cache, a terminal, what the reports hold, and the
//! grader as a plain user, as `nobody` and in a container.
//!
//! Every call of the grader is checked as in `hostile.rs`, and more:
//!
//! - the verdict, per tier, as data (`None`: the tier does not promise to hold it, not run);
//! - the exit status: 0 or 1 (2 where stated);
//! - the grader's own elapsed time: its runs' wall limits, three times (a run killed at
//!   the wall limit is made again to show its stall twice in a row, and one a busy machine
//!   held back is made again alone), plus a second (a compile: the compile limit plus
//!   slack; a batch: plus its compiles);
//! - no process of the run is left: none named `grader-hostile` (the fixtures name their
//!   processes so), none under a box uid (990000..=990999) that was not there before, none
//!   running a file of the test, unless a grader still running owns it;
//! - nothing written outside: no `grader-hostile*` entry in /tmp or /dev/shm, the grader's
//!   TMPDIR left empty, a canary folder outside intact;
//! - no secret (an answer, a line of /etc/shadow, an environment variable's value) in any
//!   report format: human, json and junit for `test`; csv, json, html and xml for `batch`.
//!
//! Run-time fixtures are compiled here with gcc, so that the grader's time is run time;
//! compile-time ones go through the grader's own compile. Fixtures are templates: `@NAME@`
//! becomes an absolute path or a value of this test. A grader still running well past its
//! bound is killed with everything below it, and any left-over process of a run is killed,
//! so that a failing grader leaves nothing behind either. Limits are judged by CPU where
//! possible and margins are wide: the machines are shared and busy.
//!
//! The tests take the suite's machine-wide lock (`crate::machine_wide`): their marks
//! (processes named `grader-hostile`, box uids, files in /tmp) are the machine's, and two
//! tests running at once would see each other's programs as left over.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{Read, Seek};
use std::ops::RangeInclusive;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

/// What the grader may take beyond the wall limits of its runs.
const SLACK: Duration = Duration::from_secs(1);

/// How many times slower than this machine the one running the suite is: the cgroup-v2
/// VM (`.ci/vm`) emulates its processor, 5 to 10 times slower, and says so in
/// `GRADER_TEST_SLOWDOWN`. Every run's wall limit, and every bound on the grader's time,
/// is stretched by it; CPU limits are not (CPU time is what a program did, and the
/// programs that must finish use a small part of theirs).
fn slowdown() -> u32 {
    std::env::var("GRADER_TEST_SLOWDOWN")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
}
/// The compile limits the box promises (wall), and what a grader may take beyond them.
const COMPILE_WALL: Duration = Duration::from_secs(30);
const COMPILE_SLACK: Duration = Duration::from_secs(5);
/// The compile memory limit the box promises, and the most a compile's processes may hold
/// at once as this test samples them (the grader's own memory included).
const COMPILE_MEMORY_MIB: u64 = 1024;
const COMPILE_TREE_GUARD_MIB: u64 = COMPILE_MEMORY_MIB + 512;
/// The most the grader itself may hold while a compiler misbehaves.
const GRADER_OWN_MIB: u64 = 256;
/// What a batch may spend compiling its few small sources on a busy machine.
const BATCH_COMPILES: Duration = Duration::from_secs(20);
/// How long past its bound a grader is left before this test kills it as hung.
const HUNG_AFTER: Duration = Duration::from_secs(25);
/// How long the processes of a finished run get to disappear.
const GRACE: Duration = Duration::from_secs(3);
/// The uids a grader running as root gives its boxes: never the machine's users'.
const BOX_UIDS: RangeInclusive<u32> = 990_000..=990_999;
/// The flip sample and its answer; most fixtures answer it blindly.
const SAMPLE: &str = "bwwb\nbbwb\nbwwb\nbwww\n";
/// A flip board with no solution: its answer is a word that no report holds otherwise.
const IMPOSSIBLE: &str = "bwbb\nbwwb\nbwww\nbbbw\n";
/// The environment variable `ce_env_secret.rs` asks the compiler for.
const SECRET_VARIABLE: &str = "GRADER_HOSTILE_SECRET";

/// (fixture, verdict in `basic`, verdict in `strict`); `None`: not promised, not run.
type Row = (&'static str, Option<&'static str>, &'static str);

/// The tiers `row` runs in, with the verdict expected in each.
fn tiers(row: &Row) -> Vec<(&'static str, &'static str)> {
    let mut tiers = Vec::new();
    if let Some(basic) = row.1 {
        tiers.push(("basic", basic));
    }
    tiers.push(("strict", row.2));
    tiers
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The limits of the runs of one call.
#[derive(Debug, Clone, Copy)]
struct Limits {
    cpu: u64,
    wall: u64,
    memory_mib: u64,
}

impl Limits {
    fn args(self) -> Vec<String> {
        vec![
            "--time-limit".to_owned(),
            self.cpu.to_string(),
            "--wall-limit".to_owned(),
            (self.wall * u64::from(slowdown())).to_string(),
            "--memory-limit".to_owned(),
            self.memory_mib.to_string(),
        ]
    }

    /// The longest `rounds` runs one after the other may take, and the grader's slack.
    /// Each run may be made three times: a `TLE` at the wall limit needs two runs in a
    /// row that show the program's own stall, and a run a busy machine held back is made
    /// again, alone (`judge::next`).
    fn bound(self, rounds: u32) -> Duration {
        Duration::from_secs(self.wall) * rounds * 3 + SLACK
    }
}

// ---------------------------------------------------------------- processes

/// One process, as /proc shows it from outside every namespace.
#[derive(Debug, Clone)]
struct Proc {
    pid: i32,
    ppid: i32,
    state: char,
    comm: String,
    uid: u32,
    cmdline: String,
}

/// `(pid, state, ppid, comm)` from `/proc/PID/stat`.
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

fn pids() -> Vec<i32> {
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

/// Every process below `root`.
fn descendants(root: i32) -> Vec<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for pid in pids() {
        if let Some((_, ppid, _)) = stat_of(pid) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut next = vec![root];
    while let Some(pid) = next.pop() {
        for &child in children.get(&pid).into_iter().flatten() {
            found.push(child);
            next.push(child);
        }
    }
    found
}

fn signal(pid: i32, signal: Signal) {
    let _ = kill(Pid::from_raw(pid), signal);
}

/// Stops `root` and everything below it (so that nothing forks away meanwhile), then
/// kills them all.
fn kill_tree(root: i32) {
    for _ in 0..3 {
        signal(root, Signal::SIGSTOP);
        for pid in descendants(root) {
            signal(pid, Signal::SIGSTOP);
        }
    }
    for pid in descendants(root) {
        signal(pid, Signal::SIGKILL);
    }
    signal(root, Signal::SIGKILL);
}

/// Whether `p` belongs to a grader that is still running (another test's, another
/// worktree's): one of its ancestors is a grader or a launcher.
fn under_a_running_grader(p: &Proc, all: &HashMap<i32, Proc>) -> bool {
    let mut pid = p.ppid;
    for _ in 0..64 {
        let Some(q) = all.get(&pid) else {
            return false;
        };
        if q.comm == "grader" || q.comm.starts_with("grader-launch") {
            return true;
        }
        pid = q.ppid;
    }
    false
}

/// The processes of a finished run still alive: new since `before`, named
/// `grader-hostile`, under a box uid or running a file named by one of `markers`, and
/// owned by no grader still running.
fn leftovers(before: &HashSet<i32>, markers: &[String]) -> Vec<Proc> {
    let all = processes();
    let me = i32::try_from(std::process::id()).unwrap();
    all.values()
        .filter(|p| p.pid != me && !before.contains(&p.pid) && p.state != 'Z')
        .filter(|p| {
            p.comm == "grader-hostile"
                || BOX_UIDS.contains(&p.uid)
                || markers.iter().any(|m| p.cmdline.contains(m.as_str()))
        })
        .filter(|p| !under_a_running_grader(p, &all))
        .cloned()
        .collect()
}

/// The resident memory of `root` and everything below it, and `root`'s own high-water
/// mark, in MiB.
fn memory_mib(root: i32) -> (u64, u64) {
    let resident = |pid: i32| {
        fs::read_to_string(format!("/proc/{pid}/statm"))
            .ok()
            .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0)
            * 4096
    };
    let tree: u64 = descendants(root)
        .into_iter()
        .chain([root])
        .map(resident)
        .sum();
    let own_kib = fs::read_to_string(format!("/proc/{root}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))?
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .unwrap_or(0);
    (tree >> 20, own_kib >> 10)
}

/// Entries of /tmp and /dev/shm that hostile programs leave: named `grader-hostile*`.
fn marks_outside() -> HashSet<PathBuf> {
    ["/tmp", "/dev/shm"]
        .into_iter()
        .filter_map(|dir| fs::read_dir(dir).ok())
        .flat_map(Iterator::flatten)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("grader-hostile")
        })
        .map(|e| e.path())
        .collect()
}

// ---------------------------------------------------------------- one call of the grader

/// What one call of the grader did.
#[derive(Debug)]
struct Outcome {
    /// The exit status; `None` when it died of a signal (or was killed here).
    code: Option<i32>,
    elapsed: Duration,
    stdout: String,
    stderr: String,
    /// Why this test had to kill it, if it did.
    killed: Option<String>,
    /// The most memory the grader and everything below it held at once (sampled), MiB.
    tree_peak_mib: u64,
    /// The grader's own high-water mark, MiB.
    grader_peak_mib: u64,
}

/// How one call of the grader is run and judged.
#[derive(Debug, Clone)]
struct Call {
    /// The exit statuses allowed.
    codes: &'static [i32],
    /// The longest the grader may take.
    bound: Duration,
    /// Sample the memory of the grader's tree, and kill it past this many MiB.
    memory_guard_mib: Option<u64>,
    /// A standard input that stays open until the grader ends (for `script`).
    open_stdin: bool,
    /// Whether the grader's TMPDIR must be empty afterwards.
    tmp_empty: bool,
}

impl Call {
    fn within(bound: Duration) -> Call {
        Call {
            codes: &[0, 1],
            bound,
            memory_guard_mib: None,
            open_stdin: false,
            tmp_empty: true,
        }
    }
}

fn read_all(mut file: fs::File) -> String {
    let mut text = String::new();
    file.rewind().unwrap();
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).unwrap();
    text.push_str(&String::from_utf8_lossy(&bytes));
    text
}

/// Runs `cmd` with its output in files (a process that keeps a pipe open cannot block
/// this test), killing it and everything below it when it outlives `hard` or, when
/// asked, holds more than the memory guard.
fn run_watched(mut cmd: Command, call: &Call) -> Outcome {
    let out = tempfile::tempfile().unwrap();
    let err = tempfile::tempfile().unwrap();
    cmd.stdout(out.try_clone().unwrap())
        .stderr(err.try_clone().unwrap())
        .stdin(if call.open_stdin {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let hard = call.bound * slowdown() + HUNG_AFTER;
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    let root = i32::try_from(child.id()).unwrap();
    let (mut tree_peak_mib, mut grader_peak_mib, mut killed) = (0, 0, None);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if killed.is_none() {
            if let Some(guard) = call.memory_guard_mib {
                let (tree, own) = memory_mib(root);
                tree_peak_mib = tree_peak_mib.max(tree);
                grader_peak_mib = grader_peak_mib.max(own);
                if tree > guard {
                    killed = Some(format!("its processes held {tree} MiB at once"));
                    kill_tree(root);
                }
            }
            if start.elapsed() > hard {
                killed = Some(format!("it was still running after {hard:?}"));
                kill_tree(root);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    drop(child.stdin.take());
    Outcome {
        code: status.code(),
        elapsed,
        stdout: read_all(out),
        stderr: read_all(err),
        killed,
        tree_peak_mib,
        grader_peak_mib,
    }
}

/// A command line for `sh`, every word quoted.
fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn verdict(report: &Value) -> &str {
    report["verdict"].as_str().unwrap_or("(no report)")
}

/// The gradebook's verdict for the student whose name starts with `name`.
/// Each case's verdict, in the report's order.
fn case_verdicts(report: &Value) -> Vec<&str> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["verdict"].as_str())
        .collect()
}

fn student_verdict<'a>(book: &'a Value, name: &str) -> &'a str {
    book["students"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["student"].as_str().is_some_and(|n| n.starts_with(name)))
        .and_then(|s| s["verdict"].as_str())
        .unwrap_or("(not in the gradebook)")
}

/// What a student's failing cases say in a gradebook (`name: message`, figures), for a
/// failure's message.
fn student_failures(book: &Value, name: &str) -> String {
    let student = book["students"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["student"].as_str().is_some_and(|n| n.starts_with(name)));
    let Some(student) = student else {
        return "(not in the gradebook)".to_owned();
    };
    let cases: Vec<String> = student["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["verdict"] != "AC")
        .map(|c| {
            format!(
                "{}: {} (cpu {} ms, wall {} ms)",
                c["name"], c["message"], c["cpu_ms"], c["wall_ms"]
            )
        })
        .collect();
    let errors = [&student["error"], &student["compile_error"]]
        .into_iter()
        .filter_map(Value::as_str)
        .map(str::to_owned);
    cases
        .into_iter()
        .chain(errors)
        .collect::<Vec<_>>()
        .join("; ")
}

// ---------------------------------------------------------------- a test's world

/// One test's world: a folder all may enter (cases, class, programs, the grader's TMPDIR
/// and its compile cache), the failures found so far, and the suite's lock. Everything is
/// removed on drop, even a 5,000-deep chain or locked folders a broken grader left.
struct Scene {
    root: PathBuf,
    /// The grader's TMPDIR: must be empty after every call.
    tmp: PathBuf,
    /// The grader's compile cache: its user's, mode 0700.
    cache: PathBuf,
    /// Unique to this test: in the names of the sources it writes.
    nonce: String,
    failures: Vec<String>,
    /// Held while the scene lives: a scene whose lock is free belongs to a test process
    /// that was killed, and the next scene removes it ([`sweep_dead_scenes`]).
    _lock: nix::fcntl::Flock<fs::File>,
    _serial: MutexGuard<'static, ()>,
}

/// What scenes' folders are called in the temp folder.
const SCENE_PREFIX: &str = "grader-box-test-";
/// A scene's lock file.
const SCENE_LOCK: &str = ".scene-lock";

/// Removes the scenes of test processes that were killed outright (their `Drop` never
/// ran): those whose lock no process holds, and, without a lock file, those an hour old
/// (a scene is locked a moment after it is made).
fn sweep_dead_scenes() {
    let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry
            .file_name()
            .to_string_lossy()
            .starts_with(SCENE_PREFIX)
        {
            continue;
        }
        let path = entry.path();
        let dead = match fs::File::open(path.join(SCENE_LOCK)) {
            Ok(file) => {
                nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).is_ok()
            }
            Err(_) => entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > Duration::from_hours(1))),
        };
        if dead {
            remove_all(&path);
        }
    }
}

impl Scene {
    fn new() -> Scene {
        let serial = crate::machine_wide();
        sweep_dead_scenes();
        let root = tempfile::Builder::new()
            .prefix(SCENE_PREFIX)
            .tempdir()
            .unwrap()
            .keep();
        let lock = nix::fcntl::Flock::lock(
            fs::File::create(root.join(SCENE_LOCK)).unwrap(),
            nix::fcntl::FlockArg::LockExclusiveNonblock,
        )
        .unwrap_or_else(|(_, e)| panic!("cannot lock the scene: {e}"));
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        let tmp = root.join("tmp");
        fs::create_dir(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o1777)).unwrap();
        let cache = root.join("cache");
        fs::create_dir(&cache).unwrap();
        fs::set_permissions(&cache, fs::Permissions::from_mode(0o700)).unwrap();
        let nonce = format!(
            "{:x}{:x}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos()
        );
        Scene {
            root,
            tmp,
            cache,
            nonce,
            failures: Vec::new(),
            _lock: lock,
            _serial: serial,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn fail(&mut self, message: String) {
        self.failures.push(message);
    }

    /// Asserts that nothing failed.
    fn finish(self) {
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
    }

    /// A folder all may read (world-readable, as a teacher's folders usually are: only a
    /// box keeps a program out), holding `text` at `rel` for each `(rel, text)`.
    fn folder(&self, name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = self.path(name);
        fs::create_dir_all(&dir).unwrap();
        for (rel, text) in files {
            let path = dir.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
        }
        // Every folder 0755 and file 0644, whatever the umask.
        for entry in walkdir::WalkDir::new(&dir).into_iter().flatten() {
            let mode = if entry.file_type().is_dir() {
                0o755
            } else {
                0o644
            };
            fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode)).unwrap();
        }
        dir
    }

    /// `count` cases, each the flip sample (answer 4).
    fn sample_cases(&self, name: &str, count: usize) -> PathBuf {
        let files: Vec<(String, &str)> = (1..=count)
            .flat_map(|i| {
                [
                    (format!("{i:02}.in"), SAMPLE),
                    (format!("{i:02}.ans"), "4\n"),
                ]
            })
            .collect();
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        self.folder(name, &refs)
    }

    /// A fixture of `hostile/` with `@NAME@` replaced by each `(NAME, value)`.
    fn render(name: &str, vars: &[(&str, String)]) -> String {
        let mut text = fs::read_to_string(fixture("hostile").join(name)).unwrap();
        for (key, value) in vars {
            text = text.replace(&format!("@{key}@"), value);
        }
        let rest: Vec<&str> = text
            .split('@')
            .skip(1)
            .step_by(2)
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
            .collect();
        assert!(rest.is_empty(), "{name}: no value for {rest:?}");
        text
    }

    /// Writes a rendered fixture as `dir/<stem>-<nonce>.<ext>` (the nonce finds its
    /// compiler's processes), readable by all.
    fn source(&self, dir: &str, name: &str, vars: &[(&str, String)]) -> PathBuf {
        let (stem, ext) = name.rsplit_once('.').unwrap();
        let file = format!("{stem}-{}.{ext}", self.nonce);
        let folder = self.folder(dir, &[(file.as_str(), &Scene::render(name, vars))]);
        folder.join(file)
    }

    /// A fixture compiled here with gcc, into `bin/` (all may run it).
    fn gcc(&self, name: &str, vars: &[(&str, String)]) -> PathBuf {
        let source = self.source("src", name, vars);
        let binary = self.path("bin").join(name.trim_end_matches(".c"));
        fs::create_dir_all(binary.parent().unwrap()).unwrap();
        fs::set_permissions(binary.parent().unwrap(), fs::Permissions::from_mode(0o755)).unwrap();
        let built = Command::new("gcc")
            .args(["-O2", "-pthread", "-o"])
            .arg(&binary)
            .arg(&source)
            .status()
            .unwrap();
        assert!(built.success(), "{name}: gcc failed");
        binary
    }

    /// The grader, with this test's TMPDIR and cache, in the test's folder.
    fn grader(&self) -> Command {
        self.grader_fn()()
    }

    /// `grader test flip SUBMISSION --cases CASES` with `limits` in `tier`.
    fn test_cmd(&self, tier: &str, submission: &Path, cases: &Path, limits: Limits) -> Command {
        let mut cmd = self.grader();
        cmd.args(["test", "flip"])
            .arg(submission)
            .arg("--cases")
            .arg(cases)
            .args(limits.args())
            .args(["--sandbox", tier]);
        cmd
    }

    /// `grader batch flip CLASS --cases CASES --out OUT --report REPORT` with `limits` in
    /// `tier`.
    fn batch_cmd(
        &self,
        tier: &str,
        class: &Path,
        cases: &Path,
        out: &str,
        limits: Limits,
    ) -> Command {
        self.batch_report(tier, class, cases, out, limits, "json")
    }

    fn batch_report(
        &self,
        tier: &str,
        class: &Path,
        cases: &Path,
        out: &str,
        limits: Limits,
        report: &str,
    ) -> Command {
        let mut cmd = self.grader();
        cmd.args(["batch", "flip"])
            .arg(class)
            .arg("--cases")
            .arg(cases)
            .arg("--out")
            .arg(self.path(out))
            .args(["--report", report])
            .args(limits.args())
            .args(["--sandbox", tier]);
        cmd
    }

    /// Every report a batch wrote into `out`, with its name.
    fn gradebooks(&self, out: &str) -> Vec<(String, String)> {
        [
            "gradebook.csv",
            "gradebook.json",
            "gradebook.html",
            "gradebook.xml",
            "journal.jsonl",
        ]
        .into_iter()
        .map(|name| {
            let text = fs::read_to_string(self.path(out).join(name)).unwrap_or_default();
            (format!("{out}/{name}"), text)
        })
        .collect()
    }

    /// Runs one call of the grader and checks what every call must hold: exit status,
    /// time, no process left, nothing written outside.
    fn call(&mut self, label: &str, cmd: Command, call: &Call) -> Outcome {
        let before: HashSet<i32> = pids().into_iter().collect();
        let marks = marks_outside();
        let outcome = run_watched(cmd, call);
        if let Some(why) = &outcome.killed {
            self.fail(format!("{label}: killed by the test: {why}"));
        }
        if !outcome.code.is_some_and(|c| call.codes.contains(&c)) {
            self.fail(format!(
                "{label}: exit status {:?}, expected one of {:?}; stderr: {}",
                outcome.code, call.codes, outcome.stderr
            ));
        }
        if outcome.elapsed > call.bound * slowdown() {
            self.fail(format!(
                "{label}: the grader took {:.1?}, more than {:?}",
                outcome.elapsed, call.bound
            ));
        }
        self.check_left(label, &before, &marks, call.tmp_empty);
        outcome
    }

    /// No process of the call left (those found are killed), nothing new outside, the
    /// grader's TMPDIR empty (emptied for the next call if not).
    fn check_left(
        &mut self,
        label: &str,
        before: &HashSet<i32>,
        marks: &HashSet<PathBuf>,
        tmp_empty: bool,
    ) {
        let markers = [self.root.to_string_lossy().into_owned(), self.nonce.clone()];
        let start = Instant::now();
        let left = loop {
            let left = leftovers(before, &markers);
            if left.is_empty() || start.elapsed() > GRACE {
                break left;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        for p in &left {
            self.fail(format!(
                "{label}: process {} `{}` (uid {}, parent {}) outlived the run: {}",
                p.pid, p.comm, p.uid, p.ppid, p.cmdline
            ));
            if p.comm == "grader-hostile" || markers.iter().any(|m| p.cmdline.contains(m)) {
                signal(p.pid, Signal::SIGKILL);
            }
        }
        for mark in marks_outside().difference(marks) {
            self.fail(format!("{label}: wrote {} outside the box", mark.display()));
            let name = mark.file_name().unwrap().to_string_lossy();
            if name.starts_with("grader-hostile-shm-") || name.starts_with("grader-hostile-fill-") {
                let _ = fs::remove_file(mark);
            }
        }
        let in_tmp: Vec<PathBuf> = fs::read_dir(&self.tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        if tmp_empty && !in_tmp.is_empty() {
            self.fail(format!("{label}: left {in_tmp:?} in the grader's TMPDIR"));
            for path in in_tmp {
                remove_all(&path);
            }
        }
    }

    /// Fails for each secret found in any of `texts` (`(where, text)`).
    fn no_secrets(&mut self, label: &str, texts: &[(String, String)], secrets: &[&str]) {
        for (place, text) in texts {
            for secret in secrets.iter().filter(|s| !s.is_empty()) {
                if text.contains(secret) {
                    self.fail(format!("{label}: {place} holds the secret {secret:?}"));
                }
            }
        }
    }

    /// `cmd` (a `grader test`) with `--report json --jobs 1`; checks the call and the
    /// verdict, and returns the report.
    fn test_json(&mut self, label: &str, mut cmd: Command, bound: Duration, want: &str) -> Value {
        cmd.args(["--report", "json", "--jobs", "1"]);
        let outcome = self.call(label, cmd, &Call::within(bound));
        let report = json(&outcome.stdout);
        if verdict(&report) != want {
            self.fail(format!(
                "{label}: expected {want}, got {} {}; stderr: {}",
                verdict(&report),
                report["cases"],
                outcome.stderr
            ));
        }
        report
    }

    /// Each row's fixture (fixture, number of sample cases, verdict), compiled with the
    /// host's values (and the canary's folder, when given), graded by `grader()`'s `test
    /// flip ... --sandbox strict` under `limits`; each label ends with `(who)`.
    fn grade_in_strict<'a>(
        &mut self,
        rows: impl IntoIterator<Item = (&'a str, usize, &'a str)>,
        limits: Limits,
        (who, canary): (&str, Option<&Path>),
        grader: impl Fn() -> Command,
    ) {
        for (name, count, want) in rows {
            let cases = self.sample_cases(&format!("cases-{count}"), count);
            let mut vars = host_vars(&cases);
            if let Some(canary) = canary {
                vars.push(("CANARY", canary.to_string_lossy().into_owned()));
            }
            let binary = self.gcc(name, &vars);
            let mut cmd = grader();
            cmd.args(["test", "flip"])
                .arg(&binary)
                .arg("--cases")
                .arg(&cases)
                .args(limits.args())
                .args(["--sandbox", "strict"]);
            let bound = limits.bound(u32::try_from(count).unwrap());
            self.test_json(&format!("{name} ({who})"), cmd, bound, want);
        }
    }

    /// [`Scene::grader`] as a function that outlives a borrow of the scene.
    fn grader_fn(&self) -> impl Fn() -> Command + use<> {
        let (tmp, cache, root) = (self.tmp.clone(), self.cache.clone(), self.root.clone());
        move || {
            let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("grader"));
            cmd.env("NO_COLOR", "1")
                .env("TMPDIR", &tmp)
                .env("GRADER_CACHE_DIR", &cache)
                .current_dir(&root);
            cmd
        }
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        remove_all(&self.root);
    }
}

/// Removes `path` whatever it holds (locked folders, chains deeper than any path).
fn remove_all(path: &Path) {
    let _ = Command::new("chmod")
        .args(["-R", "u+rwx"])
        .arg(path)
        .stderr(Stdio::null())
        .status();
    let _ = Command::new("rm").arg("-rf").arg(path).status();
}

/// `cmd` under the usual soft limit of 1,024 open files (a login shell's default, where
/// this machine's is higher), so that a cleanup holding a descriptor per folder level
/// fails here as it would on a teacher's machine.
fn with_usual_descriptors(cmd: &Command) -> Command {
    let mut limited = Command::new("prlimit");
    limited
        .arg("--nofile=1024:")
        .arg("--")
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => limited.env(key, value),
            None => limited.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        limited.current_dir(dir);
    }
    limited
}

/// The case folder of the compile-time attacks: one case whose answer is `Impossible`,
/// a word no report holds unless the answer leaked.
fn impossible_case(scene: &Scene) -> PathBuf {
    scene.folder(
        "answers",
        &[("01.in", IMPOSSIBLE), ("01.ans", "Impossible\n")],
    )
}

// ---------------------------------------------------------------- 4. compile-time attacks

/// The compile-time readers: a case's answer (C and Rust), /etc/shadow, the grader's
/// environment. Each must be CE in strict, where compiles run in a box.
const COMPILE_READERS: &[&str] = &[
    "ce_includes_case_answer.c",
    "ce_include_str_case_answer.rs",
    "ce_includes_etc_shadow.c",
    "ce_env_secret.rs",
];

/// The first line of /etc/shadow, when this test can read it (as root).
fn shadow_line() -> String {
    fs::read_to_string("/etc/shadow")
        .ok()
        .and_then(|t| t.lines().next().map(str::to_owned))
        .unwrap_or_default()
}

/// A secret value for the grader's environment.
fn environment_secret(scene: &Scene) -> String {
    format!("s3cret-{}-value", scene.nonce)
}

/// Writes the compile-time readers into `dir`, rendered for `answers`.
fn compile_readers(scene: &Scene, dir: &str, answers: &Path) -> Vec<(&'static str, PathBuf)> {
    let vars = [
        (
            "ANSWER",
            answers.join("01.ans").to_string_lossy().into_owned(),
        ),
        ("VARIABLE", SECRET_VARIABLE.to_owned()),
    ];
    COMPILE_READERS
        .iter()
        .map(|name| (*name, scene.source(dir, name, &vars)))
        .collect()
}

#[test]
fn compile_time_reads_of_the_cases_shadow_and_environment_are_compile_errors_leaking_nothing() {
    let mut scene = Scene::new();
    let answers = impossible_case(&scene);
    let secret = environment_secret(&scene);
    let shadow = shadow_line();
    let secrets = ["Impossible", shadow.as_str(), secret.as_str()];
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 256,
    };
    let bound = COMPILE_WALL + COMPILE_SLACK + limits.bound(1);
    for (name, source) in compile_readers(&scene, "src", &answers) {
        for report in ["human", "json", "junit"] {
            let label = format!("{name} (--report {report})");
            let mut cmd = scene.test_cmd("strict", &source, &answers, limits);
            cmd.args(["--report", report]).env(SECRET_VARIABLE, &secret);
            let outcome = scene.call(&label, cmd, &Call::within(bound));
            let ce = match report {
                "json" => verdict(&json(&outcome.stdout)) == "CE",
                "junit" => outcome.stdout.contains("\"CE\""),
                _ => outcome.stdout.contains("CE"),
            };
            if !ce {
                scene.fail(format!("{label}: not CE: {}", outcome.stdout));
            }
            let texts = [
                (format!("{label} stdout"), outcome.stdout),
                (format!("{label} stderr"), outcome.stderr),
            ];
            scene.no_secrets(&label, &texts, &secrets);
        }
    }
    scene.finish();
}

#[test]
fn compile_time_readers_in_a_batch_are_compile_errors_and_no_gradebook_holds_a_secret() {
    let mut scene = Scene::new();
    let answers = impossible_case(&scene);
    let secret = environment_secret(&scene);
    let shadow = shadow_line();
    let secrets = ["Impossible", shadow.as_str(), secret.as_str()];
    let readers = compile_readers(&scene, "class", &answers);
    fs::copy(
        fixture("flip/ac_rows.py"),
        scene.path("class").join("honest.py"),
    )
    .unwrap();
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 256,
    };
    let bound = BATCH_COMPILES + COMPILE_WALL + limits.bound(1);
    let mut cmd = scene.batch_cmd("strict", &scene.path("class"), &answers, "out", limits);
    cmd.args(["--jobs", "2"]).env(SECRET_VARIABLE, &secret);
    let outcome = scene.call("batch", cmd, &Call::within(bound));
    let book = json(&outcome.stdout);
    for (name, _) in &readers {
        let stem = name.rsplit_once('.').unwrap().0;
        let got = student_verdict(&book, stem);
        if got != "CE" {
            scene.fail(format!("batch: {name}: expected CE, got {got}"));
        }
    }
    if student_verdict(&book, "honest") != "AC" {
        scene.fail(format!("batch: the honest student is not AC: {book}"));
    }
    // The gradebook's `boards` are the case folder's own inputs and answers, for the
    // teacher: the answer is a secret only in what a student's build or run produced.
    let mut texts: Vec<(String, String)> = scene
        .gradebooks("out")
        .into_iter()
        .map(|(place, text)| (place, without_boards(&text)))
        .collect();
    texts.push(("batch stdout".to_owned(), without_boards(&outcome.stdout)));
    texts.push(("batch stderr".to_owned(), outcome.stderr));
    scene.no_secrets("batch", &texts, &secrets);
    // The human summary too.
    let class = scene.path("class");
    let mut cmd = scene.batch_report("strict", &class, &answers, "human", limits, "human");
    cmd.env(SECRET_VARIABLE, &secret);
    let outcome = scene.call("batch --report human", cmd, &Call::within(bound));
    let texts = [("batch --report human".to_owned(), outcome.stdout)];
    scene.no_secrets("batch --report human", &texts, &secrets);
    scene.finish();
}

/// A JSON gradebook without its `boards` (the cases' inputs and answers); other texts as
/// they are.
fn without_boards(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(mut book) => {
            if let Some(book) = book.as_object_mut() {
                book.remove("boards");
            }
            book.to_string()
        }
        Err(_) => text.to_owned(),
    }
}

/// One compile-time attack of `grader test`: CE within the compile limit plus slack, the
/// grader's own memory small, the compiler's bounded.
fn compile_attack(scene: &mut Scene, label: &str, cmd: Command, report: &Path, call: &Call) {
    let outcome = scene.call(label, cmd, call);
    let report = json(&fs::read_to_string(report).unwrap_or(outcome.stdout));
    if verdict(&report) != "CE" {
        scene.fail(format!("{label}: expected CE, got {}", verdict(&report)));
    } else if report["compile_error"].as_str().is_none_or(str::is_empty) {
        scene.fail(format!("{label}: CE without a message"));
    }
    if outcome.tree_peak_mib > COMPILE_MEMORY_MIB + 256 {
        scene.fail(format!(
            "{label}: the compile's processes held {} MiB at once, over the compile limit",
            outcome.tree_peak_mib
        ));
    }
    if outcome.grader_peak_mib > GRADER_OWN_MIB {
        scene.fail(format!(
            "{label}: the grader itself grew to {} MiB",
            outcome.grader_peak_mib
        ));
    }
}

/// How a compile-time attack is watched: the compile limits plus slack, and the tree's
/// memory guarded (a compiler without limits would take the machine's memory).
fn compile_call() -> Call {
    Call {
        memory_guard_mib: Some(COMPILE_TREE_GUARD_MIB),
        ..Call::within(COMPILE_WALL + COMPILE_SLACK)
    }
}

#[test]
fn including_dev_zero_is_a_compile_error_in_bounded_time_and_memory() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let source = scene.source("src", "ce_includes_dev_zero.c", &[]);
    let report = scene.path("report.json");
    let mut cmd = scene.test_cmd(
        "strict",
        &source,
        &cases,
        Limits {
            cpu: 1,
            wall: 3,
            memory_mib: 256,
        },
    );
    cmd.args(["--report", "json", "--report-file"]).arg(&report);
    let call = compile_call();
    compile_attack(&mut scene, "#include \"/dev/zero\"", cmd, &report, &call);
    scene.finish();
}

#[test]
fn including_a_fifo_is_a_compile_error_without_a_hang() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let fifo = scene.path("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o666)).unwrap();
    let vars = [("FIFO", fifo.to_string_lossy().into_owned())];
    let source = scene.source("src", "ce_includes_fifo.c", &vars);
    let report = scene.path("report.json");
    let mut cmd = scene.test_cmd(
        "strict",
        &source,
        &cases,
        Limits {
            cpu: 1,
            wall: 3,
            memory_mib: 256,
        },
    );
    cmd.args(["--report", "json", "--report-file"]).arg(&report);
    compile_attack(
        &mut scene,
        "#include of a FIFO",
        cmd,
        &report,
        &compile_call(),
    );
    // A compiler still waiting on the FIFO is released (it was reported already).
    let _ = fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo);
    scene.finish();
}

/// `words` run under `script`, so that they get a terminal of their own as their
/// controlling terminal (what a teacher's shell gives the grader), with the grader's
/// environment of this test.
fn in_a_terminal(scene: &Scene, words: &[String]) -> Command {
    let grader = scene.grader();
    let mut script = Command::new("script");
    script
        .args(["-qec", &shell_line(words), "/dev/null"])
        .current_dir(&scene.root);
    for (key, value) in grader.get_envs() {
        if let Some(value) = value {
            script.env(key, value);
        }
    }
    script
}

/// Arguments as words.
fn words(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<String> {
    args.iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect()
}

/// The grader's path, then `args`, as words.
fn grader_words(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<String> {
    let grader = assert_cmd::cargo::cargo_bin("grader");
    [words(&[&grader]), words(args)].concat()
}

#[test]
fn including_dev_tty_is_a_compile_error_without_a_hang() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let source = scene.source("src", "ce_includes_dev_tty.c", &[]);
    let report = scene.path("report.json");
    let words = grader_words(&[
        &"test",
        &"flip",
        &source,
        &"--cases",
        &cases,
        &"--sandbox",
        &"strict",
        &"--report",
        &"json",
        &"--report-file",
        &report,
    ]);
    let cmd = in_a_terminal(&scene, &words);
    let call = Call {
        open_stdin: true,
        ..compile_call()
    };
    compile_attack(&mut scene, "#include \"/dev/tty\"", cmd, &report, &call);
    scene.finish();
}

// ---------------------------------------------------------------- 5. the process cap

/// A hog beside an honest threaded student: a cap per box (or per worker's uid, in
/// basic as root), never one shared by every run.
const HOG: &[Row] = &[
    ("ac_hogs_process_cap.c", Some("AC"), "AC"),
    ("ac_eight_threads.c", Some("AC"), "AC"),
];

#[test]
fn a_process_cap_hog_does_not_starve_an_honest_threaded_student() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    for (i, row) in HOG.iter().enumerate() {
        let student = format!("{}-{}.c", ["alice", "bob"][i], row.0.trim_end_matches(".c"));
        let text = Scene::render(row.0, &[]);
        scene.folder("class", &[(student.as_str(), text.as_str())]);
    }
    let limits = Limits {
        cpu: 2,
        wall: 8,
        memory_mib: 256,
    };
    for tier in ["basic", "strict"] {
        let mut cmd = scene.batch_cmd(tier, &scene.path("class"), &cases, tier, limits);
        cmd.args(["--jobs", "2"]);
        let label = format!("batch ({tier})");
        let outcome = scene.call(&label, cmd, &Call::within(BATCH_COMPILES + limits.bound(1)));
        let book = json(&outcome.stdout);
        for (i, row) in HOG.iter().enumerate() {
            let want = if tier == "basic" { row.1 } else { Some(row.2) };
            let got = student_verdict(&book, ["alice", "bob"][i]);
            if want.is_some_and(|w| w != got) {
                scene.fail(format!("{label}: {}: expected {want:?}, got {got}", row.0));
            }
        }
    }
    scene.finish();
}

// ---------------------------------------------------------------- 6. other students, cases

/// The other students of the reading test: a Python source (staged as a copy beside its
/// run) and a C one, both honest, both holding `mark`.
fn marked_students(scene: &Scene, mark: &str) {
    let python = format!("# {mark}\nMARK = \"{mark}\"\nprint(4)\n");
    let c = format!(
        "/* {mark} */\n#include <stdio.h>\nint main(void) {{ fputs(\"{mark}\\n\", stderr); puts(\"4\"); return 0; }}\n"
    );
    scene.folder("class", &[("bob.py", &python), ("carol.c", &c)]);
}

/// The reader fixture's values: every named file, the reversed mark, the grader's TMPDIR.
fn reader_vars(scene: &Scene, cases: &Path, mark: &str) -> Vec<(&'static str, String)> {
    let named: Vec<String> = [
        scene.path("class/bob.py"),
        scene.path("class/carol.c"),
        cases.join("01.in"),
        cases.join("01.ans"),
    ]
    .iter()
    .map(|p| format!("\"{}\"", p.display()))
    .collect();
    vec![
        ("NAMED", named.join(", ")),
        ("MARK_REVERSED", mark.chars().rev().collect()),
        ("TMPDIR", scene.tmp.to_string_lossy().into_owned()),
    ]
}

#[test]
fn a_program_reads_neither_the_other_students_nor_the_cases_in_batch_and_with_cmd() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let mark = format!("GRADER-MARK-{}", scene.nonce);
    marked_students(&scene, &mark);
    let text = Scene::render(
        "ac_reads_other_students.c",
        &reader_vars(&scene, &cases, &mark),
    );
    scene.folder("class", &[("alice.c", text.as_str())]);
    // The reader looks into every file of the folders above its own (`/*/*`: all of
    // `/usr/bin` through `/bin`), a megabyte each: 2 s of CPU in the VM once a machine
    // has texlive installed. Its verdict is what is tested, not its speed. Nor its
    // memory: a file read first by a run is charged to the run's cgroup as page cache
    // (in a fresh VM, every file), and with the package format's toolchains installed the
    // files come to 378 MiB, past a 256 MiB limit (`MLE` in the VM on 2026-11-28).
    let limits = Limits {
        cpu: 10,
        wall: 20,
        memory_mib: 1024,
    };
    let mut cmd = scene.batch_cmd("strict", &scene.path("class"), &cases, "out", limits);
    cmd.args(["--jobs", "2"]);
    let outcome = scene.call(
        "batch",
        cmd,
        &Call::within(BATCH_COMPILES + limits.bound(2)),
    );
    let book = json(&outcome.stdout);
    for student in ["alice", "bob", "carol"] {
        let got = student_verdict(&book, student);
        if got != "AC" {
            scene.fail(format!(
                "batch: {student}: expected AC, got {got}: {}",
                student_failures(&book, student)
            ));
        }
    }
    // With --cmd: the program beside the other students' files.
    let source = scene
        .folder("src", &[("reader.c", text.as_str())])
        .join("reader.c");
    let binary = scene.path("class/reader");
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    let cmdline = binary.to_string_lossy().into_owned();
    let mut cmd = scene.grader();
    cmd.args(["test", "flip", "--cmd", &cmdline, "--cases"])
        .arg(&cases)
        .args(limits.args())
        .args(["--sandbox", "strict", "--report", "json"]);
    let outcome = scene.call("--cmd", cmd, &Call::within(limits.bound(1)));
    let report = json(&outcome.stdout);
    if verdict(&report) != "AC" {
        scene.fail(format!("--cmd: expected AC, got {}", report["cases"]));
    }
    scene.finish();
}

// ---------------------------------------------------------------- 8. TIOCSTI

const TERMINAL: &[Row] = &[("ac_tiocsti.c", Some("AC"), "AC")];

#[test]
fn tiocsti_types_nothing_into_the_graders_terminal() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 256,
    };
    for row in TERMINAL {
        let binary = scene.gcc(row.0, &[]);
        for (tier, want) in tiers(row) {
            let label = format!("{} ({tier})", row.0);
            let report = scene.path(&format!("{tier}.json"));
            let line = [
                grader_words(&[&"test", &"flip", &binary, &"--cases", &cases]),
                limits.args(),
                words(&[&"--sandbox", &tier, &"--report", &"json"]),
                words(&[&"--report-file", &report]),
            ]
            .concat();
            let cmd = in_a_terminal(&scene, &line);
            let call = Call {
                open_stdin: true,
                ..Call::within(limits.bound(1))
            };
            let outcome = scene.call(&label, cmd, &call);
            let got = json(&fs::read_to_string(&report).unwrap_or_default());
            if verdict(&got) != want {
                scene.fail(format!("{label}: expected {want}, got {}", got["cases"]));
            }
            // What is pushed into a terminal's input is echoed to its output.
            if outcome.stdout.contains("grader-hostile-tiocsti") {
                scene.fail(format!(
                    "{label}: keys reached the terminal: {}",
                    outcome.stdout
                ));
            }
        }
    }
    scene.finish();
}

// ---------------------------------------------------------------- 9. memory, then a wait

const KILLED_THEN_WAITED: &[Row] = &[("mle_child_killed_parent_waits.c", Some("MLE"), "MLE")];

/// A run whose child the OOM killer took, and whose main process then waited for it until
/// the wall limit, is `MLE` at once: the wait is the kill's consequence, and no second run
/// is made to confirm a stall (CI once gave such a run `TLE`, when a sibling of a killed
/// child held the pipe its parent read). As root both tiers have the run's cgroup.
#[test]
fn a_wait_for_a_child_killed_for_memory_is_mle_not_tle() {
    if !nix::unistd::geteuid().is_root() {
        return;
    }
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 64,
    };
    for row in KILLED_THEN_WAITED {
        let binary = scene.gcc(row.0, &[]);
        for (tier, want) in tiers(row) {
            let cmd = scene.test_cmd(tier, &binary, &cases, limits);
            let report =
                scene.test_json(&format!("{} ({tier})", row.0), cmd, limits.bound(1), want);
            let message = report["cases"][0]["message"].as_str().unwrap_or_default();
            if !message.starts_with("peak memory ") || !message.ends_with(" over the 64 MiB limit")
            {
                scene.fail(format!("{} ({tier}): message {message:?}", row.0));
            }
        }
    }
    scene.finish();
}

// ---------------------------------------------------------------- 10. scratch traps

const TRAPS: &[Row] = &[("ac_deep_folder_chain.c", Some("AC"), "AC")];

/// A folder outside every box, with a file, that the traps link to.
fn canary(scene: &Scene) -> PathBuf {
    let dir = scene.folder("canary", &[("canary.txt", "still here\n")]);
    fs::set_permissions(dir.join("canary.txt"), fs::Permissions::from_mode(0o666)).unwrap();
    dir
}

fn check_canary(scene: &mut Scene, label: &str, dir: &Path) {
    if fs::read_to_string(dir.join("canary.txt")).ok().as_deref() != Some("still here\n") {
        scene.fail(format!(
            "{label}: the cleanup followed a link out of the scratch folder"
        ));
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("canary.txt"), "still here\n").unwrap();
    }
}

#[test]
fn traps_in_the_scratch_folder_spare_the_next_case_the_class_and_the_machine() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 2);
    let canary = canary(&scene);
    let vars = [("CANARY", canary.to_string_lossy().into_owned())];
    // Making the chain costs 40 ms of CPU on tmpfs, but about 1 s on ext4 and 5 s under
    // Landlock there: the limits leave room for all of them.
    let limits = Limits {
        cpu: 10,
        wall: 25,
        memory_mib: 256,
    };
    let honest = fs::read_to_string(fixture("hostile/ac_honest_slow.c")).unwrap();
    for row in TRAPS {
        let binary = scene.gcc(row.0, &vars);
        let text = Scene::render(row.0, &vars);
        scene.folder(
            "class",
            &[("alice.c", text.as_str()), ("bob.c", honest.as_str())],
        );
        for (tier, want) in tiers(row) {
            let label = format!("{} ({tier})", row.0);
            let cmd = with_usual_descriptors(&scene.test_cmd(tier, &binary, &cases, limits));
            let report = scene.test_json(&label, cmd, limits.bound(2), want);
            let verdicts = case_verdicts(&report);
            if verdicts != [want, want] {
                scene.fail(format!("{label}: the cases got {verdicts:?}"));
            }
            check_canary(&mut scene, &label, &canary);
            // In a batch, on one worker: the other student's runs come after the traps.
            let batch = scene.batch_cmd(tier, &scene.path("class"), &cases, tier, limits);
            let mut cmd = with_usual_descriptors(&batch);
            cmd.args(["--jobs", "1"]);
            let label = format!("batch ({tier})");
            let bound = BATCH_COMPILES + limits.bound(4);
            let outcome = scene.call(&label, cmd, &Call::within(bound));
            let book = json(&outcome.stdout);
            for (student, want) in [("alice", want), ("bob", "AC")] {
                let got = student_verdict(&book, student);
                if got != want {
                    scene.fail(format!("{label}: {student}: expected {want}, got {got}"));
                }
            }
            check_canary(&mut scene, &label, &canary);
        }
    }
    scene.finish();
}

// ---------------------------------------------------------------- 11. the compile cache

/// A one-line usage error (exit 2) that names `path`.
fn refused_naming(scene: &mut Scene, label: &str, outcome: &Outcome, path: &Path) {
    let stderr = outcome.stderr.trim_end();
    let named = stderr.contains(&*path.to_string_lossy());
    if outcome.code != Some(2)
        || !stderr.starts_with("grader: error: ")
        || stderr.lines().count() != 1
        || !named
    {
        scene.fail(format!(
            "{label}: expected one error line naming {}, exit 2; got exit {:?}: {stderr}",
            path.display(),
            outcome.code
        ));
    }
}

#[test]
fn a_compile_cache_others_can_write_or_own_is_refused() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let source = fixture("flip/wa_off_by_one.c");
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 256,
    };
    let refused = Call {
        codes: &[2],
        ..Call::within(COMPILE_WALL)
    };
    let open = scene.path("open-cache");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    let mut cmd = scene.test_cmd("strict", &source, &cases, limits);
    cmd.env("GRADER_CACHE_DIR", &open);
    let outcome = scene.call("a cache of mode 0777", cmd, &refused);
    refused_naming(&mut scene, "a cache of mode 0777", &outcome, &open);
    if nix::unistd::geteuid().is_root() {
        let foreign = scene.path("foreign-cache");
        fs::create_dir(&foreign).unwrap();
        fs::set_permissions(&foreign, fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::chown(&foreign, Some(65534), Some(65534)).unwrap();
        let mut cmd = scene.test_cmd("strict", &source, &cases, limits);
        cmd.env("GRADER_CACHE_DIR", &foreign);
        let outcome = scene.call("a cache owned by nobody", cmd, &refused);
        refused_naming(&mut scene, "a cache owned by nobody", &outcome, &foreign);
    }
    // No HOME: the fallback in the temporary folder, planted first by someone else.
    let shared = scene.path("shared-tmp");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    let planted = shared.join("grader-cache");
    fs::create_dir(&planted).unwrap();
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o777)).unwrap();
    if nix::unistd::geteuid().is_root() {
        std::os::unix::fs::chown(&planted, Some(65534), Some(65534)).unwrap();
    }
    let mut cmd = scene.test_cmd("strict", &source, &cases, limits);
    cmd.env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("GRADER_CACHE_DIR")
        .env("TMPDIR", &shared)
        .args(["--report", "json"]);
    let label = "no HOME, a planted fallback cache";
    let call = Call {
        codes: &[1, 2],
        tmp_empty: false,
        ..Call::within(COMPILE_WALL)
    };
    let outcome = scene.call(label, cmd, &call);
    let used = fs::read_dir(&planted).map_or(0, Iterator::count);
    match outcome.code {
        Some(2) if outcome.stderr.trim_end().lines().count() == 1 => {}
        Some(1) if used == 0 && verdict(&json(&outcome.stdout)) == "WA" => {}
        _ => scene.fail(format!(
            "{label}: the planted folder was trusted ({used} entries written; exit {:?}): {}",
            outcome.code, outcome.stderr
        )),
    }
    scene.finish();
}

#[test]
fn a_program_planted_in_the_cache_is_never_run() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    // The real source answers 5 (WA); the planted program answers 4 (AC).
    let source = scene.path("wa.c");
    fs::copy(fixture("flip/wa_off_by_one.c"), &source).unwrap();
    let planted = scene.gcc("ac_never_reads_stdin.c", &[]);
    let limits = Limits {
        cpu: 1,
        wall: 3,
        memory_mib: 256,
    };
    let bound = COMPILE_WALL + limits.bound(1);
    for round in ["first compile", "after the planting"] {
        if round == "after the planting" {
            let programs: Vec<PathBuf> = walkdir::WalkDir::new(&scene.cache)
                .into_iter()
                .flatten()
                .filter(|e| {
                    e.file_type().is_file()
                        && e.metadata()
                            .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
                })
                .map(walkdir::DirEntry::into_path)
                .collect();
            assert!(!programs.is_empty(), "no compiled program in the cache");
            for program in programs {
                fs::copy(&planted, &program).unwrap();
            }
        }
        let mut cmd = scene.test_cmd("strict", &source, &cases, limits);
        cmd.args(["--report", "json"]);
        let outcome = scene.call(round, cmd, &Call::within(bound));
        let report = json(&outcome.stdout);
        let message = report["cases"][0]["message"].as_str().unwrap_or("");
        if verdict(&report) != "WA" || !message.contains("got `5`") {
            scene.fail(format!(
                "{round}: the real source (WA, got `5`) was not what ran: {} {message}",
                verdict(&report)
            ));
        }
    }
    scene.finish();
}

// ---------------------------------------------------------------- a run and the host

/// The values of `ac_sees_nothing_of_the_host.c` for the graders that are not the
/// machine's root ([`Scene::grade_in_strict`]): the machine's hostname, the cases' folder,
/// the grader's folder, and init's OOM score, `0`: no such grader may lower it. (As the
/// machine's root, the sandbox's own tests run the fixture.)
fn host_vars(cases: &Path) -> Vec<(&'static str, String)> {
    let hostname = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let grader = assert_cmd::cargo::cargo_bin("grader");
    vec![
        ("HOSTNAME", hostname.trim().to_owned()),
        ("CASES", cases.to_string_lossy().into_owned()),
        (
            "LAUNCHER",
            grader.parent().unwrap().to_string_lossy().into_owned(),
        ),
        ("OOM_SCORE", "0".to_owned()),
    ]
}

// ---------------------------------------------------------------- without root

/// The uid the unprivileged grader runs as.
const NOBODY: u32 = 65534;

/// (fixture, cases, expected verdict) for the grader run by an unprivileged user: the box
/// then lives in a user namespace and, without cgroups, CPU is counted by reaping.
const UNPRIVILEGED: &[(&str, usize, &str)] = &[
    ("tle_setpgid_escape_self.c", 1, "TLE"),
    ("ac_setpgid_escape_child.c", 1, "AC"),
    ("tle_cpu_in_unreaped_child.c", 1, "TLE"),
    ("tle_cpu_split_over_children.c", 1, "TLE"),
    ("ac_socket_families_strict.c", 1, "AC"),
    ("ac_io_uring_strict.c", 1, "AC"),
    ("ac_deep_folder_chain.c", 2, "AC"),
    ("ac_leaves_marks_finds_none.c", 3, "AC"),
    ("ac_leaves_marks_on_its_streams_finds_none.c", 3, "AC"),
    ("ac_holds_memory_past_its_input_finds_none.c", 3, "AC"),
    ("ac_namespaces_and_cache_probes_refused.c", 1, "AC"),
    ("ac_sees_nothing_of_the_host.c", 2, "AC"),
];

/// The grader and its launcher copied where an unprivileged user may run them (the build
/// folder may be below a home it cannot enter), and a command that runs that copy as
/// `nobody`, with a TMPDIR and a compile cache of its own.
fn unprivileged_grader(scene: &Scene) -> impl Fn() -> Command + use<> {
    let bin = scene.path("grader-bin");
    fs::create_dir_all(&bin).unwrap();
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let grader = assert_cmd::cargo::cargo_bin("grader");
    for name in ["grader", "grader-launcher"] {
        let from = grader.with_file_name(name);
        if from.exists() {
            fs::copy(&from, bin.join(name)).unwrap();
            fs::set_permissions(bin.join(name), fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let own = scene.path("nobody");
    for dir in [own.clone(), own.join("cache")] {
        fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::chown(&dir, Some(NOBODY), Some(NOBODY)).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    }
    let root = scene.root.clone();
    move || {
        let mut cmd = Command::new("setpriv");
        cmd.args([
            format!("--reuid={NOBODY}"),
            format!("--regid={NOBODY}"),
            "--clear-groups".to_owned(),
            "--".to_owned(),
        ])
        .arg(bin.join("grader"))
        .env_remove("HOME")
        .env("NO_COLOR", "1")
        .env("TMPDIR", &own)
        .env("GRADER_CACHE_DIR", own.join("cache"))
        .current_dir(&root);
        cmd
    }
}

/// A scene and its unprivileged grader, or `None` when this process cannot become
/// `nobody` (it must be root; under CI that is a failure).
fn without_root(test: &str) -> Option<(Scene, impl Fn() -> Command + use<>)> {
    if !nix::unistd::geteuid().is_root() {
        // A developer's own run may skip it; CI must not pass without it.
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: needs root to become nobody"
        );
        return None;
    }
    let scene = Scene::new();
    let grader = unprivileged_grader(&scene);
    Some((scene, grader))
}

/// Whether the unprivileged grader left anything in its TMPDIR.
fn nothing_left_by_nobody(scene: &mut Scene) {
    let left: Vec<_> = fs::read_dir(scene.path("nobody"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "cache" && !n.to_string_lossy().starts_with("out"))
        .collect();
    if !left.is_empty() {
        scene.fail(format!(
            "the unprivileged grader left {left:?} in its TMPDIR"
        ));
    }
}

#[test]
fn without_root_the_box_holds_in_a_user_namespace() {
    let Some((mut scene, grader)) = without_root("without_root_the_box_holds") else {
        return;
    };
    let doctor = grader().arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        text.contains("through an unprivileged user namespace")
            && text.contains("basic's programs kept from the grader    yes: a PID space")
            && text
                .lines()
                .any(|l| l.starts_with("--sandbox auto picks") && l.ends_with("strict")),
        "{text}"
    );
    let canary = canary(&scene);
    // Without cgroups no sample cuts a run short at the CPU limit: a wide wall limit lets
    // CPU time decide even on a busy machine.
    let limits = Limits {
        cpu: 1,
        wall: 10,
        memory_mib: 256,
    };
    scene.grade_in_strict(
        UNPRIVILEGED.iter().copied(),
        limits,
        ("nobody", Some(&canary)),
        grader,
    );
    nothing_left_by_nobody(&mut scene);
    scene.finish();
}

#[test]
fn without_root_compiles_happen_in_the_box() {
    let Some((mut scene, grader)) = without_root("without_root_compiles") else {
        return;
    };
    // An honest source, and one that reads a case's answer at compile time.
    let answers = impossible_case(&scene);
    let samples = scene.sample_cases("cases-1", 1);
    let honest = scene.path("src").join(format!("honest-{}.c", scene.nonce));
    fs::create_dir_all(honest.parent().unwrap()).unwrap();
    fs::set_permissions(honest.parent().unwrap(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(
        &honest,
        "#include <stdio.h>\nint main(void) { puts(\"4\"); return 0; }\n",
    )
    .unwrap();
    fs::set_permissions(&honest, fs::Permissions::from_mode(0o644)).unwrap();
    let compile = COMPILE_WALL + COMPILE_SLACK;
    let mut cmd = grader();
    cmd.args(["test", "flip"])
        .arg(&honest)
        .arg("--cases")
        .arg(&samples);
    scene.test_json("an honest source (nobody)", cmd, compile, "AC");
    let answer = answers.join("01.ans").to_string_lossy().into_owned();
    let reader = scene.source("src", "ce_includes_case_answer.c", &[("ANSWER", answer)]);
    let mut cmd = grader();
    cmd.args(["test", "flip"])
        .arg(&reader)
        .arg("--cases")
        .arg(&answers);
    let report = scene.test_json("a compile-time reader (nobody)", cmd, compile, "CE");
    scene.no_secrets(
        "a compile-time reader (nobody)",
        &[("json".to_owned(), report.to_string())],
        &["Impossible"],
    );
    nothing_left_by_nobody(&mut scene);
    scene.finish();
}

#[test]
fn without_root_a_class_is_graded_in_boxes() {
    let Some((mut scene, grader)) = without_root("without_root_a_class") else {
        return;
    };
    // A student who kills whatever it may signal for 3 s, one who traces whatever it may,
    // one whose CPU is in an unreaped child, and an honest one.
    let samples = scene.sample_cases("cases-1", 1);
    let class = scene.folder(
        "class-nobody",
        &[
            ("killer.c", &Scene::render("ac_kills_everyone.c", &[])),
            (
                "child.c",
                &Scene::render("tle_cpu_in_unreaped_child.c", &[]),
            ),
            ("honest.c", &Scene::render("ac_honest_slow.c", &[])),
            ("tracer.c", &Scene::render("ac_ptrace_everyone.c", &[])),
        ],
    );
    let limits = Limits {
        cpu: 1,
        wall: 6,
        memory_mib: 256,
    };
    // In basic the programs share the grader's uid: only a PID space of their own keeps
    // the killer and the tracer from the grader (and from the honest student).
    for tier in ["strict", "basic"] {
        let mut cmd = grader();
        cmd.args(["batch", "flip"])
            .arg(&class)
            .arg("--cases")
            .arg(&samples)
            .arg("--out")
            .arg(scene.path(&format!("nobody/out-{tier}")))
            .args(["--report", "json", "--jobs", "4", "--sandbox", tier])
            .args(limits.args());
        let bound = BATCH_COMPILES + limits.bound(1);
        let label = format!("batch (nobody, {tier})");
        let outcome = scene.call(&label, cmd, &Call::within(bound));
        let book = json(&outcome.stdout);
        for (student, want) in [
            ("killer", "AC"),
            ("tracer", "AC"),
            ("child", "TLE"),
            ("honest", "AC"),
        ] {
            let got = student_verdict(&book, student);
            if got != want {
                scene.fail(format!("{label}: {student}: expected {want}, got {got}"));
            }
        }
    }
    nothing_left_by_nobody(&mut scene);
    scene.finish();
}

/// Set by the cgroup-v2 VM's harness (`.ci/vm`) where it runs the suite as a plain user
/// whose shell sits in a subtree delegated to it, as systemd's `Delegate=yes` does.
const DELEGATED: &str = "GRADER_TEST_DELEGATED";

/// The grader run by this test's own user when that is not root: the cgroup-v2 VM runs the
/// suite so, as a plain user in a delegated subtree, where the grader must make its groups
/// beside the user's shell and count the memory of every process of a run; without
/// cgroups (a plain user on cgroup v1) memory is the largest process's, as the tier table
/// says. As root this is the `nobody` tests' work, through `setpriv`.
#[test]
fn as_a_plain_user_the_box_holds_and_delegated_cgroups_count_every_process() {
    if nix::unistd::geteuid().is_root() {
        eprintln!("as_a_plain_user: skipped as root (the nobody tests cover it)");
        return;
    }
    let mut scene = Scene::new();
    let doctor = scene.call(
        "doctor",
        {
            let mut cmd = scene.grader();
            cmd.arg("doctor");
            cmd
        },
        &Call::within(Duration::from_mins(1)),
    );
    let cgroups = doctor
        .stdout
        .lines()
        .find(|l| l.starts_with("cgroups "))
        .is_some_and(|l| l.contains(" v2, below ") || l.contains(" v1, below "));
    if std::env::var_os(DELEGATED).is_some() && !cgroups {
        scene.fail(format!(
            "a delegated subtree, but doctor finds no cgroups:\n{}",
            doctor.stdout
        ));
    }
    // With cgroups, strict works only once a forking run's children were seen (issue 37).
    let strict = doctor
        .stdout
        .lines()
        .find(|l| l.starts_with("tier strict "));
    if !strict.is_some_and(|l| l.contains(" works: ")) {
        scene.fail(format!("strict does not work:\n{}", doctor.stdout));
    }
    if !doctor
        .stdout
        .lines()
        .any(|l| l.starts_with("--sandbox auto picks") && l.ends_with("strict"))
    {
        scene.fail(format!("auto does not pick strict:\n{}", doctor.stdout));
    }
    let limits = Limits {
        cpu: 1,
        wall: 10,
        memory_mib: 256,
    };
    let canary = canary(&scene);
    let four = if cgroups { "MLE" } else { "AC" };
    let rows = UNPRIVILEGED
        .iter()
        .copied()
        .chain([("mle_four_children_100mib.c", 1, four)]);
    let grader = scene.grader_fn();
    scene.grade_in_strict(rows, limits, ("this user", Some(&canary)), grader);
    // The bundled submission, compiled in the box, on the bundled cases.
    let mut cmd = scene.grader();
    cmd.args([
        "test",
        "flip",
        "examples/flip/ac_bfs.c",
        "--sandbox",
        "strict",
    ])
    .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    scene.test_json("ac_bfs.c (this user)", cmd, Duration::from_mins(2), "AC");
    scene.finish();
}

// ---------------------------------------------------------------- in a container

/// Runs `"$@"` (after the map) as root of a new user namespace whose uid and gid maps are
/// `$1` (`inside outside count`), written from outside as `newuidmap` does for a rootless
/// container. The command waits on a pipe until its maps are written.
const IN_USER_NAMESPACE: &str = r#"
map=$1; shift
fifo=$(mktemp -u) && mkfifo -m 600 "$fifo" || exit 97
unshare --user -- bash -c 'read -r _ < "$0" && exec "$@"' "$fifo" "$@" &
pid=$!
own=$(readlink /proc/self/ns/user)
while [ "$(readlink /proc/$pid/ns/user 2>/dev/null)" = "$own" ]; do sleep 0.01; done
echo "$map" > /proc/$pid/uid_map && echo "$map" > /proc/$pid/gid_map || { kill $pid; exit 98; }
echo go > "$fifo"
rm -f "$fifo"
wait $pid
"#;

/// The scene's grader as root of a user namespace mapping `map`.
fn contained(scene: &Scene, map: &str) -> Command {
    contained_in(&scene.tmp, &scene.cache, &scene.root, map)
}

/// [`contained`], with the scene's TMPDIR, compile cache and folder.
fn contained_in(tmp: &Path, cache: &Path, root: &Path, map: &str) -> Command {
    let mut cmd = Command::new("bash");
    cmd.args(["-c", IN_USER_NAMESPACE, "contain", map])
        .arg(assert_cmd::cargo::cargo_bin("grader"))
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp)
        .env("GRADER_CACHE_DIR", cache)
        .current_dir(root);
    cmd
}

/// (fixture, cases, verdict) run as root of a container.
const CONTAINED: &[(&str, usize, &str)] = &[
    ("tle_setpgid_escape_self.c", 1, "TLE"),
    ("tle_cpu_in_unreaped_child.c", 1, "TLE"),
    ("mle_child_holds_200mib.c", 1, "MLE"),
    ("mle_four_children_100mib.c", 1, "MLE"),
    ("ac_socket_families_strict.c", 1, "AC"),
    ("ac_leaves_marks_finds_none.c", 3, "AC"),
    ("ac_leaves_marks_on_its_streams_finds_none.c", 3, "AC"),
    ("ac_holds_memory_past_its_input_finds_none.c", 3, "AC"),
    ("ac_namespaces_and_cache_probes_refused.c", 1, "AC"),
    ("ac_sees_nothing_of_the_host.c", 2, "AC"),
];

/// Rootless Podman maps 65,536 ids, far below the usual worker uids (990,000 and up);
/// `unshare -r` maps one. In both the grader used to claim strict, then fail every
/// compile with an internal error (`mount tmpfs …: Invalid argument`): the worker uids
/// were not mapped. Now the workers take uids the namespace maps, or, with one id, each
/// box maps it (not as root) in a user namespace of its own; and `doctor` says which.
#[test]
fn in_a_container_the_box_holds_whatever_ids_it_maps() {
    if !nix::unistd::geteuid().is_root() {
        assert!(
            std::env::var_os("CI").is_none(),
            "in_a_container: needs root to make a user namespace with a map"
        );
        return;
    }
    let mut scene = Scene::new();
    let limits = Limits {
        cpu: 1,
        wall: 10,
        memory_mib: 128,
    };
    for (map, uids) in [
        (
            "0 0 65536",
            "yes: the grader is root, each worker's programs run as a uid of their own from 64534",
        ),
        (
            "0 0 1",
            "no: the grader is root of a user namespace that maps too few ids",
        ),
    ] {
        let doctor = scene.call(
            &format!("doctor ({map})"),
            {
                let mut cmd = contained(&scene, map);
                cmd.arg("doctor");
                cmd
            },
            &Call::within(Duration::from_mins(1)),
        );
        for want in [uids, "--sandbox auto picks                     strict"] {
            if !doctor.stdout.lines().any(|l| l.contains(want)) {
                scene.fail(format!(
                    "doctor ({map}) does not say {want:?}:\n{}",
                    doctor.stdout
                ));
            }
        }
        // The bundled submission on the bundled cases, compiled in the container.
        for tier in ["strict", "basic"] {
            let mut cmd = contained(&scene, map);
            cmd.args(["test", "flip", "examples/flip/ac_bfs.c"])
                .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
                .args(["--sandbox", tier]);
            scene.test_json(
                &format!("ac_bfs.c ({map}, {tier})"),
                cmd,
                Duration::from_mins(2),
                "AC",
            );
        }
        let grader = {
            let (tmp, cache, root) = (scene.tmp.clone(), scene.cache.clone(), scene.root.clone());
            move || contained_in(&tmp, &cache, &root, map)
        };
        scene.grade_in_strict(CONTAINED.iter().copied(), limits, (map, None), grader);
    }
    scene.finish();
}
