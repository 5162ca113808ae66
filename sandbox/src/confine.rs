//! The `strict` tier's system-call filters, compiled and taken on by the box's init process
//! once its box is built, so that every program of the box inherits them (taking them on per
//! run cost 0.7 ms a run here: the kernel prepares a filter for every call number at each
//! install). What init does after set-up passes them: it mounts nothing itself (the box's
//! work folder is renewed by the launcher outside, `boxed.rs`).
//!
//! Two filters, stacked (the kernel applies the stricter answer of the two):
//!
//! 1. **An allow-list** ([`ALLOWED`]): the calls a contestant's program, a compiler or a
//!    language runtime makes. Every other call fails with `ENOSYS`, as on a kernel that
//!    lacks it, so that runtimes fall back (glibc's `clone3` falls back to `clone`), and a
//!    call added to a later kernel stays out until someone lists it here and in
//!    `docs/cli.md` (a test holds the two lists equal). Out of it: the mount calls (the
//!    whole new mount API too), `setns`, `clone3`, io_uring and Linux AIO (operations
//!    performed around this filter), BPF, perf events, userfaultfd, ptrace and
//!    cross-process memory calls, the key rings (shared by every process of a uid: a place
//!    to leave data for a later run), System V IPC and POSIX message queues (their objects
//!    outlive a run in the box's IPC namespace), `sync`, `cachestat`, and every
//!    administrator's call.
//! 2. **Argument checks** ([`refusals`]): calls on the list that are refused, with
//!    `EACCES`, for some arguments: `socket` and `socketpair` for every family but
//!    `AF_UNIX` (pipes between a program's own processes; the box's network namespace is
//!    empty anyway, and `AF_VSOCK` reaches the hypervisor, which no namespace covers);
//!    `clone` with any `CLONE_NEW*` flag and `unshare` with anything but
//!    `CLONE_NEWCGROUP` (every kernel path that needs only an unprivileged user namespace
//!    starts there; the cgroup namespace is how each run is made, and a program, which
//!    holds no capability, gets `EPERM` for it); and the page cache's two timing-free
//!    channels between runs, `posix_fadvise(POSIX_FADV_DONTNEED)` and
//!    `madvise(MADV_PAGEOUT | MADV_COLD)`, which evict a shared file's pages, and
//!    `preadv2`/`pwritev2` with `RWF_NOWAIT`, which tells whether they are cached.
//!
//! Both filters check the architecture first, so a 32-bit `int 0x80` system call (a second
//! door with other numbers) fails.

use std::collections::BTreeMap;
use std::io;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// A system call, by the name of its `libc::SYS_*` constant and its number.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call {
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "read by the test that holds the docs to this list"
        )
    )]
    constant: &'static str,
    number: i64,
}

#[cfg(test)]
impl Call {
    /// Its name, as `man 2` writes it.
    pub(crate) fn name(self) -> &'static str {
        self.constant.trim_start_matches("SYS_")
    }
}

macro_rules! calls {
    ($($constant:ident),* $(,)?) => {
        &[$(Call { constant: stringify!($constant), number: libc::$constant }),*]
    };
}

/// The allow-list, by group, as `docs/cli.md` shows it.
pub(crate) const ALLOWED: &[(&str, &[Call])] = &[
    (
        "files and folders",
        calls![
            SYS_read,
            SYS_write,
            SYS_openat,
            SYS_openat2,
            SYS_close,
            SYS_close_range,
            SYS_fstat,
            SYS_newfstatat,
            SYS_statx,
            SYS_statfs,
            SYS_fstatfs,
            SYS_lseek,
            SYS_pread64,
            SYS_pwrite64,
            SYS_readv,
            SYS_writev,
            SYS_preadv,
            SYS_pwritev,
            SYS_preadv2,
            SYS_pwritev2,
            SYS_faccessat,
            SYS_faccessat2,
            SYS_dup,
            SYS_dup3,
            SYS_fcntl,
            SYS_flock,
            SYS_ioctl,
            SYS_fsync,
            SYS_fdatasync,
            SYS_sync_file_range,
            SYS_truncate,
            SYS_ftruncate,
            SYS_fallocate,
            SYS_fadvise64,
            SYS_readahead,
            SYS_getdents64,
            SYS_getcwd,
            SYS_chdir,
            SYS_fchdir,
            SYS_mkdirat,
            SYS_mknodat,
            SYS_unlinkat,
            SYS_renameat,
            SYS_renameat2,
            SYS_linkat,
            SYS_symlinkat,
            SYS_readlinkat,
            SYS_fchmod,
            SYS_fchmodat,
            SYS_fchmodat2,
            SYS_fchown,
            SYS_fchownat,
            SYS_umask,
            SYS_utimensat,
            SYS_getxattr,
            SYS_lgetxattr,
            SYS_fgetxattr,
            SYS_listxattr,
            SYS_llistxattr,
            SYS_flistxattr,
            SYS_setxattr,
            SYS_lsetxattr,
            SYS_fsetxattr,
            SYS_removexattr,
            SYS_lremovexattr,
            SYS_fremovexattr,
            SYS_copy_file_range,
            SYS_sendfile,
            SYS_splice,
            SYS_tee,
            SYS_vmsplice,
            SYS_memfd_create,
            SYS_inotify_init1,
            SYS_inotify_add_watch,
            SYS_inotify_rm_watch,
        ],
    ),
    (
        "pipes, polling and events",
        calls![
            SYS_pipe2,
            SYS_ppoll,
            SYS_pselect6,
            SYS_epoll_create1,
            SYS_epoll_ctl,
            SYS_epoll_pwait,
            SYS_epoll_pwait2,
            SYS_eventfd2,
            SYS_timerfd_create,
            SYS_timerfd_settime,
            SYS_timerfd_gettime,
            SYS_signalfd4,
        ],
    ),
    (
        "memory",
        calls![
            SYS_brk,
            SYS_mmap,
            SYS_munmap,
            SYS_mprotect,
            SYS_mremap,
            SYS_msync,
            SYS_mincore,
            SYS_madvise,
            SYS_mlock,
            SYS_mlock2,
            SYS_munlock,
            SYS_mlockall,
            SYS_munlockall,
            SYS_remap_file_pages,
            SYS_pkey_mprotect,
            SYS_pkey_alloc,
            SYS_pkey_free,
            SYS_mbind,
            SYS_set_mempolicy,
            SYS_get_mempolicy,
            SYS_membarrier,
            SYS_mseal,
        ],
    ),
    (
        "processes and threads",
        calls![
            SYS_clone,
            SYS_execve,
            SYS_execveat,
            SYS_exit,
            SYS_exit_group,
            SYS_wait4,
            SYS_waitid,
            SYS_kill,
            SYS_tkill,
            SYS_tgkill,
            SYS_pidfd_open,
            SYS_pidfd_send_signal,
            SYS_getpid,
            SYS_getppid,
            SYS_gettid,
            SYS_getpgid,
            SYS_setpgid,
            SYS_getsid,
            SYS_setsid,
            SYS_unshare,
            SYS_set_tid_address,
            SYS_futex,
            SYS_futex_waitv,
            SYS_get_robust_list,
            SYS_set_robust_list,
            SYS_rseq,
            SYS_prctl,
            SYS_seccomp,
            SYS_personality,
            SYS_capget,
            SYS_getrusage,
            SYS_times,
            SYS_prlimit64,
            SYS_getrlimit,
            SYS_setrlimit,
            SYS_getpriority,
            SYS_setpriority,
            SYS_ioprio_get,
            SYS_ioprio_set,
            SYS_sched_yield,
            SYS_sched_getaffinity,
            SYS_sched_setaffinity,
            SYS_sched_getparam,
            SYS_sched_setparam,
            SYS_sched_getscheduler,
            SYS_sched_setscheduler,
            SYS_sched_get_priority_max,
            SYS_sched_get_priority_min,
            SYS_sched_rr_get_interval,
            SYS_sched_getattr,
            SYS_sched_setattr,
            SYS_getcpu,
            SYS_restart_syscall,
        ],
    ),
    (
        "signals and timers",
        calls![
            SYS_rt_sigaction,
            SYS_rt_sigprocmask,
            SYS_rt_sigreturn,
            SYS_rt_sigpending,
            SYS_rt_sigtimedwait,
            SYS_rt_sigqueueinfo,
            SYS_rt_tgsigqueueinfo,
            SYS_rt_sigsuspend,
            SYS_sigaltstack,
            SYS_getitimer,
            SYS_setitimer,
            SYS_timer_create,
            SYS_timer_settime,
            SYS_timer_gettime,
            SYS_timer_getoverrun,
            SYS_timer_delete,
            SYS_clock_gettime,
            SYS_clock_getres,
            SYS_clock_nanosleep,
            SYS_nanosleep,
            SYS_gettimeofday,
        ],
    ),
    (
        "identity and the system",
        calls![
            SYS_getuid,
            SYS_geteuid,
            SYS_getgid,
            SYS_getegid,
            SYS_getresuid,
            SYS_getresgid,
            SYS_getgroups,
            SYS_setresuid,
            SYS_setresgid,
            SYS_setgroups,
            SYS_uname,
            SYS_sysinfo,
            SYS_getrandom,
        ],
    ),
    (
        "sockets (AF_UNIX only)",
        calls![
            SYS_socket,
            SYS_socketpair,
            SYS_bind,
            SYS_listen,
            SYS_accept,
            SYS_accept4,
            SYS_connect,
            SYS_getsockname,
            SYS_getpeername,
            SYS_sendto,
            SYS_recvfrom,
            SYS_sendmsg,
            SYS_recvmsg,
            SYS_sendmmsg,
            SYS_recvmmsg,
            SYS_shutdown,
            SYS_setsockopt,
            SYS_getsockopt,
        ],
    ),
    // The older forms x86-64 keeps beside the `*at` and `*2` ones: what older runtimes and
    // statically linked programs call.
    #[cfg(target_arch = "x86_64")]
    (
        "x86-64's older forms",
        calls![
            SYS_open,
            SYS_creat,
            SYS_stat,
            SYS_lstat,
            SYS_access,
            SYS_dup2,
            SYS_getdents,
            SYS_mkdir,
            SYS_rmdir,
            SYS_mknod,
            SYS_unlink,
            SYS_rename,
            SYS_link,
            SYS_symlink,
            SYS_readlink,
            SYS_chmod,
            SYS_chown,
            SYS_lchown,
            SYS_utime,
            SYS_utimes,
            SYS_futimesat,
            SYS_pipe,
            SYS_poll,
            SYS_select,
            SYS_epoll_create,
            SYS_epoll_wait,
            SYS_eventfd,
            SYS_signalfd,
            SYS_inotify_init,
            SYS_fork,
            SYS_vfork,
            SYS_getpgrp,
            SYS_pause,
            SYS_alarm,
            SYS_time,
            SYS_arch_prctl,
        ],
    ),
];

/// Every call on the allow-list.
pub(crate) fn allowed() -> impl Iterator<Item = Call> {
    ALLOWED.iter().flat_map(|(_, calls)| calls.iter().copied())
}

/// Every `CLONE_NEW*` flag `clone` takes (`CLONE_NEWTIME` is not one: in `clone`'s flags
/// its bit is part of the exit signal, and only `clone3`, which fails, takes it).
const NEW_NAMESPACES: [libc::c_int; 7] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWCGROUP,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
];

fn positive(n: libc::c_int) -> u64 {
    u64::try_from(n).expect("flags, families and advice values are positive")
}

/// A rule that matches when argument `arg` is `value`.
fn equals(arg: u8, value: libc::c_int) -> Result<SeccompRule, seccompiler::BackendError> {
    let condition = SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::Eq,
        positive(value),
    )?;
    SeccompRule::new(vec![condition])
}

/// A rule that matches when argument `arg`, read as `len`, is anything but `value`.
fn differs(
    arg: u8,
    len: SeccompCmpArgLen,
    value: libc::c_int,
) -> Result<SeccompRule, seccompiler::BackendError> {
    let condition = SeccompCondition::new(arg, len, SeccompCmpOp::Ne, positive(value))?;
    SeccompRule::new(vec![condition])
}

/// A rule that matches when argument `arg` has every bit of `bits`.
fn has_bits(arg: u8, bits: libc::c_int) -> Result<SeccompRule, seccompiler::BackendError> {
    let condition = SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(positive(bits)),
        positive(bits),
    )?;
    SeccompRule::new(vec![condition])
}

/// The argument checks (filter 2): a call matches, and fails, when any of its rules does.
/// `docs/cli.md` names each.
fn refusals() -> Result<BTreeMap<i64, Vec<SeccompRule>>, seccompiler::BackendError> {
    let mut rules = BTreeMap::new();
    // socket(family, ...), an int.
    let not_unix = || differs(0, SeccompCmpArgLen::Dword, libc::AF_UNIX);
    rules.insert(libc::SYS_socket, vec![not_unix()?]);
    rules.insert(libc::SYS_socketpair, vec![not_unix()?]);
    rules.insert(
        libc::SYS_clone,
        NEW_NAMESPACES
            .iter()
            .map(|&flag| has_bits(0, flag))
            .collect::<Result<_, _>>()?,
    );
    // unshare(flags), all 64 bits: only a cgroup namespace (how init makes each run).
    rules.insert(
        libc::SYS_unshare,
        vec![differs(0, SeccompCmpArgLen::Qword, libc::CLONE_NEWCGROUP)?],
    );
    // fadvise64(fd, offset, len, advice)
    rules.insert(
        libc::SYS_fadvise64,
        vec![equals(3, libc::POSIX_FADV_DONTNEED)?],
    );
    // madvise(addr, len, advice)
    rules.insert(
        libc::SYS_madvise,
        vec![equals(2, libc::MADV_PAGEOUT)?, equals(2, libc::MADV_COLD)?],
    );
    // preadv2(fd, iov, iovcnt, pos_l, pos_h, flags)
    let nowait = || has_bits(5, libc::RWF_NOWAIT);
    rules.insert(libc::SYS_preadv2, vec![nowait()?]);
    rules.insert(libc::SYS_pwritev2, vec![nowait()?]);
    Ok(rules)
}

/// The two filters (see the module's documentation), to be taken on in this order.
pub(crate) fn filters() -> io::Result<[BpfProgram; 2]> {
    let fail = |e: seccompiler::BackendError| io::Error::other(format!("seccomp: {e}"));
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(fail)?;
    let errno = |e: libc::c_int| SeccompAction::Errno(u32::try_from(e).expect("positive"));
    let list: BTreeMap<i64, Vec<SeccompRule>> =
        allowed().map(|call| (call.number, Vec::new())).collect();
    let allow_list =
        SeccompFilter::new(list, errno(libc::ENOSYS), SeccompAction::Allow, arch).map_err(fail)?;
    let checks = SeccompFilter::new(
        refusals().map_err(fail)?,
        SeccompAction::Allow,
        errno(libc::EACCES),
        arch,
    )
    .map_err(fail)?;
    Ok([
        allow_list.try_into().map_err(fail)?,
        checks.try_into().map_err(fail)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The groups and calls of the table in `docs/cli.md`'s "System calls" section.
    fn documented() -> Vec<(String, BTreeSet<String>)> {
        let cli = include_str!("../../docs/cli.md");
        let start = cli
            .find("### System calls")
            .expect("docs/cli.md has a `### System calls` section");
        let section = &cli[start..];
        let end = section[3..].find("\n#").map_or(section.len(), |i| i + 3);
        section[..end]
            .lines()
            .filter(|line| line.starts_with("| ") && !line.starts_with("| group"))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let names = cells[2]
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_owned)
                    .collect();
                (cells[1].to_owned(), names)
            })
            .collect()
    }

    #[test]
    fn the_docs_list_every_allowed_call_in_its_group_and_nothing_else() {
        let docs = documented();
        let ours: Vec<(String, BTreeSet<String>)> = ALLOWED
            .iter()
            .map(|(group, calls)| {
                let names = calls.iter().map(|c| c.name().to_owned()).collect();
                ((*group).to_owned(), names)
            })
            .collect();
        assert_eq!(
            docs, ours,
            "docs/cli.md's system-call table and confine::ALLOWED differ"
        );
    }

    #[test]
    fn no_call_is_listed_twice() {
        let mut seen = BTreeSet::new();
        for call in allowed() {
            assert!(seen.insert(call.number), "{} listed twice", call.name());
        }
    }

    #[test]
    fn what_must_stay_out_is_out() {
        let out = [
            libc::SYS_clone3,
            libc::SYS_setns,
            libc::SYS_mount,
            libc::SYS_umount2,
            libc::SYS_pivot_root,
            libc::SYS_chroot,
            libc::SYS_fsopen,
            libc::SYS_fspick,
            libc::SYS_fsconfig,
            libc::SYS_fsmount,
            libc::SYS_move_mount,
            libc::SYS_open_tree,
            libc::SYS_mount_setattr,
            libc::SYS_io_uring_setup,
            libc::SYS_io_setup,
            libc::SYS_io_submit,
            libc::SYS_bpf,
            libc::SYS_perf_event_open,
            libc::SYS_userfaultfd,
            libc::SYS_ptrace,
            libc::SYS_process_vm_readv,
            libc::SYS_process_vm_writev,
            libc::SYS_keyctl,
            libc::SYS_add_key,
            libc::SYS_shmget,
            libc::SYS_msgget,
            libc::SYS_semget,
            libc::SYS_mq_open,
            libc::SYS_sync,
            libc::SYS_syncfs,
            libc::SYS_sethostname,
            libc::SYS_setuid,
            libc::SYS_kexec_load,
            libc::SYS_init_module,
        ];
        for number in out {
            assert!(
                allowed().all(|call| call.number != number),
                "system call {number} must not be on the allow-list"
            );
        }
        // Calls newer than the `libc` constants (x86-64 numbers): `cachestat`,
        // `statmount`, `listmount`, `open_tree_attr`.
        for number in [451, 457, 458, 467] {
            assert!(allowed().all(|call| call.number != number), "{number}");
        }
    }

    #[test]
    fn the_filters_compile() {
        let [list, checks] = filters().unwrap();
        assert!(!list.is_empty() && !checks.is_empty());
    }
}
