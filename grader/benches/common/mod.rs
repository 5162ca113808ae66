//! What the benches that measure against a bare baseline share: medians, and one bare run
//! (`sandbox::bare`: spawn through std's `posix_spawn` with the input file as stdin and two
//! pipes, read both, reap with `wait4`), the least any grader must do.

use std::path::Path;
use std::time::Duration;

/// The median of `samples`.
pub(crate) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `program` bare on `input` (`sandbox::bare`); its standard output. Panics if it
/// fails.
pub(crate) fn bare_run(program: &Path, input: &Path) -> Vec<u8> {
    sandbox::bare::run(program, input).expect("a bare run")
}
