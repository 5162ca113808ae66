//! The lock of the tests whose marks are machine-wide (processes named `grader-hostile`,
//! box uids, files in /tmp): each takes it for its whole length, so that none sees
//! another's programs as its own left-overs.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Takes the machine-wide lock, for as long as the guard lives (a test that failed
/// holding it does not stop the others).
pub fn machine_wide() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}
