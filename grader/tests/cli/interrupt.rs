//! Ctrl-C, SIGTERM and SIGKILL in the middle of a command: the runs stop, the exit status
//! is 128 + the signal, the batch journal keeps exactly the runs that finished, and the
//! grader's TMPDIR is left empty (by the command itself, or, after a SIGKILL, by the next
//! grader that runs a program). No program of the stopped command survives it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{repo, write};

/// A program that names itself `name` (so a survivor can be found) and sleeps for longer
/// than any test.
fn sleeper(dir: &Path, file: &str, name: &str) -> PathBuf {
    write(
        dir,
        file,
        format!("import time\nopen('/proc/self/comm', 'w').write('{name}')\ntime.sleep(600)\n"),
    )
}

/// Processes whose name is `name`, machine-wide.
fn survivors(name: &str) -> usize {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| fs::read_to_string(e.path().join("comm")).ok())
        .filter(|comm| comm.trim() == name)
        .count()
}

/// Waits (at most a minute, for a busy machine) until `ready` holds.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_mins(1), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts the grader with `args` and this TMPDIR, its output kept.
fn start(tmp: &Path, dir: &Path, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("grader"))
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, signal: nix::sys::signal::Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id().cast_signed()), signal).unwrap();
}

/// Waits for the grader to end (within a minute: the command must stop by itself); its
/// exit status and standard error.
fn finish(mut child: Child) -> (Option<i32>, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let output = child.wait_with_output().unwrap();
            return (
                status.code(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            );
        }
        if start.elapsed() > Duration::from_mins(1) {
            let _ = child.kill();
            panic!("the grader did not stop after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn entries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn sigterm_stops_a_batch_keeps_the_finished_runs_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let class = dir.path().join("class");
    // Students are graded one after another: the correct one first, then two that sleep.
    fs::create_dir_all(&class).unwrap();
    fs::copy(repo().join("examples/flip/ac_bfs.c"), class.join("a_ok.c")).unwrap();
    sleeper(&class, "b_sleeps.py", "grader-sigterm");
    sleeper(&class, "c_sleeps.py", "grader-sigterm");
    let out = dir.path().join("out");
    let child = start(
        &tmp,
        dir.path(),
        &[
            "batch",
            "flip",
            class.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--cache-dir",
            dir.path().join("cache").to_str().unwrap(),
            "--jobs",
            "2",
            "--time-limit",
            "5",
            "--wall-limit",
            "300",
        ],
    );
    wait_until("the sleepers run", || survivors("grader-sigterm") == 2);
    signal(&child, nix::sys::signal::Signal::SIGTERM);
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(143), "{stderr}");
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .starts_with("grader: error: interrupted"),
        "{stderr}"
    );
    wait_until("no program survives", || survivors("grader-sigterm") == 0);
    assert!(entries(&tmp).is_empty(), "{:?}", entries(&tmp));
    // The journal holds every run of the correct student, each whole, and nothing of a
    // run the grader killed on its way out.
    let journal = fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!records.is_empty());
    assert!(
        records
            .iter()
            .all(|r| r["student"] == "a_ok" && r["result"]["verdict"] == "AC"),
        "{journal}"
    );
    // No gradebook was written from a half-graded class.
    assert!(!out.join("gradebook.json").exists());
}

#[test]
fn ctrl_c_stops_a_test_at_once_and_a_second_one_ends_it_now() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let program = sleeper(dir.path(), "sleeps.py", "grader-sigint");
    let run = |twice: bool| {
        let child = start(
            &tmp,
            dir.path(),
            &[
                "test",
                "flip",
                program.to_str().unwrap(),
                "--time-limit",
                "5",
                "--wall-limit",
                "300",
            ],
        );
        wait_until("the program runs", || survivors("grader-sigint") >= 1);
        signal(&child, nix::sys::signal::Signal::SIGINT);
        if twice {
            signal(&child, nix::sys::signal::Signal::SIGINT);
        }
        let (code, stderr) = finish(child);
        assert_eq!(code, Some(130), "{stderr}");
        wait_until("no program survives", || survivors("grader-sigint") == 0);
        assert!(entries(&tmp).is_empty(), "{:?}", entries(&tmp));
    };
    run(false);
    run(true);
}

#[test]
fn a_killed_graders_folders_go_when_the_next_grader_runs_a_program() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let program = sleeper(dir.path(), "sleeps.py", "grader-sigkill");
    // Another user's folder and a file of the same look are none of ours.
    fs::create_dir(tmp.join("grader-tmp-unlocked")).unwrap();
    fs::write(tmp.join("grader-tmp-file"), "keep").unwrap();
    let child = start(
        &tmp,
        dir.path(),
        &[
            "test",
            "flip",
            program.to_str().unwrap(),
            "--time-limit",
            "5",
            "--wall-limit",
            "300",
        ],
    );
    wait_until("the program runs", || survivors("grader-sigkill") >= 1);
    signal(&child, nix::sys::signal::Signal::SIGKILL);
    let (code, _) = finish(child);
    assert_eq!(code, None);
    // The launchers die with the grader, and the boxes with them.
    wait_until("no program survives", || survivors("grader-sigkill") == 0);
    let left: Vec<String> = entries(&tmp)
        .into_iter()
        .filter(|n| {
            n.starts_with("grader-tmp-") && n != "grader-tmp-unlocked" && n != "grader-tmp-file"
        })
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // The next grader that runs a program sweeps it before it makes its own folder (and
    // removes its own at its end).
    let cases = dir.path().join("cases");
    write(&cases, "1.in", super::FLIP_SAMPLE);
    write(&cases, "1.ans", "4\n");
    super::grader()
        .env("TMPDIR", &tmp)
        .current_dir(dir.path())
        .args(["test", "flip", "--cmd", "echo 4", "--cases"])
        .arg(&cases)
        .assert()
        .success();
    let mut now = entries(&tmp);
    now.sort();
    assert_eq!(now, ["grader-tmp-file", "grader-tmp-unlocked"]);
}
