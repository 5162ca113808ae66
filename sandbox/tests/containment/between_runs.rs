//! Nothing of one run reaches the next in the same worker: a run may see nothing that an
//! earlier run left (files, streams, memory, processes), and reach no kernel path that
//! needs a namespace of its own or tells what the page cache holds. A worker runs a
//! submission's cases one after the other, each the next student of the one before, and
//! a class's students too.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use sandbox::{Input, Job, Tier};

use crate::runs::{Row, bound, grade_rows, job, limits, run_all, said, usable, verdict, worker};
use crate::scene::Scene;

const BETWEEN_RUNS: &[Row] = &[
    ("ac_leaves_marks_finds_none.c", None, "AC"),
    ("ac_leaves_marks_on_its_streams_finds_none.c", None, "AC"),
    ("ac_holds_memory_past_its_input_finds_none.c", None, "AC"),
    ("ac_namespaces_and_cache_probes_refused.c", None, "AC"),
];

/// The students of the class, one worker for all.
const STUDENTS: [&str; 3] = ["alice", "bob", "carol"];

pub(crate) fn a_run_sees_nothing_of_the_run_before_and_makes_no_namespace() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 3);
    let test = "a_run_sees_nothing_of_the_run_before";
    let in_tier = |tier| limits(tier, 2, 6, 256);
    grade_rows(
        &mut scene,
        test,
        BETWEEN_RUNS,
        &cases,
        in_tier,
        &[],
        |_, _, _| {},
    );
    // A class on one worker: each student leaves every mark it can for the next, and
    // does what an honest program does (a temporary file read back) before. Each is a
    // program of its own folder, as a class's students are.
    let limits = in_tier(Tier::Strict);
    if usable(test, &limits) {
        let built = scene.gcc("ac_leaves_marks_finds_none.c", &[], &[]);
        let programs: Vec<_> = STUDENTS
            .iter()
            .map(|student| {
                let program = scene.folder(&format!("class-{student}"), &[]).join(student);
                fs::copy(&built, &program).unwrap();
                fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
                program
            })
            .collect();
        let rounds = u32::try_from(programs.len() * cases.len()).unwrap();
        let outcomes = scene.call("class", bound(&limits, rounds), || {
            let mut worker = worker(&limits);
            let jobs: Vec<Job<'_>> = programs
                .iter()
                .flat_map(|program| cases.iter().map(move |case| (program, case)))
                .map(|(program, case)| job(&worker, program, Input::File(case.clone())))
                .collect();
            run_all(&mut worker, &jobs, &limits)
        });
        for (i, outcome) in outcomes.iter().enumerate() {
            if verdict(outcome, &limits) != "AC" {
                let (student, case) = (STUDENTS[i / cases.len()], i % cases.len() + 1);
                scene.fail(format!(
                    "class: {student}, case {case}: expected AC, got {}",
                    said(outcome, &limits)
                ));
            }
        }
    }
    scene.finish();
}
