//! Pure judging: the facts of one run plus its limits and the checker give a verdict,
//! decided by cause in judging.md's precedence (TLE, MLE, OLE, RE, then the checker).
//! No processes and no clocks: every rule is a table test below.

use std::time::Duration;

use reference::{Judgement, Verdict};

use crate::exec::{Killed, Limits, Outcome};

/// Decides the verdict of `outcome` under `limits`, and why (empty for `AC`); `check`
/// judges the output and is only called when the program ended normally.
pub(crate) fn judge(
    outcome: &Outcome,
    limits: &Limits,
    check: impl FnOnce(&[u8]) -> Judgement,
) -> Judgement {
    let decide = |verdict, message: String| Judgement { verdict, message };
    // judging.md: TLE is CPU time over the limit, or wall time over the wall limit.
    if outcome.killed == Some(Killed::Cpu)
        || outcome.signal == Some(libc::SIGXCPU)
        || outcome.cpu > limits.cpu
    {
        return decide(
            Verdict::TimeLimit,
            format!(
                "CPU time {} over the {} limit",
                seconds(outcome.cpu),
                seconds(limits.cpu)
            ),
        );
    }
    if let Some(stall) = Stall::of(outcome, limits) {
        let why = match stall {
            Stall::Busy => format!(
                "the machine was busy (the program waited {} for a CPU)",
                seconds(outcome.waited)
            ),
            Stall::Slept => "the program slept or waited".to_owned(),
            Stall::Computed => {
                "the program computed all along (the wall limit is below the CPU limit)".to_owned()
            }
        };
        return decide(
            Verdict::TimeLimit,
            format!(
                "wall time over the {} limit with {} of CPU: {why}",
                seconds(limits.wall),
                seconds(outcome.cpu)
            ),
        );
    }
    let peak = outcome.peak_kib.saturating_mul(1024);
    if outcome.killed == Some(Killed::Memory) || peak > limits.memory {
        return decide(
            Verdict::MemoryLimit,
            format!(
                "peak memory {} over the {} limit",
                mebibytes(peak.max(limits.memory + 1)),
                mebibytes(limits.memory)
            ),
        );
    }
    if outcome.killed == Some(Killed::Output) {
        return decide(
            Verdict::OutputLimit,
            format!("more than {} of output", mebibytes(limits.output)),
        );
    }
    if let Some(signal) = outcome.signal {
        return decide(
            Verdict::RuntimeError,
            with_account(format!("killed by {}", signal_name(signal)), outcome),
        );
    }
    match outcome.code {
        Some(0) => {}
        Some(code) => {
            return decide(
                Verdict::RuntimeError,
                with_account(format!("exit status {code}"), outcome),
            );
        }
        None => return decide(Verdict::RuntimeError, "ended without a status".to_owned()),
    }
    check(&outcome.stdout)
}

/// A runtime error's `head` (the signal or the status), with the runtime's own account of
/// it when it printed one (see `runtime_error.rs`).
fn with_account(head: String, outcome: &Outcome) -> String {
    match crate::runtime_error::account(&outcome.stderr, &outcome.stdout) {
        Some(account) => format!("{head}: {account}"),
        None => head,
    }
}

/// Why a run went over the wall limit, told by its own scheduling figures: how long its
/// threads waited, runnable, for a CPU.
///
/// Some of that waiting a run may cause itself: `k` threads that all want to run on `n`
/// CPUs keep `k - n` of them waiting on any machine. Only the waiting beyond that is the
/// machine's doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stall {
    /// Other work on the machine held it back for a quarter of its wall time at least.
    /// Not the program's doing: the run is made again, alone, before any verdict
    /// (`runner.rs`).
    Busy,
    /// It slept (on a timer, input, a lock) more than it ran: the program's doing.
    Slept,
    /// It ran most of the time: a wall limit below the CPU limit, or threads enough to
    /// keep every CPU busy.
    Computed,
}

impl Stall {
    /// Why `outcome` went over the wall limit of `limits`; `None` when it did not, or
    /// when its CPU time was over the CPU limit too (then that decides: `TLE` by CPU on any
    /// machine, busy or not).
    pub(crate) fn of(outcome: &Outcome, limits: &Limits) -> Option<Stall> {
        if outcome.killed != Some(Killed::Wall) || outcome.cpu > limits.cpu {
            return None;
        }
        let crowd = outcome.tasks.saturating_sub(outcome.cpus.max(1));
        let own = outcome.wall.saturating_mul(crowd);
        let machine = outcome.waited.saturating_sub(own);
        let asleep = outcome
            .wall
            .saturating_sub(outcome.cpu)
            .saturating_sub(outcome.waited);
        Some(if machine >= outcome.wall / 4 {
            Stall::Busy
        } else if asleep >= outcome.cpu {
            Stall::Slept
        } else {
            Stall::Computed
        })
    }
}

/// `SIGSEGV (signal 11)`.
pub(crate) fn signal_name(signal: i32) -> String {
    match nix::sys::signal::Signal::try_from(signal) {
        Ok(s) => format!("{} (signal {signal})", s.as_str()),
        Err(_) => format!("signal {signal}"),
    }
}

/// `1.52 s`, `1.001 s`, `850 ms`.
pub(crate) fn seconds(d: Duration) -> String {
    if d >= Duration::from_secs(1) {
        let text = format!("{:.3}", d.as_secs_f64());
        format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// `256 MiB`, `1.5 MiB`.
pub(crate) fn mebibytes(bytes: u64) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    if (mib - mib.round()).abs() < 0.05 {
        format!("{} MiB", mib.round())
    } else {
        format!("{mib:.1} MiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: crate::exec::sandbox::Tier::Basic,
    };

    fn ran(change: impl FnOnce(&mut Outcome)) -> Outcome {
        let mut outcome = Outcome {
            code: Some(0),
            cpu: Duration::from_millis(3),
            wall: Duration::from_millis(4),
            peak_kib: 1500,
            stdout: b"4\n".to_vec(),
            ..Outcome::default()
        };
        change(&mut outcome);
        outcome
    }

    fn verdict(outcome: &Outcome) -> (Verdict, String) {
        let d = judge(outcome, &LIMITS, |out| {
            reference::compare::compare("4\n", out)
        });
        (d.verdict, d.message)
    }

    fn assert_table(table: Vec<(Outcome, Verdict, &str)>) {
        for (outcome, want, message) in table {
            let (got, text) = verdict(&outcome);
            assert_eq!(got, want, "{outcome:?}");
            assert!(text.contains(message), "{text:?} lacks {message:?}");
        }
    }

    #[test]
    fn limits_come_first_in_precedence() {
        use Verdict::*;
        assert_table(vec![
            (
                ran(|o| {
                    o.killed = Some(Killed::Cpu);
                    o.signal = Some(9);
                    o.code = None;
                }),
                TimeLimit,
                "CPU time",
            ),
            (
                ran(|o| o.cpu = Duration::from_millis(1001)),
                TimeLimit,
                "CPU time 1.001 s over the 1 s limit",
            ),
            (
                ran(|o| {
                    o.signal = Some(libc::SIGXCPU);
                    o.code = None;
                }),
                TimeLimit,
                "CPU time",
            ),
            (
                ran(|o| {
                    o.killed = Some(Killed::Wall);
                    o.signal = Some(9);
                    o.code = None;
                    o.wall = Duration::from_millis(4001);
                }),
                TimeLimit,
                "slept or waited",
            ),
            // A TLE that also blew the memory is a TLE: precedence.
            (
                ran(|o| {
                    o.cpu = Duration::from_secs(2);
                    o.peak_kib = 1 << 20;
                }),
                TimeLimit,
                "",
            ),
            (
                ran(|o| o.peak_kib = 300 << 10),
                MemoryLimit,
                "peak memory 300 MiB over the 256 MiB limit",
            ),
            // The kernel's SIGKILL after an allocation failure: memory is the cause.
            (
                ran(|o| {
                    o.peak_kib = 257 << 10;
                    o.signal = Some(9);
                    o.code = None;
                }),
                MemoryLimit,
                "",
            ),
            (
                ran(|o| {
                    o.killed = Some(Killed::Memory);
                    o.signal = Some(9);
                    o.code = None;
                }),
                MemoryLimit,
                "",
            ),
            (
                ran(|o| {
                    o.killed = Some(Killed::Output);
                    o.signal = Some(9);
                    o.code = None;
                }),
                OutputLimit,
                "more than 64 MiB of output",
            ),
        ]);
    }

    #[test]
    fn signals_and_statuses_are_runtime_errors_then_the_checker_decides() {
        use Verdict::*;
        assert_table(vec![
            (
                ran(|o| {
                    o.signal = Some(11);
                    o.code = None;
                }),
                RuntimeError,
                "killed by SIGSEGV (signal 11)",
            ),
            (
                ran(|o| {
                    o.signal = Some(6);
                    o.code = None;
                }),
                RuntimeError,
                "killed by SIGABRT (signal 6)",
            ),
            // exit(137) and raise(SIGKILL) are runtime errors, not limit verdicts.
            (ran(|o| o.code = Some(137)), RuntimeError, "exit status 137"),
            (
                ran(|o| {
                    o.signal = Some(9);
                    o.code = None;
                }),
                RuntimeError,
                "killed by SIGKILL (signal 9)",
            ),
            // A right answer followed by a non-zero exit is still a runtime error.
            (ran(|o| o.code = Some(1)), RuntimeError, "exit status 1"),
            // The runtime's own words, from either stream.
            (
                ran(|o| {
                    o.code = Some(1);
                    o.stderr = b"Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat Main.main(Main.java:3)\n".to_vec();
                }),
                RuntimeError,
                "exit status 1: java.lang.ArithmeticException: / by zero",
            ),
            (
                ran(|o| {
                    o.code = Some(1);
                    o.stdout =
                        b"Error occurred during initialization of VM\nToo small maximum heap\n"
                            .to_vec();
                }),
                RuntimeError,
                "exit status 1: the JVM did not start: Too small maximum heap",
            ),
            (
                ran(|o| {
                    o.signal = Some(6);
                    o.code = None;
                    o.stderr = b"terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n".to_vec();
                }),
                RuntimeError,
                "killed by SIGABRT (signal 6): std::bad_alloc: std::bad_alloc",
            ),
            (ran(|_| {}), Accepted, ""),
            (
                ran(|o| o.stdout = b"5\n".to_vec()),
                WrongAnswer,
                "expected `4`, got `5`",
            ),
            (ran(|o| o.stdout = b" 4\n".to_vec()), Presentation, ""),
        ]);
    }

    #[test]
    fn figures_read_well() {
        assert_eq!(seconds(Duration::from_millis(850)), "850 ms");
        assert_eq!(seconds(Duration::from_millis(1520)), "1.52 s");
        assert_eq!(mebibytes(256 << 20), "256 MiB");
        assert_eq!(mebibytes(3 << 19), "1.5 MiB");
        assert_eq!(signal_name(99), "signal 99");
    }

    /// A wall-limit kill with its scheduling figures: CPU, wall, waiting, threads, CPUs.
    fn stalled(cpu: u64, wall: u64, waited: u64, tasks: u32, cpus: u32) -> Outcome {
        ran(|o| {
            o.killed = Some(Killed::Wall);
            o.signal = Some(9);
            o.code = None;
            o.cpu = Duration::from_millis(cpu);
            o.wall = Duration::from_millis(wall);
            o.waited = Duration::from_millis(waited);
            (o.tasks, o.cpus) = (tasks, cpus);
        })
    }

    #[test]
    fn a_wall_limit_tle_says_whether_the_program_slept_or_the_machine_was_busy() {
        let cases = [
            // 188 ms of CPU in a 4 s wall limit, 3.7 s of it waiting for a CPU.
            (stalled(188, 4001, 3700, 1, 2), Stall::Busy),
            // Asleep 3.5 s, waiting a little on a busy machine too: the program slept.
            (stalled(100, 4001, 400, 1, 2), Stall::Slept),
            (stalled(3, 4001, 0, 1, 2), Stall::Slept),
            // Running all along into a wall limit below the CPU limit.
            (stalled(990, 1001, 0, 1, 2), Stall::Computed),
            // Ten spinning children on two CPUs of a loaded machine: 10.7 s of waiting in
            // 3 s, less than the 24 s its own crowd makes on any machine.
            (stalled(936, 3001, 10_680, 10, 2), Stall::Computed),
            // The same crowd waiting far more than it makes itself: the machine was busy.
            (stalled(300, 3001, 30_000, 10, 2), Stall::Busy),
        ];
        for (outcome, stall) in cases {
            assert_eq!(Stall::of(&outcome, &LIMITS), Some(stall), "{outcome:?}");
            let (verdict, message) = verdict(&outcome);
            assert_eq!(verdict, Verdict::TimeLimit);
            let why = match stall {
                Stall::Busy => "the machine was busy (the program waited",
                Stall::Slept => "the program slept or waited",
                Stall::Computed => "the program computed all along",
            };
            assert!(
                message.starts_with("wall time over the 4 s limit with "),
                "{message}"
            );
            assert!(message.contains(why), "{message}");
        }
        assert_eq!(
            verdict(&stalled(188, 4001, 3700, 1, 2)).1,
            "wall time over the 4 s limit with 188 ms of CPU: the machine was busy (the \
             program waited 3.7 s for a CPU)"
        );
        assert_eq!(Stall::of(&ran(|_| {}), &LIMITS), None);
        // Children that spun 1.1 s of CPU between them on a loaded machine, past the 1 s
        // limit: `TLE` by CPU, however long they waited.
        let over = stalled(1135, 3001, 10_774, 5, 2);
        assert_eq!(Stall::of(&over, &LIMITS), None);
        assert!(
            verdict(&over)
                .1
                .starts_with("CPU time 1.135 s over the 1 s limit")
        );
    }
}
