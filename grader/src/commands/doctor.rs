//! `grader doctor`: what isolation this machine can give programs, probed, and the tier
//! `--sandbox auto` picks.

use std::fmt::Write as _;

use crate::exec::cgroup::Hierarchy;
use crate::exec::sandbox::{self, Machine};
use crate::exec::uids;
use crate::report;
use crate::status::Status;

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
            if m.root {
                format!(
                    "yes: the grader is root, each worker's programs run as a uid of their own from {}",
                    uids::FIRST
                )
            } else {
                "no: the grader is not root, programs run as its own user (in strict, inside a user namespace)".to_owned()
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
                    "no ({why}): CPU is counted over every process when it is reaped; memory is the largest process's peak"
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
        match sandbox::oom_shield() {
            Ok(()) => "yes: a run that fills its memory is killed, its box stays".to_owned(),
            Err(why) => format!(
                "no ({why}): a run that fills its memory with files no process maps can take its box's init with it; it is still MLE, and the next run gets a new box"
            ),
        },
    ));
    let missing = m.strict_missing();
    lines.push((
        "tier strict".to_owned(),
        if missing.is_empty() {
            "available".to_owned()
        } else {
            format!("unavailable: needs {}", missing.join(" and "))
        },
    ));
    lines.push(("tier basic, none".to_owned(), "available".to_owned()));
    lines.push(("--sandbox auto picks".to_owned(), m.auto().to_string()));
    let width = lines.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let text = lines.iter().fold(String::new(), |mut text, (k, v)| {
        let _ = writeln!(text, "{k:<width$}  {v}");
        text
    });
    report::out(&text);
    Status::Ok
}
