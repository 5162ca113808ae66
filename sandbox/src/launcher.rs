//! The launcher: a small process, started once per worker, that starts each program on
//! request and reports how it ended.
//!
//! Why a separate process: a child's peak-memory figure (`ru_maxrss`) starts from the
//! memory high-water mark of the process it was forked or vfork-spawned from (measured
//! here: `/bin/true` spawned by posix_spawn, vfork or fork from a 400 MiB process reports
//! 400 MiB), and forking from a big process is slow. The launcher stays a few MiB, so a
//! trivial program reports a trivial figure however large the grader grows.
//!
//! In `strict` the launcher builds a box (`boxed.rs`) and serves as its init process, and
//! likewise of a PID space of its own (`pidspace.rs`) in `basic` when programs share the
//! grader's uid; otherwise it is the programs' subreaper, so a process that left its session is
//! still found and killed once its parent died. Either way, when a run ends every process
//! of it is killed and reaped before the reply, and the CPU time reported is that of every
//! process of the run (the reaped children's `getrusage`, which includes orphans).
//!
//! The child side runs between `clone` and `execve`: it only makes system calls on data
//! prepared before the clone.
#![expect(
    unsafe_code,
    reason = "clone, exec, rlimits and wait4 have no safe wrapper that fits"
)]

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{SigSet, Signal};
use nix::sys::signalfd::{SfdFlags, SignalFd};

use crate::boxed::{self, Boxed};
use crate::cgroup::meter::{Meter, MeterSpec};
use crate::confine;
use crate::pidspace;
use crate::protocol::{Message, Next, Reply, Request, Setup, receive, send};
use crate::rlimits::{self, Asked, Ceilings, Kind};

/// How the launcher makes a child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spawn {
    /// `clone(CLONE_VM | CLONE_VFORK)`, as `posix_spawn` does: no page tables copied,
    /// nothing torn down at exec. The child's peak-memory figure starts from the
    /// launcher's own high-water mark, so only for the small `grader-launcher` binary.
    SharedMemory,
    /// `clone(CLONE_VFORK)` with a copy of the memory, like `fork`: slower, but the figure
    /// starts from what the child touched. For the full `grader` binary as a launcher.
    Copy,
}

/// What the launcher is to the processes of its runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reaper {
    /// The init of their PID namespace (a box, or `basic`'s own PID space): every orphan
    /// of a run comes to it, `kill(-1)` reaches every process of the run and nothing
    /// else, and its end kills them all. It has a session of its own, with no terminal,
    /// and each run is a process group in it.
    Init,
    /// Their subreaper, in the grader's PID namespace: each run is a session of its own
    /// (no terminal, no process group outside it to hide in), and dies with the launcher
    /// by a signal of its own.
    Subreaper,
}

/// The hidden first argument that turns the `grader` binary into a launcher.
pub(crate) const LAUNCHER_ARG: &str = "__launcher";

/// The argument that makes a launcher copy memory ([`Spawn::Copy`]); the grader passes it
/// when it falls back on its own binary as the launcher.
pub(crate) const COPY_MEMORY_ARG: &str = "--copy-memory";

/// What the launcher keeps between runs.
struct Launcher {
    socket: UnixStream,
    /// Where `Then` comes (non-blocking), apart from `Run` and `Kill`: it is read only
    /// as a run ends, or while none is under way, so that a run asked for ahead never
    /// wakes this process while the run before it goes (a wake-up that took a running
    /// program's CPU: a class on two busy cores took 3% longer).
    queue: UnixStream,
    spawn: Spawn,
    /// `strict`: the box, of which this process is init.
    boxed: Option<Boxed>,
    /// What this process is to its runs' processes.
    reaper: Reaper,
    /// The worker's `cgroup.procs` files each run joins, opened before the box hid them.
    cgroups: Vec<OwnedFd>,
    /// `SIGCHLD`, blocked and read here: what `wait` sleeps on (a descriptor per run, from
    /// `pidfd_open`, cost as much as the `clone` itself).
    children: SignalFd,
    /// Whether this process keeps the OOM killer off itself (it lives in a memory group
    /// its runs fill), so each child must give that up.
    shielded: bool,
    /// Whether this process holds no supplementary group (it gave them up once, as it was
    /// set up), so a child that changes user has none to drop.
    no_groups: bool,
    /// The hard limits this process holds (lifted where it could): what each run's
    /// limits are fitted under.
    ceilings: Ceilings,
    /// The stack each child runs on until `execve`, kept from run to run.
    stack: Vec<u8>,
    /// CPUs runs may use (our affinity, which they inherit), read once: the standard
    /// library's count reads `/proc` and the cgroup files, a dozen calls.
    cpus: u32,
    /// [`children_cpu_us`] as the last run's end was reported: nothing is reaped between
    /// runs, so it is the next run's start too (one `getrusage` a run fewer).
    reaped_cpu: Option<u64>,
    /// How many `Run` and `Then` messages came: the number of the last one.
    asked: u64,
    /// The run to start the moment the one under way ends (`Message::Then`).
    held: Option<Held>,
    /// The worker's cgroup files read between two runs, as the last `Then` that brought
    /// them said.
    meter: Option<(Meter, MeterSpec)>,
    /// Whether the last run ended without being killed: a `Then` that comes late may
    /// follow it.
    followable: bool,
}

/// A run under way: its main process, its number and what its end keeps.
struct Running {
    child: Child,
    number: u64,
    /// The files the request asked to keep (see [`Request::keep`]).
    keep: Vec<String>,
}

/// A run to start the moment the one under way ends: its request and descriptors, and
/// its number.
struct Held {
    request: Box<Request>,
    fds: Vec<OwnedFd>,
    number: u64,
}

/// Why a run asked for did not start: the reply the grader gets instead.
#[derive(Debug)]
enum NotStarted {
    /// It could not be set up or started: why.
    Failed(String),
    /// A `Then` that could not be followed.
    Dropped,
}

impl NotStarted {
    /// The reply that says so.
    fn reply(self) -> Reply {
        match self {
            NotStarted::Failed(message) => Reply::Failed { message },
            NotStarted::Dropped => Reply::Dropped,
        }
    }
}

/// What the end of a run sends: its reply and kept file, then the run started after it,
/// or why that one could not start.
type Finished = (
    Reply,
    Vec<Option<File>>,
    Option<Result<Running, NotStarted>>,
);

/// Becomes a launcher when this process was started as one, and returns at once
/// otherwise: when its first argument is the hidden launcher argument, which a worker
/// passes where no `grader-launcher` binary is installed beside the program that starts it
/// (see [`crate::Worker::start`]). Called first thing in `main` of a program that runs
/// programs in a box, before it starts any thread.
pub fn serve_if_asked() {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == LAUNCHER_ARG)
    {
        serve();
    }
}

/// Serves requests on standard input (a Unix socket) until the grader closes it: the whole
/// of the `grader-launcher` binary, and of a program started as a launcher
/// ([`serve_if_asked`]).
pub fn serve() -> ! {
    // SAFETY: fd 0 is the socket the grader passed as our standard input; we take sole
    // ownership of it for the life of the process.
    let socket = unsafe { UnixStream::from_raw_fd(0) };
    // SAFETY: plain prctl and signal calls with integer arguments.
    unsafe {
        // Orphans of a run become our children, so none can outlive it unseen.
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        // No parent-death signal: it fires when the grader's *thread* that started us
        // ends (a pool's thread, while the worker lives on in another), and killed then we
        // would leave our run's processes unreaped, zombies for the machine's init. If the
        // grader dies, its end of our socket closes: we read that as its end, between runs
        // and during one, and end the run, reap it and exit.
        // Ignored signals pass through exec: whatever the grader was started with
        // (`nohup` ignores SIGHUP) must not reach programs. Once here, so that each child
        // only restores SIGPIPE, which Rust's runtime ignores.
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP && signal != libc::SIGPIPE {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
    // First, while this process may still have the capability to raise them: once in a
    // box's user namespace it never has.
    let ceilings = rlimits::lift();
    let spawn = if std::env::args().any(|a| a == COPY_MEMORY_ARG) {
        Spawn::Copy
    } else {
        Spawn::SharedMemory
    };
    let Ok(Some((setup, mut fds))) = receive::<Setup>(&socket) else {
        std::process::exit(0)
    };
    // The queue of runs to start after the one under way (see [`Launcher::queue`]).
    let Some(queue) = fds.pop().map(UnixStream::from) else {
        std::process::exit(1)
    };
    if queue.set_nonblocking(true).is_err() {
        std::process::exit(1);
    }
    let mut launcher = match set_up((socket, queue), &setup, (spawn, ceilings)) {
        Ok(launcher) => launcher,
        Err((socket, e)) => {
            let _ = send(
                &socket,
                &Reply::Failed {
                    message: e.to_string(),
                },
                &[],
            );
            std::process::exit(1)
        }
    };
    if send(&launcher.socket, &Reply::Ready, &[]).is_err() {
        std::process::exit(0);
    }
    let mut running: Option<Running> = None;
    loop {
        let run = match running.take() {
            Some(run) => run,
            None => match launcher.next_request() {
                Ok(run) => run,
                Err(not) => {
                    launcher.reply(&not.reply(), &[]);
                    continue;
                }
            },
        };
        let (reply, kept, next) = launcher.finish(&run);
        launcher.reply(&reply, &kept);
        match next {
            Some(Ok(run)) => running = Some(run),
            Some(Err(failed)) => launcher.reply(&failed.reply(), &[]),
            None => {}
        }
    }
}

/// Opens the cgroup files, compiles the filters, builds the box, joins the groups it lives
/// in and takes the filters on itself, in that order (the box hides the machine's files;
/// the filters refuse mounting). Every program of the box inherits the filters: taking
/// them on per run cost 0.7 ms of a 0.8 ms run here (the kernel prepares a filter for
/// every system call number at each install).
fn set_up(
    (socket, queue): (UnixStream, UnixStream),
    setup: &Setup,
    (spawn, ceilings): (Spawn, Ceilings),
) -> Result<Launcher, (UnixStream, io::Error)> {
    // Opened for writing (`0`, to join), named in any error.
    let open_all = |paths: &[String]| -> io::Result<Vec<File>> {
        paths
            .iter()
            .map(|path| {
                File::options()
                    .write(true)
                    .open(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))
            })
            .collect()
    };
    let prepared = (|| -> io::Result<_> {
        let cgroups: Vec<OwnedFd> = open_all(&setup.cgroup_procs)?
            .into_iter()
            .map(OwnedFd::from)
            .collect();
        let resident = open_all(&setup.cgroup_resident)?;
        let filters = setup.seccomp.then(confine::filters).transpose()?;
        let boxed = setup.boxed.as_ref().map(boxed::enter).transpose()?;
        if let Some(owner) = setup.own_pids {
            pidspace::enter(owner)?;
        }
        // v1's `tasks` moves the writing thread only: this process has no other, so all
        // of it moves, without the lock a whole process's move takes (see `cgroup/group.rs`).
        for mut group in &resident {
            io::Write::write_all(&mut group, b"0")?;
        }
        // In a box, runs see their groups as `/` (`/proc/self/cgroup` names no folder of
        // the machine): unless each run joins its groups itself (v2), one cgroup
        // namespace made here serves every run (4.5 us of each run's start here); where
        // each run joins them, each makes its own once it has joined.
        // SAFETY: a plain system call on this process's own namespaces.
        if boxed.is_some()
            && cgroups.is_empty()
            && unsafe { libc::unshare(libc::CLONE_NEWCGROUP) } != 0
        {
            return Err(io::Error::last_os_error());
        }
        // A run that fills the memory group should not take its launcher (and the box)
        // with it. Some kernels refuse this (EIO here); then a launcher the OOM killer
        // takes is a run's MLE (see `worker.rs`).
        let shielded = !resident.is_empty() && shield_from_oom().is_ok();
        let reaper = if boxed.is_some() || setup.own_pids.is_some() {
            Reaper::Init
        } else {
            Reaper::Subreaper
        };
        if reaper == Reaper::Init {
            // A session of its own, once (see `Reaper::Init`).
            // SAFETY: a plain system call on this process.
            if unsafe { libc::setsid() } < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let no_groups = drop_groups();
        for filter in filters.iter().flatten() {
            seccompiler::apply_filter(filter)
                .map_err(|e| io::Error::other(format!("seccomp: {e}")))?;
        }
        Ok((cgroups, boxed, shielded, no_groups, reaper))
    })();
    match prepared {
        Ok((cgroups, boxed, shielded, no_groups, reaper)) => match sigchld() {
            Ok(children) => Ok(Launcher {
                socket,
                queue,
                spawn,
                reaper,
                boxed,
                cgroups,
                children,
                shielded,
                no_groups,
                ceilings,
                stack: vec![0u8; CHILD_STACK],
                cpus: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
                reaped_cpu: None,
                asked: 0,
                held: None,
                meter: None,
                followable: false,
            }),
            Err(e) => Err((socket, e)),
        },
        Err(e) => Err((socket, e)),
    }
}

/// Gives up this process's supplementary groups where it may (root; not in a user
/// namespace that denies `setgroups`): whether it now holds none. Each child that
/// changes user would otherwise drop them itself, a credential change (2 us) a run.
fn drop_groups() -> bool {
    // SAFETY: glibc's `setgroups` with an empty list (it changes every thread, and this
    // process has one), then a count of the groups held.
    unsafe {
        libc::setgroups(0, std::ptr::null());
        libc::getgroups(0, std::ptr::null_mut()) == 0
    }
}

/// This process's OOM score, which a box's init lowers as far as it goes.
pub(crate) const OOM_SCORE: &str = "/proc/self/oom_score_adj";

/// Keeps the OOM killer off this process (`oom_score_adj` -1000), where the kernel allows.
pub(crate) fn shield_from_oom() -> io::Result<()> {
    std::fs::write(OOM_SCORE, "-1000")
}

/// A descriptor that reads `SIGCHLD`, which stays blocked in this process (children
/// unblock every signal before `execve`).
fn sigchld() -> io::Result<SignalFd> {
    let mut set = SigSet::empty();
    set.add(Signal::SIGCHLD);
    set.thread_block()?;
    Ok(SignalFd::with_flags(
        &set,
        SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC,
    )?)
}

/// Everything the child needs, allocated before the fork.
struct Prepared {
    /// The command line; `argv[0]` is the program's path (never empty).
    argv: Vec<CString>,
    env: Vec<CString>,
    dir: CString,
    limits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
    user: Option<(u32, u32)>,
}

fn c_string(s: &str) -> io::Result<CString> {
    CString::new(s).map_err(|_| io::Error::other(format!("a NUL byte in `{s}`")))
}

/// What `request` needs of each limit, for [`prepare`]; `CORE` is always 0, which any
/// process may set.
fn asked(request: &Request) -> Vec<(Kind, Asked)> {
    // Soft below hard: the kernel sends SIGXCPU first, a cause we can name.
    let cpu = (
        Kind::Cpu,
        Asked::exactly(request.cpu_secs, request.cpu_secs + 1),
    );
    if !request.limited {
        return vec![cpu];
    }
    let exactly = |value| Asked::exactly(value, value);
    let mut asked = vec![
        cpu,
        (
            Kind::AddressSpace,
            Asked {
                soft: request.address_space,
                hard: request.address_space,
                // The backstop a run without a cgroup gets: an inherited limit at or
                // above it judges as well as the "unlimited" a cgroup's run asks for.
                floor: rlimits::address_space_backstop(request.memory),
            },
        ),
        (Kind::Stack, exactly(request.stack)),
        (Kind::FileSize, exactly(request.file_size)),
        (Kind::OpenFiles, exactly(request.open_files)),
    ];
    if let Some(n) = request.processes {
        asked.push((Kind::Processes, exactly(n)));
    }
    asked
}

/// What a run of `request` needs of `kind`, said for a message.
fn need(kind: Kind, request: &Request) -> String {
    let size = |bytes| Kind::AddressSpace.show(bytes);
    match kind {
        Kind::Cpu => format!("the CPU limit's backstop: {} s", request.cpu_secs),
        Kind::AddressSpace => format!(
            "4 × the {} memory limit + 1 GiB = {}",
            size(request.memory),
            size(rlimits::address_space_backstop(request.memory))
        ),
        Kind::Stack => format!(
            "a stack as large as the {} memory limit",
            size(request.stack)
        ),
        Kind::FileSize => format!("the {} output limit", size(request.file_size)),
        Kind::OpenFiles => format!("{} open files", request.open_files),
        Kind::Processes => format!(
            "{} processes, the --max-processes limit",
            request.processes.unwrap_or(0)
        ),
    }
}

/// The limits, command line and environment of a run of `request`, ready for the child;
/// each limit fitted under `ceilings`, or why one cannot be.
fn prepare(request: &Request, ceilings: &Ceilings) -> io::Result<Prepared> {
    let mut limits = asked(request)
        .into_iter()
        .map(|(kind, asked)| match ceilings.fit(kind, asked) {
            Ok((soft, hard)) => Ok((
                kind.raw(),
                libc::rlimit {
                    rlim_cur: soft,
                    rlim_max: hard,
                },
            )),
            Err(shortfall) => Err(io::Error::other(shortfall.message(&need(kind, request)))),
        })
        .collect::<io::Result<Vec<_>>>()?;
    if request.limited {
        limits.push((
            libc::RLIMIT_CORE,
            libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            },
        ));
    }
    if request.argv.is_empty() {
        return Err(io::Error::other("an empty command line"));
    }
    Ok(Prepared {
        argv: request
            .argv
            .iter()
            .map(|a| c_string(a))
            .collect::<io::Result<_>>()?,
        env: request
            .env
            .iter()
            .map(|a| c_string(a))
            .collect::<io::Result<_>>()?,
        dir: c_string(&request.dir)?,
        limits,
        user: request.user,
    })
}

/// The stack the child runs on between `clone` and `execve`: it only makes system calls,
/// so a small one is plenty.
const CHILD_STACK: usize = 64 * 1024;

/// Where the child keeps the write end of its error pipe once its own descriptors are set.
const ERROR_FD: RawFd = 3;

/// What the child gets: everything prepared, and where to report `errno` if a step
/// fails.
struct ChildArgs<'a> {
    prepared: &'a Prepared,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    fds: [RawFd; 3],
    /// A child that copies memory ([`Spawn::Copy`]): the write end of a pipe, closed by a
    /// successful exec. `-1` for one that shares our memory: it stores the `errno` in
    /// `failed`, which we read once it exec'd or exited (three calls and a pipe a run
    /// fewer).
    error: RawFd,
    failed: &'a AtomicI32,
    /// The cgroup files to join.
    cgroups: &'a [OwnedFd],
    /// Whether to give up the launcher's shield from the OOM killer.
    unshield: bool,
    /// `strict`, where each run joins the worker's groups (v2): a cgroup namespace of the
    /// run's own, made once the child is in them, so that `/proc/self/cgroup` names no
    /// folder of the machine (otherwise the launcher made one for all its runs).
    cgroup_namespace: bool,
    /// What the launcher is to the child: whether it makes a session of its own, and
    /// must die with the launcher by a signal of its own.
    reaper: Reaper,
    /// Whether the child drops its supplementary groups as it changes user.
    drop_groups: bool,
}

/// The CPU time of this process's reaped children, microseconds.
fn children_cpu_us() -> u64 {
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid out-pointer.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &raw mut usage) };
    micros(usage.ru_utime) + micros(usage.ru_stime)
}

fn micros(t: libc::timeval) -> u64 {
    t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64
}

/// A child just made: it has exec'd, or failed on its way and said why.
struct Child {
    pid: libc::pid_t,
    /// Why it failed, if it did (read from its error pipe, or stored in our memory).
    error: Option<io::Error>,
    /// When it was made.
    start: Instant,
    /// [`children_cpu_us`] just before it was made.
    cpu_before: u64,
}

/// Why the child could not exec, from its error pipe: closed by a successful exec, or
/// holding the `errno` of the step that failed.
fn pipe_error(errors: &OwnedFd) -> Option<io::Error> {
    let mut errno = [0u8; 4];
    let got = nix::unistd::read(errors, &mut errno).unwrap_or(0);
    (got == 4).then(|| io::Error::from_raw_os_error(i32::from_ne_bytes(errno)))
}

/// How a run ended, as measured here.
struct Figures {
    /// The main process's wait status.
    status: i32,
    /// The main process's rusage.
    usage: libc::rusage,
    /// How the run's threads were scheduled when it was killed ([`scheduling`]; `None`
    /// when it was not).
    at_kill: Option<Scheduling>,
    /// From the clone to the main process's end.
    wall: Duration,
    /// [`children_cpu_us`] before the run and after it (every process of it reaped):
    /// the run's CPU time is what it grew by.
    cpu: (u64, u64),
    /// CPUs the run could use.
    cpus: u32,
}

impl Figures {
    /// The `Ended` reply (`kept`: which files the request asked to keep are attached;
    /// `next`: what became of the run held to follow).
    fn ended(&self, kept: Vec<bool>, next: Next) -> Reply {
        let status = self.status;
        let at_kill = self.at_kill.unwrap_or_default();
        Reply::Ended {
            code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            cpu_us: self.cpu.1.saturating_sub(self.cpu.0),
            wall_us: self.wall.as_micros() as u64,
            peak_kib: self.usage.ru_maxrss as u64,
            waited_us: at_kill.waited_us,
            tasks: at_kill.tasks,
            runnable: self.at_kill.map(|w| w.runnable),
            cpus: self.cpus,
            kept,
            next,
        }
    }
}

impl Launcher {
    /// Waits for the grader's next request while no run is under way, and starts it. `Err`
    /// is the reply to send instead: the run could not start, or a `Then` came with no run
    /// to follow. Exits when the grader is gone.
    fn next_request(&mut self) -> Result<Running, NotStarted> {
        loop {
            // The grader's socket first: a `Then` is sent after the `Run` it follows.
            let mut fds = [
                PollFd::new(self.socket.as_fd(), PollFlags::POLLIN),
                PollFd::new(self.queue.as_fd(), PollFlags::POLLIN),
            ];
            match poll(&mut fds, PollTimeout::NONE) {
                Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                Err(_) => std::process::exit(0),
            }
            let ready = |fd: &PollFd<'_>| fd.revents().is_some_and(|r| !r.is_empty());
            let from = if ready(&fds[0]) {
                &self.socket
            } else if ready(&fds[1]) {
                &self.queue
            } else {
                continue;
            };
            let (message, fds) = match receive::<Message>(from) {
                Ok(Some(received)) => received,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Ok(None) | Err(_) => std::process::exit(0),
            };
            match message {
                // A kill that raced with the end of the run it was meant for.
                Message::Kill { .. } => {}
                // It came after the run it was to follow ended: started now, as it would
                // have been then.
                Message::Then(request, spec) => {
                    let held = self
                        .hold(request, spec, fds)
                        .ok()
                        .and_then(|()| self.held.take());
                    let Some(held) = held.filter(|_| self.followable) else {
                        return Err(NotStarted::Dropped);
                    };
                    return match self.follow(held) {
                        (Next::Started(boundary), Some(run)) => {
                            self.reply(&Reply::Started(boundary), &[]);
                            run
                        }
                        _ => Err(NotStarted::Dropped),
                    };
                }
                Message::Run(request) => {
                    self.asked += 1;
                    return self.start(&request, fds, self.asked);
                }
            }
        }
    }

    /// Sends `reply` (with the files of `kept` attached, in order); exits when the grader
    /// is gone.
    fn reply(&self, reply: &Reply, kept: &[Option<File>]) {
        let fds: Vec<RawFd> = kept.iter().flatten().map(AsRawFd::as_raw_fd).collect();
        if send(&self.socket, reply, &fds).is_err() {
            std::process::exit(0);
        }
    }

    /// Starts run number `number` of `request` on `fds`; `Err` is the `Failed` reply when
    /// it cannot start.
    fn start(
        &mut self,
        request: &Request,
        fds: Vec<OwnedFd>,
        number: u64,
    ) -> Result<Running, NotStarted> {
        let failed = NotStarted::Failed;
        let standard = self
            .take_descriptors(request, fds)
            .map_err(|e| failed(e.to_string()))?;
        let prepared = prepare(request, &self.ceilings).map_err(|e| failed(e.to_string()))?;
        let child = self
            .start_child(&prepared, standard)
            .map_err(|e| failed(e.to_string()))?;
        if let Some(error) = &child.error {
            self.end_run(child.pid);
            return Err(failed(format!("cannot run {}: {error}", request.argv[0])));
        }
        Ok(Running {
            child,
            number,
            keep: request.keep.clone(),
        })
    }

    /// Runs `run` to its end: its `Ended` reply (or `Failed`), the file it was asked to
    /// keep, and the run held to follow it, started before the reply goes (see
    /// [`Launcher::follow`]).
    fn finish(&mut self, run: &Running) -> Finished {
        let ended = self.end(run);
        self.followable = matches!(ended, Ok((_, false, _)));
        match ended.and_then(|ended| self.take_queued().map(|()| ended)) {
            Ok((figures, killed, kept)) => {
                let (next, started) = match self.held.take() {
                    None => (Next::Unasked, None),
                    Some(_) if killed => (Next::Dropped, None),
                    Some(held) => self.follow(held),
                };
                let attached = kept.iter().map(Option::is_some).collect();
                (figures.ended(attached, next), kept, started)
            }
            Err(e) => {
                let failed = Reply::Failed {
                    message: e.to_string(),
                };
                (failed, Vec::new(), None)
            }
        }
    }

    /// Waits for `run`'s end and ends it: every process of it reaped, the file it was
    /// asked to keep taken, the work folder renewed. Its figures, and whether the grader
    /// killed it.
    fn end(&mut self, run: &Running) -> io::Result<(Figures, bool, Vec<Option<File>>)> {
        let pid = run.child.pid;
        let (status, usage, at_kill, killed) = self.wait(pid, run.number)?;
        let wall = run.child.start.elapsed();
        self.end_run(pid);
        let kept = run.keep.iter().map(|path| keep(path).ok()).collect();
        // At once, not before the next run: what the run wrote is memory charged to the
        // worker's cgroup, and the next run's baseline must not hold it.
        if let Some(boxed) = &mut self.boxed {
            boxed.renew_work().map_err(|e| {
                io::Error::new(e.kind(), format!("cannot renew the box's work folder: {e}"))
            })?;
        }
        let reaped = children_cpu_us();
        self.reaped_cpu = Some(reaped);
        let figures = Figures {
            status,
            usage,
            at_kill,
            wall,
            cpu: (run.child.cpu_before, reaped),
            cpus: self.cpus,
        };
        Ok((figures, killed, kept))
    }

    /// Starts `held` now that the run before it ended unkilled, having read the group
    /// between the two (where the runs have one): what the reply of the run that ended
    /// says of it, and the run (or its `Failed` reply). A group to be made anew first, or
    /// one that cannot be read, leaves it to the grader.
    fn follow(&mut self, held: Held) -> (Next, Option<Result<Running, NotStarted>>) {
        let boundary = match &self.meter {
            Some((meter, spec)) => match meter.between(spec.renew_above) {
                Ok(Some(boundary)) => Some(boundary),
                Ok(None) | Err(_) => return (Next::Dropped, None),
            },
            None => None,
        };
        let run = self.start(&held.request, held.fds, held.number);
        (Next::Started(boundary), Some(run))
    }

    /// Holds the `Then` that came while the run went, if one did.
    fn take_queued(&mut self) -> io::Result<()> {
        match receive::<Message>(&self.queue) {
            Ok(Some((Message::Then(request, spec), fds))) => self.hold(request, spec, fds),
            Ok(Some(_)) => Err(io::Error::other("a request out of place")),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(()),
            // The grader is gone: its socket says so too.
            Ok(None) | Err(_) => Ok(()),
        }
    }

    /// Holds a `Then` (numbered as it came), with the meter files it brought.
    fn hold(
        &mut self,
        request: Box<Request>,
        spec: Option<MeterSpec>,
        mut fds: Vec<OwnedFd>,
    ) -> io::Result<()> {
        self.asked += 1;
        if self.held.is_some() {
            return Err(io::Error::other("two runs to follow one"));
        }
        self.take_meter(spec, &mut fds)?;
        self.held = Some(Held {
            request,
            fds,
            number: self.asked,
        });
        Ok(())
    }

    /// Takes the meter files a `Then` brought (its last four descriptors, when `spec`
    /// says they came) in place of the last ones.
    fn take_meter(&mut self, spec: Option<MeterSpec>, fds: &mut Vec<OwnedFd>) -> io::Result<()> {
        if let Some(spec) = spec {
            let files = fds.split_off(fds.len().saturating_sub(4));
            let files = files.into_iter().map(File::from).collect();
            self.meter = Some((Meter::new(spec.format, files)?, spec));
        }
        Ok(())
    }

    /// Sorts the descriptors a request came with: the run's three standard ones (returned),
    /// then the worker's renewed cgroup files (kept for this and later runs), then the
    /// program's files, staged into the box's `/prog`.
    fn take_descriptors(
        &mut self,
        request: &Request,
        mut fds: Vec<OwnedFd>,
    ) -> io::Result<Vec<OwnedFd>> {
        if fds.len() < 3 {
            return Err(io::Error::other("expected three descriptors"));
        }
        let mut staged = fds.split_off(3);
        if request.cgroups > 0 {
            let rest = staged.split_off(request.cgroups.min(staged.len()));
            self.cgroups = std::mem::replace(&mut staged, rest);
        }
        // `/box` is as new: renewed after the last run, and made at the box's birth.
        if let Some(boxed) = &mut self.boxed
            && let Some(files) = &request.stage
        {
            boxed.stage(files, staged)?;
        }
        Ok(fds)
    }

    /// Makes the child, which runs `prepared` on the three descriptors `standard`; the
    /// launcher's copies of them are closed once it exists.
    ///
    /// The child is made by `clone` with `CLONE_VFORK` (see [`Spawn`] for sharing memory):
    /// we sleep until it has exec'd or failed, so its error report, if any, is already in
    /// the pipe when `clone` returns.
    fn start_child(&mut self, prepared: &Prepared, standard: Vec<OwnedFd>) -> io::Result<Child> {
        let mut argv: Vec<*const libc::c_char> = prepared.argv.iter().map(|a| a.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut envp: Vec<*const libc::c_char> = prepared.env.iter().map(|a| a.as_ptr()).collect();
        envp.push(std::ptr::null());
        let pipe = match self.spawn {
            Spawn::Copy => Some(nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?),
            Spawn::SharedMemory => None,
        };
        let failed = AtomicI32::new(0);
        if let Some(boxed) = &self.boxed {
            // The run's first process gets pid 2, whatever the last run did to the
            // counter: pids are no channel from one run to the next.
            boxed.reset_pids()?;
        }
        let args = ChildArgs {
            prepared,
            argv: &argv,
            envp: &envp,
            fds: [
                standard[0].as_raw_fd(),
                standard[1].as_raw_fd(),
                standard[2].as_raw_fd(),
            ],
            error: pipe.as_ref().map_or(-1, |(_, write)| write.as_raw_fd()),
            failed: &failed,
            cgroups: &self.cgroups,
            unshield: self.shielded,
            cgroup_namespace: self.boxed.is_some() && !self.cgroups.is_empty(),
            reaper: self.reaper,
            drop_groups: !self.no_groups,
        };
        let flags = match self.spawn {
            Spawn::SharedMemory => libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            Spawn::Copy => libc::CLONE_VFORK | libc::SIGCHLD,
        };
        let cpu_before = self.reaped_cpu.take().unwrap_or_else(children_cpu_us);
        let start = Instant::now();
        // SAFETY: the child runs `child_main` on its own stack with `args`, which outlive
        // it (we are suspended until it exec'd or exited). Every signal is blocked around
        // the clone so that no handler of ours can run on the child's side; the child
        // restores default dispositions before it unblocks them.
        let pid = unsafe {
            let mut all: libc::sigset_t = std::mem::zeroed();
            let mut old: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&raw mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &raw const all, &raw mut old);
            let top = self
                .stack
                .as_mut_ptr()
                .add(CHILD_STACK)
                .cast::<libc::c_void>();
            let pid = libc::clone(child_main, top, flags, (&raw const args).cast_mut().cast());
            libc::pthread_sigmask(libc::SIG_SETMASK, &raw const old, std::ptr::null_mut());
            pid
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        drop(standard);
        let error = match pipe {
            Some((read, write)) => {
                drop(write);
                pipe_error(&read)
            }
            // The child shared our memory, and we slept until it exec'd or exited.
            None => match failed.load(Ordering::Acquire) {
                0 => None,
                errno => Some(io::Error::from_raw_os_error(errno)),
            },
        };
        Ok(Child {
            pid,
            error,
            start,
            cpu_before,
        })
    }

    /// Waits for the main process `pid` of run number `number` to end, killing the run
    /// when the grader says `Kill` for it, and holding a `Then`; its status, its rusage,
    /// how its threads were scheduled when the grader had it killed ([`scheduling`];
    /// `None` if it did not), and whether it was killed.
    fn wait(
        &mut self,
        pid: libc::pid_t,
        number: u64,
    ) -> io::Result<(i32, libc::rusage, Option<Scheduling>, bool)> {
        let mut at_kill = None;
        let mut killed = false;
        let mut socket_open = true;
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value to be overwritten.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // Checked before each sleep: the child may have ended before we looked, and
            // one SIGCHLD may stand for several children.
            // SAFETY: a non-blocking wait for our own child, with valid out-pointers.
            let r = unsafe { libc::wait4(pid, &raw mut status, libc::WNOHANG, &raw mut usage) };
            if r == pid {
                return Ok((status, usage, at_kill, killed));
            }
            if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return Err(io::Error::last_os_error());
            }
            let mut fds = vec![PollFd::new(self.children.as_fd(), PollFlags::POLLIN)];
            if socket_open {
                fds.push(PollFd::new(self.socket.as_fd(), PollFlags::POLLIN));
            }
            match poll(&mut fds, PollTimeout::NONE) {
                Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                Err(e) => return Err(e.into()),
            }
            let asked = fds
                .get(1)
                .and_then(PollFd::revents)
                .is_some_and(|r| !r.is_empty());
            drop(fds);
            // Drained: the next poll sleeps until the next child ends.
            self.drain_children();
            if asked {
                match receive::<Message>(&self.socket) {
                    Ok(Some((Message::Kill { run }, _))) if run == number && !killed => {
                        // Read while the processes are alive: their figures go with them.
                        at_kill = Some(scheduling(self.reaper));
                        killed = true;
                        self.kill_run(pid);
                    }
                    // For an earlier run, or said twice.
                    Ok(Some((Message::Kill { .. }, _))) => {}
                    Ok(Some((Message::Run(_) | Message::Then(..), _))) => {
                        return Err(io::Error::other("a request during a run"));
                    }
                    // The grader is gone: end the run, then the loop in `serve` ends.
                    Ok(None) | Err(_) => {
                        socket_open = false;
                        killed = true;
                        self.kill_run(pid);
                    }
                }
            }
        }
    }

    /// Reads every pending `SIGCHLD` from `children`: in one read, unless it filled the
    /// buffer.
    fn drain_children(&self) {
        let mut buffer = [0u8; 16 * 128];
        loop {
            // SAFETY: reading into a buffer of ours from our own signal descriptor.
            let got = unsafe {
                libc::read(
                    self.children.as_fd().as_raw_fd(),
                    buffer.as_mut_ptr().cast(),
                    buffer.len(),
                )
            };
            if got < buffer.len().cast_signed() {
                return;
            }
        }
    }

    /// Kills what of the current run is cheap to reach: in a PID namespace of our own,
    /// everything but init; otherwise the run's process group.
    fn kill_reachable(&self, pid: libc::pid_t) {
        let target = match self.reaper {
            Reaper::Init => -1,
            Reaper::Subreaper => -pid,
        };
        // SAFETY: a signal to the whole namespace, or to the run's process group.
        unsafe { libc::kill(target, libc::SIGKILL) };
    }

    /// Kills every process of the current run: in a PID namespace of our own, everything
    /// but init; otherwise the run's session, and every orphan reparented to us.
    fn kill_run(&self, pid: libc::pid_t) {
        self.kill_reachable(pid);
        if self.reaper == Reaper::Subreaper {
            // SAFETY: signals to the run's main process and to our children (all of which
            // belong to the run).
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                for child in children() {
                    libc::kill(child, libc::SIGKILL);
                }
            }
        }
    }

    /// After the main process: kills and reaps every remaining process of the run, so
    /// none outlives it and the CPU time of all of them is in our children's rusage.
    /// Processes forked while we kill (a fork bomb) are caught by the next round.
    ///
    /// The first round signals only what is cheap to reach (the box, or the run's
    /// process group); the `/proc` scan for orphans that left the group costs about a
    /// millisecond, so it runs only when a child is still alive.
    fn end_run(&self, pid: libc::pid_t) {
        if self.reaper == Reaper::Init {
            // Every process of the namespace descends from its init, and orphans are reparented
            // to it: no child left means no process left (the common case, and then
            // `kill(-1)`, which walks every process of the machine, is not needed).
            let mut status = 0;
            // SAFETY: non-blocking reap of any child.
            if unsafe { libc::waitpid(-1, &raw mut status, libc::WNOHANG) } < 0 {
                return;
            }
        }
        self.kill_reachable(pid);
        loop {
            loop {
                let mut status = 0;
                // SAFETY: non-blocking reap of any child.
                let r = unsafe { libc::waitpid(-1, &raw mut status, libc::WNOHANG) };
                if r > 0 {
                    continue;
                }
                if r < 0 {
                    // ECHILD: none left (the common case, at once).
                    return;
                }
                break;
            }
            self.kill_run(pid);
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// A descriptor of the regular file at `path` (a run's output: a symbolic link or a FIFO
/// left in its place is refused, never followed or waited on).
fn keep(path: &str) -> io::Result<File> {
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// How the threads of a run were scheduled when the grader had it killed ([`scheduling`]).
#[derive(Debug, Clone, Copy, Default)]
struct Scheduling {
    /// How long they had waited, runnable, for a CPU, microseconds.
    waited_us: u64,
    /// How many there were.
    tasks: u32,
    /// How many were runnable then (state `R`: running, or ready and waiting for a CPU).
    /// A wait under way is not in `waited_us` yet: with none runnable, none was.
    runnable: u32,
}

/// How the processes of the run under way are scheduled: how long they have waited,
/// runnable, for a CPU (the `run_delay` of every thread, `/proc/PID/task/TID/schedstat`,
/// nanoseconds, which the kernel adds to as each wait ends), how many threads they have,
/// and how many of those are runnable now (their `stat`'s state, read first: a thread
/// that becomes runnable after its state was read waits only until the kill, a moment
/// later). Every process of the run: under an
/// [`Reaper::Init`], every process of the namespace but that init; under a
/// [`Reaper::Subreaper`], every descendant of this launcher (an orphan of the run comes
/// to it, or to a subreaper of the run's own, which descends from it: none escapes, not
/// even one that left the run's session).
fn scheduling(reaper: Reaper) -> Scheduling {
    let (mut nanos, mut tasks, mut runnable) = (0u64, 0u32, 0u32);
    let me = std::process::id().cast_signed();
    let processes: Vec<i32> = match reaper {
        Reaper::Init => processes().filter(|&p| p != me).collect(),
        Reaper::Subreaper => descendants(me),
    };
    for process in processes {
        let Ok(threads) = std::fs::read_dir(format!("/proc/{process}/task")) else {
            continue;
        };
        for thread in threads.flatten() {
            tasks += 1;
            // A thread gone meanwhile waits for nothing; one whose state cannot be told
            // counts as runnable, so that it never makes a run look settled.
            let state = std::fs::read_to_string(thread.path().join("stat"));
            match state.as_deref().map(stat_state) {
                Ok(Some(state)) if state != 'R' => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                _ => runnable += 1,
            }
            // `time on CPU, time waiting runnable, time slices`.
            nanos += std::fs::read_to_string(thread.path().join("schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    Scheduling {
        waited_us: nanos / 1000,
        tasks,
        runnable,
    }
}

/// The state letter of a `/proc/PID/stat` line (`R`, `S`, `D`, ...).
fn stat_state(stat: &str) -> Option<char> {
    past_name(stat)?.trim_start().chars().next()
}

/// What follows the command name of a `/proc/PID/stat` line: `pid (comm) state ppid
/// ...`, where comm may hold spaces and parentheses, so the fields are counted from the
/// last `)`.
fn past_name(stat: &str) -> Option<&str> {
    Some(stat.rsplit_once(')')?.1)
}

/// The pids of `root`'s descendants, from one pass over `/proc` (a process born after it
/// is not among them: it has lived a moment).
fn descendants(root: i32) -> Vec<i32> {
    let parents: Vec<(i32, i32)> = processes()
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            Some((pid, stat_field(&stat, Stat::Parent)?))
        })
        .collect();
    let mut found = vec![root];
    let mut at = 0;
    while let Some(&parent) = found.get(at) {
        found.extend(
            parents
                .iter()
                .filter(|&&(_, p)| p == parent)
                .map(|&(c, _)| c),
        );
        at += 1;
    }
    found.remove(0);
    found
}

/// The pids whose parent is this process, from `/proc`.
fn children() -> Vec<i32> {
    let me = std::process::id().cast_signed();
    processes_where(|stat| stat_field(stat, Stat::Parent) == Some(me))
}

/// A field of `/proc/PID/stat`, by its place after the command name.
#[derive(Clone, Copy)]
enum Stat {
    /// The parent's pid.
    Parent = 1,
}

/// `field` of a `/proc/PID/stat` line.
fn stat_field(stat: &str, field: Stat) -> Option<i32> {
    past_name(stat)?
        .split_whitespace()
        .nth(field as usize)?
        .parse()
        .ok()
}

/// The pids in `/proc`.
fn processes() -> impl Iterator<Item = i32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
}

/// The pids, from `/proc`, whose `stat` line passes `wanted` (a process gone meanwhile
/// does not).
fn processes_where(wanted: impl Fn(&str) -> bool) -> Vec<i32> {
    processes()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| wanted(&stat))
        })
        .collect()
}

/// The entry point of the cloned child.
extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `ChildArgs` the parent passed to `clone`, alive while the
    // parent is suspended.
    let args = unsafe { &*arg.cast::<ChildArgs<'_>>() };
    child(args)
}

/// The child between clone and exec: it may share the launcher's memory, so it only
/// makes raw system calls on data prepared before (no allocation, no locks, and no glibc
/// `setuid`, which would try to change every thread of the launcher too). Never returns.
fn child(args: &ChildArgs<'_>) -> ! {
    let p = args.prepared;
    let fail = |error: RawFd| -> ! {
        // SAFETY: reporting this thread's errno (on the pipe, or in the memory we share)
        // and exiting without running any of the launcher's exit handlers.
        unsafe {
            let errno = (*libc::__errno_location()).max(1);
            if error < 0 {
                args.failed.store(errno, Ordering::Release);
            } else {
                libc::write(error, errno.to_ne_bytes().as_ptr().cast(), 4);
            }
            libc::_exit(127)
        }
    };
    let error = args.error;
    // SAFETY: system calls on descriptors and C strings prepared before the clone.
    unsafe {
        // The default disposition first, while every signal is still blocked: Rust
        // ignores SIGPIPE, and an ignored signal would stay ignored across exec. It is
        // the only disposition this process changes (handled ones reset at exec anyway).
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        // See `Reaper`: a session per run made the kernel build and tear down a
        // scheduling group (`autogroup`) for each, 6 us a run here.
        let alone = match args.reaper {
            Reaper::Init => libc::setpgid(0, 0),
            Reaper::Subreaper => libc::setsid(),
        };
        if alone < 0 {
            fail(error);
        }
        // Into the worker's cgroup before anything is allocated, while still privileged.
        for cgroup in args.cgroups {
            if libc::write(cgroup.as_raw_fd(), b"0".as_ptr().cast(), 1) != 1 {
                fail(error);
            }
        }
        if args.cgroup_namespace && libc::unshare(libc::CLONE_NEWCGROUP) != 0 {
            fail(error);
        }
        if args.unshield {
            let fd = libc::open(
                c"/proc/self/oom_score_adj".as_ptr(),
                libc::O_WRONLY | libc::O_CLOEXEC,
            );
            if fd >= 0 {
                libc::write(fd, b"0".as_ptr().cast(), 1);
                libc::close(fd);
            }
        }
        for (target, &fd) in (0..).zip(args.fds.iter()) {
            if libc::dup2(fd, target) < 0 {
                fail(error);
            }
        }
        // The error pipe, if any, moves to 3, still closed by exec; everything else goes.
        let error = if error < 0 {
            libc::close_range(3, u32::MAX, 0);
            error
        } else {
            if libc::dup2(error, ERROR_FD) < 0
                || libc::fcntl(ERROR_FD, libc::F_SETFD, libc::FD_CLOEXEC) < 0
            {
                fail(error);
            }
            libc::close_range(4, u32::MAX, 0);
            ERROR_FD
        };
        if libc::chdir(p.dir.as_ptr()) != 0 {
            fail(error);
        }
        for (resource, limit) in &p.limits {
            if libc::setrlimit(*resource, limit) != 0 {
                fail(error);
            }
        }
        if let Some((uid, gid)) = p.user
            && ((args.drop_groups
                && libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0)
                || libc::syscall(libc::SYS_setresgid, gid, gid, gid) != 0
                || libc::syscall(libc::SYS_setresuid, uid, uid, uid) != 0)
        {
            fail(error);
        }
        // Dies with the launcher (set after the uid change, which clears it).
        if args.reaper == Reaper::Subreaper {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        }

        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const none, std::ptr::null_mut());
        libc::execve(p.argv[0].as_ptr(), args.argv.as_ptr(), args.envp.as_ptr());
        fail(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threads_state_is_read_past_its_name_whatever_the_name_holds() {
        assert_eq!(stat_state("42 (sleep) S 1 42 42 0"), Some('S'));
        assert_eq!(stat_state("42 (a) R (b)) R 1 42 42 0"), Some('R'));
        assert_eq!(stat_state("7 (x y) D 1"), Some('D'));
        assert_eq!(stat_state("7 (x"), None);
        assert_eq!(stat_state("7 (x)"), None);
    }
}
