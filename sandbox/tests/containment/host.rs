//! A run sees nothing of the machine: its hostname, the folders of its cases and of its
//! launcher, the caller's environment, where its standard input comes from; and its init
//! keeps the OOM killer off itself where the kernel lets it.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

/// The values of `ac_sees_nothing_of_the_host.c`: the machine's hostname, the cases'
/// folder, the launcher's folder (this binary's: it is its own launcher), and init's OOM
/// score as the launcher can set it (`-1000` where this kernel lets this process lower it
/// and init lives in its worker's memory group, as on cgroup v1; else `0`).
fn host_vars(cases: &Path) -> Vec<(&'static str, String)> {
    let hostname = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    // On v1 the launcher joins its worker's groups (and keeps the OOM killer off itself);
    // on v2 it stays outside them.
    let resident = fs::read_to_string("/proc/self/cgroup")
        .unwrap()
        .lines()
        .any(|line| {
            line.split(':')
                .nth(1)
                .is_some_and(|c| c.split(',').any(|c| c == "memory"))
        });
    let lowered = resident
        && Command::new("sh")
            .args(["-c", "echo -1000 > /proc/self/oom_score_adj"])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success();
    let launcher = std::env::current_exe().unwrap();
    vec![
        ("HOSTNAME", hostname.trim().to_owned()),
        ("CASES", cases.to_string_lossy().into_owned()),
        (
            "LAUNCHER",
            launcher.parent().unwrap().to_string_lossy().into_owned(),
        ),
        ("OOM_SCORE", if lowered { "-1000" } else { "0" }.to_owned()),
    ]
}

pub(crate) fn a_run_sees_nothing_of_the_host() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 2);
    let vars = host_vars(cases[0].parent().unwrap());
    let row: Row = ("ac_sees_nothing_of_the_host.c", None, "AC");
    let in_tier = |tier| limits(tier, 2, 6, 256);
    let test = "a_run_sees_nothing_of_the_host";
    grade_rows(
        &mut scene,
        test,
        &[row],
        &cases,
        in_tier,
        &vars,
        |_, _, _| {},
    );
    scene.finish();
}
