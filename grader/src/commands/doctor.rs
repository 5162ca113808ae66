//! `grader doctor`: what isolation this machine can give programs, probed, and the tier
//! `--sandbox auto` picks.

use std::fmt::Write as _;

use crate::exec::sandbox::Machine;
use crate::report;
use crate::status::Status;

pub(crate) fn run() -> Status {
    let m = Machine::probe();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut lines = vec![
        (
            "process groups, rlimits, wait4".to_owned(),
            "yes".to_owned(),
        ),
        (
            "unprivileged user".to_owned(),
            if m.root {
                "yes: the grader is root, programs run as nobody (65534)".to_owned()
            } else {
                "no: the grader is not root, programs run as its own user".to_owned()
            },
        ),
        (
            "Landlock".to_owned(),
            match m.landlock {
                0 => "no".to_owned(),
                abi => format!(
                    "ABI {abi}: files{}{}",
                    if abi >= 4 { ", TCP" } else { "" },
                    if abi >= 6 {
                        ", signal and abstract-socket scopes"
                    } else {
                        ""
                    }
                ),
            },
        ),
        ("seccomp".to_owned(), yes_no(m.seccomp).to_owned()),
        (
            "user namespaces".to_owned(),
            format!("{} (not used)", yes_no(m.user_namespaces)),
        ),
        (
            "cgroup v1 memory".to_owned(),
            format!(
                "{} (not used: peak memory comes from wait4)",
                yes_no(m.cgroup_memory)
            ),
        ),
    ];
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
