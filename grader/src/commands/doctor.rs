//! `grader doctor`: what isolation this machine can give programs, probed, and each tier
//! tried for real (a worker of it runs `true`), and the tier `--sandbox auto` picks.

use std::fmt::Write as _;
use std::time::Instant;

use sandbox::cgroup::Hierarchy;
use sandbox::tiers::{self, Machine, Tier};

use crate::cli::args::LimitArgs;
use crate::cli::exit::Status;
use crate::report;

pub(crate) fn run() -> Status {
    let m = Machine::get();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut lines = vec![
        (
            "sessions, rlimits, whole-run reaping".to_owned(),
            "yes".to_owned(),
        ),
        (
            "a uid per worker".to_owned(),
            match (m.root, m.worker_ids) {
                (true, Some(range)) => format!(
                    "yes: the grader is root, each worker's programs run as a uid of their own from {} ({} ids)",
                    range.first, range.count
                ),
                (true, None) => "no: the grader is root of a user namespace that maps too few ids; in strict, each box maps one id of its own, not root".to_owned(),
                (false, _) => "no: the grader is not root, programs run as its own user (in strict, inside a user namespace)".to_owned(),
            },
        ),
        (
            "namespaces (the strict box)".to_owned(),
            if m.root {
                "yes: as root".to_owned()
            } else if m.user_namespaces {
                "yes: through an unprivileged user namespace".to_owned()
            } else {
                "no: not root, and unprivileged user namespaces are off".to_owned()
            },
        ),
        ("seccomp".to_owned(), yes_no(m.seccomp).to_owned()),
        (
            "cgroups".to_owned(),
            match &m.cgroups {
                Ok(hierarchy) => {
                    let (version, below) = match hierarchy {
                        Hierarchy::V1 { memory, .. } => ("v1", memory),
                        Hierarchy::V2 { parent } => ("v2", parent),
                    };
                    format!(
                        "{version}, below {}: CPU and memory of every process of a run, the memory limit kept by the kernel, a process cap",
                        below.display()
                    )
                }
                Err(why) => format!(
                    "no ({why}): CPU is counted over every process when it is reaped; memory is the largest process's peak{}",
                    if m.root {
                        String::new()
                    } else {
                        format!(
                            "; to have them, start the grader in a cgroup of its own: {DELEGATE} grader ..."
                        )
                    }
                ),
            },
        ),
        (
            "Landlock".to_owned(),
            match m.landlock {
                0 => "no (not used: the box's mounts decide what a program sees)".to_owned(),
                abi => format!("ABI {abi} (not used: the box's mounts decide what a program sees)"),
            },
        ),
    ];
    lines.push((
        "the box's init kept from the OOM killer".to_owned(),
        oom_shield(m),
    ));
    // Each tier, tried for real: a claim is what a worker did.
    let missing = m.strict_missing();
    lines.push((
        "tier strict".to_owned(),
        if missing.is_empty() {
            // Its cgroups' promise (every process's memory and CPU) tried first, for real.
            sandbox::forking_trial::children_counted(Tier::Strict, TRIAL.memory).map_or_else(
                |why| format!("failed when tried: {why}"),
                |()| timed_trial(Tier::Strict),
            )
        } else {
            format!("unavailable: needs {}", missing.join(" and "))
        },
    ));
    lines.push(("tier basic".to_owned(), timed_trial(Tier::Basic)));
    // After basic's trial, which found out whether the machine gives the PID space.
    lines.push((
        "basic's programs kept from the grader".to_owned(),
        match sandbox::basic_kept_apart() {
            Ok(how) => format!("yes: {how}"),
            Err(why) => format!(
                "no ({why}): they run as the grader's uid and can signal or trace it; use strict"
            ),
        },
    ));
    lines.push(("tier none".to_owned(), "works: needs nothing".to_owned()));
    lines.push(("--sandbox auto picks".to_owned(), auto_picks(m)));
    let width = lines.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let text = lines.iter().fold(String::new(), |mut text, (k, v)| {
        let _ = writeln!(text, "{k:<width$}  {v}");
        text
    });
    report::out(&text);
    Status::Ok
}

/// The tier `--sandbox auto` picks, or that it picks none (and so stops), and why.
fn auto_picks(m: &Machine) -> String {
    match m.auto(|tier| tiers::tried(tier, TRIAL)) {
        Ok((auto, _)) => auto.to_string(),
        Err(why) => format!(
            "nothing: {why}; a command with --sandbox auto stops (exit 2) before any work, and --sandbox none runs programs unboxed, as the grader's user"
        ),
    }
}

/// Whether the launcher, living in its runs' memory group, is kept from the OOM killer.
fn oom_shield(m: &Machine) -> String {
    // The launcher joins its runs' groups only on v1 (their children are born there); on
    // v2 each run's first process moves in alone, and nothing needs probing.
    match &m.cgroups {
        Ok(Hierarchy::V2 { .. }) => {
            "not needed: on cgroup v2 it stays outside its runs' memory group".to_owned()
        }
        Err(_) => "not needed: no memory group to fill".to_owned(),
        Ok(Hierarchy::V1 { .. }) => match tiers::oom_shield() {
            Ok(()) => "yes: a run that fills its memory is killed, its box stays".to_owned(),
            Err(why) => format!(
                "no ({why}): a run that fills its memory with files no process maps can take its box's init with it; it is still MLE, and the next run gets a new box"
            ),
        },
    }
}

/// What a trial's worker is asked for: the limits' defaults.
const TRIAL: tiers::Needs = tiers::Needs {
    cpu: LimitArgs::TIME,
    memory: LimitArgs::MEMORY,
    output: LimitArgs::OUTPUT,
    // `--max-processes`'s default.
    processes: 64,
};

/// How an unprivileged user gets a cgroup subtree of its own from systemd.
const DELEGATE: &str = "systemd-run --user --scope -p Delegate=yes";

/// "works" with how long a worker of `tier` took to start and run `true`, or why not.
fn timed_trial(tier: Tier) -> String {
    let start = Instant::now();
    match tiers::tried(tier, TRIAL) {
        Ok(()) => format!(
            "works: a worker started and ran `true` in {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        ),
        Err(why) => format!("failed when tried: {why}"),
    }
}
