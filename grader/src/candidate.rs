//! The program under test as a [`fuzz::Candidate`]: each input is written to a file the
//! grader owns, the program runs on it under limits like any case, and a run that breaks
//! a limit or crashes is reported as its verdict (decided by `judge`, by cause).

use std::fs;
use std::path::PathBuf;

use fuzz::{Candidate, Observed};
use reference::{Judgement, Verdict};

use crate::exec::Limits;
use crate::files;
use crate::judge::judge;
use crate::runner::Runner;
use crate::status::Fault;
use crate::submission::Program;

/// A program, one worker's runner, and where its inputs go.
#[derive(Debug)]
pub(crate) struct ProgramCandidate<'a> {
    program: &'a Program,
    runner: Runner,
    limits: Limits,
    input: PathBuf,
}

impl<'a> ProgramCandidate<'a> {
    /// The candidate of worker number `worker`.
    pub(crate) fn start(
        program: &'a Program,
        worker: usize,
        limits: Limits,
    ) -> Result<ProgramCandidate<'a>, Fault> {
        Ok(ProgramCandidate {
            program,
            runner: Runner::start(program, worker)?,
            limits,
            // Beside the scratch folders, not in one: the program cannot change it.
            input: program.staging.path().join(format!("input-{worker}")),
        })
    }
}

impl Candidate for ProgramCandidate<'_> {
    type Error = Fault;

    fn run(&mut self, input: &str) -> Result<Observed, Fault> {
        fs::write(&self.input, input).map_err(|e| files::cannot(&self.input, "write", &e))?;
        let outcome = self.runner.run(self.program, &self.input, &self.limits)?;
        // The limits and the signals decide first; the output is judged by the fuzzer
        // against the reference, so here it only has to be there.
        let decision = judge(&outcome, &self.limits, |_| Judgement::accepted());
        Ok(if decision.verdict == Verdict::Accepted {
            Observed::Output(outcome.stdout)
        } else {
            Observed::Failed {
                verdict: decision.verdict,
                message: decision.message,
            }
        })
    }
}
