//! The launcher: a small process, started once per worker, that forks and executes each
//! program on request and reports how it ended.
//!
//! Why a separate process: a child's peak-memory figure (`ru_maxrss`) starts from the
//! memory high-water mark of the process it was forked or vfork-spawned from (measured
//! here: `/bin/true` spawned by posix_spawn, vfork or fork from a 400 MiB process reports
//! 400 MiB), and forking from a big process is slow. The launcher stays a few MiB, so a
//! trivial program reports a trivial figure however large the grader grows, and a fork
//! costs little. It is also the programs' subreaper, so a process that escapes its
//! process group (`setsid`) after its parent died is still found and killed.
//!
//! The child side runs between `fork` and `execve`: it only makes system calls on data
//! prepared before the fork.
#![expect(
    unsafe_code,
    reason = "fork, exec, rlimits and wait4 have no safe wrapper that fits"
)]

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::time::Instant;

use super::protocol::{Reply, Request, receive, send};

/// The hidden first argument that turns the `grader` binary into a launcher.
pub(crate) const ARG: &str = "__launcher";

/// Serves requests on standard input (a Unix socket) until the grader closes it.
pub(crate) fn serve() -> ! {
    // SAFETY: fd 0 is the socket the grader passed as our standard input; we take sole
    // ownership of it for the life of the process.
    let socket = unsafe { UnixStream::from_raw_fd(0) };
    // SAFETY: plain prctl calls with integer arguments.
    unsafe {
        // Orphans of a run become our children, so none can outlive it unseen.
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        // If the grader dies, so do we (and our children, by their own death signal).
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
    loop {
        let Ok(Some((request, fds))) = receive::<Request>(&socket) else {
            std::process::exit(0)
        };
        let reply = match run(&socket, &request, fds) {
            Ok(reply) => reply,
            Err(e) => Reply::Failed {
                message: e.to_string(),
            },
        };
        if send(&socket, &reply, &[]).is_err() {
            std::process::exit(0);
        }
    }
}

/// Everything the child needs, allocated before the fork.
struct Prepared {
    program: CString,
    argv: Vec<CString>,
    env: Vec<CString>,
    dir: CString,
    limits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
    user: Option<(u32, u32)>,
}

fn c_string(s: &str) -> io::Result<CString> {
    CString::new(s).map_err(|_| io::Error::other(format!("a NUL byte in `{s}`")))
}

fn prepare(request: &Request) -> io::Result<Prepared> {
    let limit = |soft: u64, hard: u64| libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    Ok(Prepared {
        program: c_string(&request.program)?,
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
        limits: vec![
            // Soft below hard: the kernel sends SIGXCPU first, a cause we can name.
            (
                libc::RLIMIT_CPU,
                limit(request.cpu_secs, request.cpu_secs + 1),
            ),
            (
                libc::RLIMIT_AS,
                limit(request.address_space, request.address_space),
            ),
            (libc::RLIMIT_STACK, limit(request.stack, request.stack)),
            (
                libc::RLIMIT_FSIZE,
                limit(request.file_size, request.file_size),
            ),
            (
                libc::RLIMIT_NOFILE,
                limit(request.open_files, request.open_files),
            ),
            (libc::RLIMIT_CORE, limit(0, 0)),
        ],
        user: request.user,
    })
}

/// Forks and runs one program; replies `Started` on the way, returns `Ended`.
fn run(socket: &UnixStream, request: &Request, fds: Vec<OwnedFd>) -> io::Result<Reply> {
    if fds.len() != 3 {
        return Err(io::Error::other("expected three descriptors"));
    }
    let prepared = prepare(request)?;
    let mut argv: Vec<*const libc::c_char> = prepared.argv.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut envp: Vec<*const libc::c_char> = prepared.env.iter().map(|a| a.as_ptr()).collect();
    envp.push(std::ptr::null());
    let mut errors = [0 as RawFd; 2];
    // SAFETY: `errors` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(errors.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both are fresh descriptors we own.
    let (error_read, error_write) = unsafe {
        (
            OwnedFd::from_raw_fd(errors[0]),
            OwnedFd::from_raw_fd(errors[1]),
        )
    };
    let start = Instant::now();
    // SAFETY: the launcher is single-threaded, so the child may run any code; it only
    // makes system calls on `prepared` and then execs or exits.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let raw: [RawFd; 3] = [fds[0].as_raw_fd(), fds[1].as_raw_fd(), fds[2].as_raw_fd()];
        child(&prepared, &argv, &envp, raw, error_write.as_raw_fd());
    }
    drop(fds);
    drop(error_write);
    // The error pipe closes on a successful exec (close-on-exec) or carries errno.
    let mut errno = [0u8; 4];
    // SAFETY: reading into a 4-byte buffer from a descriptor we own.
    let got = unsafe { libc::read(error_read.as_raw_fd(), errno.as_mut_ptr().cast(), 4) };
    if got == 4 {
        let mut status = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, &raw mut status, 0) };
        let error = io::Error::from_raw_os_error(i32::from_ne_bytes(errno));
        return Ok(Reply::Failed {
            message: format!("cannot run {}: {error}", request.program),
        });
    }
    send(socket, &Reply::Started { pid }, &[])?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waiting for our own child with valid out-pointers.
        let r = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
        if r == pid {
            break;
        }
        if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return Err(io::Error::last_os_error());
        }
    }
    let wall = start.elapsed();
    // SAFETY: signalling the process group the child created; it may already be empty.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    reap_the_rest();
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Ok(Reply::Ended {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        cpu_us: micros(usage.ru_utime) + micros(usage.ru_stime),
        wall_us: wall.as_micros() as u64,
        peak_kib: usage.ru_maxrss as u64,
    })
}

/// Kills and reaps every remaining child: the rest of the run's process group was killed
/// already; orphans that left it (by `setsid`) were reparented to us, the subreaper.
fn reap_the_rest() {
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
        for pid in children() {
            // SAFETY: signalling a child of ours.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The pids whose parent is this process, from `/proc`.
fn children() -> Vec<i32> {
    let me = std::process::id().cast_signed();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                    == Some(me)
            })
        })
        .collect()
}

/// The child between fork and exec. Never returns.
fn child(
    p: &Prepared,
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    fds: [RawFd; 3],
    error: RawFd,
) -> ! {
    // SAFETY: system calls on descriptors and C strings prepared before the fork; every
    // failure reports errno through the error pipe and exits.
    unsafe {
        let fail = |error: RawFd| -> ! {
            let errno = *libc::__errno_location();
            libc::write(error, errno.to_ne_bytes().as_ptr().cast(), 4);
            libc::_exit(127)
        };
        // Its own process group: the whole tree can be killed at once.
        if libc::setpgid(0, 0) != 0 {
            fail(error);
        }
        for (target, &fd) in (0..).zip(fds.iter()) {
            if libc::dup2(fd, target) < 0 {
                fail(error);
            }
        }
        // Keep the error pipe at 3, close-on-exec; close everything else.
        if libc::dup2(error, 3) < 0 || libc::fcntl(3, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
            fail(error);
        }
        let error = 3;
        libc::close_range(4, u32::MAX, 0);
        if libc::chdir(p.dir.as_ptr()) != 0 {
            fail(error);
        }
        for (resource, limit) in &p.limits {
            if libc::setrlimit(*resource, limit) != 0 {
                fail(error);
            }
        }
        // Rust ignores SIGPIPE and an ignored signal stays ignored across exec: give the
        // program the default dispositions and an empty signal mask.
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const none, std::ptr::null_mut());
        if let Some((uid, gid)) = p.user
            && (libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(gid) != 0
                || libc::setuid(uid) != 0)
        {
            fail(error);
        }
        // Dies with the launcher (set after setuid, which clears it).
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        libc::execve(p.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(error)
    }
}
