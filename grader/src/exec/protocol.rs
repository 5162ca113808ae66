//! The messages between the grader and its launcher, over a Unix socket pair: a request
//! (JSON, with the child's three standard file descriptors attached as `SCM_RIGHTS`), then
//! two replies (the pid as soon as the program started, then how it ended).

use std::io::{self, IoSlice, IoSliceMut};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use serde::{Deserialize, Serialize};

/// The largest message either side sends: requests hold a few paths and arguments.
const MAX_MESSAGE: usize = 1 << 20;

/// What to run and under which limits.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Request {
    /// The program (a path).
    pub(crate) program: String,
    /// Its arguments, `argv[0]` first.
    pub(crate) argv: Vec<String>,
    /// The whole environment.
    pub(crate) env: Vec<String>,
    /// The working directory.
    pub(crate) dir: String,
    /// Run as this uid and gid (when the launcher is root).
    pub(crate) user: Option<(u32, u32)>,
    /// `RLIMIT_CPU` soft limit in seconds (the hard limit is one more).
    pub(crate) cpu_secs: u64,
    /// `RLIMIT_AS`, bytes: a generous backstop, never the memory verdict.
    pub(crate) address_space: u64,
    /// `RLIMIT_STACK`, bytes.
    pub(crate) stack: u64,
    /// `RLIMIT_FSIZE`, bytes: the largest file the program may write.
    pub(crate) file_size: u64,
    /// `RLIMIT_NOFILE`.
    pub(crate) open_files: u64,
    /// `RLIMIT_NPROC` (per user: it counts every process of the user the program runs as).
    pub(crate) processes: Option<u64>,
    /// Whether the rlimits above apply (`basic` and `strict`); without them only the CPU
    /// limit's backstop does (`none`).
    pub(crate) limited: bool,
    /// The `strict` tier's confinement, when asked for.
    pub(crate) confine: Option<Confinement>,
}

/// What a confined program may touch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Confinement {
    /// Paths it may read and execute (with everything below them).
    pub(crate) read: Vec<String>,
    /// Paths it may also write.
    pub(crate) write: Vec<String>,
}

/// The launcher's replies.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// The program was forked with this pid, which is also its process group.
    Started {
        /// The pid.
        pid: i32,
    },
    /// The program could not be started (exec failed): a fault of the setup, not a
    /// verdict.
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
        /// User + system CPU time, microseconds (`wait4`).
        cpu_us: u64,
        /// Wall time from fork to reaping, microseconds.
        wall_us: u64,
        /// Peak resident memory, KiB (`wait4`'s `ru_maxrss`).
        peak_kib: u64,
    },
}

/// Sends one JSON message, with `fds` attached when not empty.
pub(crate) fn send<T: Serialize>(
    socket: &UnixStream,
    message: &T,
    fds: &[RawFd],
) -> io::Result<()> {
    let body = serde_json::to_vec(message).map_err(io::Error::other)?;
    let mut framed = (body.len() as u32).to_le_bytes().to_vec();
    framed.extend_from_slice(&body);
    let cmsgs = [ControlMessage::ScmRights(fds)];
    let cmsgs: &[ControlMessage] = if fds.is_empty() { &[] } else { &cmsgs };
    let mut sent = 0;
    while sent < framed.len() {
        let iov = [IoSlice::new(&framed[sent..])];
        let attach = if sent == 0 { cmsgs } else { &[] };
        sent += sendmsg::<()>(socket.as_raw_fd(), &iov, attach, MsgFlags::empty(), None)
            .map_err(io::Error::from)?;
    }
    Ok(())
}

/// Receives one JSON message and any file descriptors sent with it. `Ok(None)` when the
/// other side closed the socket. Reads exactly one message (its length, then its body) so
/// that a reply that follows at once stays in the socket for the next call.
pub(crate) fn receive<T: for<'de> Deserialize<'de>>(
    socket: &UnixStream,
) -> io::Result<Option<(T, Vec<OwnedFd>)>> {
    let mut fds = Vec::new();
    let mut header = [0u8; 4];
    if !read_exact(socket, &mut header, &mut fds)? {
        return Ok(None);
    }
    let len = u32::from_le_bytes(header) as usize;
    if len > MAX_MESSAGE {
        return Err(io::Error::other("launcher message too large"));
    }
    let mut body = vec![0u8; len];
    if !read_exact(socket, &mut body, &mut fds)? {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    let message = serde_json::from_slice(&body).map_err(io::Error::other)?;
    Ok(Some((message, fds)))
}

/// Fills `buffer`, collecting descriptors on the way. `Ok(false)` on a clean end of stream
/// before the first byte.
fn read_exact(socket: &UnixStream, buffer: &mut [u8], fds: &mut Vec<OwnedFd>) -> io::Result<bool> {
    let mut filled = 0;
    while filled < buffer.len() {
        let mut space = nix::cmsg_space!([RawFd; 4]);
        let mut iov = [IoSliceMut::new(&mut buffer[filled..])];
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
        let received = msg.bytes;
        for cmsg in msg.cmsgs().map_err(io::Error::from)? {
            if let ControlMessageOwned::ScmRights(raw) = cmsg {
                for fd in raw {
                    // SAFETY: the kernel just installed `fd` in this process for us; nothing
                    // else owns it.
                    #[expect(unsafe_code, reason = "taking ownership of received descriptors")]
                    fds.push(unsafe { OwnedFd::from_raw_fd(fd) });
                }
            }
        }
        if received == 0 {
            return if filled == 0 {
                Ok(false)
            } else {
                Err(io::Error::from(io::ErrorKind::UnexpectedEof))
            };
        }
        filled += received;
    }
    Ok(true)
}
