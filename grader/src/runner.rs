//! One worker's means of running contestant programs on inputs: an `exec` worker in the
//! run's tier, and the clean environment programs get. Shared by `grade` (case folders),
//! `batch` and `fuzz`.

use std::path::PathBuf;
use std::sync::{PoisonError, RwLock};

use crate::exec::{Config, Input, Job, Limits, Outcome, Stderr, Worker};
use crate::judge::{Stall, seconds};
use crate::status::Fault;
use crate::submission::{PATH, Program};

/// How much of standard error a report keeps: its end, where the error usually is.
const STDERR_TAIL: usize = 4096;

/// Held shared by every run, and alone by a run made again because the machine was busy.
/// (The standard `RwLock` lets no new reader in while a writer waits, so the run made
/// again waits only for the runs already under way.)
static ALONE: RwLock<()> = RwLock::new(());

/// A worker that runs programs.
#[derive(Debug)]
pub(crate) struct Runner {
    worker: Worker,
}

impl Runner {
    /// Starts a worker for runs under `limits` of the given programs (their interpreters'
    /// folders are shown in a box).
    pub(crate) fn start<'a>(
        limits: &Limits,
        programs: impl IntoIterator<Item = &'a Program>,
    ) -> Result<Runner, Fault> {
        crate::interrupt::check()?;
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
        };
        let worker = Worker::start(&config)
            .map_err(|e| Fault::Internal(format!("cannot start a worker: {e}")))?;
        Ok(Runner { worker })
    }

    /// Runs `program` with `stdin` as standard input under `limits`, in an empty working
    /// folder. A run that went over the wall limit because the machine was busy (see
    /// [`Stall`]) is made again, alone: no other run of this grader starts until it ends.
    /// `Err` when the run cannot be made (a fault of the setup), or when the machine was
    /// busy that time too: a verdict the machine caused is no verdict.
    pub(crate) fn run(
        &mut self,
        program: &Program,
        stdin: Input,
        limits: &Limits,
    ) -> Result<Outcome, Fault> {
        let first = {
            let _shared = ALONE.read().unwrap_or_else(PoisonError::into_inner);
            self.run_once(program, stdin.clone(), limits)?
        };
        if Stall::of(&first, limits) != Some(Stall::Busy) {
            return Ok(first);
        }
        let _alone = ALONE.write().unwrap_or_else(PoisonError::into_inner);
        let again = self.run_once(program, stdin, limits)?;
        if Stall::of(&again, limits) == Some(Stall::Busy) {
            return Err(Fault::Internal(format!(
                "the machine is too busy to judge fairly: a run went over the {} wall \
                 limit twice, the second time alone, with {} of CPU and {} waiting for a \
                 CPU; run it again on a quieter machine",
                seconds(limits.wall),
                seconds(again.cpu),
                seconds(again.waited),
            )));
        }
        Ok(again)
    }

    /// One run of [`Runner::run`].
    fn run_once(
        &mut self,
        program: &Program,
        stdin: Input,
        limits: &Limits,
    ) -> Result<Outcome, Fault> {
        let files = program.staging.path();
        let job = Job {
            argv: program.argv_in(&self.worker.files_dir(files), limits.memory),
            files,
            in_files: false,
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
            keep: None,
            address_space: program.address_space,
        };
        let ran = self.worker.run(&job, limits);
        // A run the grader killed on its way out earns no verdict.
        crate::interrupt::check()?;
        ran.map(|(outcome, _)| outcome)
            .map_err(|e| Fault::Usage(format!("{}: {e}", program.argv[0])))
    }
}
