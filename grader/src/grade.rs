//! One submission on every case: cases run on the worker pool (each worker with its own
//! launcher), are judged on the worker as they finish, reported on the calling thread, and
//! come back in name order however they ran.

use reference::Problem;

use crate::cases::discover::Case;
use crate::cases::sound;
use crate::exec::{Input, Limits};
use crate::files;
use crate::judge::judge;
use crate::results::case::{Board, CaseResult, Figures};
use crate::runner::Runner;
use crate::status::Fault;
use crate::submission::Program;

/// How much of a program's output a result keeps for the report.
const OUTPUT_EXCERPT: usize = 64 * 1024;

/// How to grade.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    /// The problem.
    pub(crate) problem: Problem,
    /// The limits of every run.
    pub(crate) limits: Limits,
}

/// Runs cases on one worker thread: the real [`CaseWorker`] (a launcher and
/// [`run_case`]), or a fake that returns recorded results, so that the scheduling of
/// `grade` and of `batch` is tested without processes.
pub(crate) trait RunsCases: Send {
    /// What it runs.
    type Program: Sync;

    /// Starts the worker, or starts it again after a run it could not make. `Err`: no run
    /// can be made on this machine (a fault of the setup), the command's end.
    fn start(&mut self) -> Result<(), Fault>;

    /// Runs `program` on case number `case` and judges it. `Err` when the run cannot be
    /// made (the command was stopped, the launcher or an interpreter is missing, the case
    /// changed under us): never the program's mark.
    fn run(&mut self, program: &Self::Program, case: usize) -> Result<CaseResult, Fault>;
}

/// Runs `program` on `cases` cases, one worker thread per `workers`; results in name order
/// (cases skipped by `fail_fast` are left out). `done` is told of each case as it finishes,
/// with its number, on this thread, in the order they finish (not in name order). `Err` when a
/// run cannot be made at all (the launcher or an interpreter is missing): a fault of the
/// setup, not of the program.
pub(crate) fn grade<R: RunsCases>(
    workers: &mut [R],
    program: &R::Program,
    cases: usize,
    fail_fast: bool,
    mut done: impl FnMut(usize, &CaseResult),
) -> Result<Vec<CaseResult>, Fault> {
    let tasks = |n: u64| usize::try_from(n).ok().filter(|&c| c < cases);
    // Nothing after the first case that is not `AC`: at one worker exactly the cases up
    // to it run, as in name order by hand.
    let stop = |n: u64, result: &CaseResult| {
        if fail_fast && !result.accepted() {
            pool::Stop::After(n)
        } else {
            pool::Stop::Go
        }
    };
    let schedule = pool::Schedule {
        tasks: &tasks,
        stop: &stop,
        deadline: None,
    };
    let mut jobs: Vec<Job<'_, R>> = workers
        .iter_mut()
        .map(|worker| Job {
            worker,
            program,
            started: false,
        })
        .collect();
    let mut results: Vec<Option<CaseResult>> = vec![None; cases];
    pool::run(&mut jobs, &schedule, |event| {
        if let pool::Event::Finished { index, output, .. } = event {
            done(index as usize, &output);
            results[index as usize] = Some(output);
        }
        Ok(())
    })?;
    Ok(results.into_iter().flatten().collect())
}

/// One worker of [`grade`]: its case runner, started before its first case.
struct Job<'w, R: RunsCases> {
    worker: &'w mut R,
    program: &'w R::Program,
    started: bool,
}

impl<R: RunsCases> pool::Executor for Job<'_, R> {
    type Task = usize;
    type Output = CaseResult;
    type Error = Fault;

    fn execute(&mut self, _index: u64, case: usize) -> Result<CaseResult, Fault> {
        if !self.started {
            self.worker.start()?;
            self.started = true;
        }
        self.worker.run(self.program, case)
    }
}

/// The real case runner: a worker box (started on the worker thread that uses it) whose
/// toolchain shows every program it may run, and the cases by number.
#[derive(Debug)]
pub(crate) struct CaseWorker<'a> {
    programs: Vec<&'a Program>,
    cases: Vec<(&'a Case, &'a CaseText)>,
    plan: Plan,
    runner: Option<Runner>,
}

impl<'a> CaseWorker<'a> {
    /// `count` workers (at least one) for `programs` on `cases`.
    pub(crate) fn many(
        count: usize,
        programs: &[&'a Program],
        cases: &[(&'a Case, &'a CaseText)],
        plan: &Plan,
    ) -> Vec<CaseWorker<'a>> {
        (0..count.max(1))
            .map(|_| CaseWorker {
                programs: programs.to_vec(),
                cases: cases.to_vec(),
                plan: *plan,
                runner: None,
            })
            .collect()
    }
}

impl RunsCases for CaseWorker<'_> {
    type Program = Program;

    fn start(&mut self) -> Result<(), Fault> {
        // The old box goes first: a fresh one never waits for it.
        self.runner = None;
        self.runner = Some(Runner::start(
            &self.plan.limits,
            self.programs.iter().copied(),
        )?);
        Ok(())
    }

    fn run(&mut self, program: &Program, case: usize) -> Result<CaseResult, Fault> {
        // Stopping (Ctrl-C) ends the command before another run starts.
        crate::interrupt::check()?;
        let (Some(runner), Some(&(case, text))) = (&mut self.runner, self.cases.get(case)) else {
            return Err(Fault::Internal(format!(
                "case {case} run on a worker not started, or past the last case"
            )));
        };
        run_case(runner, program, case, text, &self.plan)
    }
}

/// A case's input and answer, read once.
#[derive(Debug, Clone)]
pub(crate) struct CaseText {
    /// The input.
    pub(crate) input: Vec<u8>,
    /// The expected answer.
    pub(crate) answer: Vec<u8>,
}

impl CaseText {
    /// Reads `case`'s files.
    pub(crate) fn load(case: &Case) -> Result<CaseText, Fault> {
        let answer = answer_path(case)?;
        Ok(CaseText {
            input: files::read_capped(&case.input)?,
            answer: files::read_capped(answer)?,
        })
    }

    /// Reads `case`'s files and holds them to the rule of a sound case (`cases::sound`):
    /// a broken case is the call's fault, found before anything runs.
    pub(crate) fn load_sound(problem: Problem, case: &Case) -> Result<CaseText, Fault> {
        let text = CaseText::load(case)?;
        sound::case(
            problem,
            (&case.input, &text.input),
            (answer_path(case)?, &text.answer),
        )?;
        Ok(text)
    }

    /// The input and answer as text, for the reports that show them.
    pub(crate) fn board(&self) -> Board {
        Board {
            input: String::from_utf8_lossy(&self.input).into_owned(),
            answer: String::from_utf8_lossy(&self.answer).into_owned(),
        }
    }
}

/// A case to grade on: where it is, and its files, read once and found sound.
#[derive(Debug, Clone)]
pub(crate) struct SoundCase {
    /// Where the case is.
    pub(crate) case: Case,
    /// Its input and answer.
    pub(crate) text: CaseText,
}

/// The answer file of a case that must have one.
fn answer_path(case: &Case) -> Result<&std::path::Path, Fault> {
    case.answer.as_deref().ok_or_else(|| {
        Fault::Usage(format!(
            "{}: no answer file beside it (.ans or .out)",
            case.input.display()
        ))
    })
}

/// Runs `program` on `case` (whose files hold `text`) and judges it.
pub(crate) fn run_case(
    runner: &mut Runner,
    program: &Program,
    case: &Case,
    text: &CaseText,
    plan: &Plan,
) -> Result<CaseResult, Fault> {
    let (input, answer) = (&text.input, &text.answer);
    let outcome = runner.run(program, Input::File(case.input.clone()), &plan.limits)?;
    let mut broken = None;
    let judgement = judge(&outcome, &plan.limits, |output| {
        plan.problem
            .check(input, Some(answer), output)
            .unwrap_or_else(|e| {
                broken = Some(e);
                reference::Judgement::wrong(String::new())
            })
    });
    if let Some(error) = broken {
        // Cases are found sound when loaded; one that breaks now was changed under us.
        // Either way it is the data's fault, never this program's mark.
        return Err(sound::located(&error, &case.input, answer_path(case)?).into());
    }
    let mut output = outcome.stdout;
    output.truncate(OUTPUT_EXCERPT);
    let figures = Figures {
        cpu: outcome.cpu,
        wall: outcome.wall,
        memory_kib: outcome.peak_kib,
    };
    Ok(CaseResult::new(
        &case.name,
        judgement,
        figures,
        output,
        outcome.stderr,
    ))
}
