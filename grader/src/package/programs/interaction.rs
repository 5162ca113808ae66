//! One case of an interactive problem: the submission and the package's interactor (its
//! output validator, `INTERACTOR INPUT ANSWER FEEDBACK_DIR [flags]`), each in the box on
//! a worker of its own under its own limits (the submission the problem's, the
//! interactor the validation limits), the submission's standard output the interactor's
//! standard input and the other way round, two pipes and nothing between them; or, where
//! the interaction is shown, the grader's relay between them (`interaction_relay`), which
//! keeps what passed.
//!
//! Which side ended first decides (`interaction_verdict`), so the grader keeps, as
//! problemtools' runner does, a copy of the ends that would otherwise tell one side of
//! the other's end too soon: each run's own copies close when the grader has seen that
//! run end (so the other side sees the end of its pipe only after), the submission's
//! output pipe stays open to read while an interactor that ended with 42 is gone (a
//! submission writing its last line then is not killed by `SIGPIPE`, a race the verdict
//! would follow), and the interactor's output pipe stays open until both ended (it is
//! never killed by `SIGPIPE` because the submission left): once the submission ended,
//! what the interactor writes is read and dropped, so that it never blocks on a full
//! pipe nobody reads (a submission that flooded it with queries before it was killed).
//!
//! A submission killed at the wall limit under its CPU limit is judged by the rule of
//! such a `TLE` (`run::judge::next`): the whole interaction is made again.

use std::os::fd::OwnedFd;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use reference::Judgement;
use sandbox::{Joined, Limits, Outcome};

use crate::cli::exit::Fault;
use crate::package::programs::interaction_relay::{Relay, Signals, Transcript};
use crate::package::programs::interaction_verdict::{Decision, Ended, First, decide};
use crate::package::programs::output_validator::Validator;
use crate::run::judge::{self, Next, Sched, Stall};
use crate::run::runner::{Runner, too_busy};
use crate::submission::Program;
use sandbox::Locked as _;

/// How many bytes of an interaction are kept where it is shown.
pub(crate) const KEPT: usize = 64 * 1024;

/// One case to interact on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Case<'a> {
    /// Its name, for messages.
    pub(crate) name: &'a str,
    /// Its input and answer files, which the interactor reads.
    pub(crate) files: (&'a std::path::Path, &'a std::path::Path),
    /// The interactor's flags.
    pub(crate) flags: &'a [String],
}

/// What an interaction gave.
#[derive(Debug)]
pub(crate) struct Interacted {
    /// The submission's facts (its `stdout` empty: its output went to the interactor).
    pub(crate) submission: Outcome,
    /// Its verdict.
    pub(crate) judgement: Judgement,
    /// What passed, as a `.interaction` file shows it, when it was kept.
    pub(crate) transcript: Option<Vec<u8>>,
    /// The runs killed at the wall limit, oldest first (empty when the last one ended).
    pub(crate) stalls: Vec<Sched>,
    /// The input of a multi-pass problem's next pass, if the interactor left one.
    pub(crate) next_pass: Option<Vec<u8>>,
}

/// Runs `program` against the interactor `interactor` on `case`, run under `run` and
/// judged at `judged` (the limits the problem sets: `verify` runs under a safety margin
/// above them), keeping what passed when `record`. `Err` when a run cannot be made, when
/// the interactor fails (the package's fault), or when the machine is too busy to judge.
pub(crate) fn interact(
    (runner, interactor): (&mut Runner, &mut Validator<'_>),
    program: &Program,
    case: Case<'_>,
    (run, judged): (&Limits, &Limits),
    record: bool,
) -> Result<Interacted, Fault> {
    let mut stalls = Vec::new();
    let mut figures = Vec::new();
    let mut alone = false;
    loop {
        let once = once((runner, interactor), program, case, run, (record, alone))?;
        let stall = Stall::of(&once.submission, run);
        if stall.is_some() {
            figures.push(Sched::of(&once.submission));
        }
        stalls.push(stall);
        match judge::next(&stalls) {
            Next::Judge => {
                let ended = Ended {
                    submission: &once.submission,
                    interactor: &once.interactor,
                    first: once.first,
                };
                let judgement = match decide(ended, judged, &once.message) {
                    Decision::Judged(judgement) => judgement,
                    Decision::InteractorFailed => {
                        return Err(interactor.interactor_fault(&once.interactor, case.name));
                    }
                };
                return Ok(Interacted {
                    submission: once.submission,
                    judgement,
                    transcript: once.transcript.map(|t| t.render()),
                    stalls: if stall.is_some() { figures } else { Vec::new() },
                    next_pass: once.next_pass,
                });
            }
            Next::Again { alone: next } => alone = next,
            Next::TooBusy => return Err(too_busy(&stalls, &once.submission, run)),
        }
    }
}

/// The facts of one interaction.
struct Once {
    submission: Outcome,
    interactor: Outcome,
    first: First,
    /// The interactor's reason, when it gave one.
    message: String,
    transcript: Option<Transcript>,
    /// The input of a multi-pass problem's next pass, if the interactor left one.
    next_pass: Option<Vec<u8>>,
}

/// A new pipe: its read end, then its write end.
fn pipe() -> Result<(OwnedFd, OwnedFd), Fault> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| Fault::internal(format!("cannot make a pipe: {e}")))
}

fn copy(fd: &OwnedFd) -> Result<OwnedFd, Fault> {
    fd.try_clone()
        .map_err(|e| Fault::internal(format!("cannot copy a pipe's end: {e}")))
}

/// The ends the grader holds while an interaction runs (see the module's doc): a copy of
/// each side's output end, closed once that side's end is recorded, so that the other
/// side (or the relay) sees it end only after; and, directly joined, the read ends of
/// both pipes (the relay holds those otherwise).
#[derive(Default)]
struct Held {
    /// The submission's output (to the interactor, or the relay).
    by_submission: Option<OwnedFd>,
    /// The interactor's output.
    by_interactor: Option<OwnedFd>,
    from_submission: Option<OwnedFd>,
    from_interactor: Option<OwnedFd>,
}

/// One interaction, alone (see `Runner::run_joined`) when `alone`.
fn once(
    (runner, interactor): (&mut Runner, &mut Validator<'_>),
    program: &Program,
    case: Case<'_>,
    run: &Limits,
    (record, alone): (bool, bool),
) -> Result<Once, Fault> {
    // The submission's output to the interactor, and the interactor's to the submission.
    let (up_read, up_write) = pipe()?;
    let (down_read, down_write) = pipe()?;
    let mut held = Held {
        by_submission: Some(copy(&up_write)?),
        by_interactor: Some(copy(&down_write)?),
        ..Held::default()
    };
    let (submission_ends, interactor_ends, relay) = if record {
        let (up_far_read, up_far_write) = pipe()?;
        let (down_far_read, down_far_write) = pipe()?;
        let relay = Relay::new((up_read, up_far_write), (down_read, down_far_write), KEPT)
            .map_err(|e| Fault::internal(format!("cannot relay an interaction: {e}")))?;
        (
            Joined::new(down_far_read, up_write),
            Joined::new(up_far_read, down_write),
            Some(relay),
        )
    } else {
        held.from_submission = Some(copy(&up_read)?);
        held.from_interactor = Some(copy(&down_read)?);
        (
            Joined::new(down_read, up_write),
            Joined::new(up_read, down_write),
            None,
        )
    };
    let held = Mutex::new(held);
    let signals = Signals::default();
    let first: Mutex<Option<First>> = Mutex::new(None);
    let ended = |side: First| {
        first.locked().get_or_insert(side);
    };
    let (submission, interactor_ran, transcript) = std::thread::scope(|scope| {
        let relay = relay.map(|relay| scope.spawn(|| relay.run(&signals)));
        let interactor_thread = scope.spawn(|| {
            let ran = interactor.interact(case.files, case.flags, interactor_ends);
            // Recorded first: only then may the submission see its output end.
            ended(First::Interactor);
            let accepted = matches!(&ran, Ok((outcome, ..)) if outcome.code == Some(42) && outcome.signal.is_none());
            let mut held = held.locked();
            held.by_interactor = None;
            if !accepted {
                signals.refused.store(true, Ordering::SeqCst);
                held.from_submission = None;
            }
            drop(held);
            ran
        });
        let submission =
            runner.run_joined(program, sandbox::Input::Joined(submission_ends), run, alone);
        ended(First::Submission);
        signals.submission_ended.store(true, Ordering::SeqCst);
        let mut now = held.locked();
        now.by_submission = None;
        // What the interactor writes from now on has no reader: it is read and dropped
        // (directly joined; the relay does so itself), so that an interactor answering
        // a flood the submission sent before it was killed ends instead of blocking on
        // a full pipe until its own wall limit.
        let unread = now.from_interactor.take();
        drop(now);
        if let Some(unread) = unread {
            scope.spawn(move || {
                let _ = std::io::copy(&mut std::fs::File::from(unread), &mut std::io::sink());
            });
        }
        let interactor_ran = interactor_thread
            .join()
            .unwrap_or_else(|_| Err(Fault::internal("the interactor's thread failed".to_owned())));
        signals.ended.store(true, Ordering::SeqCst);
        // Both ended: nothing is held any more.
        *held.locked() = Held::default();
        let transcript = relay.map(|relay| relay.join().unwrap_or_default());
        (submission, interactor_ran, transcript)
    });
    let submission = submission?;
    let (interactor, message, next_pass) = interactor_ran?;
    let first = first
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Once {
        submission,
        interactor,
        first: first.unwrap_or(First::Submission),
        message,
        transcript,
        next_pass,
    })
}
