//! The verdict of one interaction, decided from its recorded facts alone: how the
//! submission ended, how the interactor ended, and which of the two ended first. No
//! processes, no clocks: every rule is a table test below.
//!
//! The rules are problemtools' (`judge/execute.py`, with its `interactive` runner):
//!
//! 1. an interactor that did not exit with 42 or 43 (a crash, another status, a limit) is
//!    the package's fault, whatever the submission did;
//! 2. an interactor that exited with 43 before the submission ended decides: `WA`, even
//!    if the submission then crashed (on `SIGPIPE`, reading or writing to a side that is
//!    gone) or ran out of time;
//! 3. otherwise the submission's own ending decides as any run's does (`TLE` by CPU or
//!    wall, `MLE`, `RTE`, in judging.md's precedence);
//! 4. and a submission that ended well gets the interactor's word: 42 `AC`, 43 `WA`.

use reference::{Judgement, Verdict};
use sandbox::{Killed, Limits, Outcome};

use crate::run::judge::judge;

/// Which side of an interaction ended first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum First {
    /// The submission.
    Submission,
    /// The interactor.
    Interactor,
}

/// What an interaction ended with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ended<'a> {
    /// The submission's facts.
    pub(crate) submission: &'a Outcome,
    /// The interactor's facts.
    pub(crate) interactor: &'a Outcome,
    /// Which ended first.
    pub(crate) first: First,
}

/// The decision on an interaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// The submission's verdict, and why.
    Judged(Judgement),
    /// The interactor failed (rule 1): the package's fault, never the submission's mark.
    InteractorFailed,
}

/// Decides `ended` for a submission judged at `limits`; `message` is the interactor's
/// reason for a 43 (its `judgemessage.txt`'s first line, or empty).
pub(crate) fn decide(ended: Ended<'_>, limits: &Limits, message: &str) -> Decision {
    let interactor = ended.interactor;
    let said = match (interactor.killed, interactor.signal, interactor.code) {
        (None, None, Some(42)) => Verdict::Accepted,
        (None, None, Some(43)) => Verdict::WrongAnswer,
        _ => return Decision::InteractorFailed,
    };
    let word = || match said {
        Verdict::Accepted => Judgement {
            verdict: Verdict::Accepted,
            message: String::new(),
        },
        _ => Judgement::wrong(if message.is_empty() {
            "the interactor rejected it".to_owned()
        } else {
            message.to_owned()
        }),
    };
    if said == Verdict::WrongAnswer && ended.first == First::Interactor {
        return Decision::Judged(word());
    }
    // The submission's output went to the interactor, not to the grader: the output
    // limit cannot have killed it, and there is nothing of it to check here.
    let mut submission = ended.submission.clone();
    if submission.killed == Some(Killed::Output) {
        submission.killed = None;
    }
    Decision::Judged(judge(&submission, limits, |_| word()))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory: 256 << 20,
            output: 8 << 20,
            processes: 16,
            sandbox: sandbox::Tier::None,
        }
    }

    fn exited(code: i32) -> Outcome {
        Outcome {
            code: Some(code),
            cpu: Duration::from_millis(10),
            wall: Duration::from_millis(20),
            ..Outcome::default()
        }
    }

    fn signalled(signal: i32) -> Outcome {
        Outcome {
            code: None,
            signal: Some(signal),
            ..exited(0)
        }
    }

    fn cpu_over() -> Outcome {
        Outcome {
            killed: Some(Killed::Cpu),
            cpu: Duration::from_millis(1100),
            ..signalled(libc::SIGKILL)
        }
    }

    fn decided(submission: &Outcome, interactor: &Outcome, first: First) -> Decision {
        let ended = Ended {
            submission,
            interactor,
            first,
        };
        decide(ended, &limits(), "guess 11: too many")
    }

    fn verdict(decision: &Decision) -> Verdict {
        match decision {
            Decision::Judged(judgement) => judgement.verdict,
            Decision::InteractorFailed => panic!("no verdict: {decision:?}"),
        }
    }

    #[test]
    fn a_wrong_answer_the_interactor_gave_first_stands_whatever_the_submission_did_after() {
        for after in [exited(0), signalled(libc::SIGPIPE), exited(1), cpu_over()] {
            let decision = decided(&after, &exited(43), First::Interactor);
            assert_eq!(
                decision,
                Decision::Judged(Judgement::wrong("guess 11: too many".to_owned())),
                "{after:?}"
            );
        }
    }

    #[test]
    fn a_submission_that_ended_first_is_judged_by_its_own_ending_before_the_interactor_s_word() {
        let cases = [
            (signalled(libc::SIGSEGV), 43, Verdict::RuntimeError),
            (signalled(libc::SIGPIPE), 42, Verdict::RuntimeError),
            (exited(3), 43, Verdict::RuntimeError),
            (cpu_over(), 43, Verdict::TimeLimit),
            (
                Outcome {
                    killed: Some(Killed::Memory),
                    ..signalled(libc::SIGKILL)
                },
                43,
                Verdict::MemoryLimit,
            ),
            (exited(0), 43, Verdict::WrongAnswer),
            (exited(0), 42, Verdict::Accepted),
        ];
        for (submission, code, want) in cases {
            for first in [First::Submission, First::Interactor] {
                // A 43 first is rule 2's: tested above.
                if code == 43 && first == First::Interactor {
                    continue;
                }
                let decision = decided(&submission, &exited(code), first);
                assert_eq!(verdict(&decision), want, "{submission:?} then {code}");
            }
        }
    }

    #[test]
    fn an_accepting_interactor_first_leaves_the_submission_s_ending_to_decide() {
        let late = decided(&cpu_over(), &exited(42), First::Interactor);
        assert_eq!(verdict(&late), Verdict::TimeLimit);
        let crashed = decided(&signalled(libc::SIGABRT), &exited(42), First::Interactor);
        assert_eq!(verdict(&crashed), Verdict::RuntimeError);
    }

    #[test]
    fn an_interactor_that_ends_otherwise_is_the_package_s_fault_never_a_verdict() {
        let over = Outcome {
            killed: Some(Killed::Wall),
            ..signalled(libc::SIGKILL)
        };
        for interactor in [exited(0), exited(1), signalled(libc::SIGSEGV), over] {
            for first in [First::Submission, First::Interactor] {
                for submission in [exited(0), signalled(libc::SIGPIPE), cpu_over()] {
                    assert_eq!(
                        decided(&submission, &interactor, first),
                        Decision::InteractorFailed,
                        "{interactor:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_output_limit_never_marks_a_submission_whose_output_went_to_the_interactor() {
        let flooded = Outcome {
            killed: Some(Killed::Output),
            ..exited(0)
        };
        let decision = decided(&flooded, &exited(42), First::Submission);
        assert_eq!(verdict(&decision), Verdict::Accepted);
    }
}
