//! The hostile-program suite: deliberately misbehaving programs whose expected verdicts
//! are data, run through `grader test` on the flip sample. After every run: the verdict is
//! the expected one, the grader ended normally (exit 0 or 1, never 3, within the timeout),
//! no process of the run is left and no file was written outside its scratch folder.
//!
//! Programs that only a confining sandbox can stop (reading the answers, writing outside,
//! the network) print `LEAK` when they get through: `WA` in the `basic` tier, `AC` in
//! `strict`.

use std::fs;
use std::net::{TcpListener, UdpSocket};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use testkit::cases::CaseFolder;
use testkit::grader::grader;
use testkit::paths::{fixture, repo, two_cases};
use testkit::processes;
use testkit::programs::gcc;
use testkit::serial::machine_wide;

/// (fixture of `tests/fixtures/hostile/`, verdict in `basic`, verdict in `strict`). The
/// hostile programs already covered by the verdict fixtures of `grader test` (busy loop,
/// sleep, pause, 1 GiB touched, output flood, segfault, abort, exit after a right answer,
/// orphans and setsid grandchildren) are graded by `test_command.rs`.
const SUITE: &[(&str, &str, &str)] = &[
    ("tle_select_forever.c", "TLE", "TLE"),
    ("tle_sigstop_self.c", "TLE", "TLE"),
    ("ac_slow_but_correct.c", "AC", "AC"),
    ("mle_slow_growth.c", "MLE", "MLE"),
    ("mle_static_array.c", "MLE", "MLE"),
    ("mle_stack_overflow.c", "MLE", "MLE"),
    ("ac_stderr_flood_then_answer.c", "AC", "AC"),
    ("re_exit_137.c", "RE", "RE"),
    ("re_sigkill_self.c", "RE", "RE"),
    ("wa_closes_stdout.c", "WA", "WA"),
    ("ac_never_reads_stdin.c", "AC", "AC"),
    ("ac_fork_bomb_bounded.c", "AC", "AC"),
    ("ac_thread_bomb.c", "AC", "AC"),
    ("ac_signals_its_parent.c", "AC", "AC"),
    ("wa_invalid_utf8.c", "WA", "WA"),
    ("ac_reads_secrets_strict.c", "WA", "AC"),
    ("ac_writes_outside.c", "AC", "AC"),
    ("ac_no_network_strict.c", "WA", "AC"),
];

/// Files the hostile programs try to leave outside their scratch folder.
const ESCAPES: [&str; 1] = ["/tmp/grader-hostile-escape"];

/// Runs the suite in `tier` (`None`: the default) and checks every row.
fn run_suite(
    tier: Option<&str>,
    column: fn(&(&'static str, &'static str, &'static str)) -> &'static str,
) {
    let work = tempfile::tempdir().unwrap();
    let cases = work.path().join("cases");
    CaseFolder::at(&cases).copied("01", &repo().join("cases/flip/data/sample"), "01");
    let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = tcp.local_addr().unwrap().port();
    let udp = UdpSocket::bind(("127.0.0.1", port)).unwrap();
    udp.set_nonblocking(true).unwrap();
    let tmp = work.path().join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    for row in SUITE {
        let (name, want) = (row.0, column(row));
        for escape in ESCAPES {
            let _ = fs::remove_file(escape);
        }
        let binary = work.path().join(name.trim_end_matches(".c"));
        gcc(
            &fixture("hostile").join(name),
            &binary,
            &[
                "-pthread",
                &format!("-DCASES=\"{}\"", cases.display()),
                &format!("-DPORT={port}"),
            ],
        );
        let mut cmd = grader();
        cmd.env("TMPDIR", &tmp)
            .timeout(Duration::from_mins(1))
            .args(["test", "flip"])
            .arg(&binary)
            .arg("--cases")
            .arg(&cases)
            // A program expected to stall gets a short wall limit (the suite stays quick);
            // every other one a wide one, so that CPU time decides on a busy machine.
            .args([
                "--time-limit",
                "1",
                "--wall-limit",
                if want == "TLE" { "2" } else { "30" },
                "--memory-limit",
                "64",
            ])
            .args(["--report", "json"]);
        if let Some(tier) = tier {
            cmd.args(["--sandbox", tier]);
        }
        let output = cmd.output().unwrap();
        let status = output.status.code();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        let got = report["cases"][0]["verdict"]
            .as_str()
            .unwrap_or("(none)")
            .to_owned();
        if got != want || !matches!(status, Some(0 | 1)) {
            failures.push(format!(
                "{name}: expected {want}, got {got} (exit {status:?}) {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        if processes::named("grader-hostile") > 0 {
            failures.push(format!("{name}: processes of the run survived"));
        }
        let left: Vec<_> = fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        if !left.is_empty() {
            failures.push(format!("{name}: left {left:?} in the grader's TMPDIR"));
        }
        let escaped: Vec<&str> = ESCAPES
            .iter()
            .copied()
            .filter(|p| Path::new(p).exists())
            .collect();
        // Writing outside is what basic does not stop; strict must.
        if !escaped.is_empty() && (tier != Some("basic") || name != "ac_writes_outside.c") {
            failures.push(format!("{name}: wrote {escaped:?}"));
        }
        for escape in ESCAPES {
            let _ = fs::remove_file(escape);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Both tiers in one test, one after the other: the suite's marks of escape (a file in
/// /tmp, processes named `grader-hostile`) are machine-wide, so two suites running at once
/// would see each other's.
#[test]
fn the_hostile_suite_gets_its_verdicts_in_the_basic_and_strict_tiers() {
    let _serial = machine_wide();
    run_suite(Some("basic"), |row| row.1);
    run_suite(Some("strict"), |row| row.2);
}

#[test]
fn doctor_tells_what_the_machine_has_and_what_auto_picks() {
    let output = grader().arg("doctor").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    for line in [
        "a uid per worker",
        "namespaces",
        "seccomp",
        "cgroups",
        "the box's init kept from the OOM killer",
        "--sandbox auto picks",
    ] {
        assert!(text.contains(line), "{text}");
    }
    // What doctor says auto picks is what `grader test` reports using.
    let picked = text
        .lines()
        .find_map(|l| l.strip_prefix("--sandbox auto picks"))
        .unwrap()
        .trim()
        .to_owned();
    let report = grader()
        .args([
            "test", "flip", "--cmd", "true", "--report", "json", "--cases",
        ])
        .arg(two_cases())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["limits"]["sandbox"], picked.as_str());
}
