//! The trial `grader doctor` makes before it calls a tier with cgroups working: a worker of
//! the tier runs a program whose children hold memory and spend CPU time, and the run's
//! figures must hold both.
//!
//! Why a trial and not the probe alone: [`crate::cgroup::probe`] finds a hierarchy the
//! grader may write, which says nothing of whether a run's children land in its group
//! (issue 37: a plain user in a delegated subtree was promised every process's memory).
//! Running `true` does not say it either: one process, nothing held. So the trial is the
//! promise itself, in small: four children hold 8 MiB each at once (no one process ever
//! holds 32 MiB, so only a group that charges every process of the run reports that
//! much), then exit and are reaped, and the CPU time they spent (the shell's `times`,
//! which the kernel keeps for reaped children) must be in the run's CPU time.
//!
//! The program is the system's `sh` with `head`, `tr` and `sleep`, which every box shows
//! (its system folders): nothing is compiled, and a tier whose box cannot run them fails
//! `true`'s trial already.

use std::fmt;
use std::time::Duration;

use crate::client::Stderr;
use crate::facts::{Input, Limits};
use crate::tiers::{Machine, Tier};
use crate::worker::{self, Config, Job, Worker};

/// What each child holds, bytes: a string of the shell's, built from a pipe.
const HELD: u64 = 8 << 20;

/// How many children hold it at once.
const CHILDREN: u64 = 4;

/// The program: each child builds its string, spends some CPU, says it holds it (a file
/// in the working folder) and waits until all do, so that the four are held at once; the
/// main process waits for that (bounded: a child that died must not hang the trial), lets
/// them go, reaps them, prints what each held and the CPU times (`times`: its own, then
/// its reaped children's).
const SCRIPT: &str = r#"
for c in 1 2 3 4; do
  (
    x=$(head -c "$HELD" /dev/zero | tr '\0' x)
    i=0
    while [ "$i" -lt 2000 ]; do i=$((i + 1)); done
    : >"held$c"
    n=0
    while [ ! -e go ] && [ "$n" -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done
    echo "held ${#x}"
  ) &
done
n=0
while [ "$n" -lt 1000 ]; do
  [ -e held1 ] && [ -e held2 ] && [ -e held3 ] && [ -e held4 ] && break
  sleep 0.01
  n=$((n + 1))
done
: >go
wait
times
"#;

/// Runs the trial in a worker of `tier` with `memory` as its limit (the limit must leave
/// room for the four children's 32 MiB). `Ok` where the machine gives the tier no cgroups
/// (nothing is promised then, and `grader doctor`'s `cgroups` line says what is measured
/// instead); `Err` says what was not seen.
pub fn children_counted(tier: Tier, memory: u64) -> Result<(), String> {
    if tier < Tier::Basic || Machine::get().cgroups.is_err() {
        return Ok(());
    }
    let failed = |what: &str, e: &dyn fmt::Display| format!("a worker could not {what}: {e}");
    let limits = Limits {
        cpu: Duration::from_secs(10),
        // Room for an emulated machine, many times slower than this one.
        wall: Duration::from_mins(1),
        memory,
        output: 1 << 16,
        // The main shell, four children, and each child's pipeline (a subshell, `head`,
        // `tr`) or `sleep`.
        processes: 32,
        sandbox: tier,
    };
    let config = Config {
        tier,
        memory,
        toolchain: Vec::new(),
        headers: None,
    };
    let mut worker = Worker::start(&config).map_err(|e| failed("start", &e))?;
    let files =
        crate::host::temp_dir("forking-trial").map_err(|e| failed("make its folder", &e))?;
    let job = Job {
        argv: vec!["/bin/sh".to_owned(), "-c".to_owned(), SCRIPT.to_owned()],
        files: worker::Files::Folder(files.path()),
        in_files: false,
        env: vec![
            "PATH=/usr/bin:/bin".to_owned(),
            "LC_ALL=C".to_owned(),
            format!("HELD={HELD}"),
        ],
        stdin: Input::Empty,
        stderr: Stderr::Tail(4096),
        keep: &[],
        address_space: true,
    };
    let ran = worker.run(&job, &limits);
    // Not kept for later runs: `true`'s trial then times a worker's start, as it says.
    worker::retire(worker);
    let (outcome, _) = ran.map_err(|e| failed("run a forking program", &e))?;
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    let held = stdout
        .lines()
        .filter(|l| *l == format!("held {HELD}"))
        .count() as u64;
    let children_cpu = children_cpu(&stdout);
    let (Some(0), CHILDREN, Some(children_cpu)) = (outcome.code, held, children_cpu) else {
        return Err(format!(
            "a forking program did not run as it does everywhere (exit status {:?}, signal \
             {:?}; output {:?}; errors {:?})",
            outcome.code,
            outcome.signal,
            stdout.trim(),
            stderr.trim()
        ));
    };
    let at_least = HELD * CHILDREN;
    if outcome.peak_kib * 1024 < at_least {
        return Err(format!(
            "a run's children are not all in its cgroup: {CHILDREN} children held {} MiB \
             each at once, but the run's peak memory was {:.1} MiB, so their memory is \
             neither counted nor limited",
            HELD >> 20,
            outcome.peak_kib as f64 / 1024.0
        ));
    }
    // `times` counts in clock ticks (a hundredth of a second), rounded.
    if outcome.cpu + Duration::from_millis(20) < children_cpu {
        return Err(format!(
            "a run's children spent {:.0} ms of CPU, but the run was reported at {:.0} ms",
            children_cpu.as_secs_f64() * 1e3,
            outcome.cpu.as_secs_f64() * 1e3
        ));
    }
    Ok(())
}

/// The CPU time of the reaped children in the output of the shell's `times`: its last
/// line, user and system time, each written `<minutes>m<seconds>s` (dash writes six
/// decimals, bash three).
fn children_cpu(stdout: &str) -> Option<Duration> {
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    let mut total = Duration::ZERO;
    let mut fields = 0;
    for field in line.split_whitespace() {
        let (minutes, seconds) = field.strip_suffix('s')?.split_once('m')?;
        let minutes: u64 = minutes.parse().ok()?;
        let seconds: f64 = seconds.parse().ok()?;
        total += Duration::from_secs(minutes * 60) + Duration::try_from_secs_f64(seconds).ok()?;
        fields += 1;
    }
    (fields == 2).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_children_s_cpu_is_read_from_times_as_dash_and_bash_write_it() {
        let dash = "held 8388608\n0m0.004000s 0m0.008000s\n0m0.120000s 1m0.040000s\n";
        assert_eq!(children_cpu(dash), Some(Duration::from_millis(60_160)));
        let bash = "0m0.004s 0m0.008s\n0m0.250s 0m0.010s\n\n";
        assert_eq!(children_cpu(bash), Some(Duration::from_millis(260)));
        assert_eq!(children_cpu("held 8388608\n"), None);
        assert_eq!(children_cpu(""), None);
    }

    /// The script itself, outside any box: four children hold their strings and are
    /// reaped, and `times` reports their CPU.
    #[test]
    fn the_script_runs_in_the_system_shell() {
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new("/bin/sh")
            .args(["-c", SCRIPT])
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HELD", HELD.to_string())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let held = stdout.lines().filter(|l| l.starts_with("held ")).count();
        assert_eq!(held, CHILDREN as usize, "{stdout}");
        assert!(stdout.contains(&format!("held {HELD}")), "{stdout}");
        assert!(children_cpu(&stdout).is_some(), "{stdout}");
    }
}
