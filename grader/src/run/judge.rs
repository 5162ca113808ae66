//! Pure judging: the facts of one run plus its limits and the checker give a verdict,
//! decided by cause in judging.md's precedence (TLE, MLE, OLE, RE, then the checker).
//! No processes and no clocks: every rule is a table test below.

use std::time::Duration;

use reference::{Judgement, Verdict};
use sandbox::{Killed, Limits, Outcome};

use crate::results::case::{CaseResult, SLEPT, Stalled, WALL_TLE};
use crate::results::limits::ms;

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
            Stall::Slept { .. } => SLEPT.to_owned(),
            Stall::Computed { .. } => {
                "the program computed all along (the wall limit is below the CPU limit)".to_owned()
            }
        };
        return decide(
            Verdict::TimeLimit,
            format!(
                "{WALL_TLE}{} limit with {} of CPU: {why}",
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
    match crate::run::runtime_error::account(&outcome.stderr, &outcome.stdout) {
        Some(account) => format!("{head}: {account}"),
        None => head,
    }
}

/// The scheduling figures of a run the grader killed at the wall limit: what shows whose
/// its time was. Kept by a record of a `TLE` at the wall limit (as
/// [`Stalled`]), so that the rule below judges it again when the record is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sched {
    /// CPU time of every process and thread of the run.
    pub(crate) cpu: Duration,
    /// Wall time, from the start of the program to its end.
    pub(crate) wall: Duration,
    /// How long its threads had waited, runnable, for a CPU when it was killed.
    pub(crate) waited: Duration,
    /// Its threads alive then.
    pub(crate) tasks: u32,
    /// Those of them runnable then (`None`: not known, as in a record of an older
    /// grader): none says its waiting is whole (see [`Stall`]).
    pub(crate) runnable: Option<u32>,
    /// The CPUs it could use.
    pub(crate) cpus: u32,
}

impl Sched {
    /// The figures of `outcome`.
    pub(crate) fn of(outcome: &Outcome) -> Sched {
        Sched {
            cpu: outcome.cpu,
            wall: outcome.wall,
            waited: outcome.waited,
            tasks: outcome.tasks,
            runnable: outcome.runnable,
            cpus: outcome.cpus,
        }
    }

    /// As a record keeps them.
    pub(crate) fn record(&self) -> Stalled {
        Stalled {
            cpu_ms: ms(self.cpu),
            wall_ms: ms(self.wall),
            waited_ms: ms(self.waited),
            threads: self.tasks,
            runnable: self.runnable,
            cpus: self.cpus,
        }
    }

    /// Read back from a record (figures in ms to the microsecond, read exactly).
    pub(crate) fn of_record(record: &Stalled) -> Sched {
        let micros = |ms: f64| Duration::from_micros((ms.max(0.0) * 1e3).round() as u64);
        Sched {
            cpu: micros(record.cpu_ms),
            wall: micros(record.wall_ms),
            waited: micros(record.waited_ms),
            tasks: record.threads,
            runnable: record.runnable,
            cpus: record.cpus,
        }
    }
}

/// Whose the time of a run killed at the wall limit was, with its CPU time under the CPU
/// limit, told by its own scheduling figures ([`Sched`]).
///
/// The run's *own time* is the part of the wall limit it lived (the grader's clock starts
/// the limit when it asks for the run, the program's starts when it is started: a grader
/// held back makes the program live less), less the time its threads waited, runnable,
/// for a CPU beyond what they cause themselves (`k` threads that all want to run on `n`
/// CPUs keep `k - n` of them waiting on any machine). What is left is the program
/// computing, or neither computing nor waiting for a CPU: sleeping, blocked on input —
/// or, what the waiting counted does not hold, waiting for a CPU right at the kill (the
/// kernel counts a wait when it ends). So a run shows the program's own stall alone only
/// when it is *settled*: none of its threads was runnable at the kill (each one's state
/// was read then), so no wait was under way and the figures are whole; otherwise it takes
/// two runs in a row: see [`next`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stall {
    /// Its own time fell short of the wall limit (by more than [`slack`]): the machine
    /// held it back, or held the grader back from starting it. Never a mark: the run is
    /// made again, alone (`runner.rs`).
    Busy,
    /// Its own time filled the limit, mostly neither computing nor waiting for a CPU: it
    /// slept or was blocked (on a timer, input, a lock).
    Slept {
        /// No thread of it was runnable at the kill.
        settled: bool,
    },
    /// Its own time filled the limit, mostly computing: a wall limit below the CPU limit,
    /// or threads enough to keep every CPU busy.
    Computed {
        /// No thread of it was runnable at the kill.
        settled: bool,
    },
}

impl Stall {
    /// Why `outcome` went over the wall limit of `limits`; `None` when it did not: it was
    /// not killed at the wall limit, or it ended by itself within the limit by its own
    /// clock (the kill came too late to touch it), or its CPU time was over the CPU limit
    /// (then that decides: `TLE` by CPU on any machine, busy or not), or its memory had
    /// gone over the memory limit before the kill (then that decides, `MLE`: a process of
    /// the run killed for memory leaves the others waiting for it, as a parent blocked on
    /// a pipe a killed child held, and the wait is the kill's consequence, not its cause).
    pub(crate) fn of(outcome: &Outcome, limits: &Limits) -> Option<Stall> {
        if outcome.killed != Some(Killed::Wall)
            || outcome.cpu > limits.cpu
            || outcome.peak_kib.saturating_mul(1024) > limits.memory
        {
            return None;
        }
        let ended = outcome.signal.is_none() && outcome.code.is_some();
        if ended && outcome.wall <= limits.wall {
            return None;
        }
        Some(Stall::of_figures(&Sched::of(outcome), limits.wall))
    }

    /// Whose the time of a run killed at `wall_limit` with the figures `run` was.
    pub(crate) fn of_figures(run: &Sched, wall_limit: Duration) -> Stall {
        let lived = run.wall.min(wall_limit);
        let crowd = run.tasks.saturating_sub(run.cpus.max(1));
        let machine = run.waited.saturating_sub(lived.saturating_mul(crowd));
        let own = lived.saturating_sub(machine);
        if own + slack(wall_limit) < wall_limit {
            return Stall::Busy;
        }
        let settled = run.runnable == Some(0);
        let asleep = lived.saturating_sub(run.cpu).saturating_sub(run.waited);
        if asleep >= run.cpu {
            Stall::Slept { settled }
        } else {
            Stall::Computed { settled }
        }
    }

    /// Whether the figures show the time was the program's own.
    fn own(stall: Option<Stall>) -> bool {
        matches!(stall, Some(Stall::Slept { .. } | Stall::Computed { .. }))
    }

    /// Whether the figures show the time was the program's own, and are whole: one such
    /// run is enough.
    fn certain(stall: Option<Stall>) -> bool {
        matches!(
            stall,
            Some(Stall::Slept { settled: true } | Stall::Computed { settled: true })
        )
    }
}

/// How far a run's own time may fall short of the wall limit and still fill it: a tenth
/// of the limit, at least 10 ms (the grader's own steps between asking for a run and the
/// program's start, and between the limit and the kill).
pub(crate) fn slack(wall_limit: Duration) -> Duration {
    (wall_limit / 10).max(Duration::from_millis(10))
}

/// The most runs made of one input before the grader gives up on a verdict.
pub(crate) const MOST_RUNS: usize = 3;

/// What the grader does after the runs of one input so far (each's [`Stall`], `None` for
/// a run not killed at the wall limit under the CPU limit), oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// The last run is judged: it ended (by itself, by the CPU limit, ...), or it and the
    /// run before it both showed the program's own stall (a `TLE`).
    Judge,
    /// Run it again; `alone`: no other run of this grader starts until it ends.
    Again {
        /// Whether no other run may start meanwhile.
        alone: bool,
    },
    /// No verdict: the machine is too busy to judge fairly.
    TooBusy,
}

/// The rule of a `TLE` at the wall limit with the CPU time under the CPU limit: it is a
/// mark only when a settled run shows the program's own stall ([`Stall::Slept`] or
/// [`Stall::Computed`] with no thread runnable at the kill), or two runs in a row show
/// it: one run that is not settled cannot, since a wait for a CPU under way at the kill
/// looks like sleep. A run that shows it unsettled is made again beside the others; a run
/// the machine held back ([`Stall::Busy`]) is made again alone. Two runs held back in a
/// row, or [`MOST_RUNS`] without two of its own in a row, give no verdict.
pub(crate) fn next(runs: &[Option<Stall>]) -> Next {
    match runs {
        [] => Next::Again { alone: false },
        [.., None] => Next::Judge,
        [.., last] if Stall::certain(*last) => Next::Judge,
        [.., a, b] if Stall::own(*a) && Stall::own(*b) => Next::Judge,
        [.., Some(Stall::Busy), Some(Stall::Busy)] => Next::TooBusy,
        _ if runs.len() >= MOST_RUNS => Next::TooBusy,
        [first] => Next::Again {
            alone: *first == Some(Stall::Busy),
        },
        _ => Next::Again { alone: true },
    }
}

/// Whether the verdict of a recorded case (a journal's line, a shard's gradebook) stands
/// under the rule of [`next`], judged again from what it recorded with the wall limit
/// `wall_limit`. Only a `TLE` at the wall limit depends on it: it stands when its
/// recorded runs ([`CaseResult::stalls`]) show the program's own stall twice in a row; a
/// record without them (written before they were kept) shows nothing, and does not.
pub(crate) fn upheld(result: &CaseResult, wall_limit: Duration) -> bool {
    if result.verdict != Verdict::TimeLimit || !result.message.starts_with(WALL_TLE) {
        return true;
    }
    let runs: Vec<Option<Stall>> = result
        .stalls
        .iter()
        .map(|r| Some(Stall::of_figures(&Sched::of_record(r), wall_limit)))
        .collect();
    next(&runs) == Next::Judge
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

    /// A run of the program's own, asleep or computing, with a thread runnable at the kill
    /// (or not known): one such run shows nothing alone.
    const ASLEEP: Stall = Stall::Slept { settled: false };
    const SPUN: Stall = Stall::Computed { settled: false };

    const LIMITS: Limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: sandbox::tiers::Tier::Basic,
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

    /// A wall-limit kill with its scheduling figures, ms: CPU, wall, waiting; threads,
    /// CPUs.
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

    /// The same, in microseconds (figures as this machine's runs recorded them).
    fn stalled_us(cpu: u64, wall: u64, waited: u64) -> Outcome {
        ran(|o| {
            o.killed = Some(Killed::Wall);
            o.signal = Some(9);
            o.code = None;
            o.cpu = Duration::from_micros(cpu);
            o.wall = Duration::from_micros(wall);
            o.waited = Duration::from_micros(waited);
            (o.tasks, o.cpus) = (1, 2);
        })
    }

    /// Limits with a wall limit of `wall` ms and a CPU limit of `cpu` ms.
    fn limits(cpu: u64, wall: u64) -> Limits {
        Limits {
            cpu: Duration::from_millis(cpu),
            wall: Duration::from_millis(wall),
            ..LIMITS
        }
    }

    #[test]
    fn a_wall_limit_kill_is_the_programs_own_only_when_its_own_time_fills_the_limit() {
        use Stall::Busy;
        let quick = limits(10_000, 1000);
        let short = limits(1000, 200);
        let cases = [
            // Asleep all along, on an idle machine and on a busy one (waiting for a CPU
            // only when it woke, less than a tenth of the limit).
            (stalled(3, 4001, 0, 1, 2), LIMITS, ASLEEP),
            (stalled(100, 4001, 380, 1, 2), LIMITS, ASLEEP),
            // Killed a hair before the limit by its own clock (the grader's starts
            // first): still its own.
            (stalled(3, 3995, 0, 1, 2), LIMITS, ASLEEP),
            // 188 ms of CPU in a 4 s limit, 3.7 s of it waiting for a CPU.
            (stalled(188, 4001, 3700, 1, 2), LIMITS, Busy),
            // Held back for more than a tenth of the limit: the program might have ended
            // within it on an idle machine.
            (stalled(100, 4001, 500, 1, 2), LIMITS, Busy),
            // Started a second late (the grader was held back): it lived 3 s of its 4.
            (stalled(3, 3001, 0, 1, 2), LIMITS, Busy),
            // Killed late, 5 s after its start, but held back 2 s of it: the figures of
            // a kill that came late count against the program's own time, not for it.
            (stalled(50, 5000, 2000, 1, 2), LIMITS, Busy),
            // Running all along into a wall limit below the CPU limit.
            (stalled(990, 1001, 5, 1, 2), quick, SPUN),
            // Ten spinning threads on two CPUs: 8 s of the waiting in 1 s their own crowd
            // makes on any machine.
            (stalled(1990, 1001, 8000, 10, 2), quick, SPUN),
            // The same crowd waiting half a second more than that: the machine's.
            (stalled(1500, 1001, 8500, 10, 2), quick, Busy),
            // Runs of a correct CPython solver (15 ms of CPU) that this 2-core machine
            // killed at 200 ms beside three busy loops: the grader's `TLE`s that were
            // journaled before. Held back, by their counted waiting...
            (stalled_us(14_322, 271_318, 35_304), short, Busy),
            (stalled_us(7_410, 560_631, 133_124), short, Busy),
            // ... or not by any figure: a wait for a CPU under way at the kill is counted
            // nowhere, and looks like sleep. One run cannot tell; see `next`.
            (stalled_us(4_419, 148_834, 54), limits(1000, 100), ASLEEP),
        ];
        for (outcome, limits, stall) in cases {
            assert_eq!(Stall::of(&outcome, &limits), Some(stall), "{outcome:?}");
            let (verdict, message) = {
                let d = judge(&outcome, &limits, |_| Judgement::accepted());
                (d.verdict, d.message)
            };
            assert_eq!(verdict, Verdict::TimeLimit);
            let why = match stall {
                Busy => "the machine was busy (the program waited",
                Stall::Slept { .. } => "the program slept or waited",
                Stall::Computed { .. } => "the program computed all along",
            };
            assert!(message.starts_with(WALL_TLE), "{message}");
            assert!(message.contains(why), "{message}");
        }
        assert_eq!(
            verdict(&stalled(188, 4001, 3700, 1, 2)).1,
            "wall time over the 4 s limit with 188 ms of CPU: the machine was busy (the \
             program waited 3.7 s for a CPU)"
        );
    }

    #[test]
    fn a_run_killed_at_the_wall_after_its_memory_went_over_is_mle() {
        // CI's run of `mle_four_children_100mib.c` under a 128 MiB limit: the OOM killer
        // took a child before it wrote to the pipe its parent reads, a sibling held the
        // pipe open, and the parent waited until the wall limit with 172 ms of CPU.
        let limits = Limits {
            memory: 128 << 20,
            wall: Duration::from_secs(10),
            ..LIMITS
        };
        let waited = ran(|o| {
            o.killed = Some(Killed::Wall);
            o.code = None;
            o.signal = Some(libc::SIGKILL);
            o.cpu = Duration::from_micros(171_863);
            o.wall = Duration::from_micros(10_001_615);
            o.peak_kib = 138_536;
            o.tasks = 2;
            o.cpus = 1;
            o.stdout.clear();
        });
        assert_eq!(
            Stall::of(&waited, &limits),
            None,
            "no stall: never run again"
        );
        let d = judge(&waited, &limits, |_| Judgement::accepted());
        assert_eq!(d.verdict, Verdict::MemoryLimit);
        assert_eq!(d.message, "peak memory 135.3 MiB over the 128 MiB limit");
        // At the limit, not over it, the wait is the program's own: TLE as ever.
        let within = Outcome {
            peak_kib: 128 << 10,
            ..waited.clone()
        };
        assert_eq!(Stall::of(&within, &limits), Some(ASLEEP));
        // Over the CPU limit, CPU decides whatever the memory did.
        let spun = Outcome {
            cpu: Duration::from_millis(1500),
            ..waited
        };
        assert_eq!(
            judge(&spun, &limits, |_| Judgement::accepted()).verdict,
            Verdict::TimeLimit
        );
    }

    #[test]
    fn a_kill_that_came_after_the_program_ended_within_its_limit_is_no_tle() {
        // The grader's clock passed the limit (it was held back before the program
        // started), the program's did not: it ended by itself, and is judged.
        let ended = ran(|o| {
            o.killed = Some(Killed::Wall);
            o.wall = Duration::from_millis(3900);
        });
        assert_eq!(Stall::of(&ended, &LIMITS), None);
        assert_eq!(verdict(&ended).0, Verdict::Accepted);
        let wrong = ran(|o| {
            o.killed = Some(Killed::Wall);
            o.wall = Duration::from_millis(3900);
            o.stdout = b"5\n".to_vec();
        });
        assert_eq!(verdict(&wrong).0, Verdict::WrongAnswer);
        // Ended by itself after its limit (the kill came late): the figures decide.
        let late = ran(|o| {
            o.killed = Some(Killed::Wall);
            o.wall = Duration::from_millis(4500);
        });
        assert_eq!(Stall::of(&late, &LIMITS), Some(ASLEEP));
        assert_eq!(Stall::of(&ran(|_| {}), &LIMITS), None);
        // Children that spun 1.1 s of CPU between them on a loaded machine, past the 1 s
        // limit: `TLE` by CPU, however long they waited.
        let over = stalled(1135, 4001, 10_774, 5, 2);
        assert_eq!(Stall::of(&over, &LIMITS), None);
        assert!(
            verdict(&over)
                .1
                .starts_with("CPU time 1.135 s over the 1 s limit")
        );
    }

    #[test]
    fn a_tle_at_the_wall_limit_needs_two_runs_in_a_row_of_the_programs_own() {
        use Next::*;
        use Stall::Busy;
        let cases: &[(&[Option<Stall>], Next)] = &[
            // A run that ended (or went over the CPU limit) is judged at once.
            (&[None], Judge),
            (&[Some(Busy), None], Judge),
            (&[Some(ASLEEP), Some(Busy), None], Judge),
            // One run of its own is made again beside the others; a held-back one alone.
            (&[Some(ASLEEP)], Again { alone: false }),
            (&[Some(SPUN)], Again { alone: false }),
            (&[Some(Busy)], Again { alone: true }),
            // Two of its own in a row: the mark.
            (&[Some(ASLEEP), Some(ASLEEP)], Judge),
            (&[Some(SPUN), Some(ASLEEP)], Judge),
            (&[Some(Busy), Some(ASLEEP), Some(SPUN)], Judge),
            // Anything else is made again alone, up to three runs; then no verdict.
            (&[Some(ASLEEP), Some(Busy)], Again { alone: true }),
            (&[Some(Busy), Some(ASLEEP)], Again { alone: true }),
            (&[Some(Busy), Some(Busy)], TooBusy),
            (&[Some(ASLEEP), Some(Busy), Some(ASLEEP)], TooBusy),
            (&[Some(Busy), Some(ASLEEP), Some(Busy)], TooBusy),
            (&[], Again { alone: false }),
        ];
        for (runs, want) in cases {
            assert_eq!(next(runs), *want, "{runs:?}");
        }
    }

    #[test]
    fn one_settled_run_of_the_programs_own_is_a_tle_and_nothing_else_is() {
        use Next::*;
        use Stall::Busy;
        let slept = Stall::Slept { settled: true };
        let spun = Stall::Computed { settled: true };
        let cases: &[(&[Option<Stall>], Next)] = &[
            (&[Some(slept)], Judge),
            (&[Some(spun)], Judge),
            (&[Some(Busy), Some(slept)], Judge),
            (&[Some(ASLEEP), Some(Busy), Some(slept)], Judge),
            // Settled or not, a held-back run is the machine's.
            (&[Some(Busy), Some(Busy)], TooBusy),
        ];
        for (runs, want) in cases {
            assert_eq!(next(runs), *want, "{runs:?}");
        }
        // Settled is what the kill saw: no thread runnable. One runnable, or a record
        // that did not say, leaves the second run to show it.
        let asleep = |runnable| {
            let mut o = stalled(3, 4001, 0, 1, 2);
            o.runnable = runnable;
            o
        };
        assert_eq!(Stall::of(&asleep(Some(0)), &LIMITS), Some(slept));
        assert_eq!(Stall::of(&asleep(Some(1)), &LIMITS), Some(ASLEEP));
        assert_eq!(Stall::of(&asleep(None), &LIMITS), Some(ASLEEP));
        // A held-back run stays held back, settled or not.
        let mut held = stalled(188, 4001, 3700, 1, 2);
        held.runnable = Some(0);
        assert_eq!(Stall::of(&held, &LIMITS), Some(Busy));
        // A record keeps it, and is judged again by it.
        let message = "wall time over the 4 s limit with 3 ms of CPU: the program slept or waited";
        let tle = Verdict::TimeLimit;
        assert!(upheld(
            &recorded(tle, message, &[asleep(Some(0))]),
            LIMITS.wall
        ));
        assert!(!upheld(
            &recorded(tle, message, &[asleep(Some(2))]),
            LIMITS.wall
        ));
        assert!(!upheld(&recorded(tle, message, &[held]), LIMITS.wall));
        let record = Sched::of(&asleep(Some(0))).record();
        assert_eq!(Sched::of_record(&record).runnable, Some(0));
    }

    /// A recorded case: its verdict, message and the runs it keeps.
    fn recorded(verdict: Verdict, message: &str, runs: &[Outcome]) -> CaseResult {
        let mut result = CaseResult::new(
            "secret/01",
            Judgement {
                verdict,
                message: message.to_owned(),
            },
            crate::results::case::Figures::default(),
            Vec::new(),
            Vec::new(),
        );
        result.stalls = runs.iter().map(|o| Sched::of(o).record()).collect();
        result
    }

    #[test]
    fn a_recorded_tle_at_the_wall_limit_stands_only_on_the_runs_it_keeps() {
        let wall = LIMITS.wall;
        let message = "wall time over the 4 s limit with 3 ms of CPU: the program slept or waited";
        let asleep = stalled(3, 4001, 0, 1, 2);
        let held = stalled(188, 4001, 3700, 1, 2);
        let tle = Verdict::TimeLimit;
        // Written before the figures were kept: nothing shows it was the program's own.
        assert!(!upheld(&recorded(tle, message, &[]), wall));
        assert!(!upheld(
            &recorded(tle, message, std::slice::from_ref(&asleep)),
            wall
        ));
        assert!(upheld(
            &recorded(tle, message, &[asleep.clone(), asleep.clone()]),
            wall
        ));
        assert!(upheld(
            &recorded(
                tle,
                message,
                &[held.clone(), asleep.clone(), asleep.clone()]
            ),
            wall
        ));
        assert!(!upheld(
            &recorded(tle, message, &[asleep.clone(), held]),
            wall
        ));
        // Under a rule that asked more (a longer limit), the same figures fall short.
        assert!(!upheld(
            &recorded(tle, message, &[asleep.clone(), asleep]),
            Duration::from_secs(5)
        ));
        // Every other verdict stands as it was judged: the rule is only the wall's.
        assert!(upheld(
            &recorded(tle, "CPU time 1.2 s over the 1 s limit", &[]),
            wall
        ));
        assert!(upheld(&recorded(Verdict::Accepted, "", &[]), wall));
        assert!(upheld(
            &recorded(Verdict::WrongAnswer, "expected `4`", &[]),
            wall
        ));
    }

    #[test]
    fn recorded_figures_read_back_exactly() {
        let outcome = stalled_us(14_322, 271_318, 35_304);
        let figures = Sched::of(&outcome);
        let record = figures.record();
        assert_eq!(
            serde_json::to_string(&record).unwrap(),
            r#"{"cpu_ms":14.322,"wall_ms":271.318,"waited_ms":35.304,"threads":1,"cpus":2}"#
        );
        assert_eq!(Sched::of_record(&record), figures);
    }
}
