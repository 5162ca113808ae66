//! One worker's place to run programs, in its tier:
//!
//! - `strict`: a launcher that is the init of a box (`boxed.rs`), programs run as the
//!   worker's own uid (root) or in a user namespace (not root), the seccomp filters;
//! - `basic`: a launcher that is a subreaper, rlimits, the worker's own uid when root (or,
//!   where programs would share the grader's uid, a PID space of their own), and a scratch
//!   folder of the machine, emptied before each run;
//! - `none`: the same without rlimits or uid change.
//!
//! In `basic` and `strict`, when the machine gives cgroups, every run's processes join the
//! worker's cgroup: CPU time and memory of the whole run, a process cap, and the memory
//! limit enforced by the kernel.
//!
//! Programs and compilers alike run here: a [`Job`] names a program by paths in the
//! worker's two folders, [`Worker::files_dir`] (the program's own files, read-only) and
//! [`Worker::work_dir`] (the writable working folder).

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::Locked as _;
use crate::boxed;
use crate::cgroup::Group;
use crate::client::{self, Client, Flight, Ran, Stderr};
use crate::facts::{Input, Limits, Outcome};
use crate::protocol::{BoxSetup, Request, Setup, Staged};
use crate::rlimits;
use crate::scratch::Scratch;
use crate::streams::{Runs, Streams};
use crate::tiers::machine::Machine;
use crate::tiers::tier::{SYSTEM_READ, Tier};
use crate::uids::{self, Lease};

/// The `RLIMIT_NOFILE` of a run.
const OPEN_FILES: u64 = 64;
/// The smallest work folder a box gets, whatever the memory limit: compilers and
/// runtimes write a few files.
const MIN_WORK: u64 = 16 << 20;

/// How a worker is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The tier.
    pub tier: Tier,
    /// The memory limit of its runs: the size of a box's work folder.
    pub memory: u64,
    /// Folders of the machine outside the system's that runs need (an interpreter's or a
    /// compiler's installation), shown read-only in a box.
    pub toolchain: Vec<PathBuf>,
    /// A folder of precompiled headers for a compile (in the compile cache), shown
    /// read-only in a box at `/headers` (`boxed::HEADERS`): [`Config::headers_dir`] says
    /// where.
    pub headers: Option<PathBuf>,
}

impl Config {
    /// Where programs see the folder of precompiled headers: its own path, or in a box
    /// `/headers` (`boxed::HEADERS`; a path of the machine's may lie where the box has
    /// folders of its own: a cache under `/tmp`).
    pub fn headers_dir(&self) -> Option<PathBuf> {
        let headers = self.headers.as_ref()?;
        Some(if self.tier == Tier::Strict {
            PathBuf::from(boxed::HEADERS)
        } else {
            headers.clone()
        })
    }
}

/// One run asked of a worker.
#[derive(Debug)]
pub struct Job<'a> {
    /// The command line, in terms of [`Worker::files_dir`] and [`Worker::work_dir`] (or
    /// the system's folders).
    pub argv: Vec<String>,
    /// The program's files on the machine, shown read-only.
    pub files: Files<'a>,
    /// Whether the run starts in the files' folder (a compiler beside its source) rather
    /// than in the work folder.
    pub in_files: bool,
    /// The environment, apart from `HOME`, `TMPDIR` and `PWD`, which the worker sets.
    pub env: Vec<String>,
    /// Standard input.
    pub stdin: Input,
    /// Files of the work folder to keep (a compiler's output; a validator's feedback
    /// files), by plain name, at most [`MOST_KEPT`]: each one's descriptor comes back
    /// with the outcome, in this order, when the run left it as a regular file.
    pub keep: &'a [&'a str],
    /// How much of standard error to keep, and which end.
    pub stderr: Stderr,
    /// Whether the address-space backstop applies where no cgroup keeps the memory limit
    /// (`false` for a runtime that reserves far more than it uses and bounds its own
    /// heap: the JVM).
    pub address_space: bool,
}

/// Where a job's files are on the machine.
#[derive(Clone, Copy)]
pub enum Files<'a> {
    /// One folder: its regular files, and those of the folders below it.
    Folder(&'a Path),
    /// Files a box copies into its `/prog` from where they are, never gathered in a folder
    /// of the machine (`strict` only, [`Worker::boxed`]): `at` names them (the folder
    /// they would be in), `from` opens them.
    Listed {
        /// What names them.
        at: &'a Path,
        /// What opens them.
        from: &'a (dyn OpenFiles + Sync),
    },
}

impl Files<'_> {
    /// The folder they are in, or that names them.
    pub fn path(&self) -> &Path {
        match self {
            Files::Folder(path) | Files::Listed { at: path, .. } => path,
        }
    }

    /// Each file, named, opened, and whether it is executable, in name order.
    fn open(&self) -> io::Result<Vec<(String, File, bool)>> {
        let mut files = match self {
            Files::Folder(dir) => in_folder(dir)?,
            Files::Listed { from, .. } => from.open_files()?,
        };
        files.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(files)
    }
}

impl std::fmt::Debug for Files<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Files").field(&self.path()).finish()
    }
}

/// Opens a program's files where they are (see [`Files::Listed`]).
pub trait OpenFiles {
    /// Each file, named, opened for reading, and whether it is executable.
    fn open_files(&self) -> io::Result<Vec<(String, File, bool)>>;
}

/// A worker: its launcher, and what its tier gives it.
#[derive(Debug)]
pub struct Worker {
    client: Client,
    /// How the launcher was set up: again, should it die.
    setup: Setup,
    tier: Tier,
    cgroup: Option<Group>,
    lease: Option<Lease>,
    /// `basic`, `none`: the working folder, on the machine.
    scratch: Option<Scratch>,
    /// `strict`: the empty folder the box's root is mounted on (in the box's namespace
    /// only).
    _root: Option<tempfile::TempDir>,
    /// `basic`, `none`: the folder holding the scratch folder.
    _parent: Option<tempfile::TempDir>,
    /// `strict`: whose files `/prog` holds now.
    staged: Option<PathBuf>,
    /// Which making of the cgroup ([`Group::made`]) the launcher holds the meter files of
    /// (see [`Worker::send_then`]).
    metered: Option<u64>,
    /// The run started ahead, under way (see [`Worker::run_then`]).
    ahead: Option<Ahead>,
}

/// A run started ahead: which run it is, and its output to watch.
#[derive(Debug)]
struct Ahead {
    key: Key,
    flight: Flight,
}

/// What makes two runs the same run: everything of their [`Job`]s and limits.
#[derive(Debug, PartialEq)]
struct Key {
    argv: Vec<String>,
    files: PathBuf,
    in_files: bool,
    env: Vec<String>,
    stdin: Input,
    keep: Vec<String>,
    stderr: Stderr,
    address_space: bool,
    limits: Limits,
}

impl Key {
    fn of(job: &Job<'_>, limits: &Limits) -> Key {
        Key {
            argv: job.argv.clone(),
            files: job.files.path().to_path_buf(),
            in_files: job.in_files,
            env: job.env.clone(),
            stdin: job.stdin.clone(),
            keep: job.keep.iter().map(|&name| name.to_owned()).collect(),
            stderr: job.stderr,
            address_space: job.address_space,
            limits: *limits,
        }
    }
}

/// A run made ready to send: its request (without the cgroup and staged files, which
/// depend on the moment it is sent), its standard streams, and its files.
struct Ready<'a> {
    request: Request,
    streams: Streams,
    files: Files<'a>,
}

/// What sending a run changes of a worker, borrowed apart from its launcher (whose
/// socket the run is sent on while another is being watched).
struct Sending<'w> {
    tier: Tier,
    staged: &'w mut Option<PathBuf>,
    scratch: Option<&'w Scratch>,
}

impl Sending<'_> {
    /// Empties the working folder, sets the cgroup to `limits`, stages the program's
    /// files when they are not in the box already, and sends the run. Between runs only:
    /// the last one has ended.
    fn send(
        &mut self,
        asker: client::Asker<'_>,
        ready: Ready,
        mut group: Option<&mut Group>,
        limits: &Limits,
    ) -> io::Result<Flight> {
        if let Some(scratch) = self.scratch {
            scratch.reset()?;
        }
        let (mut attached, cgroups) = prepare_cgroup(group.as_deref_mut(), limits)?;
        let Ready {
            mut request,
            streams,
            files,
        } = ready;
        let sent = self.stage(&files, &mut attached).and_then(|stage| {
            request.cgroups = cgroups;
            request.stage = stage;
            asker.ask(request, streams, &attached)
        });
        if sent.is_err() {
            // Not delivered: the launcher may hold neither the files nor the group's.
            *self.staged = None;
            if let Some(group) = group
                && cgroups > 0
            {
                group.keep_renewed();
            }
        }
        sent
    }

    /// `strict`: the files of `files` for the box's `/prog`, named (returned) and opened
    /// (added to `attached`), unless the box holds them already.
    fn stage(
        &mut self,
        files: &Files<'_>,
        attached: &mut Vec<File>,
    ) -> io::Result<Option<Vec<Staged>>> {
        if self.tier != Tier::Strict || self.staged.as_deref() == Some(files.path()) {
            return Ok(None);
        }
        let (names, opened) = staged(files)?;
        attached.extend(opened);
        *self.staged = Some(files.path().to_path_buf());
        Ok(Some(names))
    }
}

/// Sets the worker's cgroup to `limits` for the next run; the cgroup files to send the
/// launcher (when the group was made anew), and how many.
fn prepare_cgroup(group: Option<&mut Group>, limits: &Limits) -> io::Result<(Vec<File>, usize)> {
    let mut attached = Vec::new();
    let mut cgroups = 0;
    if let Some(group) = group {
        group.prepare(limits.memory, limits.processes)?;
        if group.take_renewed() {
            // The launcher's descriptors name the group that was removed.
            for path in group.procs() {
                attached.push(File::options().write(true).open(path)?);
                cgroups += 1;
            }
        }
    }
    Ok((attached, cgroups))
}

/// Names the cgroups of this process's workers apart.
static WORKERS: AtomicUsize = AtomicUsize::new(0);

/// Workers between uses, with how each was made: the first [`Worker::start`] of the same
/// config takes one instead of making a worker. A tier's trial (`tiers::tried`) leaves
/// its worker here, so a command pays for its trial one run of `true`, not a second box;
/// compiles leave theirs, so a class's compiles share a few workers instead of making one
/// each (starting a launcher and joining its cgroups cost about 30 ms here, most of a
/// small compile's time).
static IDLE: Mutex<Vec<(Config, Worker)>> = Mutex::new(Vec::new());

/// The most workers [`IDLE`] keeps: one per compiling thread is the common need.
const IDLE_MAX: usize = 8;

/// Keeps `worker`, made with `config`, for the next [`Worker::start`] of that config.
pub fn keep_spare(config: Config, worker: Worker) {
    let oldest = {
        let mut idle = IDLE.locked();
        idle.push((config, worker));
        (idle.len() > IDLE_MAX).then(|| idle.remove(0))
    };
    // Stopped outside the lock: a launcher's end takes a while.
    drop(oldest);
}

/// Whether a box's launcher starts a worker's next run itself, the grader not between
/// the two (`Message::Then`): only while the workers leave a core free. Where every core
/// runs a program, the grader's share of a run took a program's core instead of an idle
/// one: `batch --jobs 2` on 2 cores was 4.7% slower with it, where `test --jobs 1` is 7%
/// faster.
static LAUNCHER_STARTS_NEXT: AtomicBool = AtomicBool::new(true);

/// Says how many workers run side by side: a box's launcher starts a worker's next run
/// itself only while they leave a core free (see `LAUNCHER_STARTS_NEXT`).
pub fn side_by_side(workers: usize) {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    LAUNCHER_STARTS_NEXT.store(workers < cores, Ordering::Relaxed);
}

/// Workers being ended on threads of their own ([`retire`]).
static RETIRING: Mutex<Vec<std::thread::JoinHandle<()>>> = Mutex::new(Vec::new());

/// Ends `worker` on a thread of its own: a box's end waits on the kernel (about 13 ms
/// here, its mount namespace and its inotify instance each wait for an RCU grace period),
/// which the caller need not wait for while it writes its report. [`drop_spare`] waits
/// for it.
pub fn retire(worker: Worker) {
    let handle = std::thread::spawn(move || drop(worker));
    RETIRING.locked().push(handle);
}

/// Stops every idle worker, and waits for those retiring: before the grader removes its
/// folders and exits, so that their launchers are reaped here, not left to the machine's
/// init.
pub fn drop_spare() {
    let idle = std::mem::take(&mut *IDLE.locked());
    drop(idle);
    let retiring = std::mem::take(&mut *RETIRING.locked());
    for handle in retiring {
        let _ = handle.join();
    }
}

/// Why the machine refused `basic`'s PID space (see `pidspace.rs`), once a launcher
/// started without it.
static PID_SPACE_REFUSED: Mutex<Option<String>> = Mutex::new(None);

/// Why `basic`'s launchers go without a PID space of their own, when one was refused.
pub(crate) fn pid_space_refused() -> Option<String> {
    PID_SPACE_REFUSED.locked().clone()
}

/// Whether `basic`'s programs are kept from the grader's processes and other runs in
/// this process's workers, and how: `Err` says what they share and why.
pub fn basic_kept_apart() -> Result<&'static str, String> {
    let machine = Machine::get();
    if machine.worker_ids.is_some() {
        return Ok("a uid of each worker's own");
    }
    if pid_space_wanted(machine) {
        return Ok("a PID space of each worker's own (the grader's uid, mapped)");
    }
    Err(pid_space_refused()
        .unwrap_or_else(|| "the machine allows no unprivileged user namespace".to_owned()))
}

/// Whether `basic`'s launchers make a PID space of their own: its programs would share the
/// grader's uid (no uid per worker), and the machine gives one (it allows unprivileged user
/// namespaces, and did not refuse the first).
fn pid_space_wanted(machine: &Machine) -> bool {
    machine.worker_ids.is_none() && machine.user_namespaces && pid_space_refused().is_none()
}

impl Worker {
    /// Starts a worker: its uid, cgroup, box or scratch folder, and launcher. The launcher
    /// is the `grader-launcher` binary beside this process's executable, or, where there is
    /// none, this executable itself, which must then call
    /// [`crate::launcher::serve_if_asked`] first thing in its `main`. A worker of the same
    /// config kept by [`keep_spare`] is taken instead, when there is one.
    pub fn start(config: &Config) -> io::Result<Worker> {
        let idle = {
            let mut idle = IDLE.locked();
            let found = idle.iter().position(|(made, _)| made == config);
            found.map(|i| idle.swap_remove(i).1)
        };
        if let Some(mut worker) = idle {
            // What it staged is gone, or another's: it must be staged again.
            worker.staged = None;
            return Ok(worker);
        }
        let machine = Machine::get();
        let tier = config.tier;
        let lease = match machine.worker_ids {
            Some(range) if tier >= Tier::Basic => Some(uids::lease(range)?),
            _ => None,
        };
        let (euid, egid) = (
            nix::unistd::geteuid().as_raw(),
            nix::unistd::getegid().as_raw(),
        );
        // Whose the work folder is, as the run sees it: the leased uid; else, in a box's
        // own user namespace, the one id it maps, which is never root there (a program
        // that ran as root of its namespace would hold every capability in it).
        let owner = match (&lease, euid) {
            (Some(lease), _) => lease.ids(),
            (None, 0) => (uids::FIRST, uids::FIRST),
            (None, _) => (euid, egid),
        };
        let cgroup = match (&machine.cgroups, tier >= Tier::Basic) {
            (Ok(hierarchy), true) => {
                let n = WORKERS.fetch_add(1, Ordering::Relaxed);
                Some(Group::create(hierarchy, &format!("w{n}"))?)
            }
            _ => None,
        };
        let (mut root, mut parent, mut scratch, mut boxed) = (None, None, None, None);
        if tier == Tier::Strict {
            let dir = crate::host::temp_dir("box")?;
            let mut read_only: Vec<String> = SYSTEM_READ.iter().map(|s| (*s).to_owned()).collect();
            read_only.extend(
                config
                    .toolchain
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned()),
            );
            boxed = Some(BoxSetup {
                root: dir.path().to_string_lossy().into_owned(),
                read_only,
                headers: config
                    .headers
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned()),
                work_size: config.memory.max(MIN_WORK),
                owner,
                user_namespace: lease.is_none(),
            });
            root = Some(dir);
        } else {
            let dir = crate::host::temp_dir("work")?;
            let user = lease.as_ref().map(Lease::ids);
            scratch = Some(Scratch::create(dir.path(), "work", user)?);
            parent = Some(dir);
        }
        // Programs that would share the grader's uid get a PID space of their own, where
        // the machine gives one.
        let own_pids = (tier == Tier::Basic && pid_space_wanted(machine)).then_some(owner);
        let mut setup = Setup {
            boxed,
            own_pids,
            cgroup_procs: cgroup.as_ref().map_or_else(Vec::new, |g| paths(&g.procs())),
            cgroup_resident: cgroup
                .as_ref()
                .map_or_else(Vec::new, |g| paths(&g.resident())),
            seccomp: tier == Tier::Strict,
        };
        let client = match Client::start(&setup) {
            Err(e) if setup.own_pids.is_some() => {
                // `basic` without it is what the machine gives: taken, and said by
                // `doctor`, when the launcher that went without it works.
                setup.own_pids = None;
                let client = Client::start(&setup)?;
                let mut refused = PID_SPACE_REFUSED.locked();
                refused.get_or_insert_with(|| e.to_string());
                client
            }
            started => started?,
        };
        Ok(Worker {
            client,
            setup,
            tier,
            cgroup,
            lease,
            scratch,
            _root: root,
            _parent: parent,
            staged: None,
            metered: None,
            ahead: None,
        })
    }

    /// Whether this worker's runs are in a box (`strict`), which copies their files in:
    /// they need not be in a folder of the machine ([`Files::Listed`]).
    pub fn boxed(&self) -> bool {
        self.tier == Tier::Strict
    }

    /// Whether its runs' standard streams are kept from run to run (in a box, whose runs
    /// end with every process of them), and who the runs are to those files: a uid of
    /// their own, or the grader's (see `streams.rs`).
    fn keeping(&self) -> Option<Runs> {
        self.boxed().then_some(if self.lease.is_some() {
            Runs::OtherUid
        } else {
            Runs::OwnUid
        })
    }

    /// Where a job's files are, as its command line must name them.
    pub fn files_dir(&self, files: &Path) -> PathBuf {
        if self.boxed() {
            PathBuf::from(boxed::PROGRAM)
        } else {
            files.to_path_buf()
        }
    }

    /// The writable working folder, as a command line must name it.
    pub fn work_dir(&self) -> PathBuf {
        match &self.scratch {
            Some(scratch) => scratch.path().to_path_buf(),
            None => PathBuf::from(boxed::WORK),
        }
    }

    /// Runs `job` under `limits`. `Err` when the run cannot be made (a fault of the setup,
    /// never of the program).
    pub fn run(&mut self, job: &Job<'_>, limits: &Limits) -> io::Result<Ran> {
        self.run_then(job, limits, None)
    }

    /// [`Worker::run`], with the run this worker makes next, `then` (under the same
    /// limits), made ready while this one runs and started the moment it ends, unless it
    /// was killed at a limit (a run to be made again, or a program that sleeps) or `go_on`
    /// says no. The next call must be for that run: it then watches the run under way,
    /// its wall time counted from its start; any other call kills it unseen first.
    ///
    /// In a box, while the workers leave a core free ([`side_by_side`]), the launcher
    /// ends a run and starts the next by itself (it reads the group between the two, see
    /// `cgroup/meter.rs`): `then` is asked for at once, and the grader is not between the two
    /// runs. Otherwise (and outside a box, where the grader empties the working folder
    /// between runs) `then` is asked for as this run ends.
    pub fn run_then(
        &mut self,
        job: &Job<'_>,
        limits: &Limits,
        then: Option<(&Job<'_>, &dyn Fn() -> bool)>,
    ) -> io::Result<Ran> {
        let key = Key::of(job, limits);
        let flight = match self.ahead.take() {
            Some(ahead) if ahead.key == key => Ok(ahead.flight),
            other => {
                if let Some(ahead) = other {
                    self.cancel(ahead.flight)?;
                }
                let ready = self.ready(job, limits)?;
                self.send(ready, limits)
            }
        };
        let flight = match flight {
            Ok(flight) => flight,
            Err(e) => return self.after_failure(e, Duration::ZERO),
        };
        let start = flight.start();
        // Made ready now, while this run goes: its standard input and request. One that
        // cannot be made ready is left for its own call, which says why.
        let (next_key, next) = then
            .and_then(|(job, go_on)| {
                let ready = self.ready(job, limits).ok()?;
                Some((Key::of(job, limits), (ready, go_on)))
            })
            .unzip();
        let (next, asked) = match next {
            Some((ready, go_on))
                if self.boxed() && LAUNCHER_STARTS_NEXT.load(Ordering::Relaxed) && go_on() =>
            {
                if self.cgroup.as_ref().is_some_and(|g| !g.meters()) {
                    (Some((ready, go_on)), None)
                } else {
                    (None, self.send_then(ready).ok())
                }
            }
            other => (other, None),
        };
        let asked_then = asked.is_some();
        let mut sending = Sending {
            tier: self.tier,
            staged: &mut self.staged,
            scratch: self.scratch.as_ref(),
        };
        let result = self.client.watch(
            (flight, asked),
            limits,
            job.stderr,
            self.cgroup.as_mut(),
            |asker, group, killed| {
                let (ready, go_on) = next?;
                if killed || !go_on() {
                    return None;
                }
                sending.send(asker, ready, group, limits).ok()
            },
        );
        match result {
            Ok((ran, ahead)) => {
                if asked_then && ahead.is_none() {
                    // Dropped by the launcher: what it was to stage never reached the box.
                    self.staged = None;
                }
                self.ahead = ahead
                    .zip(next_key)
                    .map(|(flight, key)| Ahead { key, flight });
                Ok(ran)
            }
            Err(e) if asked_then && !client::launcher_gone(&e) => {
                // The launcher may hold or run the next run, unseen: a new one.
                self.new_launcher()?;
                Err(e)
            }
            Err(e) => self.after_failure(e, start.elapsed()),
        }
    }

    /// Asks for `ready` to start the moment the run under way ends: no working folder to
    /// empty (the launcher renews the box's), and the group is not prepared (the launcher
    /// reads it between the runs, under the same limits). The group's meter files go
    /// with it when the launcher does not hold this making of the group's already.
    fn send_then(&mut self, ready: Ready<'_>) -> io::Result<Flight> {
        let Ready {
            mut request,
            streams,
            files,
        } = ready;
        let mut sending = Sending {
            tier: self.tier,
            staged: &mut self.staged,
            scratch: None,
        };
        let mut attached = Vec::new();
        request.stage = sending.stage(&files, &mut attached)?;
        let made = self.cgroup.as_ref().map(Group::made);
        let meter = match &self.cgroup {
            Some(group) if self.metered != made => group.meter()?,
            _ => None,
        };
        let (spec, meter_files) = meter.unzip();
        attached.extend(meter_files.into_iter().flatten());
        let sent = self.client.asker().then(request, streams, &attached, spec);
        if sent.is_ok() {
            self.metered = made;
        } else {
            self.staged = None;
            self.metered = None;
        }
        sent
    }

    /// Replaces the launcher (one that died, or whose state is unknown): it holds no
    /// staged files and no meter.
    fn new_launcher(&mut self) -> io::Result<()> {
        self.client = Client::start(&self.setup)?;
        self.staged = None;
        self.metered = None;
        Ok(())
    }

    /// Whether a run started ahead is under way (see [`Worker::run_then`]).
    pub fn ahead(&self) -> bool {
        self.ahead.is_some()
    }

    /// Ends the run started ahead, if any, unseen (see [`Worker::run_then`]).
    pub fn abandon(&mut self) -> io::Result<()> {
        match self.ahead.take() {
            Some(ahead) => self.cancel(ahead.flight),
            None => Ok(()),
        }
    }

    /// Kills a run under way and waits for its end; a launcher that does not answer is
    /// replaced.
    fn cancel(&mut self, flight: Flight) -> io::Result<()> {
        if self.client.cancel(flight, self.cgroup.as_mut()).is_err() {
            self.new_launcher()?;
        }
        Ok(())
    }

    /// A run that could not be made, or not watched to its end: see
    /// [`Worker::after_launcher_died`] for a launcher that died; otherwise what the
    /// launcher holds is unknown now, so the files are staged again next time.
    fn after_failure(&mut self, error: io::Error, wall: Duration) -> io::Result<Ran> {
        if client::launcher_gone(&error) {
            self.after_launcher_died(error, wall)
        } else {
            self.staged = None;
            Err(error)
        }
    }

    /// `job`'s standard input and request, ready to be sent.
    fn ready<'a>(&self, job: &Job<'a>, limits: &Limits) -> io::Result<Ready<'a>> {
        Ok(Ready {
            request: self.request(job, limits)?,
            streams: self.client.streams(&job.stdin, self.keeping())?,
            files: job.files,
        })
    }

    /// Sends a run made ready.
    fn send(&mut self, ready: Ready<'_>, limits: &Limits) -> io::Result<Flight> {
        let mut sending = Sending {
            tier: self.tier,
            staged: &mut self.staged,
            scratch: self.scratch.as_ref(),
        };
        sending.send(self.client.asker(), ready, self.cgroup.as_mut(), limits)
    }

    /// What the launcher is asked for `job`: its command, environment and folder as the
    /// run sees them, and the limits it sets itself (the cgroup files and staged files
    /// that come with it are added as it is sent).
    fn request(&self, job: &Job<'_>, limits: &Limits) -> io::Result<Request> {
        let work = self.work_dir();
        let dir = if job.in_files {
            self.files_dir(job.files.path())
        } else {
            work.clone()
        };
        let temp = if self.boxed() {
            PathBuf::from("/tmp")
        } else {
            work.clone()
        };
        let mut env = job.env.clone();
        env.extend([
            format!("HOME={}", work.display()),
            format!("TMPDIR={}", temp.display()),
            format!("PWD={}", dir.display()),
        ]);
        Ok(Request {
            argv: job.argv.clone(),
            env,
            dir: dir.to_string_lossy().into_owned(),
            user: self.lease.as_ref().map(Lease::ids),
            cpu_secs: limits.cpu.as_secs() + 1,
            address_space: if self.cgroup.is_some() || !job.address_space {
                // The kernel keeps the memory limit (or the runtime bounds its own heap);
                // address space is not memory (thread stacks sized by RLIMIT_STACK, a
                // runtime's reservations).
                libc::RLIM_INFINITY
            } else {
                rlimits::address_space_backstop(limits.memory)
            },
            memory: limits.memory,
            stack: limits.memory,
            file_size: limits.output,
            open_files: OPEN_FILES,
            // Without a cgroup, the per-user cap is a per-worker cap when the worker has a
            // uid of its own; under the grader's own uid it would count its processes too.
            processes: (self.cgroup.is_none() && self.lease.is_some()).then_some(limits.processes),
            limited: self.tier >= Tier::Basic,
            // Filled as it is sent (`Sending::send`).
            cgroups: 0,
            stage: None,
            keep: kept_files(job.keep, &work)?,
        })
    }

    /// A launcher that died in the middle of a run: a box's init lives in its memory
    /// group (see `cgroup/group.rs`) and this kernel may not let it keep the OOM killer off
    /// itself, so a run that fills the group with memory no process maps (memory files)
    /// can have the init killed, and with it the whole box. That run was over its memory
    /// limit: `MLE`, by cause. Any other death is the grader's fault. Either way the next
    /// run gets a new launcher.
    fn after_launcher_died(&mut self, error: io::Error, wall: Duration) -> io::Result<Ran> {
        let usage = self.cgroup.as_mut().map(Group::finish).transpose();
        self.new_launcher()?;
        match usage {
            Ok(Some(usage)) if usage.oom_killed => {
                let outcome = Outcome {
                    signal: Some(libc::SIGKILL),
                    cpu: usage.cpu,
                    wall,
                    peak_kib: usage.peak.div_ceil(1024),
                    killed: Some(crate::facts::Killed::Memory),
                    ..Outcome::default()
                };
                Ok((outcome, Vec::new()))
            }
            _ => Err(error),
        }
    }
}

/// The most files one run may keep ([`Job::keep`]): their descriptors travel in one
/// message of the launcher's.
pub const MOST_KEPT: usize = 4;

/// Where the run's kept files (`keep`, plain names in the work folder `work`) are.
fn kept_files(keep: &[&str], work: &Path) -> io::Result<Vec<String>> {
    if keep.len() > MOST_KEPT {
        return Err(io::Error::other(format!(
            "{} files to keep, more than {MOST_KEPT}",
            keep.len()
        )));
    }
    keep.iter()
        .map(|&name| {
            if name.is_empty() || name.contains('/') {
                Err(io::Error::other(format!("`{name}` is not a plain name")))
            } else {
                Ok(work.join(name).to_string_lossy().into_owned())
            }
        })
        .collect()
}

fn paths(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// The files of `files`, named and opened, for a box's `/prog`.
fn staged(files: &Files<'_>) -> io::Result<(Vec<Staged>, Vec<File>)> {
    let opened = files.open()?;
    if opened.len() > MAX_STAGED {
        return Err(io::Error::other(format!(
            "{}: too many files to stage",
            files.path().display()
        )));
    }
    Ok(opened
        .into_iter()
        .map(|(name, file, executable)| (Staged { name, executable }, file))
        .unzip())
}

/// The most files a box's `/prog` takes: a message also carries the three standard
/// descriptors, up to three cgroup files and four meter files.
const MAX_STAGED: usize = crate::protocol::MAX_FDS - 11;

/// The regular files of `dir` and of the folders below it (not through links), each
/// named by its path below `dir` (`include/util.h`), opened, and whether it is executable
/// (one more than [`MAX_STAGED`] at most: enough to know there are too many).
fn in_folder(dir: &Path) -> io::Result<Vec<(String, File, bool)>> {
    let mut files = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        for entry in fs::read_dir(&folder)? {
            if files.len() > MAX_STAGED {
                return Ok(files);
            }
            let entry = entry?;
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            let meta = fs::symlink_metadata(entry.path())?;
            if meta.is_dir() {
                folders.push((entry.path(), format!("{name}/")));
            } else if meta.is_file() {
                files.push((
                    name,
                    File::open(entry.path())?,
                    meta.permissions().mode() & 0o111 != 0,
                ));
            }
        }
    }
    Ok(files)
}
