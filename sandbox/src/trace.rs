//! What a program found on `PATH` really starts: a probe (`gcc --version`) run as the
//! grader's user under a small `ptrace` tracer that notes the program each `execve` of the
//! process loads. A shim (pyenv's, asdf's, mise's), a wrapper script or a dispatcher
//! (ccache) ends by starting the real program in its own place; a plain program starts
//! nothing more. Children it forks are not followed: only what the process itself becomes.
//!
//! The probe runs the user's own toolchain with fixed arguments (no source involved), in
//! the grader's folder and environment, since a shim chooses by the user's settings (its
//! home's configuration, the folder's `.tool-versions`); under a CPU and a wall-clock limit,
//! in a process group of its own that a timeout or a signal to the grader ends. Where the
//! kernel refuses `ptrace` (a tracer already watches the grader), the probe runs untraced
//! and says only its output.
#![expect(
    unsafe_code,
    reason = "ptrace, waitpid and the probe's setup between fork and exec have no safe wrapper in our dependencies"
)]

use std::fs;
use std::io::{Read, Seek};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The probe's CPU time, in seconds.
const CPU_SECS: libc::rlim_t = 10;
/// The probe's elapsed time.
const WALL: Duration = Duration::from_secs(30);
/// The most a probe may write to a file (its output): a version line is short.
const OUTPUT_BYTES: libc::rlim_t = 1 << 20;
/// How many programs one probe may start before the rest are no longer noted.
const MAX_EXECS: usize = 64;

/// A program the probe's process loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exec {
    /// Its executable, as the kernel opened it (`/proc/PID/exe`: an interpreter for a
    /// script, every link resolved).
    pub exe: PathBuf,
    /// Its arguments, `argv[0]` first (for a script, as the kernel rewrote them: the
    /// interpreter, its argument, the script, then the script's arguments).
    pub argv: Vec<String>,
}

/// What a probe did and said.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// The programs its process loaded, in order (empty when it ran untraced).
    pub execs: Vec<Exec>,
    /// Whether it exited with status 0.
    pub success: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Probe {
    /// The first non-blank line it printed (on standard output, else on standard error:
    /// `java -version` writes there), when it succeeded.
    pub fn first_line(&self) -> Option<String> {
        if !self.success {
            return None;
        }
        [&self.stdout, &self.stderr].into_iter().find_map(|said| {
            String::from_utf8_lossy(said)
                .lines()
                .find(|l| !l.trim().is_empty())
                .map(str::to_owned)
        })
    }
}

/// Runs `program args` with `PATH` set to `path`, tracing what it starts; `None` when it
/// could not be started, or the grader was interrupted.
pub fn probe(program: &Path, args: &[String], path: &str) -> Option<Probe> {
    let mut stdout = tempfile::tempfile().ok()?;
    let mut stderr = tempfile::tempfile().ok()?;
    let mut command = Command::new(program);
    command
        .args(args)
        .env("PATH", path)
        // A stable version line, and a ccache that keeps out of its cache.
        .env("LC_ALL", "C.UTF-8")
        .env("CCACHE_DISABLE", "1")
        .stdin(Stdio::null())
        .stdout(stdout.try_clone().ok()?)
        .stderr(stderr.try_clone().ok()?);
    // SAFETY: between fork and exec the closure makes only system calls on constants.
    unsafe {
        command.pre_exec(|| {
            // Traced by the thread that forked it, which waits below. A refusal (a tracer
            // already watches the grader) leaves the probe untraced.
            libc::ptrace(
                libc::PTRACE_TRACEME,
                0,
                std::ptr::null_mut::<libc::c_void>(),
                std::ptr::null_mut::<libc::c_void>(),
            );
            libc::setpgid(0, 0);
            for (resource, limit) in [
                (libc::RLIMIT_CPU, CPU_SECS),
                (libc::RLIMIT_FSIZE, OUTPUT_BYTES),
            ] {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                libc::setrlimit(resource, &raw const limit);
            }
            Ok(())
        });
    }
    let child = command.spawn().ok()?;
    let pid = libc::pid_t::try_from(child.id()).ok()?;
    // Reaped below, by pid: the `Child` is never waited for.
    drop(child);
    let (execs, success) = follow(pid)?;
    Some(Probe {
        execs,
        success,
        stdout: head(&mut stdout),
        stderr: head(&mut stderr),
    })
}

/// The first 64 KiB of a file the probe wrote.
fn head(file: &mut fs::File) -> Vec<u8> {
    let mut said = Vec::new();
    if file.rewind().is_ok() {
        let _ = file.take(64 * 1024).read_to_end(&mut said);
    }
    said
}

/// Follows the traced process `pid` to its end: the programs it loaded, and whether it
/// exited with status 0; `None` when the grader was interrupted.
fn follow(pid: libc::pid_t) -> Option<(Vec<Exec>, bool)> {
    let deadline = Instant::now() + WALL;
    let mut execs = Vec::new();
    let mut options_set = false;
    let mut killed = false;
    let mut pause = Duration::from_micros(100);
    loop {
        let mut status = 0;
        // SAFETY: waiting for our own child, into a valid status word.
        let waited = unsafe { libc::waitpid(pid, &raw mut status, libc::__WALL | libc::WNOHANG) };
        if waited < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if waited == 0 {
            // Still running: a timeout or the grader's own end stops it, and its group
            // (the process is not reaped yet, so the group cannot be another's).
            let interrupted = crate::host::stopping();
            if !killed && (interrupted || Instant::now() > deadline) {
                // SAFETY: signals to our own unreaped child and its process group.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                    libc::kill(pid, libc::SIGKILL);
                }
                killed = true;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
            continue;
        }
        if libc::WIFEXITED(status) {
            let success = libc::WEXITSTATUS(status) == 0 && !killed;
            return (!crate::host::stopping()).then_some((execs, success));
        }
        if libc::WIFSIGNALED(status) {
            return (!crate::host::stopping()).then_some((execs, false));
        }
        if !libc::WIFSTOPPED(status) {
            continue;
        }
        let signal = libc::WSTOPSIG(status);
        let event = status >> 16;
        // The stop after the first exec (PTRACE_TRACEME's SIGTRAP), then each exec's event.
        let first = !options_set && signal == libc::SIGTRAP;
        let exec = first || (signal == libc::SIGTRAP && event == libc::PTRACE_EVENT_EXEC);
        if exec
            && execs.len() < MAX_EXECS
            && let Some(loaded) = loaded(pid)
        {
            execs.push(loaded);
        }
        if first {
            options_set = true;
            // Without PTRACE_O_EXITKILL where the kernel lacks it; without the exec events,
            // the process goes untraced (each later exec would stop it with a SIGTRAP).
            let traced = [
                libc::PTRACE_O_TRACEEXEC | libc::PTRACE_O_EXITKILL,
                libc::PTRACE_O_TRACEEXEC,
            ]
            .into_iter()
            .any(|options| request(libc::PTRACE_SETOPTIONS, pid, options as usize));
            if !traced {
                request(libc::PTRACE_DETACH, pid, 0);
                continue;
            }
        }
        // A signal the process got (not the tracer's own stops) is delivered as it came.
        let deliver = if exec || (signal == libc::SIGTRAP && event != 0) {
            0
        } else {
            signal
        };
        request(libc::PTRACE_CONT, pid, deliver as usize);
    }
}

/// A `ptrace` request on the stopped tracee `pid`, with `data` (options, a signal number);
/// whether the kernel took it.
fn request(op: libc::c_uint, pid: libc::pid_t, data: usize) -> bool {
    // SAFETY: a request that takes no address, and a plain word as its data.
    unsafe {
        libc::ptrace(
            op,
            pid,
            std::ptr::null_mut::<libc::c_void>(),
            data as *mut libc::c_void,
        ) == 0
    }
}

/// The program the stopped process `pid` has just loaded.
fn loaded(pid: libc::pid_t) -> Option<Exec> {
    let exe = fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    let cmdline = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let mut argv: Vec<String> = cmdline
        .split(|b| *b == 0)
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    if argv.last().is_some_and(String::is_empty) {
        argv.pop();
    }
    Some(Exec { exe, argv })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn a_plain_program_loads_itself_once() {
        let probe = probe(
            Path::new("/bin/sh"),
            &["-c".into(), "echo hi".into()],
            "/usr/bin:/bin",
        )
        .unwrap();
        assert!(probe.success);
        assert_eq!(probe.first_line().as_deref(), Some("hi"));
        assert_eq!(probe.execs.len(), 1, "{:?}", probe.execs);
    }

    #[test]
    fn a_wrapper_script_is_followed_to_what_it_starts() {
        let dir = tempfile::tempdir().unwrap();
        let wrapper = script(
            dir.path(),
            "tool",
            "#!/usr/bin/env sh\necho wrapped >&2\nexec /bin/sh -c 'echo \"$0\"' \"$@\"\n",
        );
        let probe = probe(&wrapper, &["--version".into()], "/usr/bin:/bin").unwrap();
        assert!(probe.success);
        assert_eq!(probe.first_line().as_deref(), Some("--version"));
        // env, then sh on the script, then the last sh.
        assert_eq!(probe.execs.len(), 3, "{:?}", probe.execs);
        let last = probe.execs.last().unwrap();
        assert_eq!(last.argv[..2], ["/bin/sh".to_owned(), "-c".to_owned()]);
        assert_eq!(last.exe, fs::canonicalize("/bin/sh").unwrap());
        let first = &probe.execs[0];
        assert_eq!(first.exe, fs::canonicalize("/usr/bin/env").unwrap());
        assert!(first.argv.contains(&wrapper.to_string_lossy().into_owned()));
    }

    #[test]
    fn a_failing_or_missing_program_says_so() {
        let failing = probe(
            Path::new("/bin/sh"),
            &["-c".into(), "exit 3".into()],
            "/bin",
        );
        assert!(!failing.unwrap().success);
        assert!(probe(Path::new("/no/such/program"), &[], "/bin").is_none());
    }
}
