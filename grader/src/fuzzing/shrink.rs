//! Shrinking a finding: the finding itself is shrunk (the input the report shows as the
//! original is the one shrunk), on one worker, step after step, so one seed gives one
//! shrunk input at any `--jobs`; within `--shrink-steps` runs and [`SHRINK_TIME`].

use std::time::{Duration, Instant};

use fuzz::{Finding, ShrinkBudget};
use reference::Problem;

use crate::cli::exit::Fault;
use crate::fuzzing::under_test::ProgramCandidate;

/// How long shrinking may take, whatever `--shrink-steps` allows.
pub(crate) const SHRINK_TIME: Duration = Duration::from_secs(30);

/// Shrinks `finding` on `candidate`, in at most `steps` runs.
pub(crate) fn shrink(
    problem: Problem,
    candidate: &mut ProgramCandidate<'_>,
    finding: &Finding,
    steps: u32,
) -> Result<fuzz::Shrunk, Fault> {
    let budget = ShrinkBudget {
        steps,
        deadline: Some(Instant::now() + SHRINK_TIME),
    };
    fuzz::shrink(
        problem,
        candidate,
        &finding.input,
        &finding.failure,
        &budget,
    )
}
