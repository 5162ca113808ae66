//! Isolation tiers: what this machine can give, what `auto` picks, and what each tier
//! asks of the launcher.
//!
//! - `none`: a process group and the whole tree killed; the CPU limit's backstop; the
//!   program runs as the grader's user. For trusted code and debugging.
//! - `basic`: adds the rlimits (address space backstop, stack, file size, open files, a
//!   process cap), and, when the grader is root, the unprivileged user `nobody`.
//! - `strict`: adds Landlock (reads only the system folders and its own files, writes only
//!   its scratch folder, cannot signal outside its domain) and a seccomp filter (no TCP or
//!   UDP sockets, loopback included, no io_uring).

use std::fmt;
use std::path::Path;

use crate::status::Fault;

/// An isolation tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tier {
    /// Process group and kill only.
    None,
    /// rlimits and an unprivileged user.
    Basic,
    /// Landlock and seccomp on top.
    Strict,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::None => "none",
            Tier::Basic => "basic",
            Tier::Strict => "strict",
        })
    }
}

/// What this machine offers, probed.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts of the machine, each yes or no"
)]
pub(crate) struct Machine {
    /// Whether the grader runs as root (programs then run as `nobody`).
    pub(crate) root: bool,
    /// The Landlock ABI version, 0 when unavailable.
    pub(crate) landlock: i64,
    /// Whether seccomp filters can be installed.
    pub(crate) seccomp: bool,
    /// Whether unprivileged user namespaces are allowed (not used by any tier yet).
    pub(crate) user_namespaces: bool,
    /// Whether the cgroup v1 memory controller is mounted (not used by any tier yet).
    pub(crate) cgroup_memory: bool,
}

impl Machine {
    /// Probes the running kernel.
    pub(crate) fn probe() -> Machine {
        // SAFETY: landlock_create_ruleset with a NULL attribute, size 0 and the VERSION
        // flag only returns the ABI version (or an error); prctl(PR_GET_SECCOMP) only
        // reads the caller's seccomp mode.
        #[expect(unsafe_code, reason = "probing two system calls no crate wraps")]
        let (landlock, seccomp) = unsafe {
            let abi = libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<u8>(),
                0usize,
                1u32, // LANDLOCK_CREATE_RULESET_VERSION
            );
            (
                abi.max(0),
                libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0,
            )
        };
        Machine {
            root: nix::unistd::geteuid().is_root(),
            landlock,
            seccomp,
            user_namespaces: std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
                .is_ok_and(|n| n.trim().parse::<u64>().is_ok_and(|n| n > 0)),
            cgroup_memory: Path::new("/sys/fs/cgroup/memory/memory.limit_in_bytes").exists(),
        }
    }

    /// What `strict` needs and this machine lacks.
    pub(crate) fn strict_missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if self.landlock < 1 {
            missing.push("Landlock (a kernel 5.13 or later with the LSM enabled)");
        }
        if !self.seccomp {
            missing.push("seccomp");
        }
        missing
    }

    /// The tier `auto` picks: the strongest available.
    pub(crate) fn auto(&self) -> Tier {
        if self.strict_missing().is_empty() {
            Tier::Strict
        } else {
            Tier::Basic
        }
    }

    /// The tier for `--sandbox` (`None`: auto). A tier this machine cannot give is a usage
    /// error naming what is missing.
    pub(crate) fn resolve(&self, asked: Option<Tier>) -> Result<Tier, Fault> {
        match asked {
            None => Ok(self.auto()),
            Some(Tier::Strict) if !self.strict_missing().is_empty() => Err(Fault::Usage(format!(
                "--sandbox strict: this machine lacks {}; use --sandbox basic",
                self.strict_missing().join(" and ")
            ))),
            Some(tier) => Ok(tier),
        }
    }
}

/// The folders a confined program may read and execute below: the system's, whatever of
/// them exists.
pub(crate) const SYSTEM_READ: [&str; 10] = [
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    "/proc",
    "/sys/devices/system/cpu",
];

/// Device files a confined program may read and write.
pub(crate) const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(landlock: i64, seccomp: bool) -> Machine {
        Machine {
            root: true,
            landlock,
            seccomp,
            user_namespaces: true,
            cgroup_memory: false,
        }
    }

    #[test]
    fn auto_picks_the_strongest_and_strict_names_what_is_missing() {
        assert_eq!(machine(7, true).resolve(None).unwrap(), Tier::Strict);
        assert_eq!(machine(0, true).resolve(None).unwrap(), Tier::Basic);
        assert_eq!(
            machine(0, true).resolve(Some(Tier::Basic)).unwrap(),
            Tier::Basic
        );
        let Err(Fault::Usage(message)) = machine(0, false).resolve(Some(Tier::Strict)) else {
            panic!("strict without Landlock must be refused");
        };
        assert!(
            message.contains("Landlock") && message.contains("seccomp"),
            "{message}"
        );
    }
}
