//! Isolation tiers: what this machine can give, what `auto` picks, and what each tier
//! asks of a worker.
//!
//! - `none`: a session of its own and the whole tree killed; the CPU limit's backstop; the
//!   program runs as the grader's user. For trusted code and debugging.
//! - `basic`: adds the rlimits (address space backstop, stack, file size, open files),
//!   and, when the grader is root, a uid of the worker's own; CPU, memory and a process cap
//!   by cgroup where the machine has them.
//! - `strict`: adds the box (namespaces and a root file system of its own, `boxed.rs`) and
//!   the seccomp filters (`confine.rs`).

use std::fmt;
use std::sync::OnceLock;

use super::cgroup::{self, Hierarchy};
use crate::status::Fault;

/// An isolation tier (written by its name, as on the command line).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Tier {
    /// A session of its own and the whole run killed, only.
    None,
    /// rlimits, cgroup accounting, and a uid per worker when the grader is root.
    Basic,
    /// The box (namespaces, its own root file system) and seccomp on top.
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
pub(crate) struct Machine {
    /// Whether the grader runs as root (programs then run as a uid of their worker's).
    pub(crate) root: bool,
    /// The Landlock ABI version, 0 when unavailable (reported by `grader doctor`; no tier uses it).
    pub(crate) landlock: i64,
    /// Whether seccomp filters can be installed.
    pub(crate) seccomp: bool,
    /// Whether unprivileged user namespaces are allowed (a box without root).
    pub(crate) user_namespaces: bool,
    /// The cgroups workers can make, or why there are none.
    pub(crate) cgroups: Result<Hierarchy, String>,
}

impl Machine {
    /// The machine, probed once per process.
    pub(crate) fn get() -> &'static Machine {
        static MACHINE: OnceLock<Machine> = OnceLock::new();
        MACHINE.get_or_init(Machine::probe)
    }

    /// Probes the running kernel.
    fn probe() -> Machine {
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
            cgroups: cgroup::probe(),
        }
    }

    /// What `strict` needs and this machine lacks.
    pub(crate) fn strict_missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if !self.root && !self.user_namespaces {
            missing.push("namespaces (root, or unprivileged user namespaces)");
        }
        if !self.seccomp {
            missing.push("seccomp");
        }
        // Root can always have the cgroups' accounting, so strict insists on it; an
        // unprivileged user gets the box's own accounting (see the README's tier table).
        if self.root && self.cgroups.is_err() {
            missing.push("cgroups (memory, CPU accounting and pids controllers)");
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

/// Whether a box's init may keep the OOM killer off itself (`oom_score_adj` -1000), as
/// the launcher asks: tried on this process and set back. `Err` says why not.
pub(crate) fn oom_shield() -> Result<(), String> {
    use super::launcher::{OOM_SCORE, shield_from_oom};
    let before = std::fs::read_to_string(OOM_SCORE).map_err(|e| format!("{OOM_SCORE}: {e}"))?;
    shield_from_oom().map_err(|e| format!("the kernel refused -1000: {e}"))?;
    // Raising it back is always allowed.
    std::fs::write(OOM_SCORE, before.trim()).map_err(|e| format!("{OOM_SCORE}: {e}"))
}

/// Whether `path` lies in [`SYSTEM_READ`]: a box shows it without being told.
pub(crate) fn in_system_folders(path: &std::path::Path) -> bool {
    SYSTEM_READ.iter().any(|root| path.starts_with(root))
}

/// The machine's folders a box shows, read-only: the system's, whatever of them exists.
pub(crate) const SYSTEM_READ: [&str; 9] = [
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    // Runtimes count the processors here.
    "/sys/devices/system/cpu",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[expect(
        clippy::fn_params_excessive_bools,
        reason = "a machine is these independent yes-or-no facts"
    )]
    fn machine(root: bool, user_namespaces: bool, seccomp: bool, cgroups: bool) -> Machine {
        Machine {
            root,
            landlock: 0,
            seccomp,
            user_namespaces,
            cgroups: if cgroups {
                Ok(Hierarchy::V2 {
                    parent: "/sys/fs/cgroup".into(),
                })
            } else {
                Err("no cgroup controllers".to_owned())
            },
        }
    }

    #[test]
    fn auto_picks_the_strongest_and_strict_names_what_is_missing() {
        assert_eq!(
            machine(true, false, true, true).resolve(None).unwrap(),
            Tier::Strict
        );
        // Unprivileged: a user namespace is enough, cgroups are not required.
        assert_eq!(
            machine(false, true, true, false).resolve(None).unwrap(),
            Tier::Strict
        );
        assert_eq!(
            machine(false, false, true, false).resolve(None).unwrap(),
            Tier::Basic
        );
        assert_eq!(
            machine(true, true, true, false)
                .resolve(Some(Tier::Basic))
                .unwrap(),
            Tier::Basic
        );
        let Err(Fault::Usage(message)) =
            machine(true, true, false, false).resolve(Some(Tier::Strict))
        else {
            panic!("strict without seccomp and cgroups must be refused");
        };
        assert!(
            message.contains("seccomp") && message.contains("cgroups"),
            "{message}"
        );
        let Err(Fault::Usage(message)) =
            machine(false, false, true, true).resolve(Some(Tier::Strict))
        else {
            panic!("strict without namespaces must be refused");
        };
        assert!(message.contains("namespaces"), "{message}");
    }
}
