//! Edges of issue 37: readers that stop (a device as a gradebook, stdin without end),
//! output that fails (stdout on a full device is exit 2, a closed pipe stays quiet),
//! names that are not UTF-8 or hold a line end or a terminal's control bytes, and wrong
//! values of whole-number flags.
//!
//! Calls that could read without end run under a cap on their address space, so that a
//! regression fails here rather than eating the machine's memory.

use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use testkit::boards::FLIP_SAMPLE;
use testkit::class::Class;
use testkit::files::write;
use testkit::grader::{grader, grader_path, one_error_line};
use testkit::paths::{fixture, repo, two_cases};
use testkit::scene::Scene;

const TIMEOUT: Duration = Duration::from_mins(2);

/// `grader ARGS` with its address space capped at 2 GiB (a read without end fails at the
/// cap instead of growing to the machine's memory).
fn capped(args: &[&str]) -> Command {
    let mut cmd = Command::new("prlimit");
    cmd.arg("--as=2147483648")
        .arg("--")
        .arg(grader_path())
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(TIMEOUT);
    cmd
}

/// A scene for calls that run programs, with a class folder, `class`.
struct Place {
    scene: Scene,
    class: Class,
}

impl Place {
    fn new() -> Place {
        let scene = Scene::new(TIMEOUT);
        let class = Class::at(scene.path("class"));
        Place { scene, class }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    /// Adds a student: the file `name` (any bytes) in the class folder, a copy of the
    /// fixture `flip/ac_rows.py`.
    fn student(&self, name: &[u8]) {
        self.class.copy(
            std::ffi::OsStr::from_bytes(name),
            &fixture("flip/ac_rows.py"),
        );
    }

    /// `grader ARGS` here, as a plain process (whose streams may go anywhere).
    fn process(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = self.scene.process();
        cmd.args(args);
        cmd
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = self.scene.grader();
        cmd.args(args);
        cmd
    }

    /// `grader batch flip class` on the two-case folder into `out`, with `extra`.
    fn batch(&self, out: &str, extra: &[&str]) -> std::process::Command {
        let mut cmd = self.process(&["batch", "flip", "class", "--out", out, "--cases"]);
        cmd.arg(two_cases()).args(extra);
        cmd
    }
}

/// Runs `cmd` with its stdout on a device that is always full: exit 2, and the last line
/// on stderr says so (a note on the sandbox's tier, or a student's progress line, may
/// come before it).
fn on_a_full_device(mut cmd: std::process::Command) {
    let output = cmd.stdout(full()).stderr(Stdio::piped()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{cmd:?}: {stderr}");
    assert!(
        stderr.ends_with(&format!("grader: error: {NO_SPACE} (os error 28)\n")),
        "{cmd:?}: {stderr}"
    );
}

/// Stdout on a device that is always full.
fn full() -> Stdio {
    Stdio::from(fs::File::create("/dev/full").unwrap())
}

const NO_SPACE: &str = "cannot write standard output: No space left on device";

// ---------------------------------------------------------------- readers

#[test]
fn merge_refuses_a_device_or_a_fifo_as_a_gradebook_and_reads_no_more_than_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let random = dir.path().join("shard.json");
    std::os::unix::fs::symlink("/dev/urandom", &random).unwrap();
    let fifo = dir.path().join("fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let out = dir.path().join("out");
    for (path, what) in [
        (
            Path::new("/dev/zero"),
            "is a character device, expected a file",
        ),
        (&random, "is a character device, expected a file"),
        // Never opened: an open of a FIFO waits for a writer that never comes.
        (&fifo, "is a FIFO (a named pipe), expected a file"),
    ] {
        let path = path.to_str().unwrap();
        capped(&["merge", path, "--out", out.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(what))
            .stderr(predicate::str::contains(path));
    }
}

#[test]
fn stdin_and_input_files_without_end_are_read_to_16_mib_and_refused() {
    let dir = tempfile::tempdir().unwrap();
    let output = write(dir.path(), "out.txt", "4\n");
    for args in [
        &["solve", "flip"][..],
        &["validate", "flip"],
        &["mutant", "flip", "one-colour"],
    ] {
        // Handed over as the device itself: assert_cmd's `pipe_stdin` reads the file
        // whole first, into the test's own memory.
        let mut cmd = std::process::Command::new("prlimit");
        cmd.arg("--as=2147483648")
            .arg("--")
            .arg(grader_path())
            .args(args)
            .stdin(fs::File::open("/dev/zero").unwrap());
        // Run as it is: assert_cmd would hand it an empty stdin instead.
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            one_error_line("<stdin>: larger than 16 MiB").eval(&stderr),
            "{args:?}: {stderr}"
        );
    }
    capped(&["check", "flip", "/dev/zero", output.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(one_error_line("/dev/zero: larger than 16 MiB"));
    capped(&["solve", "flip", "/dev/urandom"])
        .assert()
        .code(2)
        .stderr(one_error_line("/dev/urandom: larger than 16 MiB"));
}

// ---------------------------------------------------------------- stdout

#[test]
fn a_full_stdout_is_exit_2_for_every_command_that_prints() {
    let place = Place::new();
    place.student(b"alice.py");
    let board = write(&place.path("."), "board.in", FLIP_SAMPLE);
    let board = board.to_str().unwrap();
    let answer = write(&place.path("."), "board.ans", "4\n");
    let answer = answer.to_str().unwrap();
    let submission = fixture("flip/ac_rows.py");
    let submission = submission.to_str().unwrap();
    let cases = two_cases();
    let cases = cases.to_str().unwrap();
    let shipped = repo().join("cases");
    let shipped = shipped.to_str().unwrap();
    // The batch's own gradebook, for `merge` below.
    Command::from_std(place.batch("first", &[]))
        .timeout(TIMEOUT)
        .assert()
        .success();
    let calls: &[&[&str]] = &[
        &["test", "flip", submission, "--cases", cases],
        &[
            "test", "flip", submission, "--cases", cases, "--report", "json",
        ],
        &[
            "test", "flip", submission, "--cases", cases, "--report", "junit",
        ],
        &["solve", "flip", board],
        &["solve", "flip", board, "--report", "json", "--explain"],
        &["check", "flip", board, answer],
        &["validate", "flip", board],
        &["gen", "flip", "--seed", "1"],
        &["gen", "flip", "--seed", "1", "--count", "3000"],
        &["mutant", "flip", "one-colour", board],
        &["problems"],
        &["problems", "flip"],
        &[
            "merge",
            "first/gradebook.json",
            "--out",
            "merged",
            "--report",
            "csv",
        ],
        &["merge", "first/gradebook.json", "--out", "merged"],
        &["cases", "check", "flip", "--root", shipped],
        &["--help"],
        &["test", "--help"],
    ];
    for args in calls {
        on_a_full_device(place.process(args));
    }
    for report in ["csv", "json", "junit", "human"] {
        on_a_full_device(place.batch("second", &["--report", report]));
    }
}

#[test]
fn a_closed_pipe_on_stdout_stays_quiet() {
    // Two megabytes: far past a pipe's buffer, so the writes meet the closed end.
    let mut child = std::process::Command::new(grader_path())
        .args(["gen", "flip", "--seed", "1", "--count", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

// ---------------------------------------------------------------- names

#[test]
fn students_whose_names_are_not_utf8_are_graded_apart() {
    let place = Place::new();
    place.student(b"\xff.py");
    place.student(b"\xfe.py");
    let output = place.batch("book", &["--report", "json"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let book: Value = serde_json::from_slice(&output.stdout).unwrap();
    let students: Vec<(&str, &str, &str)> = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap(),
                s["submission"].as_str().unwrap(),
                s["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        students,
        [("\\xfe", "\\xfe.py", "AC"), ("\\xff", "\\xff.py", "AC")]
    );
    // The same spelling in every form, and in the journal.
    let csv = fs::read_to_string(place.path("book/gradebook.csv")).unwrap();
    assert!(
        csv.contains("\n\\xfe,\\xfe.py,") && csv.contains("\n\\xff,\\xff.py,"),
        "{csv}"
    );
    let journal = fs::read_to_string(place.path("book/journal.jsonl")).unwrap();
    assert!(journal.contains(r#""student":"\\xff""#), "{journal}");
    assert!(!stderr.contains('\u{fffd}'), "{stderr}");
}

#[test]
fn a_students_progress_line_is_one_line_whatever_the_name() {
    let place = Place::new();
    place.student(b"b\x1b[31mo\nb.py");
    let output = place.batch("book", &["--report", "csv"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with("[1/1] ")).collect();
    assert_eq!(progress, ["[1/1] b\\x1b[31mo\\nb: all AC"], "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

#[test]
fn an_error_line_escapes_a_line_end_in_a_name() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a\nb.in", "xx\n");
    grader()
        .current_dir(dir.path())
        .args(["solve", "flip", "a\nb.in"])
        .assert()
        .code(2)
        .stderr(one_error_line("a\\nb.in:1:1: expected `b` or `w`"));
    // A file that is not UTF-8 is named by its bytes.
    let name = std::ffi::OsStr::from_bytes(b"\xff.in");
    fs::write(dir.path().join(name), "xx\n").unwrap();
    grader()
        .current_dir(dir.path())
        .arg("solve")
        .arg("flip")
        .arg(name)
        .assert()
        .code(2)
        .stderr(one_error_line("\\xff.in:1:1: expected `b` or `w`"));
}

#[test]
fn junk_a_message_echoes_never_reaches_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    // An OSC title sequence ended by BEL, a CSI colour, and the C1 CSI (U+009B).
    write(
        dir.path(),
        "junk.txt",
        "\u{1b}]0;owned\u{7}fl\u{9b}2Jip\u{1b}[31m seed=1\n",
    );
    let output = grader()
        .current_dir(dir.path())
        .args(["fuzz", "flip", "--cmd", "true", "--regressions", "junk.txt"])
        .args(["--runs", "1"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("grader: error: junk.txt:1:1: unknown problem `")
            && stderr.contains("\\x1b]0;owned\\x07fl\\u{9b}2Jip\\x1b[31m"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for control in ['\u{1b}', '\u{7}', '\u{9b}'] {
        assert!(!stderr.contains(control), "{stderr:?}");
    }
}

// ---------------------------------------------------------------- flags

#[test]
fn a_negative_value_of_a_whole_number_flag_names_the_flag_and_what_it_takes() {
    let calls: &[(&[&str], &str)] = &[
        (
            &["test", "flip", "a.c", "--jobs", "-1"],
            "--jobs -1: expected a whole number from 1 to 256",
        ),
        (
            &["fuzz", "flip", "a.c", "--jobs", "-1"],
            "--jobs -1: expected a whole number",
        ),
        (
            &["batch", "flip", "class", "--jobs", "-1"],
            "--jobs -1: expected a whole number",
        ),
        (
            &["package", "verify", "pkg", "--jobs", "-1"],
            "--jobs -1: expected a whole number",
        ),
        (
            &["test", "flip", "a.c", "--max-processes", "-1"],
            "--max-processes -1: expected a whole number from 1 to 100000",
        ),
        (
            &["gen", "flip", "--seed", "-1"],
            "--seed -1: expected a whole number from 0 to ",
        ),
        (
            &["fuzz", "flip", "a.c", "--seed", "-7"],
            "--seed -7: expected a whole number",
        ),
        (
            &["gen", "flip", "--seed", "1", "--count", "-1"],
            "--count -1: expected a whole number from 1 to 100000",
        ),
        (
            &["fuzz", "flip", "a.c", "--runs", "-1"],
            "--runs -1: expected a whole number from 1 to",
        ),
        (
            &["fuzz", "flip", "a.c", "--shrink-steps", "-1"],
            "--shrink-steps -1: expected a whole number from 0 to",
        ),
        (
            &["batch", "flip", "class", "--stop-after-wall-tles", "-1"],
            "--stop-after-wall-tles -1: expected a whole number from 0 to",
        ),
        (
            &["batch", "flip", "class", "--shard", "-1/4"],
            "--shard -1/4: expected K/N",
        ),
        (
            &["gen", "flip", "--seed", "1.5"],
            "--seed 1.5: expected a whole number",
        ),
        (
            &["test", "flip", "a.c", "--jobs", "0"],
            "--jobs 0: expected a whole number from 1 to 256",
        ),
    ];
    for &(args, says) in calls {
        grader()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(says))
            .stderr(predicate::str::contains("tip").not());
    }
}

#[test]
fn merge_names_both_gradebooks_of_a_student_graded_twice() {
    let place = Place::new();
    place.student(b"alice.py");
    Command::from_std(place.batch("shard", &[]))
        .timeout(TIMEOUT)
        .assert()
        .success();
    fs::copy(place.path("shard/gradebook.json"), place.path("copy.json")).unwrap();
    place
        .command(&[
            "merge",
            "shard/gradebook.json",
            "copy.json",
            "--out",
            "merged",
        ])
        .assert()
        .code(2)
        .stderr(one_error_line(
            "`alice` is graded in two of the gradebooks: shard/gradebook.json and copy.json",
        ));
    place
        .command(&["merge", "copy.json", "copy.json", "--out", "merged"])
        .assert()
        .code(2)
        .stderr(one_error_line(
            "`alice` is graded in two of the gradebooks: copy.json and copy.json (the same \
             file, given twice)",
        ));
}

#[test]
fn merge_without_a_gradebook_asks_for_one_by_the_docs_name() {
    grader()
        .arg("merge")
        .assert()
        .code(2)
        .stderr(one_error_line(
            "missing required argument: <GRADEBOOK.json>",
        ));
}
