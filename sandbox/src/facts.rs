//! The plain data of one run: its limits, what it reads, and the facts it ends with. No
//! processes here; `judge` turns the facts into a verdict.

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::tiers::tier::Tier;

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system) of every process and thread of the run.
    pub cpu: Duration,
    /// Wall time: catches programs that sleep or wait.
    pub wall: Duration,
    /// Peak memory of the whole run, bytes.
    pub memory: u64,
    /// Bytes of standard output.
    pub output: u64,
    /// Processes (and threads) alive at once in the run.
    pub processes: u64,
    /// The isolation tier.
    pub sandbox: Tier,
}

/// Standard input of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file (a case's `.in`), opened read-only.
    File(PathBuf),
    /// Bytes (a fuzz input), given in a memory file: rewriting a file on disk for every
    /// run costs a truncation, which on these machines' ext4 (mounted with `discard`)
    /// waits for the disk, a third of a trivial run.
    Bytes(Vec<u8>),
    /// Nothing (`/dev/null`): compilers.
    Empty,
    /// Joined to another run by pipes (an interactive problem's submission and its
    /// interactor): standard input is read from one descriptor, and standard output goes
    /// to the other, not to the grader (the outcome's `stdout` stays empty, and the output
    /// limit does not apply: the other run reads it).
    Joined(Joined),
}

/// The two descriptors of a run joined to another (see [`Input::Joined`]): each run gets
/// its own copies, so the caller may close its own whenever its rules say.
#[derive(Debug, Clone)]
pub struct Joined(Arc<(OwnedFd, OwnedFd)>);

impl Joined {
    /// A run reading `stdin` and writing its standard output to `stdout`.
    pub fn new(stdin: OwnedFd, stdout: OwnedFd) -> Joined {
        Joined(Arc::new((stdin, stdout)))
    }

    /// A copy of the descriptor to read.
    pub(crate) fn stdin(&self) -> io::Result<File> {
        Ok(File::from(self.0.0.try_clone()?))
    }

    /// A copy of the descriptor to write the output to.
    pub(crate) fn stdout(&self) -> io::Result<File> {
        Ok(File::from(self.0.1.try_clone()?))
    }
}

/// Two joins are the same when they are one: descriptors have no other equality.
impl PartialEq for Joined {
    fn eq(&self, other: &Joined) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Joined {}

impl Input {
    /// Opens it for one run outside a box (a box's runs read their input from a memory
    /// file their worker keeps, `streams.rs`).
    pub fn open(&self) -> io::Result<File> {
        match self {
            Input::File(path) => File::open(path),
            Input::Bytes(bytes) => filled(bytes),
            Input::Empty => File::open("/dev/null"),
            Input::Joined(joined) => joined.stdin(),
        }
    }
}

/// A new memory file holding `bytes`, read from its start (`/memfd:stdin` to the run).
pub fn filled(bytes: &[u8]) -> io::Result<File> {
    let fd = nix::sys::memfd::memfd_create(c"stdin", nix::sys::memfd::MFdFlags::MFD_CLOEXEC)?;
    let file = File::from(fd);
    // At an offset: the file's own position stays at its start, where the run reads.
    std::os::unix::fs::FileExt::write_all_at(&file, bytes, 0)?;
    Ok(file)
}

/// Which limit the grader enforced by killing the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Killed {
    /// CPU time passed the limit (seen while it ran, before the rlimit's signal).
    Cpu,
    /// The wall limit passed.
    Wall,
    /// Standard output (or, for a compiler, its messages) passed the output limit.
    Output,
    /// Memory passed the limit (seen while it ran, or the kernel's OOM killer acted).
    Memory,
}

/// The facts of one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status, when the program exited.
    pub code: Option<i32>,
    /// Terminating signal, when it was killed.
    pub signal: Option<i32>,
    /// CPU time of every process and thread of the run.
    pub cpu: Duration,
    /// Wall time from start to end.
    pub wall: Duration,
    /// Peak memory, KiB: the run's cgroup peak where there is one, and never less than
    /// the main process's peak resident memory.
    pub peak_kib: u64,
    /// Standard output, at most the output limit.
    pub stdout: Vec<u8>,
    /// Standard error: its last bytes (programs), or its first (compilers).
    pub stderr: Vec<u8>,
    /// The limit the grader enforced, if any.
    pub killed: Option<Killed>,
    /// How long the run had waited, runnable, for a CPU when the grader killed it (zero
    /// when it was not killed): what tells a busy machine from a program that slept.
    pub waited: Duration,
    /// Threads of the run alive when the grader killed it (zero when it was not killed).
    pub tasks: u32,
    /// Of those, the threads that were runnable (running, or ready and waiting for a CPU)
    /// at the kill; `None` when it was not killed or they were not read. `Some(0)`: no
    /// wait for a CPU was under way, so `waited` is whole (the kernel counts a wait only
    /// as it ends), and the run alone shows whether its time was its own.
    pub runnable: Option<u32>,
    /// CPUs the run could use.
    pub cpus: u32,
}
