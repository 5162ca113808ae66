//! What entering namespaces of its own takes, for the box (`boxed.rs`) and for `basic`'s
//! PID space (`pidspace.rs`) alike: mapping this process's own ids in a new user
//! namespace, mounting, and the process left outside waiting for the namespace's init and
//! exiting as it does; with the system calls' errors naming what failed.
#![expect(
    unsafe_code,
    reason = "mount, waitpid and _exit have no safe wrapper in our dependencies"
)]

use std::ffi::CString;
use std::fs;
use std::io;

/// `path` as a C string (a NUL byte in it is an error naming it).
pub(crate) fn c_path(path: &str) -> io::Result<CString> {
    CString::new(path).map_err(|_| io::Error::other(format!("a NUL byte in `{path}`")))
}

/// `-1` from a system call as an `io::Error` naming what failed.
pub(crate) fn check(result: libc::c_long, what: &str) -> io::Result<()> {
    if result < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{what}: {e}")));
    }
    Ok(())
}

/// `mount(2)`; an empty `source`, `fstype` or `data` is NULL.
pub(crate) fn mount(
    source: &str,
    target: &str,
    fstype: &str,
    flags: libc::c_ulong,
    data: &str,
) -> io::Result<()> {
    let c_source = c_path(source)?;
    let c_target = c_path(target)?;
    let c_fstype = c_path(fstype)?;
    let c_data = c_path(data)?;
    let or_null = |empty: bool, p: *const libc::c_char| if empty { std::ptr::null() } else { p };
    // SAFETY: valid NUL-terminated strings (or NULL) that outlive the call.
    let result = unsafe {
        libc::mount(
            or_null(source.is_empty(), c_source.as_ptr()),
            c_target.as_ptr(),
            or_null(fstype.is_empty(), c_fstype.as_ptr()),
            flags,
            or_null(data.is_empty(), c_data.as_ptr()).cast(),
        )
    };
    check(result.into(), &format!("mount {source} on {target}"))
}

/// This process's effective uid and gid: read before `unshare(CLONE_NEWUSER)`, after which
/// they read as the overflow ids until [`map_own_ids`] maps them.
pub(crate) fn own_ids() -> (u32, u32) {
    (
        nix::unistd::geteuid().as_raw(),
        nix::unistd::getegid().as_raw(),
    )
}

/// In a user namespace just made: maps this process's own ids, `outside` ([`own_ids`],
/// read before the namespace was made), to `inside` (the only mapping an unprivileged user
/// may write: its own ids, to any). Programs keep that uid, which is never 0 in the
/// namespace, so they hold no capability.
pub(crate) fn map_own_ids(
    (uid, gid): (u32, u32),
    (inside_uid, inside_gid): (u32, u32),
) -> io::Result<()> {
    fs::write("/proc/self/setgroups", "deny")?;
    fs::write("/proc/self/uid_map", format!("{inside_uid} {uid} 1"))?;
    fs::write("/proc/self/gid_map", format!("{inside_gid} {gid} 1"))
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
