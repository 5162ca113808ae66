//! The messages between the grader and its launcher, over a Unix socket pair of
//! `SOCK_SEQPACKET` (one `sendmsg` and one `recvmsg` a message):
//! a set-up (answered `Ready`), then per run a request (JSON, with the child's three
//! standard file descriptors attached as `SCM_RIGHTS`) answered by one reply (how it
//! ended, or why it could not start); `Kill` may come before the reply, and so may the
//! request of the run to start the moment this one ends (`Then`), on a second socket of
//! its own that the launcher reads only as a run ends (or between runs).

use std::io::{self, IoSlice, IoSliceMut};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use serde::{Deserialize, Serialize};

use crate::cgroup::meter::{Boundary, MeterSpec};

/// The largest message either side sends: requests hold a few paths and arguments. (A
/// datagram of the pair must fit the socket's send buffer, 208 KiB by default.)
const MAX_MESSAGE: usize = 64 << 10;
/// The most descriptors one message carries: three standard ones, up to three new cgroup
/// files, the staged files and a group's four meter files.
pub(crate) const MAX_FDS: usize = 20;

/// The first message: how the launcher sets itself up before serving runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Setup {
    /// `strict`: the box to build and become the init process of.
    pub(crate) boxed: Option<BoxSetup>,
    /// `basic`, where programs run as the grader's own uid: the ids the grader's are
    /// mapped to in the PID space of its own the launcher makes and becomes init of
    /// (`pidspace.rs`), so that programs reach no process outside their run.
    pub(crate) own_pids: Option<(u32, u32)>,
    /// `cgroup.procs` files every program writes `0` to before `execve`, joining the
    /// worker's cgroup (opened by the launcher at set-up, before the box hides them).
    pub(crate) cgroup_procs: Vec<String>,
    /// Files the launcher writes `0` to itself, once, while it has one thread (v1's
    /// `tasks`): its children are born in those groups.
    pub(crate) cgroup_resident: Vec<String>,
    /// Whether programs get the seccomp filters (`strict`): the launcher takes them on itself
    /// once set up, and every program inherits them.
    pub(crate) seccomp: bool,
}

/// What the box is made of.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct BoxSetup {
    /// An empty folder of the machine: the mount point of the box's root.
    pub(crate) root: String,
    /// Paths of the machine shown read-only at the same place in the box (system folders,
    /// a toolchain); symbolic links among them are copied as links.
    pub(crate) read_only: Vec<String>,
    /// A folder of the machine shown read-only at `/headers` (precompiled headers).
    pub(crate) headers: Option<String>,
    /// Bytes of the box's writable folder (`/box`, also `/tmp`), a memory file system.
    pub(crate) work_size: u64,
    /// Who owns `/box`: the uid and gid programs run as, seen from inside the box.
    pub(crate) owner: (u32, u32),
    /// Whether to make a user namespace first (the grader is not root, or is root of a
    /// namespace that maps too few ids for a uid per worker), mapping the grader's own uid
    /// and gid to `owner`.
    pub(crate) user_namespace: bool,
}

/// The grader's messages after [`Setup`]. `Run` and `Then` are numbered in the order sent,
/// from 1: a `Kill` names the run it is for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Message {
    /// Start a program now: no run is under way (the three standard descriptors attached,
    /// then one per new cgroup file, then one per staged file).
    Run(Box<Request>),
    /// Start this program the moment the run under way ends (attached as for `Run`, then
    /// the group's four meter files when a [`MeterSpec`] comes: they replace those an
    /// earlier `Then` brought), unless that run was killed, or its group must be made anew
    /// first: then it is dropped, and the grader asks again. The launcher reads the group
    /// between the two itself, through the last meter files it was given (none: the runs
    /// have no group).
    Then(Box<Request>, Option<MeterSpec>),
    /// End run number `run` now: every process of it. Ignored when that run is over (it
    /// raced with its end).
    Kill {
        /// The run's number.
        run: u64,
    },
}

/// What became of a `Then` when the run before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Next {
    /// None had come: one that comes now is answered [`Reply::Started`] or
    /// [`Reply::Dropped`].
    Unasked,
    /// It started, with what was read of the group between the two (when it came with a
    /// meter).
    Started(Option<Boundary>),
    /// It was dropped: the run was killed, its group must be made anew first, or it
    /// could not be set up.
    Dropped,
}

/// A staged file given to a boxed launcher: copied read-only into the box's `/prog`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Staged {
    /// Its name in `/prog`.
    pub(crate) name: String,
    /// Whether it is executable.
    pub(crate) executable: bool,
}

/// What to run and under which limits.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Request {
    /// The command line, `argv[0]` first: the program's path, as the launcher sees it.
    pub(crate) argv: Vec<String>,
    /// The whole environment.
    pub(crate) env: Vec<String>,
    /// The working directory.
    pub(crate) dir: String,
    /// Run as this uid and gid (when the launcher may change user).
    pub(crate) user: Option<(u32, u32)>,
    /// `RLIMIT_CPU` soft limit in seconds (the hard limit is one more): a backstop per
    /// process; the CPU limit itself is enforced from outside on the whole run.
    pub(crate) cpu_secs: u64,
    /// `RLIMIT_AS`, bytes: a generous backstop, never the memory verdict.
    pub(crate) address_space: u64,
    /// The run's memory limit, bytes: what an inherited address-space limit must leave
    /// room for (see `rlimits.rs`).
    pub(crate) memory: u64,
    /// `RLIMIT_STACK`, bytes.
    pub(crate) stack: u64,
    /// `RLIMIT_FSIZE`, bytes: the largest file the program may write.
    pub(crate) file_size: u64,
    /// `RLIMIT_NOFILE`.
    pub(crate) open_files: u64,
    /// `RLIMIT_NPROC`, when no cgroup caps the processes (it counts every process of the
    /// user the program runs as).
    pub(crate) processes: Option<u64>,
    /// Whether the rlimits above apply (`basic` and `strict`); without them only the CPU
    /// limit's backstop does (`none`).
    pub(crate) limited: bool,
    /// How many descriptors, after the standard three, are new `cgroup.procs` files to
    /// join from now on (the grader made the worker's cgroup anew).
    pub(crate) cgroups: usize,
    /// Boxed launchers: the program's files, when they differ from the last run's (one
    /// descriptor each, attached after the cgroup files).
    pub(crate) stage: Option<Vec<Staged>>,
    /// Files the run leaves (a compiler's output, a validator's feedback), as the
    /// launcher sees them: the descriptor of each that is a regular file comes with
    /// `Ended`, taken before the work folder is renewed. A symbolic link or a FIFO in
    /// its place is not followed.
    pub(crate) keep: Vec<String>,
}

/// The launcher's replies.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// Set-up is done; runs may be asked for.
    Ready,
    /// The program could not be started, or the launcher could not set up: a fault of
    /// the setup, not a verdict.
    Failed {
        /// Why.
        message: String,
    },
    /// The program ended and every process of its run is gone.
    Ended {
        /// Exit status, when it exited.
        code: Option<i32>,
        /// Terminating signal, when it was killed.
        signal: Option<i32>,
        /// User + system CPU time of every process of the run, microseconds (`getrusage`
        /// of the reaped children: the launcher reaps them all).
        cpu_us: u64,
        /// Wall time from start to reaping, microseconds.
        wall_us: u64,
        /// Peak resident memory of the main process, KiB (`wait4`'s `ru_maxrss`).
        peak_kib: u64,
        /// Time the run's processes had spent runnable but waiting for a CPU when the
        /// grader asked to kill the run, microseconds (0 when it was not killed): tells a
        /// busy machine from a program that slept.
        waited_us: u64,
        /// Threads of the run's processes alive when the grader asked to kill it.
        tasks: u32,
        /// Of those, the threads that were runnable (running, or ready and waiting for a
        /// CPU) then; `None` when it was not killed so. Zero says no wait for a CPU was
        /// under way, so `waited_us` is whole (the kernel counts a wait as it ends).
        runnable: Option<u32>,
        /// CPUs the run could use (its affinity).
        cpus: u32,
        /// Which of the files the request asked to keep are attached (one flag each, in
        /// the request's order; the descriptors come in that order).
        kept: Vec<bool>,
        /// What became of the run asked to start at once after it.
        next: Next,
    },
    /// A `Then` that came when no run was under way (after the run before it ended):
    /// started, with what was read of the group before it (as [`Next::Started`]); its own
    /// reply follows when it ends.
    Started(Option<Boundary>),
    /// A `Then` that came when no run was under way: not started (the run before it was
    /// killed, or its group must be made anew first).
    Dropped,
}

/// Sends one JSON message, with `fds` attached when not empty.
pub(crate) fn send<T: Serialize>(
    socket: &UnixStream,
    message: &T,
    fds: &[RawFd],
) -> io::Result<()> {
    let body = serde_json::to_vec(message).map_err(io::Error::other)?;
    if body.len() > MAX_MESSAGE {
        return Err(io::Error::other("launcher message too large"));
    }
    let cmsgs = [ControlMessage::ScmRights(fds)];
    let cmsgs: &[ControlMessage] = if fds.is_empty() { &[] } else { &cmsgs };
    let iov = [IoSlice::new(&body)];
    loop {
        match sendmsg::<()>(socket.as_raw_fd(), &iov, cmsgs, MsgFlags::empty(), None) {
            Ok(_) => return Ok(()),
            Err(nix::errno::Errno::EINTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

thread_local! {
    /// What messages are received into, kept from message to message.
    static RECEIVED: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; MAX_MESSAGE + 1]);
}

/// Receives one JSON message and any file descriptors sent with it. `Ok(None)` when the
/// other side closed the socket.
pub(crate) fn receive<T: for<'de> Deserialize<'de>>(
    socket: &UnixStream,
) -> io::Result<Option<(T, Vec<OwnedFd>)>> {
    RECEIVED.with_borrow_mut(|buffer| {
        let mut fds = Vec::new();
        let (received, cut) = loop {
            let mut space = nix::cmsg_space!([RawFd; MAX_FDS]);
            let mut iov = [IoSliceMut::new(buffer)];
            let msg = match recvmsg::<()>(
                socket.as_raw_fd(),
                &mut iov,
                Some(&mut space),
                MsgFlags::MSG_CMSG_CLOEXEC,
            ) {
                Ok(msg) => msg,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(e) => return Err(e.into()),
            };
            for cmsg in msg.cmsgs().map_err(io::Error::from)? {
                if let ControlMessageOwned::ScmRights(raw) = cmsg {
                    for fd in raw {
                        // SAFETY: the kernel just installed `fd` in this process for us;
                        // nothing else owns it.
                        #[expect(unsafe_code, reason = "taking ownership of received descriptors")]
                        fds.push(unsafe { OwnedFd::from_raw_fd(fd) });
                    }
                }
            }
            let cut = msg
                .flags
                .intersects(MsgFlags::MSG_TRUNC | MsgFlags::MSG_CTRUNC);
            break (msg.bytes, cut);
        };
        if received == 0 {
            // Every message holds a JSON value: empty is the end of the other side.
            return Ok(None);
        }
        if cut || received > MAX_MESSAGE {
            return Err(io::Error::other("launcher message too large"));
        }
        let message = serde_json::from_slice(&buffer[..received]).map_err(io::Error::other)?;
        Ok(Some((message, fds)))
    })
}
#[cfg(test)]
mod size_probe {
    #[test]
    fn p() {
        println!("REPLY {}", std::mem::size_of::<super::Reply>());
    }
}
