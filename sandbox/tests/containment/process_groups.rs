//! A program that leaves its process group for a foreign one, clears its parent-death
//! signal and ignores SIGTERM, holding standard output: its run still ends at once (the
//! child's case) or at the wall limit (the main process's case), and nothing of it is
//! left.

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

const FOREIGN_GROUPS: &[Row] = &[
    ("ac_setpgid_escape_child.c", None, "AC"),
    ("tle_setpgid_escape_self.c", None, "TLE"),
];

pub(crate) fn a_program_in_a_foreign_process_group_neither_hangs_its_run_nor_outlives_it() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let test = "a_program_in_a_foreign_process_group";
    grade_rows(
        &mut scene,
        test,
        FOREIGN_GROUPS,
        &cases,
        |tier| limits(tier, 1, 2, 64),
        &[],
        |_, _, _| {},
    );
    scene.finish();
}
