//! The `strict` tier's system-call filter, compiled and taken on by the box's init process
//! once its box is built, so that every program of the box inherits it (compiling it for
//! each run cost 0.15 ms). Everything it refuses, init has no use for after set-up.
//!
//! - Sockets are an allow-list: `socket` and `socketpair` work for `AF_UNIX` only (pipes
//!   between a program's own processes); every other family (Internet, packet, netlink,
//!   vsock, Bluetooth, ...) fails with `EACCES`. The box has its own network namespace too; the filter also covers families that
//!   namespaces do not (`AF_VSOCK` reaches the hypervisor).
//! - io_uring is off (it performs operations around this filter), and so are the calls a
//!   contestant never needs and that reach shared kernel state or other namespaces: BPF,
//!   perf events, userfaultfd, the key rings (shared by every process of a uid, so a place
//!   to leave data for a later run), the mount and namespace calls, and System V IPC and
//!   POSIX message queues (their objects outlive a run in the box's IPC namespace: memory
//!   no run is charged for, and a message to the next run).
//!
//! The filter checks the architecture first, so a 32-bit `int 0x80` system call (a second
//! `socketcall` door) kills the process.

use std::collections::BTreeMap;
use std::io;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// System calls that always fail.
const ABSENT: [i64; 23] = [
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_keyctl,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_mount_setattr,
    libc::SYS_shmget,
    libc::SYS_msgget,
    libc::SYS_semget,
    libc::SYS_mq_open,
];

/// The filter (see the module's documentation). One action for every refusal, `EACCES`,
/// so that one filter (one install per run) says it all.
pub(crate) fn filter() -> io::Result<BpfProgram> {
    let fail = |e: seccompiler::BackendError| io::Error::other(format!("seccomp: {e}"));
    let unix = u64::try_from(libc::AF_UNIX).expect("address families are positive");
    // A rule matches (and so fails the call) when the family is not AF_UNIX.
    let not_unix = || -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
        let condition = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, unix)?;
        Ok(vec![SeccompRule::new(vec![condition])?])
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        ABSENT.iter().map(|&call| (call, Vec::new())).collect();
    rules.insert(libc::SYS_socket, not_unix().map_err(fail)?);
    rules.insert(libc::SYS_socketpair, not_unix().map_err(fail)?);
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(fail)?;
    let eacces = u32::try_from(libc::EACCES).expect("errno values are positive");
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(eacces),
        arch,
    )
    .map_err(fail)?
    .try_into()
    .map_err(fail)
}
