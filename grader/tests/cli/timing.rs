//! Honest timing on a busy machine: a run that went over the wall limit because it waited
//! for a CPU (not because it slept) is made again alone, and a run the machine kept from
//! finishing even then is no verdict: `test` says the machine was too busy (exit 3) and
//! `batch` lists the student as not graded and journals nothing for it.
//!
//! The busy machine is made, not hoped for: the grader is pinned to one core with
//! `taskset`, and the competition is either its own other worker or three busy loops
//! pinned to the same core.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use super::{FLIP_SAMPLE, write};

/// A correct answer for the flip sample after 0.6 s of CPU: 1.2 s of wall time on a core
/// shared with one other such run, 0.6 s alone.
const SPIN_THEN_ANSWER: &str = r#"#include <stdio.h>
#include <time.h>
int main(void) {
    volatile unsigned long n = 0;
    while (clock() < CLOCKS_PER_SEC * 6 / 10) n++;
    puts("4");
    return 0;
}
"#;

/// Two cases, both the flip sample.
fn two_cases(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    for name in ["a", "b"] {
        write(&cases, &format!("{name}.in"), FLIP_SAMPLE);
        write(&cases, &format!("{name}.ans"), "4\n");
    }
    cases
}

/// Busy loops pinned to core 0, each a session of its own (the kernel's autogroups share
/// a core between sessions first: loops of one session would count as one); killed on
/// drop.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start(count: usize) -> Hogs {
        Hogs(
            (0..count)
                .map(|_| {
                    // Not a group leader, so `setsid` makes the session without forking:
                    // the child is the loop itself.
                    Command::new("setsid")
                        .args(["taskset", "-c", "0", "sh", "-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// The grader on core 0, with this test's TMPDIR and cache.
fn pinned(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let output = Command::new("taskset")
        .args(["-c", "0"])
        .arg(assert_cmd::cargo::cargo_bin("grader"))
        .args(args)
        .args(["--cache-dir", dir.join("cache").to_str().unwrap()])
        .current_dir(dir)
        .env("TMPDIR", &tmp)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        fs::read_dir(&tmp).unwrap().next().is_none(),
        "TMPDIR not empty"
    );
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_run_held_back_by_the_graders_own_other_run_is_made_again_alone() {
    let dir = tempfile::tempdir().unwrap();
    let cases = two_cases(dir.path());
    let program = write(dir.path(), "spin.c", SPIN_THEN_ANSWER);
    let (code, stdout, stderr) = pinned(
        dir.path(),
        &[
            "test",
            "flip",
            program.to_str().unwrap(),
            "--cases",
            cases.to_str().unwrap(),
            "--jobs",
            "2",
            "--time-limit",
            "10",
            "--wall-limit",
            "1",
            "--report",
            "json",
        ],
    );
    // Alone, each run needs 0.6 s of its 1 s: `AC`. On a machine loaded by others too,
    // the run made alone may still be held back: then the grader says so. Never a `TLE`.
    match code {
        Some(0) => {
            let report: Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(report["verdict"], "AC", "{report:#}");
            assert_eq!(report["passed"], 2, "{report:#}");
        }
        Some(3) => assert!(stderr.contains("too busy to judge fairly"), "{stderr}"),
        _ => panic!("exit {code:?}\n{stdout}\n{stderr}"),
    }
}

#[test]
fn a_machine_kept_busy_is_no_mark_in_test_or_batch() {
    let dir = tempfile::tempdir().unwrap();
    let cases = two_cases(dir.path());
    let class = dir.path().join("class");
    let program = write(&class, "spinner.c", SPIN_THEN_ANSWER);
    let _hogs = Hogs::start(3);
    let (code, stdout, stderr) = pinned(
        dir.path(),
        &[
            "test",
            "flip",
            program.to_str().unwrap(),
            "--cases",
            cases.to_str().unwrap(),
            "--jobs",
            "1",
            "--time-limit",
            "10",
            "--wall-limit",
            "1",
        ],
    );
    assert_eq!(code, Some(3), "{stdout}\n{stderr}");
    assert!(stderr.contains("too busy to judge fairly"), "{stderr}");
    assert!(stderr.contains("waiting for a CPU"), "{stderr}");
    let out = dir.path().join("out");
    let (code, stdout, stderr) = pinned(
        dir.path(),
        &[
            "batch",
            "flip",
            class.to_str().unwrap(),
            "--cases",
            cases.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
            "--time-limit",
            "10",
            "--wall-limit",
            "1",
        ],
    );
    let gradebook: Value =
        serde_json::from_str(&fs::read_to_string(out.join("gradebook.json")).unwrap()).unwrap();
    let text = gradebook.to_string();
    assert!(
        text.contains("too busy to judge fairly"),
        "exit {code:?}\n{stdout}\n{stderr}\n{gradebook:#}"
    );
    assert!(!text.contains("\"TLE\""), "{gradebook:#}");
    // The journal keeps no verdict the machine caused: the next batch grades it again.
    let journal = fs::read_to_string(out.join("journal.jsonl")).unwrap_or_default();
    assert!(!journal.contains("\"TLE\""), "{journal}");
}
