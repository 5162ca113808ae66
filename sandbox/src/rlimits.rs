//! The resource limits a run inherits, and how those a run asks for are fitted under them.
//!
//! Why this exists: a process may lower its hard limits and move its soft ones up to them,
//! but raising a hard limit takes `CAP_SYS_RESOURCE` in the *initial* user namespace. A
//! box (a user namespace of its own) never has it, nor has a plain user, nor has the root
//! of many containers; so a limit asked above an inherited hard one (an "unlimited"
//! address space under `ulimit -v`) made `setrlimit` fail with `EPERM`, and with it every
//! run of the tier. The launcher therefore lifts its own hard limits first, where it may
//! ([`lift`], before it unshares anything); where it may not, each limit a run asks for is
//! fitted under the inherited one ([`Ceilings::fit`]) when that still judges correctly,
//! and otherwise the run is refused with a reason naming the inherited limit
//! ([`Shortfall::message`]).

use nix::sys::resource::{Resource, getrlimit, setrlimit};

/// "No limit", as the kernel writes it.
pub(crate) const UNLIMITED: u64 = libc::RLIM_INFINITY;

/// The address-space rlimit of a run with `memory` as its memory limit: only a backstop
/// against a runaway allocation, far above the memory limit, because address space is not
/// memory (programs reserve big arrays and touch a little; runtimes map large regions).
/// Also the least address space a run needs when it asked for none at all (a cgroup keeps
/// its memory): an inherited limit at or above it judges as well as no limit.
pub(crate) fn address_space_backstop(memory: u64) -> u64 {
    memory.saturating_mul(4).saturating_add(1 << 30)
}

/// A limit a run may be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Cpu,
    AddressSpace,
    Stack,
    FileSize,
    OpenFiles,
    Processes,
}

impl Kind {
    /// Every kind, in the order of [`Ceilings::hard`].
    const ALL: [Kind; 6] = [
        Kind::Cpu,
        Kind::AddressSpace,
        Kind::Stack,
        Kind::FileSize,
        Kind::OpenFiles,
        Kind::Processes,
    ];

    /// The kernel's resource.
    fn resource(self) -> Resource {
        match self {
            Kind::Cpu => Resource::RLIMIT_CPU,
            Kind::AddressSpace => Resource::RLIMIT_AS,
            Kind::Stack => Resource::RLIMIT_STACK,
            Kind::FileSize => Resource::RLIMIT_FSIZE,
            Kind::OpenFiles => Resource::RLIMIT_NOFILE,
            Kind::Processes => Resource::RLIMIT_NPROC,
        }
    }

    /// The kernel's resource, as the launcher's child passes it to `setrlimit` itself.
    pub(crate) fn raw(self) -> libc::__rlimit_resource_t {
        match self {
            Kind::Cpu => libc::RLIMIT_CPU,
            Kind::AddressSpace => libc::RLIMIT_AS,
            Kind::Stack => libc::RLIMIT_STACK,
            Kind::FileSize => libc::RLIMIT_FSIZE,
            Kind::OpenFiles => libc::RLIMIT_NOFILE,
            Kind::Processes => libc::RLIMIT_NPROC,
        }
    }

    /// Its name in a message, and the shell's `ulimit` flag that sets it.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Kind::Cpu => ("CPU-time", "-t"),
            Kind::AddressSpace => ("address-space", "-v"),
            Kind::Stack => ("stack", "-s"),
            Kind::FileSize => ("file-size", "-f"),
            Kind::OpenFiles => ("open-files", "-n"),
            Kind::Processes => ("process", "-u"),
        }
    }

    /// `value` as a person reads it: seconds, a size or a count.
    pub(crate) fn show(self, value: u64) -> String {
        match self {
            _ if value == UNLIMITED => "unlimited".to_owned(),
            Kind::Cpu => format!("{value} s"),
            Kind::AddressSpace | Kind::Stack | Kind::FileSize => size(value),
            Kind::OpenFiles | Kind::Processes => value.to_string(),
        }
    }

    /// Whether an inherited soft limit of this kind could end the launcher itself: it
    /// counts its own CPU (`SIGXCPU`, then `SIGKILL`), would get `SIGXFSZ` writing past
    /// the file size, and aborts when an allocation fails.
    fn ends_the_launcher(self) -> bool {
        matches!(self, Kind::Cpu | Kind::FileSize | Kind::AddressSpace)
    }
}

/// `bytes` in the largest binary unit that holds it whole.
fn size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    UNITS
        .iter()
        .find(|(unit, _)| bytes >= *unit && bytes.is_multiple_of(*unit))
        .map_or_else(
            || format!("{bytes} bytes"),
            |(unit, name)| format!("{} {name}", bytes / unit),
        )
}

/// A limit a run asks for: its soft and hard values, and the least soft value that still
/// judges the run correctly (`floor`, at most `soft`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Asked {
    pub(crate) soft: u64,
    pub(crate) hard: u64,
    pub(crate) floor: u64,
}

impl Asked {
    /// A limit that must be given as asked, or the verdict could be wrong.
    pub(crate) fn exactly(soft: u64, hard: u64) -> Asked {
        Asked {
            soft,
            hard,
            floor: soft,
        }
    }
}

/// The hard limits the launcher holds once it lifted what it could: no run may be given
/// more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ceilings {
    /// By [`Kind::ALL`]'s order.
    hard: [u64; 6],
    /// Whether the launcher ran as root when it tried to lift them: then what it could not
    /// lift, it lacked `CAP_SYS_RESOURCE` for.
    root: bool,
}

/// Why a limit cannot be given: the inherited hard limit is below what a run needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shortfall {
    pub(crate) kind: Kind,
    /// The inherited hard limit.
    pub(crate) ceiling: u64,
    root: bool,
}

impl Shortfall {
    /// One line naming the inherited limit and what a run needs (`need`, e.g. `the 64 MiB
    /// output limit`), and what to do.
    pub(crate) fn message(&self, need: &str) -> String {
        let (name, flag) = self.kind.names();
        let remedy = if self.root {
            "raise it (this root lacks the CAP_SYS_RESOURCE that would lift it)"
        } else {
            "raise it, or run the grader as root"
        };
        format!(
            "the inherited {name} limit (ulimit {flag}: {} hard) is below what a run needs ({need}); {remedy}",
            self.kind.show(self.ceiling)
        )
    }
}

impl Ceilings {
    /// No limit of any kind (tests, and a machine that reports none).
    #[cfg(test)]
    pub(crate) fn unlimited() -> Ceilings {
        Ceilings {
            hard: [UNLIMITED; 6],
            root: false,
        }
    }

    /// These ceilings with `kind`'s set to `hard`.
    #[cfg(test)]
    pub(crate) fn with(mut self, kind: Kind, hard: u64) -> Ceilings {
        self.hard[kind as usize] = hard;
        self
    }

    /// The (soft, hard) pair to set for `asked` under the inherited hard limit of `kind`:
    /// each lowered to that limit where it is above, as long as the soft value stays at or
    /// above the floor; otherwise why not.
    pub(crate) fn fit(&self, kind: Kind, asked: Asked) -> Result<(u64, u64), Shortfall> {
        let ceiling = self.hard[kind as usize];
        let hard = asked.hard.min(ceiling);
        let soft = asked.soft.min(hard);
        if soft < asked.floor.min(asked.soft) {
            return Err(Shortfall {
                kind,
                ceiling,
                root: self.root,
            });
        }
        Ok((soft, hard))
    }
}

/// Lifts this process's hard limits as far as it may (only root of the initial user
/// namespace may raise one), and its soft limits that could end it up to the hard ones
/// (always allowed); the hard limits it then holds. Called by the launcher before it
/// unshares anything: in a user namespace of its own it could no longer lift any.
pub(crate) fn lift() -> Ceilings {
    let mut hard = [UNLIMITED; 6];
    for (kind, ceiling) in Kind::ALL.into_iter().zip(&mut hard) {
        let Ok((soft, mut held)) = getrlimit(kind.resource()) else {
            continue;
        };
        if held != UNLIMITED {
            // The kernel caps open files at `nr_open`, never at "unlimited".
            let most = if kind == Kind::OpenFiles {
                open_files_most()
            } else {
                Some(UNLIMITED)
            };
            if let Some(most) = most.filter(|&most| most > held)
                && setrlimit(kind.resource(), soft, most).is_ok()
            {
                held = most;
            }
        }
        // Failure leaves the soft limit as it was: nothing better can be done.
        if kind.ends_the_launcher() && soft < held {
            let _ = setrlimit(kind.resource(), held, held);
        }
        *ceiling = held;
    }
    Ceilings {
        hard,
        root: nix::unistd::geteuid().is_root(),
    }
}

/// The most open files the kernel gives a process (`fs.nr_open`).
fn open_files_most() -> Option<u64> {
    std::fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    #[test]
    fn a_limit_under_its_ceiling_is_given_as_asked() {
        let ceilings = Ceilings::unlimited().with(Kind::FileSize, GIB);
        let asked = Asked::exactly(64 * MIB, 64 * MIB);
        assert_eq!(
            ceilings.fit(Kind::FileSize, asked),
            Ok((64 * MIB, 64 * MIB))
        );
        assert_eq!(
            Ceilings::unlimited().fit(Kind::AddressSpace, Asked::exactly(UNLIMITED, UNLIMITED)),
            Ok((UNLIMITED, UNLIMITED))
        );
    }

    #[test]
    fn an_unlimited_backstop_becomes_the_inherited_limit_when_that_is_above_the_floor() {
        // `ulimit -v 16777216` over a 256 MiB memory limit (floor 2 GiB).
        let floor = address_space_backstop(256 * MIB);
        assert_eq!(floor, 2 * GIB);
        let ceilings = Ceilings::unlimited().with(Kind::AddressSpace, 16 * GIB);
        let asked = Asked {
            soft: UNLIMITED,
            hard: UNLIMITED,
            floor,
        };
        assert_eq!(
            ceilings.fit(Kind::AddressSpace, asked),
            Ok((16 * GIB, 16 * GIB))
        );
        // Exactly at the floor still judges correctly.
        let at = Ceilings::unlimited().with(Kind::AddressSpace, floor);
        assert_eq!(at.fit(Kind::AddressSpace, asked), Ok((floor, floor)));
    }

    #[test]
    fn a_ceiling_below_the_floor_is_a_shortfall_naming_the_inherited_limit() {
        let floor = address_space_backstop(256 * MIB);
        let asked = Asked {
            soft: UNLIMITED,
            hard: UNLIMITED,
            floor,
        };
        let ceilings = Ceilings::unlimited().with(Kind::AddressSpace, 200 * MIB);
        let shortfall = ceilings.fit(Kind::AddressSpace, asked).unwrap_err();
        assert_eq!(
            (shortfall.kind, shortfall.ceiling),
            (Kind::AddressSpace, 200 * MIB)
        );
        assert_eq!(
            shortfall.message("4 × the 256 MiB memory limit + 1 GiB = 2 GiB"),
            "the inherited address-space limit (ulimit -v: 200 MiB hard) is below what a run needs (4 × the 256 MiB memory limit + 1 GiB = 2 GiB); raise it, or run the grader as root"
        );
        let mut as_root = ceilings;
        as_root.root = true;
        let message = as_root
            .fit(Kind::AddressSpace, asked)
            .unwrap_err()
            .message("x");
        assert!(
            message.ends_with("lacks the CAP_SYS_RESOURCE that would lift it)"),
            "{message}"
        );
        // One byte short of the floor is short.
        let short = Ceilings::unlimited().with(Kind::AddressSpace, floor - 1);
        assert!(short.fit(Kind::AddressSpace, asked).is_err());
    }

    #[test]
    fn limits_given_exactly_are_short_below_their_soft_value() {
        // The output limit, the stack, open files: below what was asked the verdict
        // would change (a cut output, a stack overflow, a refused open).
        let ceilings = Ceilings::unlimited()
            .with(Kind::FileSize, 32 * MIB)
            .with(Kind::OpenFiles, 20)
            .with(Kind::Stack, 8 * MIB);
        for (kind, asked) in [
            (Kind::FileSize, 64 * MIB),
            (Kind::OpenFiles, 64),
            (Kind::Stack, 256 * MIB),
        ] {
            let shortfall = ceilings
                .fit(kind, Asked::exactly(asked, asked))
                .unwrap_err();
            assert_eq!(shortfall.kind, kind);
        }
        let message = ceilings
            .fit(Kind::FileSize, Asked::exactly(64 * MIB, 64 * MIB))
            .unwrap_err()
            .message("the 64 MiB output limit");
        assert!(
            message.starts_with("the inherited file-size limit (ulimit -f: 32 MiB hard)"),
            "{message}"
        );
    }

    #[test]
    fn the_cpu_backstop_may_lose_its_warning_second_but_not_its_soft_limit() {
        // Asked: SIGXCPU at 2 s, SIGKILL at 3 s. Under a hard 2 s the kill comes at 2 s:
        // still above the 1 s CPU limit, so still a TLE by CPU time.
        let asked = Asked::exactly(2, 3);
        let at_soft = Ceilings::unlimited().with(Kind::Cpu, 2);
        assert_eq!(at_soft.fit(Kind::Cpu, asked), Ok((2, 2)));
        let below = Ceilings::unlimited().with(Kind::Cpu, 1);
        let message = below.fit(Kind::Cpu, asked).unwrap_err().message("y");
        assert!(
            message.starts_with("the inherited CPU-time limit (ulimit -t: 1 s hard)"),
            "{message}"
        );
    }

    #[test]
    fn sizes_read_in_whole_units() {
        assert_eq!(size(16 * GIB), "16 GiB");
        assert_eq!(size(200 * MIB), "200 MiB");
        assert_eq!(size(1536 * MIB), "1536 MiB");
        assert_eq!(size(4096), "4 KiB");
        assert_eq!(size(1000), "1000 bytes");
        assert_eq!(Kind::AddressSpace.show(UNLIMITED), "unlimited");
    }
}
