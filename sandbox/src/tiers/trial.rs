//! Whether a tier works here, found by trying it: a real worker of the tier runs `true`
//! under the limits a command's runs get, once per process, tier and needs (started ahead
//! where a command knows them early); and whether a box's init may keep the OOM killer
//! off itself.

use std::fmt;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::machine::Machine;
use super::tier::Tier;
use crate::Locked as _;
use crate::client::Stderr;
use crate::facts::{Input, Limits};
use crate::launcher::{OOM_SCORE, shield_from_oom};
use crate::worker::{self, Config, Job, Worker};

/// The trials started ahead ([`try_ahead`]), waited for before the grader exits.
static AHEAD: Mutex<Vec<std::thread::JoinHandle<()>>> = Mutex::new(Vec::new());

/// Starts, on a thread of its own, the trial that `Machine::resolve` will ask for
/// (`asked`: the `--sandbox` tier; `None`, auto), so that the first worker is set up while
/// the cases are read and the submission built, not after (about 10 ms of every
/// `grader test`). What it finds is kept for [`tried`], whose later callers wait for it
/// and say it; nothing is said here.
pub fn try_ahead(asked: Option<Tier>, needs: Needs) {
    let handle = std::thread::spawn(move || {
        let _ = Machine::get().resolve(asked, |tier| tried(tier, needs));
    });
    AHEAD.locked().push(handle);
}

/// Waits for the trials started ahead: before the grader stops its idle workers and
/// removes its folders, so that none is set up behind their backs.
pub fn settle() {
    let ahead = std::mem::take(&mut *AHEAD.locked());
    for handle in ahead {
        let _ = handle.join();
    }
}

/// What a command's runs ask of a worker, which its trial asks too: a limit the machine
/// cannot give them (an inherited hard rlimit below one, see `rlimits.rs`) fails the tier
/// before any work, not each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// The CPU limit.
    pub cpu: Duration,
    /// The memory limit, bytes (the worker's cgroup is made with it).
    pub memory: u64,
    /// The output limit, bytes.
    pub output: u64,
    /// `--max-processes`.
    pub processes: u64,
}

/// Whether a worker of `tier` works here: one is started (with `needs.memory` as its
/// memory limit) and runs `true` under the limits a command's runs get, once per process,
/// tier and needs; the worker is then kept for the command's first worker of the same
/// making. `Err` says what failed, with the system's error.
///
/// Kept by needs, not by tier alone: a package's limits (read from its `problem.yaml`)
/// may ask more than the flags' defaults the trial started ahead with, and which of the
/// two finished first must not decide whether the tier works.
pub fn tried(tier: Tier, needs: Needs) -> Result<(), String> {
    type Trial = std::sync::Arc<OnceLock<Result<(), String>>>;
    static TRIED: Mutex<Vec<(Tier, Needs, Trial)>> = Mutex::new(Vec::new());
    let trial = {
        let mut tried = TRIED.locked();
        let found = tried
            .iter()
            .find(|(t, n, _)| *t == tier && *n == needs)
            .map(|(_, _, trial)| trial.clone());
        found.unwrap_or_else(|| {
            let trial = Trial::default();
            tried.push((tier, needs, trial.clone()));
            trial
        })
    };
    // Outside the lock: a caller with the same needs waits for this trial, one with
    // others makes its own.
    trial.get_or_init(|| try_tier(tier, needs)).clone()
}

fn try_tier(tier: Tier, needs: Needs) -> Result<(), String> {
    let failed = |what: &str, e: &dyn fmt::Display| format!("a worker could not {what}: {e}");
    let limits = Limits {
        // At least a second: a tiny `--time-limit` must not fail a tier by killing `true`
        // on a slow machine (its CPU rlimit then asks one second more than a run's).
        cpu: needs.cpu.max(Duration::from_secs(1)),
        // Room for an emulated machine, many times slower than this one.
        wall: Duration::from_mins(1),
        memory: needs.memory,
        output: needs.output,
        processes: needs.processes,
        sandbox: tier,
    };
    let config = Config {
        tier,
        memory: needs.memory,
        toolchain: Vec::new(),
        headers: None,
    };
    let mut worker = Worker::start(&config).map_err(|e| failed("start", &e))?;
    let files = crate::host::temp_dir("try").map_err(|e| failed("make its folder", &e))?;
    let job = Job {
        argv: vec![TRUE.to_owned()],
        files: worker::Files::Folder(files.path()),
        in_files: false,
        env: Vec::new(),
        stdin: Input::Empty,
        stderr: Stderr::Tail(4096),
        keep: &[],
        address_space: true,
    };
    let (outcome, _) = worker
        .run(&job, &limits)
        .map_err(|e| failed("run `true`", &e))?;
    if outcome.code == Some(0) {
        worker::keep_spare(config, worker);
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    Err(format!(
        "`true` in a worker ended with {}{}",
        match (outcome.code, outcome.signal) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(signal)) => format!("signal {signal}"),
            (None, None) => "no status".to_owned(),
        },
        match stderr.trim() {
            "" => String::new(),
            text => format!(" ({text})"),
        }
    ))
}

/// The program a trial runs: in the system's folders, which every box shows.
const TRUE: &str = "/usr/bin/true";

/// Whether a box's init may keep the OOM killer off itself (`oom_score_adj` -1000), as
/// the launcher asks: tried on this process and set back. `Err` says why not.
pub fn oom_shield() -> Result<(), String> {
    let before = std::fs::read_to_string(OOM_SCORE).map_err(|e| format!("{OOM_SCORE}: {e}"))?;
    shield_from_oom().map_err(|e| format!("the kernel refused -1000: {e}"))?;
    // Raising it back is always allowed.
    std::fs::write(OOM_SCORE, before.trim()).map_err(|e| format!("{OOM_SCORE}: {e}"))
}
