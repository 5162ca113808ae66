//! The process cap (`Limits::processes`) holds a run's processes, root's included.

use sandbox::Limits;

use crate::runs::{Row, grade_rows, limits};
use crate::scene::Scene;

/// The cap asked, which the program is told (it answers `LEAK` when it held more).
const CAP: u64 = 16;

pub(crate) fn max_processes_caps_the_processes_of_a_run() {
    let mut scene = Scene::new();
    let cases = scene.sample_cases("cases", 1);
    let row: Row = ("ac_counts_its_processes.c", None, "AC");
    let vars = [("CAP", CAP.to_string())];
    let test = "max_processes_caps_the_processes_of_a_run";
    let capped = |tier| Limits {
        processes: CAP,
        ..limits(tier, 2, 6, 256)
    };
    grade_rows(
        &mut scene,
        test,
        &[row],
        &cases,
        capped,
        &vars,
        |_, _, _| {},
    );
    scene.finish();
}
