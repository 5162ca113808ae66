//! CPU time and memory of every process of a run count against its limits and are
//! reported, whatever the processes do: work in a child that is never reaped or split over
//! children, memory a child holds, memory files and shared memory, and children that exit
//! and are reaped before the run ends (issue 37).

use std::time::Duration;

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

const CPU: &[Row] = &[
    ("tle_cpu_in_unreaped_child.c", None, "TLE"),
    ("tle_cpu_split_over_children.c", None, "TLE"),
];

pub(crate) fn cpu_time_in_unreaped_children_counts_against_the_limit() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    // The wall limit is far above the work, so that CPU time decides, even on a busy
    // machine.
    let in_tier = |tier| limits(tier, 1, 6, 256);
    let test = "cpu_time_in_unreaped_children";
    grade_rows(
        &mut scene,
        test,
        CPU,
        &cases,
        in_tier,
        &[],
        |scene, label, outcome| {
            if outcome.cpu < Duration::from_millis(900) {
                scene.fail(format!(
                    "{label}: reported {:?} of CPU, not the run's",
                    outcome.cpu
                ));
            }
        },
    );
    scene.finish();
}

const MEMORY: &[Row] = &[
    ("mle_child_holds_200mib.c", None, "MLE"),
    ("mle_memfd_200mib.c", None, "MLE"),
    ("mle_dev_shm_200mib.c", None, "MLE"),
    ("mle_child_killed_parent_waits.c", None, "MLE"),
];

pub(crate) fn memory_in_children_memfds_and_shared_memory_counts_against_the_limit() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let test = "memory_in_children_memfds_and_shared_memory";
    grade_rows(
        &mut scene,
        test,
        MEMORY,
        &cases,
        |tier| limits(tier, 2, 6, 64),
        &[],
        |scene, label, outcome| {
            if outcome.peak_kib < 60 << 10 {
                scene.fail(format!(
                    "{label}: reported {} KiB, not the run's memory",
                    outcome.peak_kib
                ));
            }
        },
    );
    scene.finish();
}

/// Issue 37's program: four children touch memory (or spend CPU), exit and are reaped
/// before the main process answers wrongly. In both tiers: wherever the machine gives
/// cgroups (root, or a plain user in a delegated subtree, as the cgroup-v2 VM's user mode
/// runs these tests), basic counts every process too.
const CHILDREN_THAT_EXIT: &[Row] = &[
    ("mle_four_children_touch_and_exit.c", Some("MLE"), "MLE"),
    ("tle_four_children_spend_and_exit.c", Some("TLE"), "TLE"),
];

pub(crate) fn children_that_exit_before_the_run_ends_count_their_memory_and_cpu() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let test = "children_that_exit_before_the_run_ends";
    grade_rows(
        &mut scene,
        test,
        CHILDREN_THAT_EXIT,
        &cases,
        |tier| limits(tier, 1, 6, 256),
        &[],
        |scene, label, outcome| {
            if label.starts_with("mle_") && outcome.peak_kib < 250 << 10 {
                scene.fail(format!(
                    "{label}: reported {} KiB, not the children's",
                    outcome.peak_kib
                ));
            }
            if label.starts_with("tle_") && outcome.cpu < Duration::from_millis(900) {
                scene.fail(format!(
                    "{label}: reported {:?} of CPU, not the children's",
                    outcome.cpu
                ));
            }
        },
    );
    scene.finish();
}
