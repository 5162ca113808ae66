//! One bare run, the floor a box's run is measured against (the grader's benches): the
//! program spawned through the standard library (`posix_spawn`) with a file as standard
//! input and two pipes, both read to their end, and reaped with `wait4` for its resource
//! usage: the least any program must do that runs programs and reports their CPU time.
//! No limit, no box, no launcher.
#![expect(unsafe_code, reason = "wait4 for the rusage std does not give")]

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `program` bare on `input`; its standard output. `Err` when it cannot be started
/// or read, or when it did not exit with status 0.
pub fn run(program: &Path, input: &Path) -> io::Result<Vec<u8>> {
    // Without the library path `cargo bench` sets: the grader's runs get a clean
    // environment, and a search of it at every exec would slow only the baseline.
    let mut child = Command::new(program)
        .env_remove("LD_LIBRARY_PATH")
        .stdin(File::open(input)?)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    // Read to their ends, then reaped whatever the reading met.
    let read = (|| {
        let mut out = Vec::new();
        if let Some(mut stdout) = stdout {
            stdout.read_to_end(&mut out)?;
        }
        let mut err = Vec::new();
        if let Some(mut stderr) = stderr {
            stderr.read_to_end(&mut err)?;
        }
        io::Result::Ok(out)
    })();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid, to be filled by wait4 for our own child.
    let reaped = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id().cast_signed(), &raw mut status, 0, &raw mut usage)
    };
    let out = read?;
    if reaped > 0 && status == 0 {
        Ok(out)
    } else {
        Err(io::Error::other("the program failed"))
    }
}
