//! One submission on every case: cases run on the worker pool (each worker with its own
//! launcher), are judged on the worker as they finish, reported on the calling thread, and
//! come back in name order however they ran.

use reference::Problem;
use sandbox::{Input, Limits};

use crate::cases::find::Case;
use crate::cases::sound;
use crate::cli::exit::Fault;
use crate::package::programs::output_judge::{CaseFiles, Origin, PackageJudge};
use crate::package::programs::output_validator::Validator;
use crate::package::programs::{interaction, passes};
use crate::paths::files;
use crate::results::case::{Board, CaseResult, Explained, Figures};
use crate::run::judge::judge;
use crate::run::runner::Runner;
use crate::submission::Program;

/// How much of a program's output a result keeps for the report.
const OUTPUT_EXCERPT: usize = 64 * 1024;

/// How to grade.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan<'a> {
    /// How an output is judged.
    pub(crate) checker: Checker<'a>,
    /// The limits of every run.
    pub(crate) limits: Limits,
}

/// How an output is judged: the role a command needs of a problem once the cases are
/// read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Checker<'a> {
    /// A built-in problem's checker, in process; its reference explains a wrong answer.
    Builtin(Problem),
    /// A package's output validator (its default one in process, its own in the box).
    Package(&'a PackageJudge),
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

    /// [`RunsCases::run`], told the run this worker makes next (`then`), which it may
    /// start the moment this one ends, before this one is judged. The next call must then
    /// be for it; any other call kills it unseen.
    fn run_then(
        &mut self,
        program: &Self::Program,
        case: usize,
        then: Option<(&Self::Program, usize)>,
    ) -> Result<CaseResult, Fault> {
        let _ = then;
        self.run(program, case)
    }

    /// [`RunsCases::run_then`] on a worker that keeps no program asleep: `None` when the
    /// case's first run slept past the hand-over point (`Runner::run_unless_asleep`), which
    /// the caller then has made again in full elsewhere. A runner that cannot tell
    /// judges every case in full.
    fn run_unless_asleep(
        &mut self,
        program: &Self::Program,
        case: usize,
        then: Option<(&Self::Program, usize)>,
    ) -> Result<Option<CaseResult>, Fault> {
        self.run_then(program, case, then).map(Some)
    }
}

/// Runs `program` on `cases` cases, one worker thread per `workers`; results in name order
/// (cases skipped by `fail_fast` are left out). `done` is told of each case as it
/// finishes, with its number, on this thread, in the order they finish (not in name
/// order). `Err` when a run cannot be made at all (the launcher or an interpreter is
/// missing): a fault of the setup, not of the program.
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
        announce: false,
    };
    let mut jobs: Vec<Job<'_, R>> = workers
        .iter_mut()
        .map(|worker| Job {
            worker,
            program,
            started: false,
            // Under `--fail-fast` no case starts before the last one is judged.
            ahead: !fail_fast,
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
    /// Whether a case may start before the last one is judged.
    ahead: bool,
}

impl<R: RunsCases> pool::Executor for Job<'_, R> {
    type Task = usize;
    type Output = CaseResult;
    type Error = Fault;

    const LOOKAHEAD: bool = true;

    fn execute(&mut self, index: u64, case: usize) -> Result<CaseResult, Fault> {
        self.execute_then(index, case, None)
    }

    fn execute_then(
        &mut self,
        _index: u64,
        case: usize,
        next: Option<&usize>,
    ) -> Result<CaseResult, Fault> {
        if !self.started {
            self.worker.start()?;
            self.started = true;
        }
        let then = next.filter(|_| self.ahead).map(|&c| (self.program, c));
        self.worker.run_then(self.program, case, then)
    }
}

/// The real case runner: a worker box (started on the worker thread that uses it) whose
/// toolchain shows every program it may run, and the cases by number.
pub(crate) struct CaseWorker<'a> {
    programs: Vec<&'a Program>,
    cases: Vec<(&'a Case, &'a CaseText)>,
    plan: Plan<'a>,
    runner: Option<Runner>,
    /// A package's own output validator's worker, started with the runner.
    validator: Option<Validator<'a>>,
}

impl<'a> CaseWorker<'a> {
    /// The workers of `grader test`: `jobs` (at least one, at most one per case) for
    /// `program` on `cases`.
    pub(crate) fn for_test(
        jobs: usize,
        program: &'a Program,
        cases: &'a [SoundCase],
        plan: &Plan<'a>,
    ) -> Vec<CaseWorker<'a>> {
        let texts: Vec<_> = cases.iter().map(|c| (&c.case, &c.text)).collect();
        CaseWorker::many(jobs.clamp(1, cases.len().max(1)), &[program], &texts, plan)
    }

    /// `count` workers (at least one) for `programs` on `cases`.
    pub(crate) fn many(
        count: usize,
        programs: &[&'a Program],
        cases: &[(&'a Case, &'a CaseText)],
        plan: &Plan<'a>,
    ) -> Vec<CaseWorker<'a>> {
        sandbox::side_by_side(count.max(1));
        (0..count.max(1))
            .map(|_| CaseWorker {
                programs: programs.to_vec(),
                cases: cases.to_vec(),
                plan: *plan,
                runner: None,
                validator: None,
            })
            .collect()
    }
}

impl CaseWorker<'_> {
    /// Ends this worker's box on a thread of its own, once its cases are done (see
    /// `sandbox::retire`): the caller writes its report meanwhile.
    pub(crate) fn retire(mut self) {
        if let Some(runner) = self.runner.take() {
            runner.retire();
        }
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
        if let Checker::Package(judge) = self.plan.checker {
            // As the runner's: the old box goes first.
            self.validator = None;
            self.validator = judge.worker()?;
        }
        Ok(())
    }

    fn run(&mut self, program: &Program, case: usize) -> Result<CaseResult, Fault> {
        self.run_then(program, case, None)
    }

    fn run_then(
        &mut self,
        program: &Program,
        case: usize,
        then: Option<(&Program, usize)>,
    ) -> Result<CaseResult, Fault> {
        self.run_case(program, case, then, false)?
            .ok_or_else(|| Fault::internal("a run handed over unasked".to_owned()))
    }

    fn run_unless_asleep(
        &mut self,
        program: &Program,
        case: usize,
        then: Option<(&Program, usize)>,
    ) -> Result<Option<CaseResult>, Fault> {
        self.run_case(program, case, then, true)
    }
}

impl CaseWorker<'_> {
    /// Runs and judges `program` on case number `case`; `hand_over`: `None` for a first
    /// run that slept (`Runner::run_unless_asleep`).
    fn run_case(
        &mut self,
        program: &Program,
        case: usize,
        then: Option<(&Program, usize)>,
        hand_over: bool,
    ) -> Result<Option<CaseResult>, Fault> {
        // Stopping (Ctrl-C) ends the command before another run starts.
        crate::cli::interrupt::check()?;
        let (Some(runner), Some(&(case, text))) = (&mut self.runner, self.cases.get(case)) else {
            return Err(Fault::internal(format!(
                "case {case} run on a worker not started, or past the last case"
            )));
        };
        let then = then.and_then(|(program, c)| Some((program, self.cases.get(c)?.1)));
        run_case(
            (runner, self.validator.as_mut()),
            program,
            case,
            text,
            &self.plan,
            then,
            hand_over,
        )
    }
}

/// A case's input and answer, read once.
#[derive(Debug, Clone)]
pub(crate) struct CaseText {
    /// The input.
    pub(crate) input: Vec<u8>,
    /// The expected answer.
    pub(crate) answer: Vec<u8>,
    /// An interactive problem's sample exchange (`.interaction` beside the input).
    pub(crate) interaction: Option<String>,
}

impl CaseText {
    /// Reads `case`'s files.
    pub(crate) fn load(case: &Case) -> Result<CaseText, Fault> {
        let answer = answer_path(case)?;
        Ok(CaseText {
            input: files::read_capped(&case.input)?,
            answer: files::read_capped(answer)?,
            interaction: Board::interaction_beside(&case.input),
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
            interaction: self.interaction.clone(),
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
        Fault::input(format!(
            "{}: no answer file beside it (.ans or .out)",
            case.input.display()
        ))
    })
}

/// Runs `program` on `case` (whose files hold `text`) with `runner`, and judges it (a
/// package's own validator on `validator`); `then`, the worker's next run, may start as
/// this one ends. `hand_over`: a first run that slept is not made again, `None`
/// (`Runner::run_unless_asleep`; an interaction and a multi-pass problem's passes are
/// always judged in full).
pub(crate) fn run_case(
    (runner, validator): (&mut Runner, Option<&mut Validator<'_>>),
    program: &Program,
    case: &Case,
    text: &CaseText,
    plan: &Plan<'_>,
    then: Option<(&Program, &CaseText)>,
    hand_over: bool,
) -> Result<Option<CaseResult>, Fault> {
    if let Checker::Package(judge) = plan.checker
        && let Some(most) = judge.passes()
    {
        return passes_case((runner, validator), (judge, most), program, case, plan).map(Some);
    }
    if let Checker::Package(judge) = plan.checker
        && judge.interactive_problem()
    {
        return interact_case((runner, validator), judge, program, case, plan).map(Some);
    }
    let (input, answer) = (&text.input, &text.answer);
    // From memory, as read and found sound: the run reads what is judged, and no file is
    // opened and read again for every run.
    let then = then.map(|(program, text)| (program, Input::Bytes(text.input.clone())));
    let stdin = Input::Bytes(input.clone());
    let then = then.as_ref().map(|(program, input)| (*program, input));
    let ran = if hand_over {
        runner.run_unless_asleep(program, &stdin, &plan.limits, then)?
    } else {
        Some(runner.run_then(program, &stdin, &plan.limits, then)?)
    };
    let Some(ran) = ran else {
        return Ok(None);
    };
    let outcome = ran.outcome;
    let mut broken: Option<Fault> = None;
    let judgement = judge(&outcome, &plan.limits, |output| {
        let checked = match plan.checker {
            Checker::Builtin(problem) => {
                problem.check(input, Some(answer), output).map_err(|error| {
                    // Cases are found sound when loaded; one that breaks now was changed
                    // under us. Either way it is the data's fault, never this program's
                    // mark.
                    answer_path(case).map_or_else(
                        |fault| fault,
                        |path| sound::located(&error, &case.input, path).into(),
                    )
                })
            }
            // A validator that fails is the package's fault, never this program's mark.
            Checker::Package(judge) => answer_path(case).and_then(|path| {
                let files = CaseFiles {
                    name: &case.name,
                    origin: Origin::Data,
                    input: &case.input,
                    answer: path,
                    answer_text: answer,
                };
                judge.judge(files, output, validator)
            }),
        };
        checked.unwrap_or_else(|fault| {
            broken = Some(fault);
            reference::Judgement::wrong(String::new())
        })
    });
    if let Some(fault) = broken {
        return Err(fault);
    }
    // A wrong answer is explained from the whole output, before it is cut to an excerpt;
    // only a built-in problem's reference can.
    let explanation = match plan.checker {
        Checker::Builtin(problem) => {
            Explained::of_run(problem, judgement.verdict, input, &outcome.stdout)
        }
        Checker::Package(_) => None,
    };
    let mut output = outcome.stdout;
    output.truncate(OUTPUT_EXCERPT);
    let figures = Figures {
        cpu: outcome.cpu,
        wall: outcome.wall,
        memory_kib: outcome.peak_kib,
    };
    let mut result = CaseResult::new(&case.name, judgement, figures, output, outcome.stderr);
    result.explanation = explanation;
    result.stalls = ran
        .stalls
        .iter()
        .map(crate::run::judge::Sched::record)
        .collect();
    Ok(Some(result))
}

/// Runs `program` on `case` of an interactive problem against `judge`'s interactor, the
/// exchange kept: the case's output is what passed each way, as a `.interaction` file
/// shows it.
fn interact_case(
    (runner, validator): (&mut Runner, Option<&mut Validator<'_>>),
    judge: &PackageJudge,
    program: &Program,
    case: &Case,
    plan: &Plan<'_>,
) -> Result<CaseResult, Fault> {
    let validator =
        validator.ok_or_else(|| Fault::internal("no worker for the interactor".to_owned()))?;
    let answer = answer_path(case)?;
    let files = CaseFiles {
        name: &case.name,
        origin: Origin::Data,
        input: &case.input,
        answer,
        answer_text: &[],
    };
    let one = interaction::Case {
        name: &case.name,
        files: (&case.input, answer),
        flags: judge.flags(&files)?,
    };
    let ran = interaction::interact(
        (runner, validator),
        program,
        one,
        (&plan.limits, &plan.limits),
        true,
    )?;
    let figures = Figures {
        cpu: ran.submission.cpu,
        wall: ran.submission.wall,
        memory_kib: ran.submission.peak_kib,
    };
    let mut result = CaseResult::new(
        &case.name,
        ran.judgement,
        figures,
        Vec::new(),
        ran.submission.stderr,
    );
    result.interaction = ran.transcript.unwrap_or_default();
    result.stalls = ran
        .stalls
        .iter()
        .map(crate::run::judge::Sched::record)
        .collect();
    Ok(result)
}

/// Runs `program` on `case` of a multi-pass problem, pass after pass (`passes.rs`): the
/// case's output is the deciding pass's, an interactive problem's exchanges all its
/// passes'.
fn passes_case(
    (runner, validator): (&mut Runner, Option<&mut Validator<'_>>),
    (judge, most): (&PackageJudge, u32),
    program: &Program,
    case: &Case,
    plan: &Plan<'_>,
) -> Result<CaseResult, Fault> {
    let validator = validator
        .ok_or_else(|| Fault::internal("no worker for the output validator".to_owned()))?;
    let files = CaseFiles {
        name: &case.name,
        origin: Origin::Data,
        input: &case.input,
        answer: answer_path(case)?,
        answer_text: &[],
    };
    let passed = passes::case(
        (runner, validator),
        (judge, most),
        program,
        files,
        (&plan.limits, &plan.limits),
        true,
    )?;
    let figures = Figures {
        cpu: passed.outcome.cpu,
        wall: passed.outcome.wall,
        memory_kib: passed.outcome.peak_kib,
    };
    let mut output = passed.outcome.stdout;
    output.truncate(OUTPUT_EXCERPT);
    let mut result = CaseResult::new(
        &case.name,
        passed.judgement,
        figures,
        output,
        passed.outcome.stderr,
    );
    result.interaction = passed.transcript.unwrap_or_default();
    result.stalls = passed
        .stalls
        .iter()
        .map(crate::run::judge::Sched::record)
        .collect();
    Ok(result)
}

/// A case runner without processes: recorded verdicts, for the scheduling tests of
/// `grade` and `batch`.
#[cfg(test)]
pub(crate) mod fake {
    use std::collections::BTreeSet;
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use reference::Verdict;

    use super::RunsCases;
    use crate::cli::exit::Fault;
    use crate::results::case::CaseResult;

    /// What program `.0` gives on case `.1`: a verdict, or a run that cannot be made.
    pub(crate) type Answers = dyn Fn(&str, usize) -> Result<Verdict, Fault> + Sync;

    /// The cases the reporter has been told of, for a fake that waits for one: so that
    /// one case finishes after a later one by order, never by time.
    #[derive(Debug, Default)]
    pub(crate) struct Gate {
        done: Mutex<BTreeSet<usize>>,
        changed: Condvar,
    }

    impl Gate {
        /// The reporter was told of `case`.
        pub(crate) fn add(&self, case: usize) {
            self.done.lock().unwrap().insert(case);
            self.changed.notify_all();
        }

        fn wait_for(&self, case: usize) {
            let done = self.done.lock().unwrap();
            let (_done, waited) = self
                .changed
                .wait_timeout_while(done, Duration::from_mins(2), |d| !d.contains(&case))
                .unwrap();
            assert!(!waited.timed_out(), "case {case} never finished");
        }
    }

    /// Gives the recorded answers, and keeps what it ran.
    pub(crate) struct Recorded<'a> {
        answers: &'a Answers,
        /// Case `.0` waits until case `.1` has finished.
        waits: Option<(usize, usize, &'a Gate)>,
        /// Every run made, in order: (program, case).
        pub(crate) ran: Vec<(String, usize)>,
        /// How many times it was started.
        pub(crate) starts: usize,
    }

    impl<'a> Recorded<'a> {
        /// `count` fakes giving `answers`.
        pub(crate) fn many(count: usize, answers: &'a Answers) -> Vec<Recorded<'a>> {
            (0..count)
                .map(|_| Recorded {
                    answers,
                    waits: None,
                    ran: Vec::new(),
                    starts: 0,
                })
                .collect()
        }

        /// Case `case` waits, on whichever fake runs it, until `gate` has been told of
        /// `until`.
        pub(crate) fn waiting(
            count: usize,
            answers: &'a Answers,
            (case, until): (usize, usize),
            gate: &'a Gate,
        ) -> Vec<Recorded<'a>> {
            let mut fakes = Recorded::many(count, answers);
            for fake in &mut fakes {
                fake.waits = Some((case, until, gate));
            }
            fakes
        }
    }

    impl RunsCases for Recorded<'_> {
        type Program = String;

        fn start(&mut self) -> Result<(), Fault> {
            self.starts += 1;
            Ok(())
        }

        fn run(&mut self, program: &String, case: usize) -> Result<CaseResult, Fault> {
            if let Some((at, until, gate)) = self.waits
                && at == case
            {
                gate.wait_for(until);
            }
            self.ran.push((program.clone(), case));
            Ok(result(case, (self.answers)(program, case)?))
        }
    }

    /// A result of case `case` (named `00`, `01`…).
    pub(crate) fn result(case: usize, verdict: Verdict) -> CaseResult {
        CaseResult {
            name: format!("{case:02}"),
            verdict,
            cpu_ms: 1.0,
            wall_ms: 1.0,
            memory_kib: 100,
            message: String::new(),
            output: Vec::new(),
            stderr: Vec::new(),
            interaction: Vec::new(),
            explanation: None,
            stalls: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use reference::Verdict;

    use super::fake::{Gate, Recorded, result};
    use super::*;

    fn names(results: &[CaseResult]) -> Vec<&str> {
        results.iter().map(|r| r.name.as_str()).collect()
    }

    /// Every case `AC` but those in `wrong`.
    fn wrong_on(wrong: &'static [usize]) -> impl Fn(&str, usize) -> Result<Verdict, Fault> + Sync {
        move |_, case| {
            Ok(if wrong.contains(&case) {
                Verdict::WrongAnswer
            } else {
                Verdict::Accepted
            })
        }
    }

    #[test]
    fn results_come_back_in_name_order_whatever_order_they_finish() {
        let answers = wrong_on(&[]);
        let gate = Gate::default();
        // Case 0 finishes only after the reporter has been told of case 3.
        let mut fakes = Recorded::waiting(3, &answers, (0, 3), &gate);
        let mut told = Vec::new();
        let results = grade(&mut fakes, &"p".to_owned(), 5, false, |index, result| {
            told.push((index, result.name.clone()));
            gate.add(index);
        })
        .unwrap();
        assert_eq!(names(&results), ["00", "01", "02", "03", "04"]);
        // Told of each once, as they finished, with its own number.
        assert!(told.iter().all(|(i, name)| *name == format!("{i:02}")));
        let at = |case: usize| told.iter().position(|(i, _)| *i == case).unwrap();
        assert!(at(3) < at(0), "{told:?}");
        told.sort();
        assert_eq!(told.len(), 5);
        assert!(told.iter().enumerate().all(|(i, (n, _))| i == *n));
    }

    #[test]
    fn fail_fast_at_one_job_runs_exactly_up_to_the_first_failure() {
        let answers = wrong_on(&[2, 4]);
        let mut one = Recorded::many(1, &answers);
        let results = grade(&mut one, &"p".to_owned(), 6, true, |_, _| {}).unwrap();
        assert_eq!(names(&results), ["00", "01", "02"]);
        let ran: Vec<usize> = one[0].ran.iter().map(|r| r.1).collect();
        assert_eq!(ran, [0, 1, 2]);
        // Without it every case runs, the failures among them.
        let mut one = Recorded::many(1, &answers);
        let results = grade(&mut one, &"p".to_owned(), 6, false, |_, _| {}).unwrap();
        assert_eq!(names(&results), ["00", "01", "02", "03", "04", "05"]);
        assert_eq!(results[4].verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn fail_fast_with_many_workers_keeps_every_case_before_the_failure() {
        let answers = wrong_on(&[3]);
        let mut fakes = Recorded::many(3, &answers);
        let results = grade(&mut fakes, &"p".to_owned(), 40, true, |_, _| {}).unwrap();
        assert_eq!(names(&results)[..4], ["00", "01", "02", "03"]);
        // Only the cases already taken when case 3 failed ran past it: one per other
        // worker at most.
        assert!(results.len() <= 4 + 2, "{:?}", names(&results));
    }

    #[test]
    fn a_run_that_cannot_be_made_is_the_commands_error_and_stops_the_cases() {
        let answers = |_: &str, case: usize| {
            if case == 2 {
                Err(Fault::internal("no launcher".to_owned()))
            } else {
                Ok(Verdict::Accepted)
            }
        };
        let mut one = Recorded::many(1, &answers);
        let err = grade(&mut one, &"p".to_owned(), 6, false, |_, _| {}).unwrap_err();
        assert!(err.to_string().contains("no launcher"), "{err}");
        assert_eq!(one[0].ran.len(), 3, "nothing after the fault");
    }

    #[test]
    fn each_worker_starts_once_before_its_first_case_and_an_idle_one_never() {
        let answers = wrong_on(&[]);
        let mut fakes = Recorded::many(3, &answers);
        grade(&mut fakes, &"p".to_owned(), 1, false, |_, _| {}).unwrap();
        let starts: Vec<usize> = fakes.iter().map(|f| f.starts).collect();
        let ran: Vec<usize> = fakes.iter().map(|f| f.ran.len()).collect();
        assert_eq!(starts, ran, "started exactly the workers that ran");
        assert_eq!(ran.iter().sum::<usize>(), 1);
        assert_eq!(result(1, Verdict::Accepted).name, "01");
    }
}
