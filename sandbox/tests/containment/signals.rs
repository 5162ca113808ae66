//! A run signals and traces nothing outside its own box (or, in `basic`, outside its own
//! uid or PID space): `kill(-1)` and `ptrace` of every process it can see, from runs side by
//! side with an honest one, each in a worker of its own, reach neither the others nor the
//! process that runs them (this test: had a signal reached it, it would not report).

use sandbox::{Input, Outcome, Tier};

use crate::runs::{Row, bound, job, limits, said, usable, verdict, worker};
use crate::scene::Scene;

const SIGNALS: &[Row] = &[
    ("ac_kills_everyone.c", Some("AC"), "AC"),
    ("ac_honest_slow.c", Some("AC"), "AC"),
    ("ac_ptrace_everyone.c", Some("AC"), "AC"),
];

pub(crate) fn kill_minus_one_and_ptrace_reach_no_other_run() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let programs: Vec<_> = SIGNALS
        .iter()
        .map(|row| scene.gcc(row.0, &[], &[]))
        .collect();
    for tier in [Tier::Basic, Tier::Strict] {
        let limits = limits(tier, 2, 8, 256);
        if !usable("kill_minus_one_and_ptrace", &limits) {
            continue;
        }
        let label = format!("side by side ({tier})");
        let outcomes: Vec<Outcome> = scene.call(&label, bound(&limits, 1), || {
            let mut workers: Vec<_> = programs.iter().map(|_| worker(&limits)).collect();
            std::thread::scope(|scope| {
                let runs: Vec<_> = workers
                    .iter_mut()
                    .zip(&programs)
                    .map(|(worker, program)| {
                        let job = job(worker, program, Input::File(cases[0].clone()));
                        let limits = &limits;
                        scope.spawn(move || worker.run(&job, limits).unwrap().0)
                    })
                    .collect();
                runs.into_iter().map(|run| run.join().unwrap()).collect()
            })
        });
        for (row, outcome) in SIGNALS.iter().zip(&outcomes) {
            let want = if tier == Tier::Basic {
                row.1
            } else {
                Some(row.2)
            };
            if want.is_some_and(|want| want != verdict(outcome, &limits)) {
                scene.fail(format!(
                    "{label}: {}: expected {want:?}, got {}",
                    row.0,
                    said(outcome, &limits)
                ));
            }
        }
    }
    scene.finish();
}
