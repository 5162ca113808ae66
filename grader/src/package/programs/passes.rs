//! Multi-pass problems (2023-07's `type: multi-pass`): a submission runs on a case's
//! input and its output is judged by the package's validator (or, interactive, it runs
//! against the interactor); when the validator accepts the pass and leaves `nextpass.in`
//! in its feedback folder, the submission runs again, anew, with that file as the pass's
//! input, and so on, at most `limits.validation_passes` times. Each pass is judged under
//! the problem's limits on its own, and the first pass that is not accepted decides the
//! case, its message saying which pass it was (`pass 2: ...`). A validator that rejects a
//! pass and still asks for another, or asks for one past the last, is the package's
//! fault, never the submission's mark.
//!
//! The rule after each pass is [`step`], a pure function; [`run`] makes the passes with
//! whatever runs one ([`Pass`]: an output judged after the run, or an interaction).

use std::path::Path;

use reference::{Judgement, Verdict};
use sandbox::{Input, Limits, Outcome};

use crate::cli::exit::Fault;
use crate::package::programs::interaction;
use crate::package::programs::output_judge::{CaseFiles, PackageJudge};
use crate::package::programs::output_validator::Validator;
use crate::run::judge::Sched;
use crate::run::runner::Runner;
use crate::submission::Program;

/// What one pass gave.
#[derive(Debug)]
pub(crate) struct Pass {
    /// The submission's facts.
    pub(crate) outcome: Outcome,
    /// The pass's verdict.
    pub(crate) judgement: Judgement,
    /// The next pass's input, when the validator left one (`nextpass.in`).
    pub(crate) next: Option<Vec<u8>>,
    /// The runs of this pass killed at the wall limit (see `run::runner::Ran`).
    pub(crate) stalls: Vec<Sched>,
    /// What passed, for an interaction shown (see `interaction::Interacted`).
    pub(crate) transcript: Option<Vec<u8>>,
}

/// What the passes of one case gave, as one run's result: the deciding pass's verdict and
/// facts, with the most CPU time, wall time and memory of any pass.
#[derive(Debug)]
pub(crate) struct Passed {
    /// The facts of the deciding pass (the last made), with the figures of the largest.
    pub(crate) outcome: Outcome,
    /// The case's verdict.
    pub(crate) judgement: Judgement,
    /// The deciding pass's runs killed at the wall limit.
    pub(crate) stalls: Vec<Sched>,
    /// Each pass's exchange, one after the other, a line `---` between two.
    pub(crate) transcript: Option<Vec<u8>>,
}

/// What follows a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Another pass, on the input the validator left.
    Again,
    /// The case is decided by this pass.
    Decided,
}

/// What follows pass number `pass` (from 1) of at most `most`, judged `verdict`, whose
/// validator left the next pass's input (`asks`); `Err`: why the package is at fault.
pub(crate) fn step(pass: u32, most: u32, verdict: Verdict, asks: bool) -> Result<Step, String> {
    match (verdict, asks) {
        // Accepted with no other pass asked for, or not accepted: this pass decides.
        (_, false) => Ok(Step::Decided),
        (Verdict::Accepted, true) if pass >= most => Err(format!(
            "accepted pass {pass} and asked for another (it left nextpass.in), but \
             limits.validation_passes is {most}"
        )),
        (Verdict::Accepted, true) => Ok(Step::Again),
        // Only a validator that ran can ask; it rejected the output it asks to go on from.
        (_, true) => Err(format!(
            "rejected pass {pass} and asked for another all the same (it left nextpass.in)"
        )),
    }
}

/// Runs `program` on the case `case` of `judge`'s multi-pass problem, pass after pass
/// (at most `most`), each run under `run` and judged at `judged` (the limits the problem
/// sets: `verify` runs under a safety margin above them); an interactive problem's
/// exchanges are kept when `record`.
pub(crate) fn case(
    (runner, validator): (&mut Runner, &mut Validator<'_>),
    (judge, most): (&PackageJudge, u32),
    program: &Program,
    case: CaseFiles<'_>,
    (run, judged): (&Limits, &Limits),
    record: bool,
) -> Result<Passed, Fault> {
    let flags = judge.flags(&case)?.to_vec();
    self::run(
        (case.input, judge.shown(), case.name),
        most,
        |input, stdin| {
            if judge.interactive_problem() {
                let one = interaction::Case {
                    name: case.name,
                    files: (input, case.answer),
                    flags: &flags,
                };
                let ran = interaction::interact(
                    (&mut *runner, &mut *validator),
                    program,
                    one,
                    (run, judged),
                    record,
                )?;
                return Ok(Pass {
                    outcome: ran.submission,
                    judgement: ran.judgement,
                    next: ran.next_pass,
                    stalls: ran.stalls,
                    transcript: ran.transcript,
                });
            }
            let ran = runner.run(program, &Input::Bytes(stdin.to_vec()), run)?;
            let (mut next, mut broken) = (None, None);
            let judgement = crate::run::judge::judge(&ran.outcome, judged, |output| {
                let files = CaseFiles { input, ..case };
                match judge.judge_pass(files, output, Some(&mut *validator)) {
                    Ok((judgement, asked)) => {
                        next = asked;
                        judgement
                    }
                    Err(fault) => {
                        // The validator's fault, never this program's mark.
                        broken = Some(fault);
                        Judgement::wrong(String::new())
                    }
                }
            });
            if let Some(fault) = broken {
                return Err(fault);
            }
            Ok(Pass {
                outcome: ran.outcome,
                judgement,
                next,
                stalls: ran.stalls,
                transcript: None,
            })
        },
    )
}

/// Makes the passes of the case whose first input is `input` (a file), at most `most`,
/// each by `one` (given the pass's input file and bytes); `shown` names the validator in
/// a fault.
pub(crate) fn run(
    (input, shown, case): (&Path, &str, &str),
    most: u32,
    mut one: impl FnMut(&Path, &[u8]) -> Result<Pass, Fault>,
) -> Result<Passed, Fault> {
    let mut bytes = crate::paths::files::read_capped(input)?;
    // The folder of the next pass's input, written by this grader (kept until the pass
    // after it is written): where the pass under way reads from, after the first.
    let mut next_folder: Option<tempfile::TempDir> = None;
    let mut most_seen = Outcome::default();
    let mut transcript: Option<Vec<u8>> = None;
    // `step` decides the pass numbered `most` at the latest: it never asks for one past.
    let mut pass = 0;
    loop {
        pass += 1;
        let path = next_folder
            .as_ref()
            .map_or_else(|| input.to_path_buf(), |dir| dir.path().join(NEXT_PASS));
        let made = one(&path, &bytes)?;
        most_seen.cpu = most_seen.cpu.max(made.outcome.cpu);
        most_seen.wall = most_seen.wall.max(made.outcome.wall);
        most_seen.peak_kib = most_seen.peak_kib.max(made.outcome.peak_kib);
        if let Some(exchange) = made.transcript {
            let all = transcript.get_or_insert_with(Vec::new);
            if pass > 1 {
                all.extend_from_slice(b"---\n");
            }
            all.extend_from_slice(&exchange);
        }
        let step =
            step(pass, most, made.judgement.verdict, made.next.is_some()).map_err(|why| {
                Fault::input(format!(
                    "{shown}: the output validator {why}, on {case}: the package's fault, \
                     not the submission's"
                ))
            })?;
        let (Step::Again, Some(next)) = (step, made.next) else {
            let mut judgement = made.judgement;
            if judgement.verdict != Verdict::Accepted {
                judgement.message = if judgement.message.is_empty() {
                    format!("pass {pass}")
                } else {
                    format!("pass {pass}: {}", judgement.message)
                };
            }
            let outcome = Outcome {
                cpu: most_seen.cpu,
                wall: most_seen.wall,
                peak_kib: most_seen.peak_kib,
                ..made.outcome
            };
            return Ok(Passed {
                outcome,
                judgement,
                stalls: made.stalls,
                transcript,
            });
        };
        // Written anew, in a folder of this grader's: the validator reads it as the
        // pass's input file, the submission as its standard input.
        let dir = crate::paths::temp::dir("next-pass")
            .map_err(|e| Fault::setup(format!("cannot make a pass's folder: {e}")))?;
        let file = dir.path().join(NEXT_PASS);
        std::fs::write(&file, &next)
            .map_err(|e| Fault::setup(crate::paths::files::cannot(&file, "write", &e)))?;
        bytes = next;
        next_folder = Some(dir);
    }
}

/// The name the next pass's input is written under.
const NEXT_PASS: &str = "nextpass.in";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_goes_on_only_when_accepted_with_a_next_input_below_the_last() {
        use Verdict::{Accepted, RuntimeError, TimeLimit, WrongAnswer};
        let table = [
            // (pass, most, verdict, asks) -> what follows
            ((1, 2, Accepted, true), Ok(Step::Again)),
            ((1, 2, Accepted, false), Ok(Step::Decided)),
            ((2, 2, Accepted, false), Ok(Step::Decided)),
            ((1, 2, WrongAnswer, false), Ok(Step::Decided)),
            ((1, 2, TimeLimit, false), Ok(Step::Decided)),
            ((2, 3, RuntimeError, false), Ok(Step::Decided)),
            ((4, 5, Accepted, true), Ok(Step::Again)),
        ];
        for ((pass, most, verdict, asks), want) in table {
            assert_eq!(
                step(pass, most, verdict, asks),
                want,
                "{pass} {most} {verdict:?}"
            );
        }
        let past = step(2, 2, Accepted, true).unwrap_err();
        assert!(past.contains("limits.validation_passes is 2"), "{past}");
        let rejected = step(1, 3, WrongAnswer, true).unwrap_err();
        assert!(rejected.starts_with("rejected pass 1"), "{rejected}");
    }
}
