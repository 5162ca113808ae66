//! The grader under resource limits it inherited (`ulimit`, `prlimit`): a box's launcher
//! may not raise a hard limit, so each run's limits are fitted under the inherited ones
//! where that judges the same, and otherwise the tier fails naming the limit; `--sandbox
//! auto` then stops (exit 2) rather than run programs unboxed (docs/cli.md, "Inherited
//! limits"). Run through `prlimit`, as root and as `nobody`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt as _;

use crate::{has_tools, machine_wide, one_error_line, repo};

/// An address-space limit far above what a run needs (`ulimit -v 16777216`, in bytes).
const WIDE: &str = "--as=17179869184";
/// One below the default 256 MiB memory limit, let alone the 2 GiB backstop of a run.
const TINY: &str = "--as=209715200";
/// What the grader says of [`TINY`].
const TINY_NAMED: &str = "the inherited address-space limit (ulimit -v: 200 MiB hard) is below what a run needs (4 × the 256 MiB memory limit + 1 GiB = 2 GiB)";

/// The uid and gid of `nobody`.
const NOBODY: u32 = 65534;

/// The cases of two boards, one of them impossible.
fn two_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cases/flip-two")
}

/// `grader` under `prlimit` with `limit`, as this test's user, from the repository's root,
/// with a compile cache of its own in `cache`.
fn limited(limit: &str, cache: &Path) -> Command {
    let mut cmd = Command::new("prlimit");
    cmd.args([limit, "--"])
        .arg(assert_cmd::cargo::cargo_bin("grader"))
        .env("NO_COLOR", "1")
        .env("GRADER_CACHE_DIR", cache)
        .current_dir(repo());
    cmd
}

fn has_prlimit(test: &str) -> bool {
    has_tools(test, &[("prlimit", "util-linux")])
}

#[test]
fn under_a_wide_inherited_address_space_test_runs_in_strict_and_doctor_says_strict_works() {
    if !has_prlimit("under_a_wide_inherited_address_space") {
        return;
    }
    let _serial = machine_wide();
    let cache = tempfile::tempdir().unwrap();
    let output = limited(WIDE, cache.path())
        .args(["test", "flip", "examples/flip/ac_bfs.c"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let header = stdout.lines().next().unwrap_or_default();
    assert!(header.ends_with("; sandbox strict)"), "{stdout}");
    assert!(
        stdout
            .lines()
            .skip(1)
            .all(|l| !l.starts_with("  ") || l.starts_with("  AC ")),
        "{stdout}"
    );
    // Nothing passed over: no `grader: note: sandbox ...`.
    assert!(!stderr.contains("note: sandbox"), "{stderr}");

    let doctor = limited(WIDE, cache.path()).arg("doctor").output().unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert_eq!(doctor.status.code(), Some(0), "{text}");
    for (line, starts) in [
        ("tier strict", "works: "),
        ("tier basic", "works: "),
        ("--sandbox auto picks", "strict"),
    ] {
        let value = text
            .lines()
            .find_map(|l| l.strip_prefix(line))
            .unwrap_or_else(|| panic!("no `{line}` line:\n{text}"))
            .trim();
        assert!(value.starts_with(starts), "{line}: {value}\n{text}");
    }
}

#[test]
fn under_an_address_space_below_a_runs_needs_auto_stops_naming_it_and_runs_nothing() {
    if !has_prlimit("under_an_address_space_below") {
        return;
    }
    let _serial = machine_wide();
    let scratch = tempfile::tempdir().unwrap();
    // A program that leaves a mark wherever it runs unboxed (a box would hide the path).
    let mark = scratch.path().join("ran");
    let cmd = format!("sh -c 'touch {}'", mark.display());
    let cases = two_cases();
    let cases = cases.to_str().unwrap();
    let class = scratch.path().join("class");
    fs::create_dir(&class).unwrap();
    fs::write(
        class.join("alice.py"),
        format!("open({:?}, \"w\")\n", mark.display().to_string()),
    )
    .unwrap();
    let class = class.to_str().unwrap();
    let calls: [&[&str]; 3] = [
        &["test", "flip", "--cmd", &cmd, "--cases", cases],
        &["fuzz", "flip", "--cmd", &cmd, "--runs", "3"],
        &["batch", "flip", class, "--cases", cases, "--out"],
    ];
    for args in calls {
        let mut grader = limited(TINY, &scratch.path().join("cache"));
        grader.args(args);
        if args[0] == "batch" {
            grader.arg(scratch.path().join("book"));
        }
        grader.assert().code(2).stdout("").stderr(
            one_error_line("--sandbox auto: no box works here (strict and basic: ")
                .and(predicates::str::contains(TINY_NAMED)),
        );
        assert!(!mark.exists(), "{args:?} ran the program");
    }

    // Asked for by name, `none` still runs it (its programs get no rlimits but the CPU
    // backstop): only the user picks it.
    limited(TINY, &scratch.path().join("cache"))
        .args([
            "test",
            "flip",
            "--cmd",
            &cmd,
            "--cases",
            cases,
            "--sandbox",
            "none",
        ])
        .assert()
        .code(1);
    assert!(mark.exists(), "--sandbox none did not run the program");

    let doctor = limited(TINY, &scratch.path().join("cache"))
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert_eq!(doctor.status.code(), Some(0), "{text}");
    for tier in ["tier strict", "tier basic"] {
        let line = text.lines().find(|l| l.starts_with(tier)).unwrap();
        assert!(
            line.contains("failed when tried: ") && line.contains(TINY_NAMED),
            "{line}"
        );
    }
    let auto = text
        .lines()
        .find_map(|l| l.strip_prefix("--sandbox auto picks"))
        .unwrap()
        .trim();
    assert!(
        auto.starts_with("nothing: no box works here (strict and basic: ")
            && auto.contains(TINY_NAMED)
            && auto.contains("--sandbox auto stops (exit 2)"),
        "{auto}"
    );
}

/// The grader and its launcher copied where `nobody` may run them (the build folder may
/// be below a folder it cannot enter), in `dir`, and a folder of `nobody`'s own there for
/// its TMPDIR and compile cache.
fn for_nobody(dir: &Path) -> (PathBuf, PathBuf) {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    let built = assert_cmd::cargo::cargo_bin("grader");
    for name in ["grader", "grader-launcher"] {
        let from = built.with_file_name(name);
        if from.exists() {
            fs::copy(&from, dir.join(name)).unwrap();
            fs::set_permissions(dir.join(name), fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let own = dir.join("nobody");
    fs::create_dir(&own).unwrap();
    std::os::unix::fs::chown(&own, Some(NOBODY), Some(NOBODY)).unwrap();
    (dir.join("grader"), own)
}

/// `grader` run as `nobody` under `prlimit` with `limit`.
fn nobody_limited(limit: &str, (grader, own): &(PathBuf, PathBuf)) -> Command {
    let mut cmd = Command::new("setpriv");
    cmd.args([
        format!("--reuid={NOBODY}"),
        format!("--regid={NOBODY}"),
        "--clear-groups".to_owned(),
        "--".to_owned(),
        "prlimit".to_owned(),
        limit.to_owned(),
        "--".to_owned(),
    ])
    .arg(grader)
    .env_remove("HOME")
    .env("NO_COLOR", "1")
    .env("TMPDIR", own)
    .env("GRADER_CACHE_DIR", own.join("cache"))
    .current_dir(own);
    cmd
}

/// As a plain user (who can lift no hard limit, and whose box is a user namespace): the
/// same rules, and the remedy it is told includes running as root.
#[test]
fn as_nobody_an_inherited_address_space_is_fitted_under_or_named() {
    if !nix::unistd::geteuid().is_root() {
        assert!(
            std::env::var_os("CI").is_none(),
            "as_nobody_an_inherited_address_space: needs root to become nobody"
        );
        return;
    }
    if !has_tools(
        "as_nobody_an_inherited_address_space",
        &[("prlimit", "util-linux"), ("setpriv", "util-linux")],
    ) {
        return;
    }
    let _serial = machine_wide();
    let dir = tempfile::tempdir().unwrap();
    let nobody = for_nobody(dir.path());
    let cases = two_cases();
    let cases = cases.to_str().unwrap();
    let output = nobody_limited(WIDE, &nobody)
        .args(["test", "flip", "--cmd", "true", "--cases", cases])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // `true` prints no answer: WA, judged in the box.
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout
            .lines()
            .next()
            .unwrap_or_default()
            .ends_with("; sandbox strict)"),
        "{stdout}{stderr}"
    );
    assert!(!stderr.contains("note: sandbox"), "{stderr}");

    nobody_limited(TINY, &nobody)
        .args(["test", "flip", "--cmd", "true", "--cases", cases])
        .assert()
        .code(2)
        .stdout("")
        .stderr(one_error_line(TINY_NAMED).and(predicates::str::contains(
            "; raise it, or run the grader as root",
        )));
}
