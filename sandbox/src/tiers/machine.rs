//! What this machine offers (probed once), and the tier `auto` picks or the one asked for
//! checked against it, given how a tier's trial went.

use std::sync::OnceLock;

use super::tier::Tier;
use crate::Error;
use crate::cgroup::{self, Hierarchy};
use crate::uids;

/// What this machine offers, probed.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "a machine is these independent yes-or-no facts"
)]
pub struct Machine {
    /// Whether the grader runs as root (in its user namespace).
    pub root: bool,
    /// Whether that user namespace is the machine's own (not a container's): root there
    /// can always have cgroups, so `strict` insists on them.
    pub initial_namespace: bool,
    /// The uids workers' programs run as when the grader is root: ids its user namespace
    /// maps (`None`: not root, or too few mapped; each box then gets a user namespace of
    /// its own).
    pub worker_ids: Option<uids::Range>,
    /// The Landlock ABI version, 0 when unavailable (reported by `grader doctor`; no tier uses it).
    pub landlock: i64,
    /// Whether seccomp filters can be installed.
    pub seccomp: bool,
    /// Whether unprivileged user namespaces are allowed (a box without root).
    pub user_namespaces: bool,
    /// The cgroups workers can make, or why there are none.
    pub cgroups: Result<Hierarchy, String>,
}

impl Machine {
    /// The machine, probed once per process.
    pub fn get() -> &'static Machine {
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
        let root = nix::unistd::geteuid().is_root();
        Machine {
            root,
            initial_namespace: std::fs::read_to_string("/proc/self/uid_map").is_ok_and(|map| {
                map.split_whitespace().collect::<Vec<_>>() == ["0", "0", "4294967295"]
            }),
            worker_ids: root.then(uids::range).flatten(),
            landlock,
            seccomp,
            user_namespaces: std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
                .is_ok_and(|n| n.trim().parse::<u64>().is_ok_and(|n| n > 0)),
            cgroups: cgroup::probe(),
        }
    }

    /// What `strict` needs and this machine lacks.
    pub fn strict_missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if !self.root && !self.user_namespaces {
            missing.push("namespaces (root, or unprivileged user namespaces)");
        }
        if !self.seccomp {
            missing.push("seccomp");
        }
        // The machine's root can always have the cgroups' accounting, so strict insists
        // on it; an unprivileged user, or root of a container, gets the box's own
        // accounting (see the README's tier table).
        if self.root && self.initial_namespace && self.cgroups.is_err() {
            missing.push("cgroups (memory, CPU accounting and pids controllers)");
        }
        missing
    }

    /// The tier `auto` picks: the strongest box this machine offers whose [`tried`](super::tried)
    /// worked, and why each stronger one was passed over (`tier: why`); or, where no box
    /// works, why, in one line. Never `none`: that runs programs unboxed, as the grader's
    /// own user, which only the user may choose (`--sandbox none`).
    pub fn auto(
        &self,
        tried: impl Fn(Tier) -> Result<(), String>,
    ) -> Result<(Tier, Vec<String>), String> {
        let mut passed = Vec::new();
        for tier in [Tier::Strict, Tier::Basic] {
            let missing = if tier == Tier::Strict {
                self.strict_missing()
            } else {
                Vec::new()
            };
            let why = if missing.is_empty() {
                match tried(tier) {
                    Ok(()) => {
                        let passed = passed
                            .into_iter()
                            .map(|(tier, why)| format!("{tier}: {why}"))
                            .collect();
                        return Ok((tier, passed));
                    }
                    Err(why) => why,
                }
            } else {
                format!("this machine lacks {}", missing.join(" and "))
            };
            passed.push((tier, why));
        }
        Err(match passed.as_slice() {
            // One cause (an inherited limit, most often) said once.
            [(_, strict), (_, basic)] if strict == basic => {
                format!("no box works here (strict and basic: {strict})")
            }
            _ => format!(
                "no box works here ({})",
                passed
                    .iter()
                    .map(|(tier, why)| format!("{tier}: {why}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        })
    }

    /// The tier for `--sandbox` (`None`: auto, with why stronger tiers were passed
    /// over). A tier this machine cannot give, or that did not work when tried, is a
    /// usage error ([`Error::Refused`]) saying why, before any work; so is `auto` where no
    /// box works.
    pub fn resolve(
        &self,
        asked: Option<Tier>,
        tried: impl Fn(Tier) -> Result<(), String>,
    ) -> Result<(Tier, Vec<String>), Error> {
        let Some(tier) = asked else {
            return self.auto(tried).map_err(|why| {
                Error::Refused(format!(
                    "--sandbox auto: {why}; fix that, or run programs unboxed, as the grader's user, with --sandbox none"
                ))
            });
        };
        let weaker = match tier {
            Tier::Strict => "basic",
            Tier::Basic | Tier::None => "none",
        };
        if tier == Tier::Strict && !self.strict_missing().is_empty() {
            return Err(Error::Refused(format!(
                "--sandbox strict: this machine lacks {}; use --sandbox basic",
                self.strict_missing().join(" and ")
            )));
        }
        if tier != Tier::None
            && let Err(why) = tried(tier)
        {
            return Err(Error::Refused(format!(
                "--sandbox {tier}: {why}; use --sandbox {weaker}"
            )));
        }
        Ok((tier, Vec::new()))
    }
}

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
            initial_namespace: true,
            worker_ids: None,
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

    /// Every tier works when tried.
    #[expect(clippy::unnecessary_wraps, reason = "the shape of a trial")]
    fn works(_: Tier) -> Result<(), String> {
        Ok(())
    }

    #[test]
    fn auto_picks_the_strongest_and_strict_names_what_is_missing() {
        let tier = |m: Machine, asked| m.resolve(asked, works).map(|(tier, _)| tier);
        assert_eq!(
            tier(machine(true, false, true, true), None).unwrap(),
            Tier::Strict
        );
        // Unprivileged: a user namespace is enough, cgroups are not required.
        assert_eq!(
            tier(machine(false, true, true, false), None).unwrap(),
            Tier::Strict
        );
        assert_eq!(
            tier(machine(false, false, true, false), None).unwrap(),
            Tier::Basic
        );
        assert_eq!(
            tier(machine(true, true, true, false), Some(Tier::Basic)).unwrap(),
            Tier::Basic
        );
        // Root of a container is held to what an unprivileged user is.
        let mut container = machine(true, true, true, false);
        container.initial_namespace = false;
        assert_eq!(tier(container, None).unwrap(), Tier::Strict);
        let Err(Error::Refused(message)) =
            tier(machine(true, true, false, false), Some(Tier::Strict))
        else {
            panic!("strict without seccomp and cgroups must be refused");
        };
        assert!(
            message.contains("seccomp") && message.contains("cgroups"),
            "{message}"
        );
        let Err(Error::Refused(message)) =
            tier(machine(false, false, true, true), Some(Tier::Strict))
        else {
            panic!("strict without namespaces must be refused");
        };
        assert!(message.contains("namespaces"), "{message}");
    }

    #[test]
    fn a_tier_that_failed_when_tried_is_passed_over_with_its_reason() {
        let no_box = |tier| match tier {
            Tier::Strict => {
                Err("a worker could not start: mount tmpfs: Invalid argument".to_owned())
            }
            _ => Ok(()),
        };
        let m = machine(true, true, true, true);
        let (tier, passed) = m.resolve(None, no_box).unwrap();
        assert_eq!(tier, Tier::Basic);
        assert_eq!(
            passed,
            ["strict: a worker could not start: mount tmpfs: Invalid argument"]
        );
        let Err(Error::Refused(message)) = m.resolve(Some(Tier::Strict), no_box) else {
            panic!("a strict that failed must be refused when asked for");
        };
        assert_eq!(
            message,
            "--sandbox strict: a worker could not start: mount tmpfs: Invalid argument; use --sandbox basic"
        );
        // No box works: auto stops, saying why, and never falls to `none`, which only
        // the user may ask for.
        let Err(Error::Refused(message)) = m.resolve(None, |_| Err("no".to_owned())) else {
            panic!("auto must not fall to none");
        };
        assert_eq!(
            message,
            "--sandbox auto: no box works here (strict and basic: no); fix that, or run programs unboxed, as the grader's user, with --sandbox none"
        );
        let Err(Error::Refused(message)) = machine(true, true, false, true)
            .resolve(None, |_| Err("a worker could not start: EPERM".to_owned()))
        else {
            panic!("auto must not fall to none");
        };
        assert!(
            message.starts_with(
                "--sandbox auto: no box works here (strict: this machine lacks seccomp; basic: a worker could not start: EPERM); "
            ),
            "{message}"
        );
        assert_eq!(
            m.resolve(Some(Tier::None), |_| Err("no".to_owned()))
                .unwrap()
                .0,
            Tier::None
        );
        // Without seccomp strict is not even tried.
        let (tier, passed) = machine(true, true, false, true)
            .resolve(None, |t| match t {
                Tier::Strict => panic!("strict tried without seccomp"),
                _ => Ok(()),
            })
            .unwrap();
        assert_eq!(tier, Tier::Basic);
        assert_eq!(passed, ["strict: this machine lacks seccomp"]);
    }
}
