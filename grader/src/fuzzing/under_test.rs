//! The program under test as a [`fuzz::Candidate`]: each input is given in a memory
//! file, the program runs on it under limits like any case, and a run that breaks
//! a limit or crashes is reported as its verdict (decided by `judge`, by cause).

use fuzz::{Candidate, Observed};
use reference::{Judgement, Verdict};
use sandbox::{Input, Limits};

use crate::cli::exit::Fault;
use crate::run::judge::judge;
use crate::run::runner::Runner;
use crate::submission::Program;

/// A program, one worker's runner, and where its inputs go.
#[derive(Debug)]
pub(crate) struct ProgramCandidate<'a> {
    program: &'a Program,
    runner: Runner,
    limits: Limits,
}

impl<'a> ProgramCandidate<'a> {
    /// A candidate with a worker of its own.
    pub(crate) fn start(
        program: &'a Program,
        limits: Limits,
    ) -> Result<ProgramCandidate<'a>, Fault> {
        Ok(ProgramCandidate {
            program,
            runner: Runner::start(&limits, [program])?,
            limits,
        })
    }
}

impl Candidate for ProgramCandidate<'_> {
    type Error = Fault;

    fn run(&mut self, input: &str) -> Result<Observed, Fault> {
        let outcome = self
            .runner
            .run(
                self.program,
                &Input::Bytes(input.as_bytes().to_vec()),
                &self.limits,
            )?
            .outcome;
        // The limits and the signals decide first; the output is judged by the fuzzer
        // against the reference, so here it only has to be there.
        let judgement = judge(&outcome, &self.limits, |_| Judgement::accepted());
        Ok(if judgement.verdict == Verdict::Accepted {
            Observed::Output(outcome.stdout)
        } else {
            Observed::Failed {
                verdict: judgement.verdict,
                message: judgement.message,
            }
        })
    }
}
