//! The hostile-program suite: deliberately misbehaving programs whose expected verdicts
//! are data, each run on the flip sample in a worker of its own, in `basic` and in
//! `strict`. After every run: the verdict is the expected one, the run was a value (never
//! an error of the worker), no process of it is left and nothing was written outside.
//!
//! Programs that only a confining box can stop (reading the answers, writing outside,
//! the network) print `LEAK` when they get through: `WA` in `basic`, `AC` in `strict`.

use std::fs;
use std::net::{TcpListener, UdpSocket};
use std::path::Path;
use std::time::Duration;

use sandbox::{Input, Tier};

use crate::runs::{job, limits, said, usable, verdict, worker};
use crate::scene::Scene;

/// (fixture, verdict in `basic`, verdict in `strict`).
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

/// The file the hostile programs try to leave outside their scratch folder.
const ESCAPE: &str = "/tmp/grader-hostile-escape";

/// The longest a run of the suite may take, stalls included.
const BOUND: Duration = Duration::from_mins(1);

/// Both tiers in one test, one after the other, as the grader's own suite runs them.
pub(crate) fn the_hostile_suite_gets_its_verdicts_in_the_basic_and_strict_tiers() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let folder = cases[0].parent().unwrap().to_string_lossy().into_owned();
    let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = tcp.local_addr().unwrap().port();
    let udp = UdpSocket::bind(("127.0.0.1", port)).unwrap();
    udp.set_nonblocking(true).unwrap();
    let flags = [format!("-DCASES=\"{folder}\""), format!("-DPORT={port}")];
    let programs: Vec<_> = SUITE
        .iter()
        .map(|row| scene.gcc(row.0, &[], &flags))
        .collect();
    for tier in [Tier::Basic, Tier::Strict] {
        if !usable("the_hostile_suite", &limits(tier, 1, 30, 64)) {
            continue;
        }
        for (row, program) in SUITE.iter().zip(&programs) {
            let want = if tier == Tier::Basic { row.1 } else { row.2 };
            // A program expected to stall gets a short wall limit (the suite stays quick);
            // every other one a wide one, so that CPU time decides on a busy machine.
            let wall = if want == "TLE" { 2 } else { 30 };
            let limits = limits(tier, 1, wall, 64);
            let _ = fs::remove_file(ESCAPE);
            let label = format!("{} ({tier})", row.0);
            let (outcome, escaped) = scene.call(&label, BOUND, || {
                let mut worker = worker(&limits);
                let job = job(&worker, program, Input::File(cases[0].clone()));
                let ran = worker.run(&job, &limits).map(|(outcome, _)| outcome);
                // Writing outside is what basic does not stop; strict must. Looked at
                // (and removed) here, before the call's own look outside.
                let escaped = Path::new(ESCAPE).exists();
                let _ = fs::remove_file(ESCAPE);
                (ran, escaped)
            });
            match outcome {
                Ok(outcome) if verdict(&outcome, &limits) == want => {}
                Ok(outcome) => scene.fail(format!(
                    "{label}: expected {want}, got {}",
                    said(&outcome, &limits)
                )),
                Err(e) => scene.fail(format!("{label}: expected {want}, the run failed: {e}")),
            }
            if escaped && (tier != Tier::Basic || row.0 != "ac_writes_outside.c") {
                scene.fail(format!("{label}: wrote {ESCAPE}"));
            }
        }
    }
    drop((tcp, udp));
    scene.finish();
}
