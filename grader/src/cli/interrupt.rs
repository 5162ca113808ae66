//! Ctrl-C (SIGINT), SIGTERM and SIGHUP end a command cleanly: the runs stop, nothing a
//! killed run did becomes a verdict, what is finished stays (the batch journal is written
//! run by run), the temp folders go, and the grader exits 128 + the signal's number (130
//! for Ctrl-C, 143 for SIGTERM), as shells expect.
//!
//! The signals are blocked in every thread and taken by one thread of their own, which
//! records the signal and kills every launcher (each takes its box, or its run, with it).
//! The command's threads then see their runs fail, ask [`check`], and return
//! [`Fault::interrupted`] up to `main`, dropping workers, cgroups and temp folders on the
//! way. A command busy with something else (a long computation) gets [`GRACE`]; after it,
//! or at a second signal, the temp folders are removed and the grader exits at once. A
//! command that has started no program's work exits at once.

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use nix::sys::signal::{SigSet, Signal};

use crate::cli::exit::Fault;
use crate::paths::temp;

/// How long a command has to wind down after the first signal.
const GRACE: Duration = Duration::from_secs(5);

/// The signal received, or 0.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Takes SIGINT, SIGTERM and SIGHUP away from their default action. Called first thing in
/// `main`, before any other thread exists, so that every thread inherits the mask
/// (processes the grader starts do not: their mask is reset before they run).
pub(crate) fn install() {
    let mut set = SigSet::empty();
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        set.add(signal);
    }
    if set.thread_block().is_err() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || watch(set));
}

/// The signal thread: the first signal starts the wind-down, the second (or the end of
/// the grace) ends the process.
fn watch(set: SigSet) {
    let Ok(first) = set.wait() else {
        return;
    };
    SIGNAL.store(first as i32, Ordering::SeqCst);
    // A command that has started no program (reading stdin, writing a report) has
    // nothing to wind down: it ends now, as it would by the signal's default action.
    if !temp::in_use() {
        exit_now();
    }
    sandbox::stop_all();
    let _ = std::thread::Builder::new()
        .name("grace".to_owned())
        .spawn(|| {
            std::thread::sleep(GRACE);
            exit_now();
        });
    if set.wait().is_ok() {
        exit_now();
    }
}

/// Removes the temp folders and exits with the signal's status, without waiting for the
/// command.
fn exit_now() -> ! {
    sandbox::stop_all();
    // Nothing outlives the grader, not even a zombie for the machine's init to reap.
    sandbox::reap_all(Duration::from_secs(2));
    // The command's own end may be removing the folder on another thread: let it finish.
    temp::remove_own_within(Duration::from_secs(2));
    std::process::exit(128 + SIGNAL.load(Ordering::SeqCst));
}

/// The signal received, if any.
pub(crate) fn received() -> Option<Signal> {
    Signal::try_from(SIGNAL.load(Ordering::SeqCst)).ok()
}

/// `Err(Fault::interrupted(..))` once a signal was received: asked by every loop that starts
/// work, and after every run (a run the grader killed on its way out earns no verdict).
pub(crate) fn check() -> Result<(), Fault> {
    match received() {
        Some(signal) => Err(Fault::interrupted(signal)),
        None => Ok(()),
    }
}
