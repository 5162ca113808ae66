//! Running one program under limits. Knows nothing of problems or verdicts: it returns
//! facts ([`Outcome`]); `judge` turns them into a verdict. All `unsafe` of the grader lives
//! in this module.
//!
//! A [`Launcher`] (one per worker) forks each program from a small process (see
//! `launcher.rs` for why). The grader side feeds standard input from the case file,
//! reads stdout (capped) and stderr (its tail) in one `poll` loop, and enforces the wall
//! limit, the output limit and the memory limit from outside by killing the program's
//! whole process group.

mod confine;
pub(crate) mod launcher;
mod protocol;
pub(crate) mod sandbox;

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use protocol::{Reply, Request, receive, send};

/// The hidden first argument that turns the `grader` binary into a launcher.
pub(crate) const LAUNCHER_ARG: &str = "__launcher";

/// `RLIMIT_NPROC` for programs run as `nobody`: it caps a fork bomb. It counts every
/// process of that user, so it leaves room for all workers' runs at once.
const PROCESS_CAP: u64 = 1024;

/// How much of stderr a report keeps: its end, where the error usually is.
const STDERR_TAIL: usize = 4096;
/// How often the CPU time and memory of a running program are sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(20);
/// How far past the CPU limit a sample must be before the run is cut short: `/proc` counts
/// in clock ticks, and the verdict is decided on `wait4`'s exact figure anyway.
const CPU_GRACE: Duration = Duration::from_millis(50);

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// CPU time (user + system).
    pub(crate) cpu: Duration,
    /// Wall time: catches programs that sleep or wait.
    pub(crate) wall: Duration,
    /// Peak resident memory, bytes.
    pub(crate) memory: u64,
    /// Bytes of standard output.
    pub(crate) output: u64,
    /// The isolation tier.
    pub(crate) sandbox: sandbox::Tier,
}

/// What to run.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// The program, an absolute path.
    pub(crate) program: PathBuf,
    /// Its arguments, `argv[0]` first.
    pub(crate) argv: Vec<String>,
    /// The whole environment, `KEY=value`.
    pub(crate) env: Vec<String>,
    /// The working directory (a scratch folder).
    pub(crate) dir: PathBuf,
    /// What the program reads on standard input.
    pub(crate) stdin: Input,
    /// Run as this uid and gid.
    pub(crate) user: Option<(u32, u32)>,
}

/// Standard input of a run.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    /// A file (a case's `.in`), opened read-only.
    File(PathBuf),
    /// Bytes (a fuzz input), given in a memory file: rewriting a file on disk for every
    /// run costs a truncation, which on these machines' ext4 (mounted with `discard`)
    /// waits for the disk, a third of a trivial run.
    Bytes(Vec<u8>),
}

impl Input {
    fn open(&self) -> io::Result<File> {
        match self {
            Input::File(path) => File::open(path),
            Input::Bytes(bytes) => {
                let fd = nix::sys::memfd::memfd_create(
                    c"grader-input",
                    nix::sys::memfd::MFdFlags::MFD_CLOEXEC,
                )?;
                let mut file = File::from(fd);
                file.write_all(bytes)?;
                file.seek(io::SeekFrom::Start(0))?;
                Ok(file)
            }
        }
    }
}

/// Which limit the grader enforced by killing the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Killed {
    /// CPU time passed the limit (seen in `/proc` before the rlimit's signal).
    Cpu,
    /// The wall limit passed.
    Wall,
    /// Standard output passed the output limit.
    Output,
    /// Resident memory passed the memory limit.
    Memory,
}

/// The facts of one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Exit status, when the program exited.
    pub(crate) code: Option<i32>,
    /// Terminating signal, when it was killed.
    pub(crate) signal: Option<i32>,
    /// CPU time of the program and its reaped descendants.
    pub(crate) cpu: Duration,
    /// Wall time from start to end.
    pub(crate) wall: Duration,
    /// Peak resident memory, KiB.
    pub(crate) peak_kib: u64,
    /// Standard output, at most the output limit.
    pub(crate) stdout: Vec<u8>,
    /// The last bytes of standard error.
    pub(crate) stderr_tail: Vec<u8>,
    /// The limit the grader enforced, if any.
    pub(crate) killed: Option<Killed>,
}

/// A launcher process and the socket to it.
#[derive(Debug)]
pub(crate) struct Launcher {
    socket: UnixStream,
    process: Child,
}

impl Launcher {
    /// Starts a launcher: the small `grader-launcher` binary installed beside this one, or,
    /// where it is missing (`cargo run` builds only `grader`), this binary with the hidden
    /// launcher argument, copying memory at each start so that its larger size does not
    /// become the floor of the peak memory programs report.
    pub(crate) fn start() -> io::Result<Launcher> {
        let (ours, theirs) = UnixStream::pair()?;
        let exe = std::env::current_exe()?;
        let small = exe.with_file_name("grader-launcher");
        let mut command = if small.is_file() {
            Command::new(small)
        } else {
            let mut command = Command::new(exe);
            command.args([LAUNCHER_ARG, launcher::COPY_MEMORY_ARG]);
            command
        };
        let process = command
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()?;
        Ok(Launcher {
            socket: ours,
            process,
        })
    }

    /// Runs `spec` under `limits` and returns what happened. `Err` means the run could not
    /// be made (a missing interpreter, a broken launcher), never that the program failed.
    pub(crate) fn run(&mut self, spec: &Spec, limits: &Limits) -> io::Result<Outcome> {
        let stdin = spec.stdin.open()?;
        let (out_read, out_write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
        let (err_read, err_write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
        let request = Request {
            program: spec.program.to_string_lossy().into_owned(),
            argv: spec.argv.clone(),
            env: spec.env.clone(),
            dir: spec.dir.to_string_lossy().into_owned(),
            // none: the grader's own user.
            user: spec.user.filter(|_| limits.sandbox >= sandbox::Tier::Basic),
            cpu_secs: limits.cpu.as_secs() + 1,
            address_space: address_space_backstop(limits.memory),
            stack: limits.memory,
            file_size: limits.output,
            open_files: 64,
            // Per user, so generous: it counts every run's processes at once.
            processes: spec.user.map(|_| PROCESS_CAP),
            limited: limits.sandbox >= sandbox::Tier::Basic,
            confine: (limits.sandbox == sandbox::Tier::Strict).then(|| confinement(spec)),
        };
        let fds = [
            stdin.as_raw_fd(),
            out_write.as_raw_fd(),
            err_write.as_raw_fd(),
        ];
        send(&self.socket, &request, &fds)?;
        // Our copies of the write ends must go, or the reads below never see the end.
        drop((stdin, out_write, err_write));
        watch(&self.socket, out_read, err_read, limits)
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Closing the socket ends the launcher's loop.
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        let _ = self.process.wait();
    }
}

/// What a `strict` program may touch: the system folders, its own program and staged
/// files (and the installation of its interpreter, when that is outside them), read-only;
/// its scratch folder and the harmless devices, read-write.
fn confinement(spec: &Spec) -> protocol::Confinement {
    let mut read: Vec<String> = sandbox::SYSTEM_READ
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let program = std::fs::canonicalize(&spec.program).unwrap_or_else(|_| spec.program.clone());
    let inside = |p: &std::path::Path| sandbox::SYSTEM_READ.iter().any(|root| p.starts_with(root));
    if !inside(&program) {
        // A staged program: its staging folder. An interpreter elsewhere (pyenv): its
        // installation, two levels up from `bin/python3`.
        let prefix = if program.starts_with(spec.dir.parent().unwrap_or(&spec.dir)) {
            program.parent()
        } else {
            program.parent().and_then(std::path::Path::parent)
        };
        read.extend(prefix.map(|p| p.to_string_lossy().into_owned()));
    }
    // Staged sources an interpreter reads are arguments beside the program.
    for arg in &spec.argv[1..] {
        let path = std::path::Path::new(arg);
        if path.is_absolute() && path.exists() && !inside(path) {
            read.push(arg.clone());
        }
    }
    let mut write: Vec<String> = sandbox::DEVICES.iter().map(|s| (*s).to_owned()).collect();
    write.push(spec.dir.to_string_lossy().into_owned());
    protocol::Confinement { read, write }
}

/// The address-space rlimit: only a backstop against a runaway allocation, far above the
/// memory limit, because address space is not memory (programs reserve big arrays and
/// touch a little; runtimes map large regions).
fn address_space_backstop(memory: u64) -> u64 {
    memory.saturating_mul(4).saturating_add(1 << 30)
}

/// One run being watched: its pipes, what was read, and which limit it was killed for.
struct Watch<'a> {
    socket: &'a UnixStream,
    /// The program's pid (and process group), once the launcher's `Started` was read.
    pid: Option<Pid>,
    limits: &'a Limits,
    start: Instant,
    out: Option<File>,
    err: Option<File>,
    ended: Option<Reply>,
    outcome: Outcome,
    buffer: Vec<u8>,
}

/// Reads stdout and stderr and waits for the end, killing the process group when a limit
/// passes.
///
/// The launcher's replies are read only when needed: `Started` (the pid) when a limit
/// must be enforced or sampled, and `Ended` once both pipes are closed. A trivial run thus
/// wakes this thread about twice, not four times, which matters when N workers share N
/// cores with the programs.
fn watch(socket: &UnixStream, out: OwnedFd, err: OwnedFd, limits: &Limits) -> io::Result<Outcome> {
    let mut watch = Watch {
        socket,
        pid: None,
        limits,
        start: Instant::now(),
        out: Some(File::from(out)),
        err: Some(File::from(err)),
        ended: None,
        outcome: Outcome::default(),
        buffer: vec![0u8; 64 * 1024],
    };
    let deadline = watch.start + limits.wall;
    let mut next_sample = watch.start + SAMPLE_EVERY;
    while watch.ended.is_none() || watch.out.is_some() || watch.err.is_some() {
        let now = Instant::now();
        let wait = if watch.ended.is_some() {
            // Everything of the run is dead: the pipes are about to close.
            Duration::from_millis(100)
        } else {
            if now >= deadline {
                watch.kill(Killed::Wall)?;
            }
            if now >= next_sample {
                next_sample = now + SAMPLE_EVERY;
                watch.sample()?;
            }
            deadline.min(next_sample).saturating_duration_since(now)
        };
        watch.wait_and_read(wait)?;
    }
    watch.finish()
}

impl Watch<'_> {
    /// Reads one reply of the launcher (blocking).
    fn receive(&mut self) -> io::Result<()> {
        let (reply, _) = receive::<Reply>(self.socket)?
            .ok_or_else(|| io::Error::other("the launcher stopped"))?;
        match reply {
            Reply::Started { pid } => self.pid = Some(Pid::from_raw(pid)),
            other => self.ended = Some(other),
        }
        Ok(())
    }

    /// The program's pid, reading `Started` if it was not yet; `None` when the run is
    /// already over (or never started).
    fn pid(&mut self) -> io::Result<Option<Pid>> {
        if self.pid.is_none() && self.ended.is_none() {
            self.receive()?;
        }
        Ok(self.pid.filter(|_| self.ended.is_none()))
    }

    fn kill(&mut self, why: Killed) -> io::Result<()> {
        if let Some(pid) = self.pid()? {
            self.outcome.killed.get_or_insert(why);
            let _ = killpg(pid, Signal::SIGKILL);
        }
        Ok(())
    }

    /// Kills the run early when its CPU time or resident memory, read from `/proc`, is
    /// already over the limit (the exact figures come from `wait4` at the end).
    fn sample(&mut self) -> io::Result<()> {
        let Some(usage) = self.pid()?.and_then(proc_usage) else {
            return Ok(());
        };
        if usage.cpu > self.limits.cpu + CPU_GRACE {
            self.kill(Killed::Cpu)
        } else if usage.resident > self.limits.memory {
            self.kill(Killed::Memory)
        } else {
            Ok(())
        }
    }

    /// Waits up to `wait` for the socket or a pipe, then handles what is ready.
    fn wait_and_read(&mut self, wait: Duration) -> io::Result<()> {
        let timeout = PollTimeout::try_from(wait.as_millis().max(1)).unwrap_or(PollTimeout::MAX);
        let mut fds = Vec::with_capacity(3);
        let mut which = Vec::with_capacity(3);
        // The launcher's replies matter once the pipes are closed (or for a kill, above).
        if self.ended.is_none() && self.out.is_none() && self.err.is_none() {
            fds.push(PollFd::new(self.socket.as_fd(), PollFlags::POLLIN));
            which.push(Source::Launcher);
        }
        if let Some(out) = &self.out {
            fds.push(PollFd::new(out.as_fd(), PollFlags::POLLIN));
            which.push(Source::Stdout);
        }
        if let Some(err) = &self.err {
            fds.push(PollFd::new(err.as_fd(), PollFlags::POLLIN));
            which.push(Source::Stderr);
        }
        match poll(&mut fds, timeout) {
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(e) => return Err(e.into()),
        }
        let ready: Vec<Source> = which
            .into_iter()
            .zip(&fds)
            .filter(|(_, fd)| fd.revents().is_some_and(|r| !r.is_empty()))
            .map(|(which, _)| which)
            .collect();
        drop(fds);
        for source in ready {
            match source {
                Source::Launcher => self.receive()?,
                Source::Stdout => self.read_stdout()?,
                Source::Stderr => self.read_stderr()?,
            }
        }
        Ok(())
    }

    fn read_stdout(&mut self) -> io::Result<()> {
        let Some(out) = &mut self.out else {
            return Ok(());
        };
        let n = read_some(out, &mut self.buffer)?;
        if n == 0 {
            self.out = None;
            return Ok(());
        }
        let room = usize::try_from(self.limits.output)
            .unwrap_or(usize::MAX)
            .saturating_sub(self.outcome.stdout.len());
        self.outcome
            .stdout
            .extend_from_slice(&self.buffer[..n.min(room)]);
        if n > room {
            self.kill(Killed::Output)?;
        }
        Ok(())
    }

    fn read_stderr(&mut self) -> io::Result<()> {
        let Some(err) = &mut self.err else {
            return Ok(());
        };
        let n = read_some(err, &mut self.buffer)?;
        if n == 0 {
            self.err = None;
            return Ok(());
        }
        let tail = &mut self.outcome.stderr_tail;
        tail.extend_from_slice(&self.buffer[..n]);
        let excess = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..excess);
        Ok(())
    }

    fn finish(mut self) -> io::Result<Outcome> {
        match self.ended {
            Some(Reply::Ended {
                code,
                signal,
                cpu_us,
                wall_us,
                peak_kib,
            }) => {
                self.outcome.code = code;
                self.outcome.signal = signal;
                self.outcome.cpu = Duration::from_micros(cpu_us);
                self.outcome.wall = Duration::from_micros(wall_us);
                self.outcome.peak_kib = peak_kib;
                Ok(self.outcome)
            }
            Some(Reply::Failed { message }) => Err(io::Error::other(message)),
            _ => Err(io::Error::other("launcher: no end of run")),
        }
    }
}

/// What `poll` watches.
#[derive(Debug, Clone, Copy)]
enum Source {
    Launcher,
    Stdout,
    Stderr,
}

fn read_some(file: &mut File, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => return other,
        }
    }
}

/// What `/proc` says of a live process.
struct ProcUsage {
    cpu: Duration,
    resident: u64,
}

/// CPU time (from `/proc/PID/stat`) and resident memory (from `/proc/PID/statm`) of the
/// program's main process; `None` once it is gone.
fn proc_usage(pid: Pid) -> Option<ProcUsage> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After `pid (comm)`, utime and stime are the 12th and 13th fields.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK).ok()??;
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    let page = nix::unistd::sysconf(nix::unistd::SysconfVar::PAGE_SIZE).ok()??;
    Some(ProcUsage {
        cpu: Duration::from_secs_f64((utime + stime) as f64 / ticks as f64),
        resident: pages * page.unsigned_abs(),
    })
}
