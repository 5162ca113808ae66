//! A PID space of its own for a `basic` launcher whose programs run as the grader's own
//! uid: the grader is not root, or its container maps too few ids for a uid per worker.
//!
//! Sharing the grader's uid, a program could otherwise signal every process of it
//! (`kill(-1)` ends the grader, its test runner, the user's shell), trace them, or write
//! their memory through `/proc/PID/mem`. Here the launcher makes a user namespace that
//! maps the grader's own ids (to `owner`, never root: a program that was root of the
//! namespace would hold every capability in it), a PID namespace of which it becomes the
//! init, and a mount namespace holding that PID namespace's own `/proc`. A program then
//! reaches only the processes of its own run; unlike the box (`boxed.rs`) it still sees
//! the machine's files as the grader's uid may, which is what `basic` promises.
//!
//! Every unprivileged user may make these where the machine allows user namespaces; a
//! machine that refuses one of them (a container that masks parts of `/proc` refuses a
//! new `/proc`) gets `basic` without it, and `grader doctor` says so.
#![expect(
    unsafe_code,
    reason = "unshare, fork and mount have no safe wrapper that fits"
)]

use std::ffi::CString;
use std::fs;
use std::io;

/// `-1` from a system call as an `io::Error` naming what failed.
fn check(result: libc::c_long, what: &str) -> io::Result<()> {
    if result < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{what}: {e}")));
    }
    Ok(())
}

/// Enters the new namespaces. Returns in their init process; the process that called it
/// stays outside, waits for that init and exits as it does.
pub(crate) fn enter((inside_uid, inside_gid): (u32, u32)) -> io::Result<()> {
    let (uid, gid) = (
        nix::unistd::geteuid().as_raw(),
        nix::unistd::getegid().as_raw(),
    );
    let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNS;
    // SAFETY: unshare with namespace flags changes only this (single-threaded) process.
    check(unsafe { libc::unshare(flags) }.into(), "unshare")?;
    fs::write("/proc/self/setgroups", "deny")?;
    fs::write("/proc/self/uid_map", format!("{inside_uid} {uid} 1"))?;
    fs::write("/proc/self/gid_map", format!("{inside_gid} {gid} 1"))?;
    // SAFETY: the launcher is single-threaded, so fork is sound; the child returns into
    // ordinary code.
    let pid = unsafe { libc::fork() };
    check(pid.into(), "fork the init of the PID namespace")?;
    if pid > 0 {
        // SAFETY: closing our copy of the grader's socket: the grader sees the end of
        // the launcher when init ends (see `boxed::outside`, which does the same).
        unsafe { libc::close(0) };
        exit_as(pid);
    }
    // The init: it dies with the process outside, and the namespace with it.
    // SAFETY: plain prctl calls.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // Programs share our uid: a process that is not dumpable keeps its `/proc` files
        // (environment, descriptors, memory) from them.
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    let root = CString::new("/").expect("no NUL");
    let (proc, proc_type) = (
        CString::new("/proc").expect("no NUL"),
        CString::new("proc").expect("no NUL"),
    );
    // SAFETY: valid NUL-terminated strings (or NULL) that outlive the calls.
    unsafe {
        // Nothing mounted here may reach the machine's mount table.
        check(
            libc::mount(
                std::ptr::null(),
                root.as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            )
            .into(),
            "make the mounts private",
        )?;
        // The machine's `/proc` lists its processes by their pids there, which are not
        // the ones kill and wait use here: the launcher's scans of its run must see the
        // namespace's own.
        check(
            libc::mount(
                proc_type.as_ptr(),
                proc.as_ptr(),
                proc_type.as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            )
            .into(),
            "mount the namespace's own /proc",
        )?;
    }
    Ok(())
}

/// Waits for `pid`, our only child, and exits as it did, without running the launcher's
/// exit handlers.
pub(crate) fn exit_as(pid: libc::pid_t) -> ! {
    // SAFETY: waiting for our only child, then `_exit`.
    unsafe {
        let mut status = 0;
        while libc::waitpid(pid, &raw mut status, 0) < 0
            && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
        {}
        libc::_exit(if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            1
        })
    }
}
