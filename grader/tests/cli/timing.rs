//! Honest timing on a busy machine: a run that went over the wall limit because it waited
//! for a CPU (not because it slept) is made again alone, and a run the machine kept from
//! finishing even then is no verdict: `test` says the machine was too busy (exit 3) and
//! `batch` lists the student as not graded and journals nothing for it.
//!
//! Issue 24's scenario, in both orders: a correct CPython solver graded with a 200 ms wall
//! limit beside three busy loops, and on the idle machine, on the same output folder.
//! Whatever the busy batch could or could not judge, nothing it journals is a `TLE`, and
//! the idle batch ends `AC`; a journal line an older rule wrote (a `TLE` at the wall limit
//! without the figures of its runs) is judged again when read, and its run made again.
//!
//! The busy machine is made, not hoped for: the grader is pinned to one core with
//! `taskset`, and the competition is either its own other worker or three busy loops
//! pinned to the same core (bounded, and killed on every path). What must hold on any
//! machine, however loaded, is asserted; what a loaded machine may prevent (an idle
//! batch's verdict) is made again, as a teacher would, up to a bound.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use testkit::boards::FLIP_SAMPLE;
use testkit::cases::CaseFolder;
use testkit::class::Class;
use testkit::files::{copy_tree, write};
use testkit::grader::grader_path;
use testkit::paths::repo;

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
    let cases = CaseFolder::at(dir.join("cases"));
    for name in ["a", "b"] {
        cases.case(name, FLIP_SAMPLE, "4\n");
    }
    cases.path().to_path_buf()
}

/// How long a busy loop lives at most, whatever becomes of the test that started it.
const HOG_LIFE: &str = "120";

/// Busy loops pinned to core 0, each a session of its own (the kernel's autogroups share
/// a core between sessions first: loops of one session would count as one). Each is
/// bounded (`timeout` ends it after [`HOG_LIFE`] seconds even if this test is killed) and
/// killed with its process group on drop, which a failing assertion reaches too.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start(count: usize) -> Hogs {
        Hogs(
            (0..count)
                .map(|_| {
                    // Not a group leader, so `setsid` makes the session without forking:
                    // the child is `timeout`, the leader of the group its loop is in.
                    Command::new("setsid")
                        .args(["timeout", "-s", "KILL", HOG_LIFE])
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
            let group = nix::unistd::Pid::from_raw(hog.id().cast_signed());
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// The lock of the tests that load core 0: one at a time, so that one's idle part is
/// never another's busy one.
fn core_zero() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The grader on core 0, with this test's TMPDIR and cache.
fn pinned(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    grader_on(Some("0"), dir, args)
}

/// The grader on the cores `cores` (all of them: `None`), with this test's TMPDIR and
/// cache.
fn grader_on(cores: Option<&str>, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let grader = grader_path();
    let mut command = match cores {
        Some(cores) => {
            let mut taskset = Command::new("taskset");
            taskset.args(["-c", cores]).arg(grader);
            taskset
        }
        None => Command::new(grader),
    };
    let output = command
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
    let _core = core_zero();
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
    let _core = core_zero();
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

// ------------------------------------------------- a busy machine's TLE and the journal

/// A correct CPython solver of flip, a breadth-first search from the board that stops at
/// the first uniform one: about 15 ms of CPU a case, most of it the interpreter's start.
const BFS_PY: &str = r#"import sys
from collections import deque

board = 0
for r, line in enumerate(sys.stdin.read().split()[:4]):
    for c, ch in enumerate(line):
        if ch == "b":
            board |= 1 << (r * 4 + c)
masks = []
for i in range(16):
    r, c = divmod(i, 4)
    m = 1 << i
    if r > 0: m |= 1 << (i - 4)
    if r < 3: m |= 1 << (i + 4)
    if c > 0: m |= 1 << (i - 1)
    if c < 3: m |= 1 << (i + 1)
    masks.append(m)
dist = {board: 0}
queue = deque([board])
while queue:
    b = queue.popleft()
    if b == 0 or b == 0xFFFF:
        print(dist[b])
        sys.exit(0)
    for m in masks:
        n = b ^ m
        if n not in dist:
            dist[n] = dist[b] + 1
            queue.append(n)
print("Impossible")
"#;

/// The issue's class: one student, the solver above; the six hardest-answer cases of the
/// project's flip folder (answer 6). Returns the case folder.
fn flip_class(dir: &Path) -> PathBuf {
    Class::at(dir.join("class")).write("alice.py", BFS_PY);
    let cases = dir.join("cases");
    copy_tree(&repo().join("cases/flip/data/secret/hardest"), &cases);
    cases
}

/// What one `grader batch flip class --wall-limit 0.2` gave: alice's mark, the gradebook
/// and the journal as text, the exit status and stderr.
struct Graded {
    mark: String,
    book: String,
    journal: String,
    code: Option<i32>,
    stderr: String,
}

/// `grader batch flip class --cases cases --wall-limit 0.2 --out out`, on core 0 when
/// `pinned` (beside the busy loops) or on every core; asserts it gave no `TLE`, in the
/// gradebook or in what it journaled: the solver is correct, and nothing the machine did
/// is a mark.
fn batch(dir: &Path, pinned: bool) -> Graded {
    let before = fs::read_to_string(dir.join("out/journal.jsonl")).unwrap_or_default();
    let (code, stdout, stderr) = grader_on(
        pinned.then_some("0"),
        dir,
        &[
            "batch",
            "flip",
            "class",
            "--cases",
            "cases",
            "--wall-limit",
            "0.2",
            "--out",
            "out",
            "--jobs",
            "2",
        ],
    );
    let book = fs::read_to_string(dir.join("out/gradebook.json"))
        .unwrap_or_else(|e| panic!("{e}: exit {code:?}\n{stdout}\n{stderr}"));
    let journal = fs::read_to_string(dir.join("out/journal.jsonl")).unwrap_or_default();
    let value: Value = serde_json::from_str(&book).unwrap();
    let mark = value["students"][0]["verdict"].as_str().unwrap().to_owned();
    let appended = journal.strip_prefix(before.as_str()).unwrap_or_else(|| {
        panic!("the journal was rewritten, not appended to:\n{before}\n{journal}")
    });
    assert!(
        !book.contains("\"TLE\"") && !appended.contains("\"TLE\""),
        "a machine-made TLE: exit {code:?}\n{stderr}\n{book}\n{journal}"
    );
    // Graded (`AC`, exit 0) or not, when the machine kept a case from being judged
    // (`--`, exit 1): nothing else.
    assert!(
        matches!((mark.as_str(), code), ("AC", Some(0)) | ("--", Some(1))),
        "exit {code:?}\n{stderr}\n{book}"
    );
    if mark == "--" {
        assert!(book.contains("too busy to judge fairly"), "{book}");
    }
    Graded {
        mark,
        book,
        journal,
        code,
        stderr,
    }
}

/// The same command on the idle machine (every core, no busy loop), made again while the
/// machine others share keeps a case from being judged (a rerun grades only what the
/// journal lacks): it ends `AC`.
fn graded_idle(dir: &Path) -> Graded {
    for _ in 0..10 {
        let graded = batch(dir, false);
        if graded.mark != "--" {
            assert_eq!(graded.mark, "AC", "{}", graded.book);
            return graded;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    panic!("ten idle batches in a row could not judge the solver");
}

#[test]
fn a_correct_solver_graded_beside_busy_loops_then_on_the_idle_machine_is_ac() {
    let _core = core_zero();
    let dir = tempfile::tempdir().unwrap();
    flip_class(dir.path());
    let busy = {
        let _hogs = Hogs::start(3);
        batch(dir.path(), true)
    };
    // What the busy batch journaled stays (each line `AC`); the rest is graded now.
    let idle = graded_idle(dir.path());
    for line in busy.journal.lines() {
        assert!(idle.journal.contains(line), "{line}\n{}", idle.journal);
    }
    // Its version line, and a line a run.
    assert_eq!(idle.journal.lines().count(), 7, "{}", idle.journal);
    assert_eq!(idle.code, Some(0));
}

#[test]
fn a_correct_solver_graded_on_the_idle_machine_then_beside_busy_loops_keeps_its_ac() {
    let _core = core_zero();
    let dir = tempfile::tempdir().unwrap();
    flip_class(dir.path());
    let idle = graded_idle(dir.path());
    // Half the runs journaled (after the version line), as a batch stopped midway leaves
    // them; the busy batch grades the others, and takes the journaled ones as they are.
    let kept: Vec<&str> = idle.journal.lines().take(4).collect();
    fs::write(dir.path().join("out/journal.jsonl"), kept.join("\n") + "\n").unwrap();
    let busy = {
        let _hogs = Hogs::start(3);
        batch(dir.path(), true)
    };
    for line in &kept {
        assert!(busy.journal.contains(line), "{line}\n{}", busy.journal);
    }
    match busy.mark.as_str() {
        "AC" => assert_eq!(busy.journal.lines().count(), 7, "{}", busy.journal),
        _ => assert!(busy.stderr.contains("too busy"), "{}", busy.stderr),
    }
    // Once more beside nothing: `AC`, whatever the busy batch could not judge.
    assert_eq!(graded_idle(dir.path()).journal.lines().count(), 7);
}

#[test]
fn a_journaled_tle_of_an_older_rule_is_judged_again_and_its_run_made_again() {
    let _core = core_zero();
    let dir = tempfile::tempdir().unwrap();
    flip_class(dir.path());
    let idle = graded_idle(dir.path());
    // The journal as the older grader left it in the issue's scenario: one case
    // journaled as a `TLE` at the wall limit, without the figures of its runs.
    let mut lines: Vec<String> = idle.journal.lines().map(str::to_owned).collect();
    // The first run's line, after the version's.
    let mut old: Value = serde_json::from_str(&lines[1]).unwrap();
    old["result"]["verdict"] = "TLE".into();
    old["result"]["wall_ms"] = 316.079.into();
    old["result"]["message"] =
        "wall time over the 200 ms limit with 13 ms of CPU: the program slept or waited".into();
    lines[1] = old.to_string();
    fs::write(
        dir.path().join("out/journal.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let again = graded_idle(dir.path());
    assert!(
        again
            .stderr
            .contains("1 run of journal.jsonl is made again"),
        "{}",
        again.stderr
    );
    // The old line stays in the file, and is left out each time it is read: the run
    // made again is the one that counts.
    assert_eq!(again.journal.lines().count(), 8, "{}", again.journal);
    assert!(
        again
            .journal
            .lines()
            .last()
            .unwrap()
            .contains(old["key"].as_str().unwrap())
    );
}
