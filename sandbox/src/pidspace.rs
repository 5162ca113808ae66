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
    reason = "unshare, fork and prctl have no safe wrapper that fits"
)]

use std::io;

use crate::namespace::{check, exit_as, map_own_ids, mount, own_ids};

/// Enters the new namespaces. Returns in their init process; the process that called it
/// stays outside, waits for that init and exits as it does.
pub(crate) fn enter(owner: (u32, u32)) -> io::Result<()> {
    let outside = own_ids();
    let flags = libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNS;
    // SAFETY: unshare with namespace flags changes only this (single-threaded) process.
    check(unsafe { libc::unshare(flags) }.into(), "unshare")?;
    map_own_ids(outside, owner)?;
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
    // Nothing mounted here may reach the machine's mount table.
    mount("", "/", "", libc::MS_REC | libc::MS_PRIVATE, "")?;
    // The machine's `/proc` lists its processes by their pids there, which are not the
    // ones kill and wait use here: the launcher's scans of its run must see the
    // namespace's own.
    mount(
        "proc",
        "/proc",
        "proc",
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        "",
    )?;
    Ok(())
}
