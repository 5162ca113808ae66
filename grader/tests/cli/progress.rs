//! No silent waits: what `grader test` and `grader fuzz` show while they work, on a
//! terminal (a pseudo-terminal made by `script`) and off one (a pipe).
//!
//! Nothing here is judged by the clock. The submissions and the compiler wait for a gate
//! file the test creates, so "the header before the first case finishes" is an order: the
//! header must be on the screen while the case (or the compile) still waits for its gate.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use testkit::boards::FLIP_SOLVED;
use testkit::cases::CaseFolder;
use testkit::files::write;
use testkit::grader::grader_path;
use testkit::paths::repo;
use testkit::scripts::{language_table, script};

/// How long any one step may take on a loaded machine before the test gives up.
const PATIENCE: Duration = Duration::from_mins(2);

/// A folder with its cases, submissions, gates, cache and temporary folders.
struct Scene {
    dir: tempfile::TempDir,
}

impl Scene {
    /// Two flip cases whose answer is 0 (`01` all black, `02` all white).
    fn new() -> Scene {
        let scene = Scene {
            dir: tempfile::tempdir().unwrap(),
        };
        CaseFolder::at(scene.path().join("cases"))
            .case("01", FLIP_SOLVED, "0\n")
            .case("02", "wwww\nwwww\nwwww\nwwww\n", "0\n");
        fs::create_dir(scene.path().join("cache")).unwrap();
        fs::set_permissions(
            scene.path().join("cache"),
            fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        fs::create_dir(scene.path().join("tmp")).unwrap();
        scene
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A Python submission that answers 0, each case once the gate named by the case's
    /// first letter (`gate-b`, `gate-w`) exists.
    fn gated_python(&self) -> PathBuf {
        let gates = self.path().display();
        write(
            self.path(),
            "gated.py",
            format!(
                "import os, sys, time\n\
                 board = sys.stdin.read()\n\
                 gate = os.path.join('{gates}', 'gate-' + board[0])\n\
                 while not os.path.exists(gate):\n    time.sleep(0.02)\n\
                 print(0)\n"
            ),
        )
    }

    /// A language table with `slow`: its compiler waits for `gate-compile`, then makes the
    /// source (a shell script) the program.
    fn slow_compiler(&self) -> PathBuf {
        let compiler = script(
            self.path(),
            "slowcc",
            format!(
                "#!/bin/sh\n\
                 [ \"$1\" = --version ] && echo slowcc 1 && exit 0\n\
                 while [ ! -e '{}/gate-compile' ]; do sleep 0.02; done\n\
                 cp \"$1\" \"$2\" && chmod 755 \"$2\"\n",
                self.path().display()
            ),
        );
        write(
            self.path(),
            "zero.sl",
            "#!/bin/sh\ncat >/dev/null\necho 0\n",
        );
        write(
            self.path(),
            "languages.toml",
            language_table(
                "slow",
                "sl",
                &compiler,
                "compile_limits = { wall_secs = 100 }\n",
            ),
        )
    }

    fn open(&self, gate: &str) {
        write(self.path(), gate, "");
    }

    /// The grader's arguments with the scene's cases, a wide wall limit and no sandbox
    /// (the programs must see the gates).
    fn args(&self, command: &str, submission: &Path, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = vec![command.into(), "flip".into()];
        args.push(submission.display().to_string());
        if command == "test" {
            args.push("--cases".into());
            args.push(self.path().join("cases").display().to_string());
        }
        args.extend(
            [
                "--sandbox",
                "none",
                "--time-limit",
                "10",
                "--wall-limit",
                "100",
            ]
            .iter()
            .chain(extra)
            .map(|s| (*s).to_owned()),
        );
        args
    }

    /// `grader ARGS` with stdout (and stderr) on a pseudo-terminal of its own, or with
    /// stdout a pipe (`on_terminal` false: stderr stays on the terminal).
    fn start(&self, args: &[String], on_terminal: bool, env: &[(&str, &str)]) -> Screen {
        let grader = grader_path();
        let mut line = std::iter::once(grader.display().to_string())
            .chain(args.iter().cloned())
            .map(|word| format!("'{}'", word.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ");
        let piped = self.path().join("stdout.txt");
        if !on_terminal {
            write!(line, " > '{}'", piped.display()).unwrap();
        }
        let mut script = Command::new("script");
        script
            .args(["-qfec", &line, "/dev/null"])
            .env_remove("NO_COLOR")
            .env("TERM", "xterm")
            .env("GRADER_CACHE_DIR", self.path().join("cache"))
            .env("TMPDIR", self.path().join("tmp"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (key, value) in env {
            script.env(key, value);
        }
        Screen::of(script)
    }
}

/// What a terminal received so far, read as it arrives.
struct Screen {
    child: Child,
    chunks: Receiver<Vec<u8>>,
    seen: Vec<u8>,
    closed: bool,
}

impl Screen {
    /// Starts `command` (its stdout piped) and reads its stdout as it comes.
    fn of(mut command: Command) -> Screen {
        let mut child = command.spawn().unwrap();
        let mut out = child.stdout.take().unwrap();
        let (send, receive) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = out.read(&mut buffer) {
                if send.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Screen {
            child,
            chunks: receive,
            seen: Vec::new(),
            closed: false,
        }
    }

    /// Everything received so far, as text.
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.seen).into_owned()
    }

    /// The end of the screen, for a failure's message (a status line redrawn for two
    /// minutes is long).
    fn tail(&self) -> String {
        let text = self.text();
        let chars: Vec<char> = text.chars().collect();
        chars[chars.len().saturating_sub(2000)..].iter().collect()
    }

    /// Reads until the screen shows `what` (styles aside); the screen so far. Panics (with
    /// the screen) when it never does.
    fn until(&mut self, what: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        while !plain(&self.text()).contains(what) {
            assert!(!self.closed, "{what:?} never came:\n{}", self.tail());
            match self
                .chunks
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(chunk) => self.seen.extend(chunk),
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("{what:?} not within {PATIENCE:?}:\n{}", self.tail())
                }
            }
        }
        self.text()
    }

    /// Reads to the end; the exit status and the whole screen.
    fn finish(mut self) -> (i32, String) {
        let deadline = Instant::now() + PATIENCE;
        while !self.closed {
            match self
                .chunks
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(chunk) => self.seen.extend(chunk),
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => panic!("no end:\n{}", self.tail()),
            }
        }
        let status = self.child.wait().unwrap();
        (status.code().unwrap_or(-1), self.text())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        // A failed test leaves no grader behind: its terminal goes, and SIGHUP stops it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines of a screen as a reader sees them: each line's last redraw (`\r`), without
/// the status line's erasures and without the line the status line was left on.
fn visible_lines(screen: &str) -> Vec<String> {
    screen
        .split('\n')
        .map(|line| {
            // The terminal's own `\r\n`; any other `\r` started a redraw.
            let line = line.strip_suffix('\r').unwrap_or(line);
            let last = line.rsplit('\r').next().unwrap_or("");
            last.replace("\x1b[2K", "")
        })
        .filter(|line| !line.trim().is_empty())
        .collect()
}

/// The text without ANSI styles.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // A CSI sequence ends with a letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn test_on_a_terminal_shows_the_header_at_once_and_each_case_as_it_finishes() {
    let scene = Scene::new();
    let args = scene.args("test", &scene.gated_python(), &["--jobs", "1"]);
    let mut screen = scene.start(&args, true, &[]);
    // The header as known before building (the piped report's says `python, compiled`:
    // Python's syntax is checked once, as a compile).
    let shown = plain(&screen.until("gated.py (python; 2 cases; limits 10 s CPU"));
    assert!(shown.starts_with("flip "), "{shown}");
    assert!(!shown.contains(" 01 "), "a case before its gate:\n{shown}");
    // The status line says what is going on while the first case waits.
    screen.until("running: 0/2 done");
    scene.open("gate-b");
    let shown = plain(&screen.until(" 01 "));
    assert!(!shown.contains(" 02 "), "case 02 before its gate:\n{shown}");
    assert!(
        !shown.contains("passed"),
        "the summary before the end:\n{shown}"
    );
    scene.open("gate-w");
    let (status, screen) = screen.finish();
    assert_eq!(status, 0, "{screen}");
    let lines = visible_lines(&plain(&screen));
    let expected = [
        "flip ",
        "  compiled",
        "  AC   01 ",
        "  AC   02 ",
        "AC 2/2 passed",
    ];
    assert_eq!(lines.len(), expected.len(), "{lines:#?}");
    for (line, start) in lines.iter().zip(expected) {
        assert!(
            line.starts_with(start),
            "{line:?} should start {start:?}: {lines:#?}"
        );
    }
    // Coloured, as a terminal is.
    assert!(screen.contains("\x1b[32m"), "{screen:?}");
}

#[test]
fn lines_finished_out_of_order_wait_for_the_cases_before_them() {
    let scene = Scene::new();
    let args = scene.args("test", &scene.gated_python(), &["--jobs", "2"]);
    let mut screen = scene.start(&args, true, &[("NO_COLOR", "1")]);
    screen.until("gated.py (python; 2 cases; limits");
    // 02 finishes first: it is counted at once, but listed only after 01.
    scene.open("gate-w");
    let shown = screen.until("running: 1/2 done");
    assert!(!shown.contains(" 02 "), "02 listed before 01:\n{shown}");
    scene.open("gate-b");
    let (status, screen) = screen.finish();
    assert_eq!(status, 0, "{screen}");
    let lines = visible_lines(&screen);
    let at = |name: &str| lines.iter().position(|l| l.contains(name)).unwrap();
    assert!(at(" 01 ") < at(" 02 "), "{lines:#?}");
    // NO_COLOR: no colours, whatever the status line draws.
    assert!(
        !screen.contains("\x1b[32m") && !screen.contains("\x1b[1m"),
        "{screen:?}"
    );
}

#[test]
fn test_on_a_terminal_shows_the_header_before_compiling_and_says_it_compiles() {
    let scene = Scene::new();
    let config = scene.slow_compiler();
    let source = scene.path().join("zero.sl");
    let args = scene.args(
        "test",
        &source,
        &["--config", config.to_str().unwrap(), "--jobs", "1"],
    );
    let mut screen = scene.start(&args, true, &[("NO_COLOR", "1")]);
    let shown = screen.until("zero.sl (slow; 2 cases; limits");
    assert!(!shown.contains("compiled"), "{shown}");
    screen.until(&format!("compiling {}…", source.display()));
    scene.open("gate-compile");
    let (status, screen) = screen.finish();
    assert_eq!(status, 0, "{screen}");
    let lines = visible_lines(&screen);
    assert!(lines[0].contains("zero.sl (slow; 2 cases;"), "{lines:#?}");
    assert_eq!(lines[1], "  compiled", "{lines:#?}");
    assert!(lines[2].starts_with("  AC   01 "), "{lines:#?}");
}

#[test]
fn batch_on_a_terminal_says_it_builds_before_the_first_run_then_counts_the_runs() {
    let scene = Scene::new();
    let config = scene.slow_compiler();
    for name in ["ann", "bob"] {
        fs::create_dir_all(scene.path().join("class")).unwrap();
        fs::copy(
            scene.path().join("zero.sl"),
            scene.path().join(format!("class/{name}.sl")),
        )
        .unwrap();
    }
    let args: Vec<String> = [
        "batch",
        "flip",
        &scene.path().join("class").display().to_string(),
        "--cases",
        &scene.path().join("cases").display().to_string(),
        "--out",
        &scene.path().join("book").display().to_string(),
        "--config",
        config.to_str().unwrap(),
        "--sandbox",
        "none",
        "--jobs",
        "1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let mut screen = scene.start(&args, true, &[("NO_COLOR", "1")]);
    // The compiler waits at its gate: the line says so, before any run.
    screen.until("building the submissions: 0/2");
    scene.open("gate-compile");
    let (status, screen) = screen.finish();
    assert_eq!(status, 0, "{screen}");
    assert!(plain(&screen).contains("/4 runs"), "{screen}");
}

#[test]
fn off_a_terminal_the_report_is_printed_whole_as_before_and_the_status_goes_to_stderr() {
    let scene = Scene::new();
    let args = scene.args("test", &scene.gated_python(), &["--jobs", "1"]);
    // stdout a file, stderr the terminal.
    let mut screen = scene.start(&args, false, &[]);
    screen.until("running: 0/2 done");
    scene.open("gate-b");
    scene.open("gate-w");
    let (status, screen) = screen.finish();
    assert_eq!(status, 0, "{screen}");
    // The terminal (stderr) had the status line only, cleared at the end.
    assert!(
        visible_lines(&screen).is_empty(),
        "stderr kept more than a status line: {screen:?}"
    );
    // stdout: the report as it always was, printed whole: the header with how the
    // submission was built, the table, the summary; no styles, no redraws.
    let report = fs::read_to_string(scene.path().join("stdout.txt")).unwrap();
    assert!(!report.contains(['\x1b', '\r']), "{report:?}");
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines[0].starts_with("flip ")
            && lines[0]
                .contains("gated.py (python, compiled; 2 cases; limits 10 s CPU, 100 s wall,"),
        "{report}"
    );
    assert!(lines[1].starts_with("  AC   01  "), "{report}");
    assert!(lines[2].starts_with("  AC   02  "), "{report}");
    assert_eq!(&lines[3..], ["", "AC 2/2 passed"], "{report}");
    // The same report, with the same command, when nothing is a terminal (and a compile
    // cache as empty as the first run's, so that the header says the same).
    let cache = scene.path().join("cache-again");
    fs::create_dir(&cache).unwrap();
    fs::set_permissions(&cache, fs::Permissions::from_mode(0o700)).unwrap();
    let output = assert_cmd::Command::new(grader_path())
        .args(&args)
        .env("GRADER_CACHE_DIR", &cache)
        .env("TMPDIR", scene.path().join("tmp"))
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    let again = String::from_utf8(output.stdout).unwrap();
    let shape = |text: &str| -> Vec<String> {
        // The figures (CPU time, memory) differ from run to run; the rest may not.
        text.lines()
            .map(|l| {
                l.split_whitespace()
                    .filter(|w| !w.starts_with(|c: char| c.is_ascii_digit()))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(shape(&again), shape(&report));
}

#[test]
fn fuzz_prints_its_header_before_compiling_on_a_terminal_and_in_a_pipe() {
    let scene = Scene::new();
    let config = scene.slow_compiler();
    let source = scene.path().join("zero.sl");
    let args = scene.args(
        "fuzz",
        &source,
        &[
            "--config",
            config.to_str().unwrap(),
            "--seed",
            "7",
            "--runs",
            "20",
            "--no-regressions",
            "--shrink-steps",
            "5",
        ],
    );
    let header = "zero.sl (slow; seed 7; limits 10 s CPU, 256 MiB; sandbox none)";
    let mut screen = scene.start(&args, true, &[]);
    let shown = plain(&screen.until(header));
    assert!(shown.starts_with("fuzz flip "), "{shown}");
    screen.until("compiling");
    scene.open("gate-compile");
    let (status, screen) = screen.finish();
    // `echo 0` is wrong on most boards: a finding, reported after the header.
    assert_eq!(status, 1, "{screen}");
    let lines = visible_lines(&plain(&screen));
    assert!(
        lines[0].starts_with("fuzz flip ") && lines[0].ends_with(header),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("FAILED ")), "{lines:#?}");

    // In a pipe too: the header is out while the compiler still waits (the compile is
    // no longer cached: a new source).
    fs::remove_file(scene.path().join("gate-compile")).unwrap();
    write(
        scene.path(),
        "zero.sl",
        "#!/bin/sh\ncat >/dev/null\necho  0\n",
    );
    let mut grader = Command::new(grader_path());
    grader
        .args(&args)
        .env("GRADER_CACHE_DIR", scene.path().join("cache"))
        .env("TMPDIR", scene.path().join("tmp"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut pipe = Screen::of(grader);
    let shown = pipe.until("\n");
    let first = &shown[..=shown.find('\n').unwrap()];
    scene.open("gate-compile");
    let (status, all) = pipe.finish();
    assert_eq!(status, 1, "{all}");
    assert!(
        first.starts_with("fuzz flip ") && first.ends_with(&format!("{header}\n")),
        "{first:?}"
    );
    let rest = &all[first.len()..];
    assert!(
        rest.starts_with('\n') && rest.contains("\nFAILED "),
        "{rest}"
    );
    assert!(!all.contains(['\x1b', '\r']), "{all:?}");
}

#[test]
fn the_readmes_first_command_shows_the_build_and_is_what_ci_runs() {
    let root = repo();
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let block = readme.split("```sh\n").nth(1).unwrap();
    let first = block
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap();
    assert!(first.starts_with("cargo run "), "{first}");
    // A fresh clone builds for minutes: cargo's progress must show.
    assert!(
        !first
            .split_whitespace()
            .any(|w| w == "-q" || w == "--quiet"),
        "{first}"
    );
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l == first),
        ".ci/run does not run `{first}`"
    );
}

#[test]
fn a_setup_fault_after_the_header_is_one_error_line_and_no_status_line_is_left() {
    let scene = Scene::new();
    let config = write(
        scene.path(),
        "languages.toml",
        language_table("gone", "gn", Path::new("no-such-compiler-here"), ""),
    );
    let source = write(scene.path(), "sol.gn", "x");
    let config = ["--config", config.to_str().unwrap()];
    // The header is printed before building (fuzz: in a pipe too), so a compiler found
    // missing while building follows it: stdout has the header at most, stderr one line.
    let fuzz = scene.args("fuzz", &source, &config);
    let output = assert_cmd::Command::new(grader_path())
        .args(&fuzz)
        .env("GRADER_CACHE_DIR", scene.path().join("cache"))
        .env("TMPDIR", scene.path().join("tmp"))
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with("fuzz flip ") && stdout.lines().count() == 1,
        "{stdout}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("grader: error: ")
            && stderr.contains("the compiler `no-such-compiler-here`")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    let test = scene.args("test", &source, &config);
    let (status, screen) = scene.start(&test, true, &[]).finish();
    assert_eq!(status, 2, "{screen}");
    let lines = visible_lines(&plain(&screen));
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0].starts_with("flip "), "{lines:#?}");
    assert!(lines[1].starts_with("grader: error: "), "{lines:#?}");
}
