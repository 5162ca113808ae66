//! Under resource limits the caller inherited (`ulimit`, `prlimit`): a box's launcher may
//! not raise a hard limit, so each run's limits are fitted under the inherited ones where
//! that judges the same, and otherwise a tier fails when tried, naming the limit, and
//! `auto` finds no box rather than run programs unboxed (docs/cli.md, "Inherited
//! limits"; the grader's own tests check what it makes of that).
//!
//! Each test runs this binary again under `prlimit` (as this user, or as `nobody` through
//! `setpriv`), where the same test, told so by [`CHILD`], does the work.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sandbox::tiers::{self, Machine, Needs};
use sandbox::{Error, Input, Tier};

use crate::harness::skip;
use crate::runs::{limits, worker};
use crate::scene::{SAMPLE, Scene};

/// Set in the child process, where a test does its work.
const CHILD: &str = "SANDBOX_TEST_INHERITED_CHILD";
/// The limit the child runs under, where one test tries two.
const LIMIT: &str = "SANDBOX_TEST_INHERITED_LIMIT";

/// An address-space limit far above what a run needs (`ulimit -v 16777216`, in bytes).
const WIDE: &str = "--as=17179869184";
/// One below the default 256 MiB memory limit, let alone the 2 GiB backstop of a run.
const TINY: &str = "--as=209715200";
/// What the box says of [`TINY`].
const TINY_NAMED: &str = "the inherited address-space limit (ulimit -v: 200 MiB hard) is below what a run needs (4 × the 256 MiB memory limit + 1 GiB = 2 GiB)";
/// What it tells a plain user to do about it.
const PLAIN_REMEDY: &str = "; raise it, or run the grader as root";

/// The uid and gid of `nobody`.
const NOBODY: u32 = 65534;

/// What the runs ask: the grader's default limits.
const NEEDS: Needs = Needs {
    cpu: Duration::from_secs(1),
    memory: 256 << 20,
    output: 64 << 20,
    processes: 64,
};

/// Whether this process is the child of a test here.
fn in_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// Whether `tools` are installed (said, and skipped outside CI, when one is not).
fn has(test: &str, tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|tool| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {tool} >/dev/null")])
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if !missing.is_empty() {
        skip(
            test,
            &format!("{} not installed (util-linux)", missing.join(", ")),
        );
    }
    missing.is_empty()
}

/// Runs test `name` of this binary in a child process under `prlimit` with `limit`:
/// started by `runner` (a command that runs its arguments), as this user or another.
fn in_child_under(name: &str, limit: &str, exe: &Path, mut runner: Command) {
    let output = runner
        .args(["prlimit", limit, "--"])
        .arg(exe)
        .args(["--exact", &format!("inherited_limits::{name}")])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{name} under {limit} failed in its child process:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A command that runs its arguments as this user.
fn as_this_user() -> Command {
    Command::new("env")
}

/// This binary copied where `nobody` may run it (the build folder may be below a folder it
/// cannot enter), in `scene`, and a folder of `nobody`'s own there for its temporary
/// folders.
fn for_nobody(scene: &Scene) -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().unwrap();
    let copy = scene.folder("bin", &[]).join(exe.file_name().unwrap());
    fs::copy(&exe, &copy).unwrap();
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let own = scene.folder("nobody", &[]);
    std::os::unix::fs::chown(&own, Some(NOBODY), Some(NOBODY)).unwrap();
    fs::set_permissions(&own, fs::Permissions::from_mode(0o700)).unwrap();
    (copy, own)
}

/// A command that runs its arguments as `nobody`, in `own` (its temporary folder too).
fn as_nobody(own: &Path) -> Command {
    let mut cmd = Command::new("setpriv");
    cmd.args([
        format!("--reuid={NOBODY}"),
        format!("--regid={NOBODY}"),
        "--clear-groups".to_owned(),
        "--".to_owned(),
    ])
    .env_remove("HOME")
    .env("TMPDIR", own)
    .current_dir(own);
    cmd
}

/// In the child: a program (the system's `sh`, no files of its own) runs in a worker of
/// `tier` and answers the sample.
fn runs_in(tier: Tier) {
    let scene = Scene::new();
    let files = scene.folder("files", &[]);
    let limits = limits(tier, 1, 10, 256);
    let mut worker = worker(&limits);
    let job = sandbox::Job {
        argv: vec![
            "/bin/sh".into(),
            "-c".into(),
            "cat >/dev/null; echo 4".into(),
        ],
        files: sandbox::Files::Folder(&files),
        in_files: false,
        env: vec!["PATH=/usr/bin:/bin".into()],
        stdin: Input::Bytes(SAMPLE.as_bytes().to_vec()),
        keep: &[],
        stderr: sandbox::Stderr::Tail(4096),
        address_space: true,
    };
    let (outcome, _) = worker.run(&job, &limits).unwrap();
    assert_eq!(
        (outcome.code, outcome.stdout.as_slice()),
        (Some(0), &b"4\n"[..]),
        "{outcome:?}"
    );
    drop(worker);
    scene.finish();
}

/// In the child: both tiers work when tried, `auto` picks strict with nothing passed
/// over, and a program runs in it.
fn strict_works() {
    for tier in [Tier::Strict, Tier::Basic] {
        assert_eq!(tiers::tried(tier, NEEDS), Ok(()), "{tier}");
    }
    let (tier, passed) = Machine::get()
        .resolve(None, |tier| tiers::tried(tier, NEEDS))
        .unwrap();
    assert_eq!((tier, passed), (Tier::Strict, Vec::new()));
    runs_in(Tier::Strict);
}

/// In the child: both tiers fail when tried, naming the limit and `remedy`; `auto` and
/// strict asked by name are refused saying so; `none`, asked by name, still runs a
/// program (its runs get no rlimits but the CPU backstop: only the caller picks it).
fn no_box_works(remedy: &str) {
    let named = format!("{TINY_NAMED}{remedy}");
    for tier in [Tier::Strict, Tier::Basic] {
        let why = tiers::tried(tier, NEEDS).unwrap_err();
        assert!(why.contains(&named), "{tier}: {why}");
    }
    let Err(Error::Refused(why)) = Machine::get().resolve(None, |tier| tiers::tried(tier, NEEDS))
    else {
        panic!("auto found a box");
    };
    assert!(
        why.starts_with("--sandbox auto: no box works here (strict and basic: ")
            && why.contains(&named),
        "{why}"
    );
    let Err(Error::Refused(why)) =
        Machine::get().resolve(Some(Tier::Strict), |tier| tiers::tried(tier, NEEDS))
    else {
        panic!("strict was given");
    };
    assert!(why.contains(&named), "{why}");
    let none = Machine::get().resolve(Some(Tier::None), |tier| tiers::tried(tier, NEEDS));
    assert_eq!(none, Ok((Tier::None, Vec::new())));
    runs_in(Tier::None);
}

pub(crate) fn under_a_wide_inherited_address_space_strict_works_and_auto_picks_it() {
    if in_child() {
        return strict_works();
    }
    if has("under_a_wide_inherited_address_space", &["prlimit"]) {
        let exe = std::env::current_exe().unwrap();
        let name = "under_a_wide_inherited_address_space_strict_works_and_auto_picks_it";
        in_child_under(name, WIDE, &exe, as_this_user());
    }
}

pub(crate) fn under_an_address_space_below_a_runs_needs_no_box_works_and_auto_says_why() {
    if in_child() {
        // Root is told to raise it only (it may run as root already).
        let remedy = if nix::unistd::geteuid().is_root() {
            ""
        } else {
            PLAIN_REMEDY
        };
        return no_box_works(remedy);
    }
    if has("under_an_address_space_below_a_runs_needs", &["prlimit"]) {
        let exe = std::env::current_exe().unwrap();
        let name = "under_an_address_space_below_a_runs_needs_no_box_works_and_auto_says_why";
        in_child_under(name, TINY, &exe, as_this_user());
    }
}

/// As a plain user (who can lift no hard limit, and whose box is a user namespace): the
/// same rules, and the remedy it is told includes running as root.
pub(crate) fn as_nobody_an_inherited_address_space_is_fitted_under_or_named() {
    if in_child() {
        if std::env::var(LIMIT).is_ok_and(|l| l == TINY) {
            no_box_works(PLAIN_REMEDY);
        } else {
            strict_works();
        }
        return;
    }
    let test = "as_nobody_an_inherited_address_space";
    if !nix::unistd::geteuid().is_root() {
        return skip(test, "needs root to become nobody");
    }
    if !has(test, &["prlimit", "setpriv"]) {
        return;
    }
    let scene = Scene::new();
    let (exe, own) = for_nobody(&scene);
    for limit in [WIDE, TINY] {
        let mut runner = as_nobody(&own);
        runner.env(LIMIT, limit);
        let name = "as_nobody_an_inherited_address_space_is_fitted_under_or_named";
        in_child_under(name, limit, &exe, runner);
    }
    scene.finish();
}
