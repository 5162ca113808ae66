//! End-to-end tests of the languages beyond C, C++, Python and Rust: Java (the class is
//! the source's public class), Free Pascal, Go, JavaScript on Node and PyPy, each through
//! `grader test` and `grader batch` in `strict`: a correct flip solution gets `AC`, a wrong
//! one `WA`, a crash `RE` with the runtime's own words; CPU time counts every thread; a
//! missing toolchain is exit 2 naming the package to install. A test whose toolchain this
//! machine lacks fails in CI and is skipped elsewhere, naming the package (`has_tools`).
//!
//! The toolchains are those of Debian's `default-jdk-headless`, `fp-compiler`,
//! `golang-go`, `nodejs` and `pypy3` (`.ci/run` installs them). Each test has its own
//! compile cache, shared by its runs, so that nothing compiles twice.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use testkit::cases::CaseFolder;
use testkit::class::Class;
use testkit::files::write;
use testkit::grader::{grader_path, one_error_line};
use testkit::output::{case_verdicts, json_of};
use testkit::paths::{fixture, two_cases};
use testkit::scene::Scene;
use testkit::serial::machine_wide;
use testkit::tools::{has_tools, is_root, skip};

/// Generous: a loaded machine starting JVMs must not fail a test.
const TIMEOUT: Duration = Duration::from_mins(5);

/// A scene of the test's own: its compile cache and temporary folder (languages_more.rs
/// uses it too).
pub(crate) struct Lab {
    scene: Scene,
}

impl Lab {
    pub(crate) fn new() -> Lab {
        Lab {
            scene: Scene::new(TIMEOUT),
        }
    }

    pub(crate) fn grader(&self) -> Command {
        self.scene.grader()
    }

    /// `grader test flip SUBMISSION` on the two-case folder in `strict`, with wide time
    /// limits unless `extra` gives its own (a JVM starting on a busy machine); the JSON
    /// report and the exit status.
    pub(crate) fn test(&self, submission: &Path, extra: &[&str]) -> (Value, i32) {
        let time = if extra.contains(&"--time-limit") {
            &[][..]
        } else {
            &["--time-limit", "5"][..]
        };
        let output = self
            .grader()
            .args(["test", "flip"])
            .arg(submission)
            .arg("--cases")
            .arg(two_cases())
            .args([
                "--sandbox",
                "strict",
                "--report",
                "json",
                "--wall-limit",
                "60",
            ])
            .args(time)
            .args(extra)
            .output()
            .unwrap();
        (json_of(&output), output.status.code().unwrap())
    }

    /// Grades `name` and checks the language, the overall verdict, every case's verdict,
    /// that every failing case's message holds `says`, and the exit status.
    pub(crate) fn expect(
        &self,
        name: &str,
        extra: &[&str],
        language: &str,
        cases: [&str; 2],
        says: &str,
    ) {
        let (report, status) = self.test(&fixture("languages").join(name), extra);
        assert_eq!(report["language"], language, "{name}: {report:#}");
        assert_eq!(case_verdicts(&report), cases, "{name}: {report:#}");
        for case in report["cases"].as_array().unwrap() {
            if case["verdict"] != "AC" {
                let message = case["message"].as_str().unwrap();
                assert!(message.contains(says), "{name}: {message:?} lacks {says:?}");
            }
        }
        let all = cases.iter().all(|v| *v == "AC");
        assert_eq!(status, i32::from(!all), "{name}: exit status");
        self.scene.assert_no_files_left();
    }
}

// ------------------------------------------------------------------ grader test, by language

#[test]
fn java_by_its_public_class_whatever_the_file_is_called() {
    if !has_tools(
        "java_by_its_public_class_whatever_the_file_is_called",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    // `ac_bfs.java` holds `public class FlipGame`; the other, `contest.flip.Main`.
    lab.expect("ac_bfs.java", &[], "java", ["AC", "AC"], "");
    lab.expect("ac_in_a_package.java", &[], "java", ["AC", "AC"], "");
    lab.expect(
        "wa_one_more.java",
        &[],
        "java",
        ["WA", "AC"],
        "expected `4`, got `5`",
    );
    // The exception, from standard error, is in the message.
    lab.expect(
        "re_fifth_line.java",
        &[],
        "java",
        ["RE", "RE"],
        "exit status 1: java.lang.NullPointerException",
    );
    // javac's message names the file it compiled: the class's.
    let (report, status) = lab.test(&fixture("languages/ce_missing_semicolon.java"), &[]);
    assert_eq!((report["verdict"].as_str(), status), (Some("CE"), 1));
    let said = report["compile_error"].as_str().unwrap();
    assert!(
        said.contains("FlipGame.java:8: error: ';' expected"),
        "{said}"
    );
}

#[test]
fn java_runs_in_a_small_memory_limit_and_a_source_without_a_class_is_ce() {
    if !has_tools(
        "java_runs_in_a_small_memory_limit_and_a_source_without_a_class_is_ce",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    // The JVM's heap follows the memory limit; its reservations are not memory.
    lab.expect(
        "ac_bfs.java",
        &["--memory-limit", "96"],
        "java",
        ["AC", "AC"],
        "",
    );
    let empty = write(&lab.scene.tmp(), "src/empty.java", "// no class at all\n");
    let (report, status) = lab.test(&empty, &[]);
    fs::remove_dir_all(lab.scene.tmp().join("src")).unwrap();
    assert_eq!((report["verdict"].as_str(), status), (Some("CE"), 1));
    let said = report["compile_error"].as_str().unwrap();
    assert!(said.contains("declares no class"), "{said}");
}

#[test]
fn cpu_time_counts_every_thread_of_the_run() {
    if !has_tools(
        "cpu_time_counts_every_thread_of_the_run",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    // Four threads spend 0.25 s of CPU each, measured by each thread itself; the main
    // thread hardly any.
    let (report, _) = lab.test(&fixture("languages/ac_four_threads.java"), &[]);
    assert_eq!(report["verdict"], "AC", "{report:#}");
    for case in report["cases"].as_array().unwrap() {
        assert!(case["cpu_ms"].as_f64().unwrap() >= 1000.0, "{case}");
    }
    // Under a limit below their sum, though each thread stays under it: TLE.
    lab.expect(
        "ac_four_threads.java",
        &["--time-limit", "0.6"],
        "java",
        ["TLE", "TLE"],
        "CPU time",
    );
}

#[test]
fn free_pascal() {
    if !has_tools("free_pascal", &[("fpc", "fp-compiler")]) {
        return;
    }
    let lab = Lab::new();
    lab.expect("ac_bfs.pas", &[], "pascal", ["AC", "AC"], "");
    lab.expect(
        "wa_one_more.pas",
        &[],
        "pascal",
        ["WA", "AC"],
        "expected `4`, got `5`",
    );
    lab.expect(
        "re_div_zero.pas",
        &[],
        "pascal",
        ["RE", "RE"],
        "exit status 200: Runtime error 200 (division by zero)",
    );
}

#[test]
fn go_under_the_default_process_cap() {
    if !has_tools("go_under_the_default_process_cap", &[("go", "golang-go")]) {
        return;
    }
    let lab = Lab::new();
    // The Go runtime's threads and reservations within the default limits.
    lab.expect("ac_bfs.go", &[], "go", ["AC", "AC"], "");
    lab.expect(
        "wa_one_more.go",
        &[],
        "go",
        ["WA", "AC"],
        "expected `4`, got `5`",
    );
    lab.expect(
        "re_index.go",
        &[],
        "go",
        ["RE", "RE"],
        "exit status 2: panic: runtime error: index out of range [4] with length 4",
    );
}

#[test]
fn go_and_java_under_a_small_process_cap_and_memory_limit() {
    if !has_tools(
        "go_and_java_under_a_small_process_cap_and_memory_limit",
        &[
            ("go", "golang-go"),
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    // GOMAXPROCS and one JIT compiler thread keep the runtimes' threads few (a JVM has
    // 13 or so, a Go program about 6: it may start more while the machine is busy).
    let small = ["--max-processes", "16", "--memory-limit", "64"];
    lab.expect("ac_bfs.go", &small, "go", ["AC", "AC"], "");
    lab.expect("ac_bfs.java", &small, "java", ["AC", "AC"], "");
    let go = ["--max-processes", "16", "--memory-limit", "16"];
    lab.expect("ac_bfs.go", &go, "go", ["AC", "AC"], "");
}

#[test]
fn a_language_s_run_environment_reaches_its_runs() {
    let lab = Lab::new();
    let root = tempfile::tempdir().unwrap();
    // A language whose runs answer from their environment: right on the sample only.
    let config = write(
        root.path(),
        "env.toml",
        "[answer]\nextensions = [\"answer\"]\nrun = [\"sh\", \"-c\", \"echo \\\"$FLIP_ANSWER\\\"\", \"{src}\"]\nrun_env = [\"FLIP_ANSWER=4\"]\n",
    );
    let source = write(root.path(), "sol.answer", "");
    let (report, status) = lab.test(&source, &["--config", config.to_str().unwrap()]);
    assert_eq!(status, 1, "{report:#}");
    assert_eq!(report["cases"][0]["verdict"], "AC", "{report:#}");
    assert_eq!(
        report["cases"][1]["message"], "expected `Impossible`, got `4`",
        "{report:#}"
    );
}

#[test]
fn javascript_on_node() {
    if !has_tools("javascript_on_node", &[("node", "nodejs")]) {
        return;
    }
    let lab = Lab::new();
    lab.expect("ac_bfs.js", &[], "javascript", ["AC", "AC"], "");
    lab.expect(
        "wa_one_more.js",
        &[],
        "javascript",
        ["WA", "AC"],
        "expected `4`, got `5`",
    );
    lab.expect(
        "re_fifth_row.js",
        &[],
        "javascript",
        ["RE", "RE"],
        "exit status 1: TypeError: Cannot read properties of undefined",
    );
}

#[test]
fn pypy_by_name() {
    if !has_tools("pypy_by_name", &[("pypy3", "pypy3")]) {
        return;
    }
    let lab = Lab::new();
    let pypy = ["--lang", "pypy"];
    lab.expect("ac_bfs_pypy.py", &pypy, "pypy", ["AC", "AC"], "");
    lab.expect(
        "wa_one_more_pypy.py",
        &pypy,
        "pypy",
        ["WA", "AC"],
        "expected `4`, got `5`",
    );
    lab.expect(
        "re_fifth_row_pypy.py",
        &pypy,
        "pypy",
        ["RE", "RE"],
        "exit status 1: IndexError: list index out of range",
    );
}

#[test]
fn the_jvm_s_own_error_on_stdout_is_in_the_re_message() {
    if !has_tools(
        "the_jvm_s_own_error_on_stdout_is_in_the_re_message",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    // A JVM that cannot start says why on standard output, not standard error.
    let output = lab
        .grader()
        .args(["test", "flip", "--cmd", "java -Xms64m -Xmx16m -version"])
        .arg("--cases")
        .arg(two_cases())
        .args(["--sandbox", "strict", "--report", "json"])
        .args(["--time-limit", "5", "--wall-limit", "60"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["verdict"], "RE", "{report:#}");
    let message = report["cases"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("exit status 1: the JVM did not start: Initial heap size"),
        "{message}"
    );
}

#[test]
fn without_a_cgroup_the_jvm_runs_free_of_the_address_space_backstop() {
    if !has_tools(
        "without_a_cgroup_the_jvm_runs_free_of_the_address_space_backstop",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
        ],
    ) {
        return;
    }
    // An unprivileged grader has no cgroup here: the address-space rlimit stands in for
    // one, and at 64 MiB (a backstop of 1.25 GiB) it refuses the JVM's reservations. The
    // table's `address_space = false` lets the JVM run; its heap is bounded by `-Xmx`.
    if !is_root() {
        skip(
            "without_a_cgroup_the_jvm_runs_free_of_the_address_space_backstop: needs root to become nobody",
        );
        return;
    }
    let _serial = machine_wide();
    let root = tempfile::tempdir().unwrap();
    fs::set_permissions(root.path(), fs::Permissions::from_mode(0o755)).unwrap();
    // Everything the unprivileged grader reads is its own copy: the binary, the source and
    // the cases; its TMPDIR and cache are its own folder.
    let grader = grader_path();
    for name in ["grader", "grader-launcher"] {
        let from = grader.with_file_name(name);
        if from.exists() {
            fs::copy(&from, root.path().join(name)).unwrap();
        }
    }
    write(
        root.path(),
        "ac_bfs.java",
        fs::read(fixture("languages/ac_bfs.java")).unwrap(),
    );
    CaseFolder::at(root.path().join("cases"))
        .copied("sample/01", &two_cases(), "sample/01")
        .copied("secret/impossible", &two_cases(), "secret/impossible");
    let own = root.path().join("nobody");
    fs::create_dir(&own).unwrap();
    std::os::unix::fs::chown(&own, Some(65534), Some(65534)).unwrap();
    let output = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(root.path().join("grader"))
        .args([
            "test",
            "flip",
            "ac_bfs.java",
            "--cases",
            "cases",
            "--report",
            "json",
        ])
        .args(["--sandbox", "strict", "--memory-limit", "64"])
        .args(["--time-limit", "5", "--wall-limit", "60"])
        .env_remove("HOME")
        .env("NO_COLOR", "1")
        .env("TMPDIR", &own)
        .env("GRADER_CACHE_DIR", own.join("cache"))
        .current_dir(root.path())
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    assert_eq!(report["verdict"], "AC", "{report:#}");
    let left: Vec<_> = fs::read_dir(&own)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != "cache")
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

// ------------------------------------------------------------------ grader batch

#[test]
fn a_class_in_every_language_through_batch_in_strict() {
    if !has_tools(
        "a_class_in_every_language_through_batch_in_strict",
        &[
            ("javac", "default-jdk-headless"),
            ("java", "default-jdk-headless"),
            ("fpc", "fp-compiler"),
            ("go", "golang-go"),
            ("node", "nodejs"),
            ("pypy3", "pypy3"),
        ],
    ) {
        return;
    }
    let lab = Lab::new();
    let root = tempfile::tempdir().unwrap();
    let class = Class::at(root.path().join("class"));
    for (student, from) in [
        ("ada.java", "ac_bfs.java"),
        ("ben.java", "wa_one_more.java"),
        ("cy.pas", "ac_bfs.pas"),
        ("dee.pas", "wa_one_more.pas"),
        ("eve.go", "ac_bfs.go"),
        ("fay.go", "re_index.go"),
        ("gus.js", "ac_bfs.js"),
        ("hal.js", "wa_one_more.js"),
        ("ida.py", "ac_bfs_pypy.py"),
        ("jon.py", "wa_one_more_pypy.py"),
    ] {
        class.copy(student, &fixture("languages").join(from));
    }
    // A class whose Python runs on PyPy: the table's `python` entry, replaced.
    let config = write(
        root.path(),
        "pypy.toml",
        "[python]\nextensions = [\"py\"]\nrun = [\"pypy3\", \"{src}\"]\n",
    );
    let output = lab
        .grader()
        .current_dir(root.path())
        .args([
            "batch", "flip", "class", "--out", "book", "--report", "json",
        ])
        .arg("--cases")
        .arg(two_cases())
        .args([
            "--sandbox",
            "strict",
            "--time-limit",
            "5",
            "--wall-limit",
            "60",
        ])
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let book: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    assert_eq!(output.status.code(), Some(1), "{book:#}");
    let got: Vec<(String, String, String)> = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap().to_owned(),
                s["language"].as_str().unwrap_or_default().to_owned(),
                s["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        ("ada", "java", "AC"),
        ("ben", "java", "WA"),
        ("cy", "pascal", "AC"),
        ("dee", "pascal", "WA"),
        ("eve", "go", "AC"),
        ("fay", "go", "RE"),
        ("gus", "javascript", "AC"),
        ("hal", "javascript", "WA"),
        ("ida", "python", "AC"),
        ("jon", "python", "WA"),
    ]
    .map(|(s, l, v)| (s.to_owned(), l.to_owned(), v.to_owned()));
    assert_eq!(got, want, "{book:#}");
}

// ------------------------------------------------------------------ a missing toolchain

#[test]
fn a_missing_toolchain_is_exit_2_for_test_and_only_its_students_ungraded_in_batch() {
    let lab = Lab::new();
    let root = tempfile::tempdir().unwrap();
    let config = root.path().join("languages.toml");
    let submission = write(
        root.path(),
        "class/ada.go",
        fs::read(fixture("languages/ac_bfs.go")).unwrap(),
    );
    let refused = |table: &str, submission: &Path, says: &'static str| {
        fs::write(&config, table).unwrap();
        lab.grader()
            .args(["test", "flip"])
            .arg(submission)
            .arg("--cases")
            .arg(two_cases())
            .arg("--config")
            .arg(&config)
            .assert()
            .code(2)
            .stdout("")
            .stderr(one_error_line(says));
        // `batch` grades the rest of the class: this student is not graded, and why.
        let book = root.path().join("book");
        let _ = fs::remove_dir_all(&book);
        let said = says.split_once(": ").map_or(says, |(_, rest)| rest);
        lab.grader()
            .current_dir(root.path())
            .args(["batch", "flip", "class", "--out", "book", "--cases"])
            .arg(two_cases())
            .arg("--config")
            .arg(&config)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(said))
            .stderr(
                predicate::str::contains("grader: warning: student ada not graded: ")
                    .and(predicate::str::contains(said)),
            );
        fs::remove_dir_all(&book).unwrap();
    };
    // A compiler.
    refused(
        "[go]\nextensions = [\"go\"]\ncompile = [\"no-such-go\", \"build\", \"-o\", \"{out}\", \"{src}\"]\npackage = \"golang-go\"\nrun = [\"{out}\"]\n",
        &submission,
        "ada.go: the compiler `no-such-go` for go is not installed: install the Debian package `golang-go`",
    );
    // The program a version probe names (a compile that is a script).
    refused(
        "[go]\nextensions = [\"go\"]\ncompile = [\"sh\", \"-c\", \"exit 1\", \"{src}\", \"{out}\"]\nversion = [\"no-such-go\", \"version\"]\npackage = \"golang-go\"\nrun = [\"{out}\"]\n",
        &submission,
        "ada.go: `no-such-go` for go is not installed: install the Debian package `golang-go`",
    );
    // An interpreter.
    fs::remove_file(&submission).unwrap();
    let script = write(
        root.path(),
        "class/ada.js",
        fs::read(fixture("languages/ac_bfs.js")).unwrap(),
    );
    refused(
        "[javascript]\nextensions = [\"js\"]\npackage = \"nodejs\"\nrun = [\"no-such-node\", \"{src}\"]\n",
        &script,
        "install the Debian package `nodejs`",
    );
}
