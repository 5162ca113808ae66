//! One worker's means of running contestant programs on inputs: a `sandbox` worker in the
//! run's tier, and the clean environment programs get. Shared by `grade` (case folders),
//! `batch` and `fuzz`.

use std::path::PathBuf;

use sandbox::{Config, Files, Input, Job, Limits, Outcome, Stderr, Worker};

use crate::cli::exit::Fault;
use crate::run::alone::Lane;
use crate::run::judge::{self, Next, Sched, Stall, seconds};
use crate::submission::{PATH, Program, WorkingFolder};

/// How much of standard error a report keeps: its end, where the error usually is.
const STDERR_TAIL: usize = 4096;

/// A run as the rule of a `TLE` at the wall limit left it: the outcome to judge, and for
/// one killed at the wall limit, the figures of the runs that showed the program's own
/// stall (what a record of the `TLE` keeps, to be judged again when read).
#[derive(Debug)]
pub(crate) struct Ran {
    /// The last run's facts.
    pub(crate) outcome: Outcome,
    /// The runs killed at the wall limit, oldest first (empty when the last run ended).
    pub(crate) stalls: Vec<Sched>,
}

/// Why no verdict is given: the machine kept the runs of one input from showing whose
/// their time was.
pub(crate) fn too_busy(stalls: &[Option<Stall>], last: &Outcome, limits: &Limits) -> Fault {
    let how = if stalls.len() >= judge::MOST_RUNS {
        format!(
            "{} times, never twice in a row showing the program's own sleep or work",
            stalls.len()
        )
    } else {
        "twice, the second time alone, held back by the machine".to_owned()
    };
    Fault::internal(format!(
        "the machine is too busy to judge fairly: a run went over the {} wall limit {how} \
         (the last time with {} of CPU and {} waiting for a CPU); run it again on a quieter \
         machine",
        seconds(limits.wall),
        seconds(last.cpu),
        seconds(last.waited),
    ))
}

/// What a worker does with a first run that slept through the wall limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asleep {
    /// Makes it again, as the rule asks, to confirm it.
    Confirm,
    /// Leaves it to the caller, unconfirmed.
    HandOver,
}

/// The limits of a first run on a worker that keeps no program asleep
/// ([`Runner::run_unless_asleep`]): the wall limit is the *hand-over point*, the CPU limit
/// and half of it again (at least [`HAND_OVER_MARGIN`] more), when that is under the wall
/// limit; `None` when it is not. A run still going there used at most the CPU limit in
/// half again as long: it slept, waited or was held back for a third of its life. Such a
/// run is no verdict: killed there, it is made again in full, under the wall limit, on a
/// worker meant for sleepers when it slept, here when the machine held it back or it
/// computed. So a sleeper holds a worker of the class for the hand-over point (1.5 s at
/// the default 1 s), not for the wall limit (4 s), and a program that ends, or goes over
/// the CPU or the memory limit, before the point is judged from that run as from any.
pub(crate) fn hand_over_limits(limits: &Limits) -> Option<Limits> {
    let point = limits.cpu + (limits.cpu / 2).max(HAND_OVER_MARGIN);
    (point < limits.wall).then_some(Limits {
        wall: point,
        ..*limits
    })
}

/// The least time past the CPU limit a first run lives before it is handed over
/// ([`hand_over_limits`]): a short CPU limit leaves a program the time to start.
const HAND_OVER_MARGIN: std::time::Duration = std::time::Duration::from_millis(500);

/// A worker that runs programs.
#[derive(Debug)]
pub(crate) struct Runner {
    worker: Worker,
    /// Its flag for runs made alone.
    lane: Lane,
}

impl Runner {
    /// Starts a worker for runs under `limits` of the given programs (their interpreters'
    /// folders are shown in a box).
    pub(crate) fn start<'a>(
        limits: &Limits,
        programs: impl IntoIterator<Item = &'a Program>,
    ) -> Result<Runner, Fault> {
        crate::cli::interrupt::check()?;
        let mut toolchain: Vec<PathBuf> = programs
            .into_iter()
            .flat_map(|p| p.toolchain.iter().cloned())
            .collect();
        toolchain.sort();
        toolchain.dedup();
        let config = Config {
            tier: limits.sandbox,
            memory: limits.memory,
            toolchain,
            headers: None,
        };
        let worker = Worker::start(&config)
            .map_err(|e| Fault::internal(format!("cannot start a worker: {e}")))?;
        Ok(Runner {
            worker,
            lane: Lane::new(),
        })
    }

    /// Ends the worker on a thread of its own (see `sandbox::retire`).
    pub(crate) fn retire(self) {
        sandbox::retire(self.worker);
    }

    /// Runs `program` with `stdin` as standard input under `limits`, in an empty working
    /// folder, as often as the rule of a `TLE` at the wall limit asks ([`judge::next`]): a
    /// run killed at the wall limit with its CPU time under the CPU limit is made again,
    /// beside the others when it showed the program's own stall, alone (no other run of
    /// this grader starts until it ends) when the machine held it back; it is a mark only
    /// when a settled run, or two runs in a row, show the program's own stall. `Err` when
    /// a run cannot be made (a fault of the setup), or when the rule gives no verdict: a
    /// verdict the machine caused is no verdict.
    pub(crate) fn run(
        &mut self,
        program: &Program,
        stdin: &Input,
        limits: &Limits,
    ) -> Result<Ran, Fault> {
        self.run_then(program, stdin, limits, None)
    }

    /// [`Runner::run`], told the run this worker makes next (`then`, under the same
    /// limits): it starts the moment this one ends, while this one is read and judged, so
    /// that the launcher never waits on the grader (`Worker::run_then`). The next call
    /// must be for it. The worker's lane stays busy while it is under way.
    pub(crate) fn run_then(
        &mut self,
        program: &Program,
        stdin: &Input,
        limits: &Limits,
        then: Option<(&Program, &Input)>,
    ) -> Result<Ran, Fault> {
        self.runs_of_one(program, stdin, limits, then, Asleep::Confirm)?
            .ok_or_else(|| Fault::internal("a run handed over unasked".to_owned()))
    }

    /// [`Runner::run_then`] on a worker that keeps no program asleep: the first run ends
    /// at the hand-over point ([`hand_over_limits`]), and one still going there that shows
    /// sleep ([`Stall::Slept`]), like a first run killed at the wall limit that shows sleep
    /// unsettled, is not made again here, and `None` says so: the caller makes the input's
    /// runs again in full on a worker meant for sleepers (`batch/doze.rs`), where the rule
    /// is applied from its start. A run the machine held back, or one that computed, is
    /// made again here as in `run_then`.
    pub(crate) fn run_unless_asleep(
        &mut self,
        program: &Program,
        stdin: &Input,
        limits: &Limits,
        then: Option<(&Program, &Input)>,
    ) -> Result<Option<Ran>, Fault> {
        self.runs_of_one(program, stdin, limits, then, Asleep::HandOver)
    }

    /// The runs of one input as [`judge::next`] asks, but that a first run that slept is
    /// left to the caller under [`Asleep::HandOver`] (`None`).
    fn runs_of_one(
        &mut self,
        program: &Program,
        stdin: &Input,
        limits: &Limits,
        then: Option<(&Program, &Input)>,
        asleep: Asleep,
    ) -> Result<Option<Ran>, Fault> {
        let mut stalls = Vec::new();
        let mut figures = Vec::new();
        let mut alone = false;
        // The first run ends at the hand-over point when the worker keeps no program
        // asleep.
        if asleep == Asleep::HandOver
            && let Some(early) = hand_over_limits(limits)
        {
            let outcome = self.run_beside(program, stdin, &early, then)?;
            match Stall::of(&outcome, &early) {
                // It ended by itself, or went over the CPU or the memory limit, at the
                // point or before it: judged as any run is (within the point, within the
                // wall limit).
                None => {
                    return Ok(Some(Ran {
                        outcome,
                        stalls: Vec::new(),
                    }));
                }
                Some(Stall::Slept { .. }) => return Ok(None),
                // Held back, or computing: made again below in full, as a first run.
                Some(Stall::Busy | Stall::Computed { .. }) => {}
            }
        }
        loop {
            let outcome = if alone {
                // A run started ahead would go beside it.
                self.worker
                    .abandon()
                    .map_err(|e| Fault::internal(format!("cannot end a run: {e}")))?;
                self.lane.leave();
                let worker = &mut self.worker;
                self.lane
                    .alone(|| run_once(worker, program, stdin.clone(), limits, None))?
            } else {
                self.run_beside(program, stdin, limits, then)?
            };
            let stall = Stall::of(&outcome, limits);
            if stall.is_some() {
                figures.push(Sched::of(&outcome));
            }
            stalls.push(stall);
            if asleep == Asleep::HandOver
                && matches!(stalls.as_slice(), [Some(Stall::Slept { settled: false })])
            {
                return Ok(None);
            }
            match judge::next(&stalls) {
                Next::Judge => {
                    // The figures a `TLE` at the wall limit was judged from; none for a
                    // run that ended.
                    let stalls = if stall.is_some() { figures } else { Vec::new() };
                    return Ok(Some(Ran { outcome, stalls }));
                }
                Next::Again { alone: next } => alone = next,
                Next::TooBusy => return Err(too_busy(&stalls, &outcome, limits)),
            }
        }
    }
}

impl Runner {
    /// Runs `program` once on `stdin` under `limits` beside the others, `then` made ready
    /// to start as it ends.
    fn run_beside(
        &mut self,
        program: &Program,
        stdin: &Input,
        limits: &Limits,
        then: Option<(&Program, &Input)>,
    ) -> Result<Outcome, Fault> {
        // A run started ahead holds the lane already: it must not step back for a run
        // that goes alone while that run is under way.
        if !self.worker.ahead() {
            self.lane.enter();
        }
        let ran = run_once(&mut self.worker, program, stdin.clone(), limits, then);
        if !self.worker.ahead() {
            self.lane.leave();
        }
        ran
    }

    /// Runs `program` once on `stdin` under `limits`, alone (no other run of this grader
    /// starts until it ends) when `alone`: the runs of an interaction, which the rule of a
    /// `TLE` at the wall limit repeats as a whole (`interaction.rs`), not run by run.
    pub(crate) fn run_joined(
        &mut self,
        program: &Program,
        stdin: Input,
        limits: &Limits,
        alone: bool,
    ) -> Result<Outcome, Fault> {
        self.worker
            .abandon()
            .map_err(|e| Fault::internal(format!("cannot end a run: {e}")))?;
        let worker = &mut self.worker;
        if alone {
            self.lane
                .alone(|| run_once(worker, program, stdin, limits, None))
        } else {
            self.lane.enter();
            let ran = run_once(worker, program, stdin, limits, None);
            self.lane.leave();
            ran
        }
    }
}

/// The job of a run of `program` on `stdin` in `worker`.
fn job<'a>(
    worker: &Worker,
    program: &'a Program,
    stdin: Input,
    limits: &Limits,
) -> Result<Job<'a>, Fault> {
    // A box copies the program's files in from where they are: no folder of the
    // machine is made for them (a folder made and removed for each of a class's
    // students was 2% of a batch's CPU).
    let files = if worker.boxed() {
        Files::Listed {
            at: program.staging.planned(),
            from: &program.staging,
        }
    } else {
        Files::Folder(program.staging.path()?)
    };
    Ok(Job {
        argv: program.argv_in(&worker.files_dir(files.path()), limits.memory),
        files,
        // A submission given a package's included files starts beside them.
        in_files: program.working == WorkingFolder::Own,
        env: [
            vec![
                format!("PATH={PATH}"),
                "LANG=C.UTF-8".to_owned(),
                "PYTHONDONTWRITEBYTECODE=1".to_owned(),
            ],
            program.env.clone(),
        ]
        .concat(),
        stdin,
        stderr: Stderr::Tail(STDERR_TAIL),
        keep: &[],
        address_space: program.address_space,
    })
}

/// One run of [`Runner::run_then`], and the next one made ready.
fn run_once(
    worker: &mut Worker,
    program: &Program,
    stdin: Input,
    limits: &Limits,
    then: Option<(&Program, &Input)>,
) -> Result<Outcome, Fault> {
    let current = job(worker, program, stdin, limits)?;
    let next = then
        .map(|(program, stdin)| job(worker, program, stdin.clone(), limits))
        .transpose()?;
    // No run starts ahead once another waits to go alone.
    let go_on = || !Lane::wanted();
    let ran = worker.run_then(
        &current,
        limits,
        next.as_ref().map(|job| (job, &go_on as _)),
    );
    // A run the grader killed on its way out earns no verdict.
    crate::cli::interrupt::check()?;
    ran.map(|(outcome, _)| outcome)
        .map_err(|e| Fault::setup(format!("{}: {e}", program.argv[0])))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn limits(cpu_ms: u64, wall_ms: u64) -> Limits {
        Limits {
            cpu: Duration::from_millis(cpu_ms),
            wall: Duration::from_millis(wall_ms),
            memory: 256 << 20,
            output: 64 << 20,
            processes: 64,
            sandbox: sandbox::tiers::Tier::Basic,
        }
    }

    #[test]
    fn a_first_run_is_handed_over_at_the_cpu_limit_and_a_half_when_under_the_wall_limit() {
        let wall = |l: Option<Limits>| l.map(|l| l.wall.as_millis());
        // The defaults: 1 s of CPU, 4 s of wall.
        assert_eq!(wall(hand_over_limits(&limits(1000, 4000))), Some(1500));
        // A short CPU limit still leaves half a second past it.
        assert_eq!(wall(hand_over_limits(&limits(100, 1300))), Some(600));
        assert_eq!(wall(hand_over_limits(&limits(4000, 13_000))), Some(6000));
        // A wall limit at the point or under it: no hand-over point, the run is made
        // under its own limits.
        assert_eq!(wall(hand_over_limits(&limits(1000, 1500))), None);
        assert_eq!(wall(hand_over_limits(&limits(1000, 1200))), None);
        // Only the wall limit changes.
        let early = hand_over_limits(&limits(1000, 4000)).unwrap();
        assert_eq!(
            Limits {
                wall: Duration::from_secs(4),
                ..early
            },
            limits(1000, 4000)
        );
    }
}
