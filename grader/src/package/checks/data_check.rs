//! The test data of a package checked by its own programs before any submission runs:
//! every input through every input validator, and with a custom output validator, every
//! answer through it as an output (a right answer must be accepted); in the box, `--jobs`
//! runs at once. An input or answer refused is a fault of the data (exit 1, each named);
//! a validator that crashes, or ends with neither 42 nor 43, is the package's fault
//! (exit 2).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use sandbox::Limits;

use crate::cli::exit::Fault;
use crate::package::format::config::Config;
use crate::package::format::data::TestCase;
use crate::package::programs::building::Setup;
use crate::package::programs::building::{build, first_line, joined};
use crate::package::programs::in_box;
use crate::package::programs::input_validators::{self, InputValidator};
use crate::package::programs::output_judge::PackageJudge;
use crate::package::programs::output_validator::{self, Validator};
use crate::submission::Program;
use sandbox::Locked as _;

/// What the input validators found.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// The validators that ran on every input.
    pub(crate) ran: Vec<String>,
    /// `data/CASE.in: rejected by VALIDATOR: why`, in the cases' order, then
    /// `data/CASE.ans: ...` for answers the output validator refused.
    pub(crate) faults: Vec<String>,
    /// The validators that were not run, and why (`VALIDATOR: not run: why`).
    pub(crate) skipped: Vec<String>,
    /// Whether the answers went through the package's output validator.
    pub(crate) answers: bool,
}

/// The data of the package at `package` checked by its validators, as `verify` checks it
/// before running submissions (`grader cases check PKG`): how many cases, and what the
/// validators found.
pub(crate) fn package(
    package: &std::path::Path,
    setup: &Setup<'_>,
) -> Result<(usize, Checked), Fault> {
    let config = crate::package::format::config::load(package)?;
    let cases = crate::package::format::data::load(package)?;
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
    let judge = if config.interactive {
        // The answers are the interactor's to read, not outputs to judge.
        let (program, shown) = output_validator::built(package, &setup.options)?;
        PackageJudge::interactive(config, cases, (program, shown), limits)
    } else if config.custom_validator {
        let (program, shown) = output_validator::built(package, &setup.options)?;
        checked.faults.extend(answers(
            cases,
            (&program, &shown, &config.validator_flags),
            limits,
            setup.jobs,
        )?);
        checked.answers = true;
        PackageJudge::custom(config, cases, (program, shown), limits)
    } else {
        PackageJudge::default(package, config, cases)?
    };
    Ok((checked, judge))
}

/// Runs the input validators of `package` on every input of `cases`, each run under
/// `limits`.
pub(crate) fn check(
    package: &std::path::Path,
    cases: &[TestCase],
    setup: &Setup<'_>,
    limits: Limits,
) -> Result<Checked, Fault> {
    let mut checked = Checked::default();
    let mut programs: Vec<(String, Program)> = Vec::new();
    for (name, source) in input_validators::find(package)? {
        let source = match source {
            Ok(source) => source,
            Err(why) => {
                checked.skipped.push(format!("{name}: not run: {why}"));
                continue;
            }
        };
        match build(&source, &setup.options) {
            Ok(Ok(program)) => programs.push((name, program)),
            Ok(Err(message)) => {
                return Err(Fault::input(format!(
                    "{}: the input validator does not compile: {}",
                    source.display(),
                    first_line(&message)
                )));
            }
            Err(fault) if fault.cause().users_to_fix() => {
                // The line names the validator: its path need not lead the reason.
                let why = first_line(fault.message());
                let why = why
                    .strip_prefix(&format!("{}: ", source.display()))
                    .unwrap_or(why);
                checked.skipped.push(format!("{name}: not run: {why}"));
            }
            Err(fault) => return Err(fault),
        }
    }
    let runs = programs.len() * cases.len();
    checked.faults = in_parallel(
        (setup.jobs, runs),
        // Each thread starts a worker for a validator when it first needs one.
        || {
            Ok(programs
                .iter()
                .map(|_| None)
                .collect::<Vec<Option<InputValidator<'_>>>>())
        },
        |started, run| {
            let (which, case) = (run / cases.len(), &cases[run % cases.len()]);
            let (name, program) = &programs[which];
            let validator = match &mut started[which] {
                Some(validator) => validator,
                slot => slot.insert(InputValidator::start(program, name, limits)?),
            };
            let name = &case.case.name;
            let why = validator.check(name, &case.case.input, &case.input_flags)?;
            Ok(why.map(|why| format!("data/{name}.in: {why}")))
        },
        // In the cases' order, whichever validator refused.
        |run| run % cases.len(),
    )?;
    checked.ran = programs.into_iter().map(|(name, _)| name).collect();
    Ok(checked)
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
