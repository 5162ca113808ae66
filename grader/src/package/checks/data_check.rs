//! The test data of a package checked by its own programs before any submission runs:
//! every input through every input validator, every answer through every answer
//! validator, and with a custom output validator, every answer through it as an output
//! (a right answer must be accepted); in the box, `--jobs`
//! runs at once. An input or answer refused is a fault of the data (exit 1, each named);
//! a validator that crashes, or ends with neither 42 nor 43, is the package's fault
//! (exit 2).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use sandbox::Limits;

use crate::cli::exit::Fault;
use crate::package::format::config::Config;
use crate::package::format::data::TestCase;
use crate::package::programs::answer_validators::{self, AnswerValidator};
use crate::package::programs::building::Setup;
use crate::package::programs::building::{build, first_line, joined};
use crate::package::programs::checktestdata;
use crate::package::programs::in_box;
use crate::package::programs::input_validators::{self, InputValidator, Protocol};
use crate::package::programs::output_judge::PackageJudge;
use crate::package::programs::output_validator::{self, Validator};
use crate::submission::Program;
use sandbox::Locked as _;

/// What the input validators found.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// The input validators that ran on every input.
    pub(crate) ran: Vec<String>,
    /// `data/CASE.in: rejected by VALIDATOR: why`, in the cases' order, then
    /// `data/CASE.ans: ...` for answers the output validator refused.
    pub(crate) faults: Vec<String>,
    /// The validators that were not run, and why (`VALIDATOR: not run: why`).
    pub(crate) skipped: Vec<String>,
    /// Whether the answers went through the package's output validator.
    pub(crate) answers: bool,
    /// The answers outside `sample/` that the output validator does not accept as
    /// outputs (`data/CASE.ans: ...`): said, not faults. Only an answer the statement
    /// shows must be an output (2025-09's "Validation of shared test case files";
    /// problemtools warns of the others); another may be what the validator reads to
    /// judge, in a form of its own.
    pub(crate) not_outputs: Vec<String>,
    /// The answer validators that ran on every answer.
    pub(crate) answer_validators: Vec<String>,
    /// How many of 2023-07's invalid inputs (`data/invalid_input/`) went through the
    /// input validators (each refused by one, or listed in `faults`).
    pub(crate) invalid_inputs: usize,
}

/// The data of the package at `package` checked by its validators, as `verify` checks it
/// before running submissions (`grader cases check PKG`): how many cases, and what the
/// validators found.
pub(crate) fn package(
    package: &std::path::Path,
    setup: &Setup<'_>,
) -> Result<(usize, Checked), Fault> {
    let config = crate::package::format::config::load(package)?;
    let cases = crate::package::format::data::load(package, &config.constants)?;
    let (checked, _) = checked_and_judge(package, &config, &cases, setup)?;
    Ok((cases.len(), checked))
}

/// `cases` of the package at `package` checked by its validators ([`check`], and
/// [`answers`] through a custom output validator), and the judge of its outputs, built:
/// what `verify` reports, `cases check` lists, and `test`, `batch` and `fuzz` refuse.
pub(crate) fn checked_and_judge(
    package: &std::path::Path,
    config: &Config,
    cases: &[TestCase],
    setup: &Setup<'_>,
) -> Result<(Checked, PackageJudge), Fault> {
    let limits = in_box::validation_limits(config, &setup.limits);
    let mut checked = check(package, cases, setup, limits)?;
    // An interactive problem's judge is its own validator too (`custom_validator`).
    let judge = if config.custom_validator {
        let (program, shown) = output_validator::built(package, &setup.options)?;
        // An interactive problem's answers are the interactor's to read, and a multi-pass
        // problem's what its validator reads beside each pass's output: neither is an
        // output of one run, to be judged as one.
        if !config.interactive && !config.multi_pass {
            let refused = answers(
                cases,
                (&program, &shown, &config.validator_flags),
                limits,
                setup.jobs,
            )?;
            let (samples, others): (Vec<String>, Vec<String>) = refused
                .into_iter()
                .partition(|why| why.starts_with("data/sample/"));
            checked.faults.extend(samples);
            checked.not_outputs = others;
            checked.answers = true;
        }
        PackageJudge::own(config, cases, (program, shown), limits)
    } else {
        PackageJudge::default(package, config, cases)?
    };
    Ok((checked, judge))
}

/// What a validator of the data checks, and how it says so.
#[derive(Debug, Clone, Copy)]
enum Role {
    /// An input validator (`input_validators/`), saying by `Protocol`.
    Input(Protocol),
    /// An answer validator (`answer_validators/`), saying by `Protocol`.
    Answer(Protocol),
}

/// A validator of the data with a worker to run it.
enum Running<'p> {
    Input(InputValidator<'p>),
    Answer(AnswerValidator<'p>),
}

/// A validator of the data, built: its name, its program and its role.
type Built = (String, Program, Role);

/// Runs the input validators of `package` on every input of `cases`, and its answer
/// validators on every answer, each run under `limits`.
pub(crate) fn check(
    package: &std::path::Path,
    cases: &[TestCase],
    setup: &Setup<'_>,
    limits: Limits,
) -> Result<Checked, Fault> {
    let mut checked = Checked::default();
    let programs = built_validators(package, setup, &mut checked.skipped)?;
    let runs = programs.len() * cases.len();
    checked.faults = in_parallel(
        (setup.jobs, runs),
        || Ok(not_started(&programs)),
        |started, run| {
            let (which, case) = (run / cases.len(), &cases[run % cases.len()]);
            let name = &programs[which].0;
            let validator = running(started, (&programs, which), limits)?;
            let case_name = &case.case.name;
            Ok(match validator {
                Running::Input(validator) => validator
                    .check(case_name, &case.case.input, case.input_flags_for(name))?
                    .map(|why| format!("data/{case_name}.in: {why}")),
                Running::Answer(validator) => validator
                    .check(
                        case_name,
                        (&case.case.input, &case.answer),
                        &case.answer_flags,
                    )?
                    .map(|why| format!("data/{case_name}.ans: {why}")),
            })
        },
        // In the cases' order, whichever validator refused.
        |run| run % cases.len(),
    )?;
    let constants = crate::package::format::constants::Constants::of(&setup.options.replaced);
    let invalid = crate::package::format::data::invalid_inputs(package, &constants)?;
    if programs
        .iter()
        .any(|(_, _, role)| matches!(role, Role::Input(_)))
    {
        checked
            .faults
            .extend(accepted_invalid(&invalid, &programs, setup.jobs, limits)?);
        checked.invalid_inputs = invalid.len();
    }
    for (name, _, role) in &programs {
        match role {
            Role::Input(_) => checked.ran.push(name.clone()),
            Role::Answer(_) => checked.answer_validators.push(name.clone()),
        }
    }
    Ok(checked)
}

/// The input and answer validators of `package`, built; those that cannot be are noted
/// in `skipped` with why (a compile error is the package's fault).
fn built_validators(
    package: &std::path::Path,
    setup: &Setup<'_>,
    skipped: &mut Vec<String>,
) -> Result<Vec<Built>, Fault> {
    let mut programs = Vec::new();
    let found = input_validators::find(package)?
        .into_iter()
        .map(|f| (f, true))
        .chain(
            answer_validators::find(package)?
                .into_iter()
                .map(|f| (f, false)),
        );
    for ((name, source), input) in found {
        let (built, protocol) = if checktestdata::is_script(&source) {
            (
                checktestdata::built(&source, &setup.options),
                Protocol::Checktestdata,
            )
        } else {
            // A folder that is no program (its language cannot be told, a folder inside
            // it) is the package's to fix, whatever this machine has: exit 2, where a
            // validator this machine cannot build is passed over, said.
            if source.is_dir() {
                crate::submission::folder::read(&source, setup.options.languages)?;
            }
            (build(&source, &setup.options), Protocol::Format)
        };
        let role = if input {
            Role::Input(protocol)
        } else {
            Role::Answer(protocol)
        };
        match built {
            Ok(Ok(program)) => programs.push((name, program, role)),
            Ok(Err(message)) => {
                return Err(Fault::input(format!(
                    "{}: the {} validator does not compile: {}",
                    source.display(),
                    if input { "input" } else { "answer" },
                    first_line(&message)
                )));
            }
            Err(fault) if fault.cause().users_to_fix() => {
                // The line names the validator: its path need not lead the reason.
                let why = first_line(fault.message());
                let why = why
                    .strip_prefix(&format!("{}: ", source.display()))
                    .unwrap_or(why);
                skipped.push(format!("{name}: not run: {why}"));
            }
            Err(fault) => return Err(fault),
        }
    }
    Ok(programs)
}

/// A worker slot for each of `programs`, none started: a thread starts one when it first
/// needs it.
fn not_started(programs: &[Built]) -> Vec<Option<Running<'_>>> {
    programs.iter().map(|_| None).collect()
}

/// 2023-07's invalid inputs (`invalid`) run through the input validators of `programs`:
/// the faults of those that every one of them accepts (each must be refused by one).
fn accepted_invalid(
    invalid: &[TestCase],
    programs: &[Built],
    jobs: usize,
    limits: Limits,
) -> Result<Vec<String>, Fault> {
    let inputs: Vec<usize> = (0..programs.len())
        .filter(|&which| matches!(programs[which].2, Role::Input(_)))
        .collect();
    let refused = in_parallel(
        (jobs, inputs.len() * invalid.len()),
        || Ok(not_started(programs)),
        |started, run| {
            let (which, case) = (inputs[run / invalid.len()], &invalid[run % invalid.len()]);
            let name = &programs[which].0;
            let Running::Input(validator) = running(started, (programs, which), limits)? else {
                unreachable!("an input validator");
            };
            let why = validator.check(
                &case.case.name,
                &case.case.input,
                case.input_flags_for(name),
            )?;
            Ok(why.map(|_| case.case.name.clone()))
        },
        |run| run % invalid.len(),
    )?;
    Ok(invalid
        .iter()
        .filter(|case| !refused.contains(&case.case.name))
        .map(|case| {
            format!(
                "data/{}.in: accepted by every input validator, but an invalid input \
                 (data/invalid_input/) must be refused by one",
                case.case.name
            )
        })
        .collect())
}

/// The worker of the validator `which` of `programs`, started in `started` when it is
/// not yet, under `limits`.
fn running<'a, 'p>(
    started: &'a mut [Option<Running<'p>>],
    (programs, which): (&'p [Built], usize),
    limits: Limits,
) -> Result<&'a mut Running<'p>, Fault> {
    let (name, program, role) = &programs[which];
    let slot = &mut started[which];
    if slot.is_none() {
        *slot = Some(match role {
            Role::Input(protocol) => {
                Running::Input(InputValidator::start((program, *protocol), name, limits)?)
            }
            Role::Answer(protocol) => {
                Running::Answer(AnswerValidator::start((program, *protocol), name, limits)?)
            }
        });
    }
    Ok(slot.as_mut().expect("just started"))
}

/// Every answer of `cases` through the output `program` (built from `shown`) as if a
/// submission had printed it, with `flags`: the faults of those it does not accept.
pub(crate) fn answers(
    cases: &[TestCase],
    (program, shown, flags): (&Program, &str, &[String]),
    limits: Limits,
    jobs: usize,
) -> Result<Vec<String>, Fault> {
    in_parallel(
        (jobs, cases.len()),
        || Validator::start(program, shown, limits),
        |validator, run| {
            let test = &cases[run];
            let answer = crate::paths::files::read_capped(&test.answer)?;
            let flags = [flags, test.flags.as_slice()].concat();
            let name = &test.case.name;
            let judged =
                validator.judge(name, (&test.case.input, &test.answer), &flags, &answer)?;
            Ok((judged.verdict != reference::Verdict::Accepted).then(|| {
                format!(
                    "data/{name}.ans: the output validator does not accept it as an output: {}",
                    judged.message
                )
            }))
        },
        // By their text.
        |_| 0,
    )
}

/// Runs `each` on the runs `0..runs`, `jobs` at once, each thread with its own state made
/// by `start`: what the runs found, sorted by `order` of their run, then by text. A fault
/// of the package ends the work, and the earliest run's is the one returned
/// ([`Earliest`]).
fn in_parallel<S>(
    (jobs, runs): (usize, usize),
    start: impl Fn() -> Result<S, Fault> + Sync,
    each: impl Fn(&mut S, usize) -> Result<Option<String>, Fault> + Sync,
    order: impl Fn(usize) -> usize,
) -> Result<Vec<String>, Fault> {
    let next = AtomicUsize::new(0);
    let earliest = Earliest::default();
    let found = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.clamp(1, runs.max(1)))
            .map(|_| {
                scope.spawn(|| -> Result<(), Fault> {
                    let mut state = start()?;
                    loop {
                        let run = next.fetch_add(1, Ordering::Relaxed);
                        if run >= runs || earliest.stopped() {
                            return Ok(());
                        }
                        if let Some(why) = earliest.unless_fault(run, each(&mut state, run))? {
                            found.locked().push((run, why));
                        }
                    }
                })
            })
            .collect();
        joined(workers)
    })?;
    earliest.into_result()?;
    let mut found: Vec<(usize, String)> = found
        .into_value()
        .into_iter()
        .map(|(run, why)| (order(run), why))
        .collect();
    found.sort();
    Ok(found.into_iter().map(|(_, why)| why).collect())
}

/// The fault of the earliest run that met one. Runs are handed out in order, so when one
/// meets a fault every earlier run has started; once they end, the earliest fault noted
/// is the one a run in order would have met first: the message does not depend on which
/// thread got there first.
#[derive(Default)]
struct Earliest {
    fault: Mutex<Option<(usize, Fault)>>,
    stop: AtomicBool,
}

impl Earliest {
    /// Whether no new run should start.
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// What run `run` found, or `None` after noting its fault. Faults that are not the
    /// package's (an interruption, a machine that fails) end the work at once.
    fn unless_fault<T>(
        &self,
        run: usize,
        found: Result<Option<T>, Fault>,
    ) -> Result<Option<T>, Fault> {
        match found {
            Ok(found) => Ok(found),
            Err(fault) if fault.cause().users_to_fix() => {
                self.stop.store(true, Ordering::Relaxed);
                let mut noted = self.fault.locked();
                if noted.as_ref().is_none_or(|(earlier, _)| run < *earlier) {
                    *noted = Some((run, fault));
                }
                Ok(None)
            }
            Err(fault) => Err(fault),
        }
    }

    /// The earliest fault noted, if any.
    fn into_result(self) -> Result<(), Fault> {
        match self.fault.into_value() {
            Some((_, fault)) => Err(fault),
            None => Ok(()),
        }
    }
}
