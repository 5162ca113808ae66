//! The `strict` tier's confinement, prepared by the launcher before it starts a program
//! and applied by the child just before `execve` (so the grader and the launcher are never
//! confined themselves):
//!
//! - Landlock: the program may read and execute only the system folders and its own staged
//!   files, and write only its scratch folder (and `/dev/null` and its kind); it cannot
//!   signal processes outside its own domain or reach abstract Unix sockets;
//! - seccomp: no Internet, netlink or packet sockets (so no TCP or UDP at all, loopback
//!   included: Landlock does not cover UDP), and no io_uring, which could open sockets
//!   around the filter.

use std::collections::BTreeMap;
use std::io;
use std::os::fd::OwnedFd;

use landlock::{
    ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
    Scope, path_beneath_rules,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The Landlock ABI the rules are written for: files (v1..v5) and scopes (v6). On an older
/// kernel the rules apply as far as it supports them.
const WRITTEN_FOR: ABI = ABI::V6;

/// A Landlock ruleset for one run: `read` may be read and executed, `write` also written.
pub(crate) fn ruleset(read: &[String], write: &[String]) -> io::Result<OwnedFd> {
    let fail = |e: landlock::RulesetError| io::Error::other(format!("landlock: {e}"));
    let created = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(WRITTEN_FOR))
        .map_err(fail)?
        .scope(Scope::from_all(WRITTEN_FOR))
        .map_err(fail)?
        .create()
        .map_err(fail)?
        .add_rules(path_beneath_rules(read, AccessFs::from_read(WRITTEN_FOR)))
        .map_err(fail)?
        .add_rules(path_beneath_rules(write, AccessFs::from_all(WRITTEN_FOR)))
        .map_err(fail)?;
    Option::<OwnedFd>::from(created)
        .ok_or_else(|| io::Error::other("landlock is not supported by this kernel"))
}

/// The seccomp filter: `socket()` for the Internet, packet and netlink families, and
/// `io_uring_setup()`, fail with `EACCES`; everything else is allowed.
pub(crate) fn network_filter() -> io::Result<BpfProgram> {
    let fail = |e: seccompiler::BackendError| io::Error::other(format!("seccomp: {e}"));
    let mut sockets = Vec::new();
    for family in [
        libc::AF_INET,
        libc::AF_INET6,
        libc::AF_PACKET,
        libc::AF_NETLINK,
    ] {
        let family = u64::try_from(family).expect("address families are positive");
        let condition = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family)
            .map_err(fail)?;
        sockets.push(SeccompRule::new(vec![condition]).map_err(fail)?);
    }
    let rules: BTreeMap<i64, Vec<SeccompRule>> = [
        (libc::SYS_socket, sockets),
        (libc::SYS_io_uring_setup, Vec::new()),
    ]
    .into_iter()
    .collect();
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(fail)?;
    let eacces = u32::try_from(libc::EACCES).expect("errno values are positive");
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(eacces),
        arch,
    )
    .map_err(fail)?;
    filter.try_into().map_err(fail)
}
