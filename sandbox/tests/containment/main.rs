//! The box's containment tests: hostile programs of every kind that only a box holds, run
//! in workers of the `basic` and `strict` tiers through the crate's public API, and judged
//! on the facts of their runs. A run's CPU time and memory count every process of it,
//! whatever they do; its processes are capped; it sees nothing of the run before it nor
//! of the machine, and reaches no other run by signal, trace or socket; nothing of it is
//! left once it ended; and a tier under limits inherited from the caller works, or says
//! which limit keeps it from working.
//!
//! What needs the grader stays in the grader's own box tests (`grader/tests/cli/box.rs`):
//! a class in `batch`, the compile cache and attacks at compile time through the grader's
//! compilers, a terminal, and what the grader reports.
//!
//! Run with `cargo test -p sandbox --test containment`. The binary is its own test runner
//! (`harness.rs`) because it is the launcher of its workers too. Tests that need root or
//! a tier this machine lacks say so and pass, except under CI (`CI` set), where they fail.

#![expect(clippy::unwrap_used, reason = "a test: a failure should panic")]

mod harness;
mod runs;
mod scene;
mod sweep;

mod between_runs;
mod children;
mod host;
mod hostile;
mod inherited_limits;
mod process_cap;
mod process_groups;
mod settled;
mod signals;
mod sockets;

use std::process::ExitCode;

fn main() -> ExitCode {
    // First: a worker starts this binary again as its launcher.
    sandbox::launcher::serve_if_asked();
    scene::set_up();
    let result = harness::run(tests![
        children::cpu_time_in_unreaped_children_counts_against_the_limit,
        children::memory_in_children_memfds_and_shared_memory_counts_against_the_limit,
        children::children_that_exit_before_the_run_ends_count_their_memory_and_cpu,
        process_groups::a_program_in_a_foreign_process_group_neither_hangs_its_run_nor_outlives_it,
        settled::a_wall_kill_says_whether_a_thread_of_the_run_was_runnable,
        process_cap::max_processes_caps_the_processes_of_a_run,
        signals::kill_minus_one_and_ptrace_reach_no_other_run,
        sockets::unix_sockets_outside_other_families_and_io_uring_are_out_of_reach,
        between_runs::a_run_sees_nothing_of_the_run_before_and_makes_no_namespace,
        host::a_run_sees_nothing_of_the_host,
        hostile::the_hostile_suite_gets_its_verdicts_in_the_basic_and_strict_tiers,
        inherited_limits::under_a_wide_inherited_address_space_strict_works_and_auto_picks_it,
        inherited_limits::under_an_address_space_below_a_runs_needs_no_box_works_and_auto_says_why,
        inherited_limits::as_nobody_an_inherited_address_space_is_fitted_under_or_named,
    ]);
    sandbox::drop_spare();
    scene::tear_down();
    result
}
