//! One submission on every case: cases run on N workers (each with its own launcher), are
//! judged as they finish, and come back in name order however they ran.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// Worker threads.
    pub(crate) jobs: usize,
    /// Stop starting cases after the first that is not `AC`.
    pub(crate) fail_fast: bool,
}

/// Runs `program` on every case; results in name order (cases skipped by `fail_fast` are
/// left out). `done` is told of each case as it finishes, with its index in `cases`, on
/// the worker that ran it (so in the order they finish, not in name order). `Err` when a
/// run cannot be made at all (the launcher or an interpreter is missing): a fault of the
/// setup, not of the program.
pub(crate) fn grade(
    program: &Program,
    cases: &[SoundCase],
    plan: &Plan,
    done: &(dyn Fn(usize, &CaseResult) + Sync),
) -> Result<Vec<CaseResult>, Fault> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; cases.len()]);
    let failure: Mutex<Option<Fault>> = Mutex::new(None);
    let workers = plan.jobs.clamp(1, cases.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (next, stop, results, failure) = (&next, &stop, &results, &failure);
            scope.spawn(move || {
                let outcome = (|| -> Result<(), Fault> {
                    let mut runner = Runner::start(&plan.limits, [program])?;
                    loop {
                        crate::interrupt::check()?;
                        if stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(SoundCase { case, text }) = cases.get(index) else {
                            return Ok(());
                        };
                        let result = run_case(&mut runner, program, case, text, plan)?;
                        if plan.fail_fast && !result.accepted() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        done(index, &result);
                        results.lock().expect("not poisoned")[index] = Some(result);
                    }
                })();
                if let Err(fault) = outcome {
                    stop.store(true, Ordering::Relaxed);
                    failure.lock().expect("not poisoned").get_or_insert(fault);
                }
            });
        }
    });
    if let Some(fault) = failure.into_inner().expect("not poisoned") {
        return Err(fault);
    }
    let results = results.into_inner().expect("not poisoned");
    Ok(results.into_iter().flatten().collect())
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
