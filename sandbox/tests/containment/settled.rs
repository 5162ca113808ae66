//! A run killed at the wall limit says how many of its threads were runnable at the kill,
//! in every tier that sees all of its processes: none for a program blocked for good, at
//! least one for a program computing then. With none, no wait for a CPU was under way, so
//! the waiting counted is whole and the grader judges the stall from that one run.

use sandbox::{Killed, Outcome};

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

/// Blocked in `select` for good: every thread asleep at the kill.
const ASLEEP: &[Row] = &[("tle_select_forever.c", Some("TLE"), "TLE")];

/// A child spinning 1.5 s of CPU under a 1 s wall limit: running at the kill.
const SPINNING: &[Row] = &[("tle_cpu_in_unreaped_child.c", Some("TLE"), "TLE")];

pub(crate) fn a_wall_kill_says_whether_a_thread_of_the_run_was_runnable() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 2);
    let test = "a_wall_kill_says_whether_a_thread_of_the_run_was_runnable";
    let killed_at_wall = |scene: &mut Scene, label: &str, outcome: &Outcome| {
        if outcome.killed != Some(Killed::Wall) {
            scene.fail(format!(
                "{label}: not killed at the wall limit: {outcome:?}"
            ));
        }
    };
    grade_rows(
        &mut scene,
        test,
        ASLEEP,
        &cases,
        |tier| limits(tier, 1, 1, 64),
        &[],
        |scene, label, outcome| {
            killed_at_wall(scene, label, outcome);
            if outcome.runnable != Some(0) {
                scene.fail(format!(
                    "{label}: asleep, yet runnable {:?} of {} threads",
                    outcome.runnable, outcome.tasks
                ));
            }
        },
    );
    grade_rows(
        &mut scene,
        test,
        SPINNING,
        &cases,
        |tier| limits(tier, 10, 1, 64),
        &[],
        |scene, label, outcome| {
            killed_at_wall(scene, label, outcome);
            if matches!(outcome.runnable, None | Some(0)) {
                scene.fail(format!(
                    "{label}: computing, yet runnable {:?} of {} threads",
                    outcome.runnable, outcome.tasks
                ));
            }
        },
    );
    scene.finish();
}
