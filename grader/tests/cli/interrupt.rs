//! Ctrl-C, SIGTERM and SIGKILL in the middle of a command: the runs stop, the exit status
//! is 128 + the signal, the batch journal keeps exactly the runs that finished, and the
//! grader's TMPDIR is left empty (by the command itself, or, after a SIGKILL, by the next
//! grader that runs a program). No program of the stopped command survives it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use testkit::boards::FLIP_SAMPLE;
use testkit::cases::CaseFolder;
use testkit::files::{names, write};
use testkit::gradebook::JOURNAL_HEADER;
use testkit::grader::{grader, grader_path};
use testkit::paths::repo;
use testkit::processes::{self, wait_until};

/// A program that names itself `name` (so a survivor can be found) and sleeps for longer
/// than any test.
fn sleeper(dir: &Path, file: &str, name: &str) -> PathBuf {
    write(
        dir,
        file,
        format!("import time\nopen('/proc/self/comm', 'w').write('{name}')\ntime.sleep(600)\n"),
    )
}

/// How long a step may take on a busy machine before the test gives up.
const PATIENCE: Duration = Duration::from_mins(1);

/// Starts the grader with `args` and this TMPDIR, its output kept.
fn start(tmp: &Path, dir: &Path, args: &[&str]) -> Child {
    Command::new(grader_path())
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
    wait_until("the sleepers run", PATIENCE, || {
        processes::named("grader-sigterm") == 2
    });
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
    wait_until("no program survives", PATIENCE, || {
        processes::named("grader-sigterm") == 0
    });
    assert!(names(&tmp).is_empty(), "{:?}", names(&tmp));
    // The journal holds every run of the correct student, each whole, and nothing of a
    // run the grader killed on its way out.
    let journal = fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let mut lines = journal.lines();
    assert_eq!(lines.next(), Some(JOURNAL_HEADER), "{journal}");
    let records: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
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
        wait_until("the program runs", PATIENCE, || {
            processes::named("grader-sigint") >= 1
        });
        signal(&child, nix::sys::signal::Signal::SIGINT);
        if twice {
            signal(&child, nix::sys::signal::Signal::SIGINT);
        }
        let (code, stderr) = finish(child);
        assert_eq!(code, Some(130), "{stderr}");
        wait_until("no program survives", PATIENCE, || {
            processes::named("grader-sigint") == 0
        });
        assert!(names(&tmp).is_empty(), "{:?}", names(&tmp));
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
    wait_until("the program runs", PATIENCE, || {
        processes::named("grader-sigkill") >= 1
    });
    signal(&child, nix::sys::signal::Signal::SIGKILL);
    let (code, _) = finish(child);
    assert_eq!(code, None);
    // The launchers die with the grader, and the boxes with them.
    wait_until("no program survives", PATIENCE, || {
        processes::named("grader-sigkill") == 0
    });
    let left: Vec<String> = names(&tmp)
        .into_iter()
        .filter(|n| {
            n.starts_with("grader-tmp-") && n != "grader-tmp-unlocked" && n != "grader-tmp-file"
        })
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // The next grader that runs a program sweeps it before it makes its own folder (and
    // removes its own at its end).
    let cases = dir.path().join("cases");
    CaseFolder::at(&cases).case("1", FLIP_SAMPLE, "4\n");
    grader()
        .env("TMPDIR", &tmp)
        .current_dir(dir.path())
        .args(["test", "flip", "--cmd", "echo 4", "--cases"])
        .arg(&cases)
        .assert()
        .success();
    assert_eq!(names(&tmp), ["grader-tmp-file", "grader-tmp-unlocked"]);
}

/// Runs `"$@"` (after a program name and a count) as a child subreaper would see it:
/// once the program of that name runs, sends the grader that many SIGINTs; after the
/// grader ends, every process it left (alive or a zombie) has been reparented here.
/// Prints the grader's exit status, then one line per process left, and reaps them.
const SUBREAPER: &str = r#"
import ctypes, os, signal, subprocess, sys, tempfile, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
name, signals, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def named(name):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if open(f"/proc/{pid}/comm").read().strip() == name:
                return True
        except OSError:
            pass
    return False

err = tempfile.TemporaryFile()
grader = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
if signals:
    deadline = time.monotonic() + 60
    while not named(name):
        if time.monotonic() > deadline or grader.poll() is not None:
            sys.exit("the program never ran")
        time.sleep(0.05)
    for _ in range(signals):
        grader.send_signal(signal.SIGINT)
grader.wait(timeout=120)
time.sleep(0.3)
print(grader.returncode)
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    after = stat[stat.rindex(")") + 2:].split()
    if int(after[1]) == os.getpid():
        left.append(int(pid))
        print(pid, stat[stat.index("(") + 1:stat.rindex(")")], "state", after[0])
for pid in left:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
err.seek(0)
sys.stderr.write(err.read().decode(errors="replace"))
"#;

/// The grader with `args` in `dir` under [`SUBREAPER`]: its exit status and the
/// processes it left.
fn left_behind(dir: &Path, name: &str, signals: u32, args: &[&str]) -> (i32, Vec<String>, String) {
    let output = Command::new("python3")
        .args(["-c", SUBREAPER, name, &signals.to_string()])
        .arg(grader_path())
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", dir.join("tmp"))
        .env("GRADER_CACHE_DIR", dir.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut lines = stdout.lines();
    let code = lines
        .next()
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("the subreaper failed: {stdout}{stderr}"));
    (
        code,
        lines.map(str::to_owned).collect(),
        stderr.into_owned(),
    )
}

/// Every launcher and box is reaped before the grader exits, on every path: the end of
/// `test`, `batch` and `fuzz`, one Ctrl-C and two, in each tier that has launchers. (A
/// launcher killed outright used to leave its box's init as a zombie for the machine's
/// init, which in a container whose pid 1 is a shell is never reaped.)
#[test]
fn no_process_of_the_grader_outlives_it_not_even_a_zombie() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir(root.join("tmp")).unwrap();
    let class = root.join("class");
    fs::create_dir(&class).unwrap();
    let ac = repo().join("examples/flip/ac_bfs.c");
    fs::copy(&ac, class.join("a.c")).unwrap();
    let sleeps = sleeper(root, "sleeps.py", "grader-zombie");
    let (ac, sleeps) = (ac.to_str().unwrap(), sleeps.to_str().unwrap());
    let long = ["--time-limit", "5", "--wall-limit", "300"];
    // The runs that end by themselves get a wide wall limit too: on a machine busy enough,
    // one over the default 4 s twice is too busy to judge (`--`, exit 1), which is not
    // what this test is about.
    let wide = ["--wall-limit", "60"];
    for tier in ["strict", "basic"] {
        let sandbox = ["--sandbox", tier];
        let class = class.to_str().unwrap();
        let out = root.join(format!("out-{tier}"));
        let out = out.to_str().unwrap();
        let runs: [(&str, u32, Vec<&str>, i32); 5] = [
            ("test", 0, vec!["test", "flip", ac], 0),
            ("batch", 0, vec!["batch", "flip", class, "--out", out], 0),
            (
                "fuzz",
                0,
                vec!["fuzz", "flip", ac, "--runs", "5", "--seed", "1"],
                0,
            ),
            (
                "one Ctrl-C",
                1,
                [&["test", "flip", sleeps][..], &long].concat(),
                130,
            ),
            (
                "two Ctrl-Cs",
                2,
                [&["test", "flip", sleeps][..], &long].concat(),
                130,
            ),
        ];
        for (what, signals, args, want) in runs {
            let wall: &[&str] = if signals == 0 { &wide } else { &[] };
            let args = [&args[..], &sandbox, wall].concat();
            let (code, left, stderr) = left_behind(root, "grader-zombie", signals, &args);
            assert_eq!(code, want, "{what} ({tier}): exit status; {stderr}");
            assert!(left.is_empty(), "{what} ({tier}): the grader left {left:?}");
        }
    }
}
