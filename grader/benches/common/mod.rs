//! What the benches that measure against a bare baseline share: medians, and one bare run
//! (spawn through std's `posix_spawn` with the input file as stdin and two pipes, read
//! both, reap with `wait4`), the least any grader must do.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The median of `samples`.
pub(crate) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `program` bare on `input`; its standard output. Panics if it fails.
pub(crate) fn bare_run(program: &Path, input: &Path) -> Vec<u8> {
    #[expect(
        clippy::zombie_processes,
        reason = "reaped by wait4 below, for its rusage"
    )]
    // Without the library path `cargo bench` sets: the grader's runs get a clean
    // environment, and a search of it at every exec would slow only the baseline.
    let mut child = Command::new(program)
        .env_remove("LD_LIBRARY_PATH")
        .stdin(File::open(input).expect("input"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_end(&mut out)
        .expect("read");
    let mut err = Vec::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_end(&mut err)
        .expect("read");
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid, to be filled by wait4 for our own child.
    #[expect(unsafe_code, reason = "wait4 for the rusage std does not give")]
    let reaped = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id().cast_signed(), &raw mut status, 0, &raw mut usage)
    };
    assert!(reaped > 0 && status == 0, "the program failed");
    out
}
