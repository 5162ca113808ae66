//! Running a compiled fixture in a worker as the grader runs a contestant's program: the
//! same job (the program alone in its folder, the grader's environment, the end of
//! standard error kept), the grader's default limits but those a test names, and what
//! the grader's judge would make of the facts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sandbox::tiers::{self, Machine, Needs};
use sandbox::{Config, Files, Input, Job, Killed, Limits, Outcome, Stderr, Tier, Worker};

use crate::harness::skip;
use crate::scene::{Scene, slowdown};

/// What a call may take beyond the wall limits of its runs.
const SLACK: Duration = Duration::from_secs(1);

/// The limits of a run in `tier`: `cpu` and `wall` seconds (the wall stretched by
/// [`slowdown`]), `memory_mib`, and the grader's defaults for the rest (64 MiB of output,
/// 64 processes).
pub(crate) fn limits(tier: Tier, cpu: u64, wall: u64, memory_mib: u64) -> Limits {
    Limits {
        cpu: Duration::from_secs(cpu),
        wall: Duration::from_secs(wall) * slowdown(),
        memory: memory_mib << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: tier,
    }
}

/// The longest `rounds` runs under `limits`, one after the other, may take, as the
/// grader's box tests bound a call: each run three times its wall limit (the grader makes
/// a run killed at the wall limit again, up to twice), and a second of slack. Stretched by
/// [`slowdown`] where it is checked, so taken here unstretched.
pub(crate) fn bound(limits: &Limits, rounds: u32) -> Duration {
    limits.wall / slowdown() * rounds * 3 + SLACK
}

/// Whether this machine gives `limits`'s tier for runs under them, as the grader checks it
/// before any run (the tier's trial); says why not, and skips outside CI, when not.
pub(crate) fn usable(test: &str, limits: &Limits) -> bool {
    let needs = Needs {
        cpu: limits.cpu,
        memory: limits.memory,
        output: limits.output,
        processes: limits.processes,
    };
    let tier = limits.sandbox;
    match Machine::get().resolve(Some(tier), |tier| tiers::tried(tier, needs)) {
        Ok(_) => true,
        Err(why) => {
            skip(test, &format!("no {tier} tier here: {why}"));
            false
        }
    }
}

/// A new worker for runs under `limits` (the caller checked it is [`usable`]).
pub(crate) fn worker(limits: &Limits) -> Worker {
    Worker::start(&Config {
        tier: limits.sandbox,
        memory: limits.memory,
        toolchain: Vec::new(),
        headers: None,
    })
    .unwrap()
}

/// The job of `program`, alone in its folder, on `stdin`, as the grader makes it.
pub(crate) fn job<'a>(worker: &Worker, program: &'a Path, stdin: Input) -> Job<'a> {
    let folder = program.parent().unwrap();
    let name = program.file_name().unwrap();
    Job {
        argv: vec![
            worker
                .files_dir(folder)
                .join(name)
                .to_string_lossy()
                .into_owned(),
        ],
        files: Files::Folder(folder),
        in_files: false,
        env: vec![
            "PATH=/usr/local/bin:/usr/bin:/bin".to_owned(),
            "LANG=C.UTF-8".to_owned(),
        ],
        stdin,
        keep: &[],
        stderr: Stderr::Tail(4096),
        address_space: true,
    }
}

/// Runs each of `jobs` in `worker`, one after the other, each told the next (started the
/// moment it ends, as the grader runs a submission's cases); their outcomes.
pub(crate) fn run_all(worker: &mut Worker, jobs: &[Job<'_>], limits: &Limits) -> Vec<Outcome> {
    let go_on = || true;
    (0..jobs.len())
        .map(|i| {
            let then = jobs
                .get(i + 1)
                .map(|next| (next, &go_on as &dyn Fn() -> bool));
            worker.run_then(&jobs[i], limits, then).unwrap().0
        })
        .collect()
}

/// What the grader's judge makes of `outcome` under `limits`, in judging.md's order
/// (`TLE`, `MLE`, `OLE`, `RE`, then the answer): `AC` when the output is the flip sample's
/// answer, `4`, else `WA`, as these fixtures are judged. A run killed at the wall limit is
/// `TLE` (the grader makes one that the machine held back again: these tests leave wide
/// wall limits where a program must finish), unless its memory had gone over the limit
/// before the kill (`MLE`: the wait was the memory kill's consequence).
pub(crate) fn verdict(outcome: &Outcome, limits: &Limits) -> &'static str {
    let peak = outcome.peak_kib.saturating_mul(1024);
    let cpu = outcome.killed == Some(Killed::Cpu)
        || outcome.signal == Some(libc::SIGXCPU)
        || outcome.cpu > limits.cpu;
    let wall = outcome.killed == Some(Killed::Wall) && peak <= limits.memory;
    if cpu || wall {
        "TLE"
    } else if outcome.killed == Some(Killed::Memory) || peak > limits.memory {
        "MLE"
    } else if outcome.killed == Some(Killed::Output) {
        "OLE"
    } else if outcome.signal.is_some() || outcome.code != Some(0) {
        "RE"
    } else if String::from_utf8_lossy(&outcome.stdout).trim_end() == "4" {
        "AC"
    } else {
        "WA"
    }
}

/// An outcome in a failure's message: its verdict and its facts.
pub(crate) fn said(outcome: &Outcome, limits: &Limits) -> String {
    format!(
        "{} (exit {:?}, signal {:?}, killed {:?}, cpu {:?}, wall {:?}, peak {} KiB): {:?} {:?}",
        verdict(outcome, limits),
        outcome.code,
        outcome.signal,
        outcome.killed,
        outcome.cpu,
        outcome.wall,
        outcome.peak_kib,
        String::from_utf8_lossy(&outcome.stdout),
        String::from_utf8_lossy(&outcome.stderr),
    )
}

/// (fixture, verdict in `basic`, verdict in `strict`); `None`: not promised, not run.
pub(crate) type Row = (&'static str, Option<&'static str>, &'static str);

/// The tiers `row` runs in, with the verdict expected in each.
fn tiers_of(row: &Row) -> Vec<(Tier, &'static str)> {
    let mut tiers = Vec::new();
    if let Some(basic) = row.1 {
        tiers.push((Tier::Basic, basic));
    }
    tiers.push((Tier::Strict, row.2));
    tiers
}

/// Each row's fixture, compiled with `vars`, run on each of `cases` by a worker of each
/// tier of its row under `limits_in(tier)` (a call each, checked as [`Scene::call`]
/// checks one): every case's verdict must be the row's; `check` looks further at each
/// case's outcome (the label, the outcome).
pub(crate) fn grade_rows(
    scene: &mut Scene,
    test: &str,
    rows: &[Row],
    cases: &[PathBuf],
    limits_in: impl Fn(Tier) -> Limits,
    vars: &[(&str, String)],
    mut check: impl FnMut(&mut Scene, &str, &Outcome),
) {
    for row in rows {
        let program = scene.gcc(row.0, vars, &[]);
        for (tier, want) in tiers_of(row) {
            let limits = limits_in(tier);
            if !usable(test, &limits) {
                continue;
            }
            let label = format!("{} ({tier})", row.0);
            let rounds = u32::try_from(cases.len()).unwrap();
            let outcomes = scene.call(&label, bound(&limits, rounds), || {
                let mut worker = worker(&limits);
                let jobs: Vec<Job<'_>> = cases
                    .iter()
                    .map(|case| job(&worker, &program, Input::File(case.clone())))
                    .collect();
                run_all(&mut worker, &jobs, &limits)
            });
            for (i, outcome) in outcomes.iter().enumerate() {
                let label = format!("{label}, case {}", i + 1);
                if verdict(outcome, &limits) != want {
                    scene.fail(format!(
                        "{label}: expected {want}, got {}",
                        said(outcome, &limits)
                    ));
                }
                check(scene, &label, outcome);
            }
        }
    }
}
