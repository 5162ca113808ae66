//! A package's part of `grader fuzz PKG` (a [`fuzz::Trial`] per worker): its generator
//! prints each run's input from a seed the run's number and the fuzz seed decide
//! (`format::generator`), its first accepted submission (the reference) answers it, and
//! its output validator judges the candidate's output against that answer. Every one of
//! them runs in the box: the generator under the package's validation limits, the
//! reference and the candidate under the run's. A generator or a reference that fails
//! is the package's fault (exit 2 naming it and the seed), never the candidate's mark.

use std::path::Path;
use std::sync::Arc;

use fuzz::differ::Drawn;
use fuzz::{Candidate as _, Failure, Observed, Trial};
use reference::{Judgement, Rng, Verdict};
use sandbox::{Input, Limits, Outcome};

use crate::cli::exit::Fault;
use crate::fuzzing::under_test::ProgramCandidate;
use crate::package::format::generator;
use crate::package::format::submissions;
use crate::package::programs::building::{build, build_entry};
use crate::package::programs::in_box::{Call, PackageProgram};
use crate::package::programs::interaction;
use crate::package::programs::output_judge::{CaseFiles, Origin, PackageJudge};
use crate::package::programs::output_validator::Validator;
use crate::run::runner::Runner;
use crate::submission::added::Added;
use crate::submission::{Options, Program};

/// How much of a failing output a finding keeps (as the fuzz crate keeps).
const OUTPUT_EXCERPT: usize = 4096;

/// The package's programs a fuzz run needs besides its judge, built.
#[derive(Debug)]
pub(crate) struct Programs {
    /// The generator, and its source as messages name it.
    generator: (Program, String),
    /// The reference: the first accepted submission that builds, and its name.
    reference: (Program, String),
}

impl Programs {
    /// Builds the generator and the reference of the package at `package`, the reference
    /// as a submission is, with the files `added` (its included files).
    pub(crate) fn build(
        package: &Path,
        options: &Options<'_>,
        added: Arc<Added>,
    ) -> Result<Programs, Fault> {
        let source = generator::source(package)?;
        let shown = shown(package, &source);
        let program = build(&source, options)?.map_err(|message| {
            Fault::input(format!(
                "{shown}: the generator does not compile: {message}"
            ))
        })?;
        let mut why = String::new();
        let for_submissions = options.clone().adding(added);
        for entry in submissions::load(package)?
            .entries
            .iter()
            .filter(|e| e.accepted())
        {
            match build_entry(entry, &for_submissions) {
                Ok(Ok(reference)) => {
                    return Ok(Programs {
                        generator: (program, shown),
                        reference: (reference, format!("submissions/{}", entry.name)),
                    });
                }
                Ok(Err(message)) => why = format!(" (submissions/{}: {message})", entry.name),
                Err(fault) => why = format!(" ({fault})"),
            }
        }
        Err(Fault::input(format!(
            "{}: no accepted submission builds here{}; fuzzing compares with one",
            package.join("submissions/accepted").display(),
            why.lines().next().unwrap_or_default()
        )))
    }
}

/// The candidate of a trial, as its problem runs it.
enum Tried<'a> {
    /// On its own: its output is judged after the run.
    Alone(ProgramCandidate<'a>),
    /// Against the package's interactor, on a worker of its own.
    Interacting(&'a Program, Runner),
}

/// A path of the package as messages name it: below the package's folder.
fn shown(package: &Path, path: &Path) -> String {
    path.strip_prefix(package)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One worker's trial: the candidate and the package's programs, each with its box.
pub(crate) struct PackageTrial<'a> {
    generator: PackageProgram<'a>,
    reference: (&'a Program, &'a str, Runner),
    candidate: Tried<'a>,
    judge: &'a PackageJudge,
    validator: Option<Validator<'a>>,
    limits: Limits,
}

impl<'a> PackageTrial<'a> {
    /// A trial of `candidate` under `limits`, the generator under `validation`.
    pub(crate) fn start(
        programs: &'a Programs,
        judge: &'a PackageJudge,
        candidate: &'a Program,
        (limits, validation): (Limits, Limits),
    ) -> Result<PackageTrial<'a>, Fault> {
        if judge.passes().is_some() {
            return Err(Fault::input(
                "fuzz does not run multi-pass problems: a finding could not be told from \
                 one input and one answer (docs/packages.md)"
                    .to_owned(),
            ));
        }
        let (generator, shown) = &programs.generator;
        let (reference, name) = &programs.reference;
        Ok(PackageTrial {
            generator: PackageProgram::start(generator, shown, validation)?,
            reference: (reference, name, Runner::start(&limits, [reference])?),
            candidate: if judge.interactive_problem() {
                Tried::Interacting(candidate, Runner::start(&limits, [candidate])?)
            } else {
                Tried::Alone(ProgramCandidate::start(candidate, limits)?)
            },
            judge,
            validator: judge.worker()?,
            limits,
        })
    }

    /// The reference's answer to `input`; its failure is the package's fault. An
    /// interactive problem's answer file is empty (the interactor is given one), once
    /// the reference is accepted against the interactor.
    pub(crate) fn answer(&mut self, input: &str) -> Result<String, Fault> {
        if self.judge.interactive_problem() {
            let (program, name, runner) = &mut self.reference;
            let judged = interact_on(
                (runner, self.validator.as_mut()),
                self.judge,
                program,
                input,
                &self.limits,
            )?
            .judgement;
            if judged.verdict != Verdict::Accepted {
                return Err(reference_failed(name, &judged, input));
            }
            return Ok(String::new());
        }
        let (program, name, runner) = &mut self.reference;
        let ran = runner.run(
            program,
            &Input::Bytes(input.as_bytes().to_vec()),
            &self.limits,
        )?;
        let judged =
            crate::run::judge::judge(&ran.outcome, &self.limits, |_| Judgement::accepted());
        if judged.verdict != Verdict::Accepted {
            return Err(reference_failed(name, &judged, input));
        }
        String::from_utf8(ran.outcome.stdout).map_err(|_| {
            Fault::input(format!(
                "{name}: the reference printed bytes that are not UTF-8 text"
            ))
        })
    }
}

impl Trial for PackageTrial<'_> {
    type Error = Fault;

    fn draw(&mut self, seed: u64, run: u64) -> Result<Drawn, Fault> {
        // Each run's own seed: one stream of the fuzz seed per run, so a run's input
        // depends only on the seed and its number, as a built-in problem's does.
        let own = Rng::with_stream(seed, run).next_u64() % 1_000_000_000;
        let (outcome, _) = self.generator.run(Call {
            files: &[],
            args: |_: &Path, _: &Path| vec![own.to_string()],
            stdin: Input::Bytes(Vec::new()),
            keep: &[],
        })?;
        let shown = self.generator.shown.clone();
        if let Some(how) = failed(&outcome) {
            return Err(Fault::input(format!(
                "{shown}: the generator {how} on seed {own}: the package's fault, not the submission's"
            )));
        }
        let input = String::from_utf8(outcome.stdout).map_err(|_| {
            Fault::input(format!(
                "{shown}: the generator printed bytes that are not UTF-8 text on seed {own}"
            ))
        })?;
        Ok(Drawn {
            kind: format!("{shown} {own}"),
            input,
        })
    }

    fn attempt(&mut self, input: &str) -> Result<Option<Failure>, Fault> {
        let candidate = match &mut self.candidate {
            Tried::Alone(candidate) => candidate,
            Tried::Interacting(program, runner) => {
                let ran = interact_on(
                    (runner, self.validator.as_mut()),
                    self.judge,
                    program,
                    input,
                    &self.limits,
                )?;
                if ran.judgement.verdict == Verdict::Accepted {
                    return Ok(None);
                }
                // A finding only when the reference passes on the same input.
                self.answer(input)?;
                let mut output = ran.transcript.unwrap_or_default();
                output.truncate(OUTPUT_EXCERPT);
                return Ok(Some(Failure {
                    verdict: ran.judgement.verdict,
                    message: ran.judgement.message,
                    output,
                }));
            }
        };
        let mut output = match candidate.run(input)? {
            Observed::Failed { verdict, message } => {
                return Ok(Some(Failure {
                    verdict,
                    message,
                    output: Vec::new(),
                }));
            }
            Observed::Output(output) => output,
        };
        let answer = self.answer(input)?;
        // The files a custom validator reads, beside each other for this run.
        let folder = crate::paths::temp::dir("fuzz-case")
            .map_err(|e| Fault::internal(format!("cannot make a run's folder: {e}")))?;
        let (input_path, answer_path) = (folder.path().join("in"), folder.path().join("ans"));
        crate::paths::files::write_atomic(&input_path, input.as_bytes())?;
        crate::paths::files::write_atomic(&answer_path, answer.as_bytes())?;
        let files = CaseFiles {
            name: "the generated input",
            origin: Origin::Generated,
            input: &input_path,
            answer: &answer_path,
            answer_text: answer.as_bytes(),
        };
        let judgement = self.judge.judge(files, &output, self.validator.as_mut())?;
        Ok((judgement.verdict != Verdict::Accepted).then(|| {
            output.truncate(OUTPUT_EXCERPT);
            Failure {
                verdict: judgement.verdict,
                message: judgement.message,
                output,
            }
        }))
    }
}

/// The fault of a reference that `judged` wrong on the generated `input`.
fn reference_failed(name: &str, judged: &Judgement, input: &str) -> Fault {
    Fault::input(format!(
        "{name}: the reference (an accepted submission) got {} ({}) on the generated input `{}`: the package's fault, not the submission's",
        judged.verdict,
        judged.message,
        reference::visible::escape(&input.as_bytes()[..input.len().min(200)])
    ))
}

/// `program` on the generated `input` against `judge`'s interactor, with an empty answer
/// file, the exchange kept.
fn interact_on(
    (runner, validator): (&mut Runner, Option<&mut Validator<'_>>),
    judge: &PackageJudge,
    program: &Program,
    input: &str,
    limits: &Limits,
) -> Result<interaction::Interacted, Fault> {
    let validator =
        validator.ok_or_else(|| Fault::internal("no worker for the interactor".to_owned()))?;
    let folder = crate::paths::temp::dir("fuzz-case")
        .map_err(|e| Fault::internal(format!("cannot make a run's folder: {e}")))?;
    let (input_path, answer_path) = (folder.path().join("in"), folder.path().join("ans"));
    crate::paths::files::write_atomic(&input_path, input.as_bytes())?;
    crate::paths::files::write_atomic(&answer_path, b"")?;
    let files = CaseFiles {
        name: "the generated input",
        origin: Origin::Generated,
        input: &input_path,
        answer: &answer_path,
        answer_text: b"",
    };
    let case = interaction::Case {
        name: files.name,
        files: (&input_path, &answer_path),
        flags: judge.flags(&files)?,
    };
    interaction::interact((runner, validator), program, case, (limits, limits), true)
}

/// How a generator's run went wrong, if it did: a limit, a signal, a status other than 0.
fn failed(outcome: &Outcome) -> Option<String> {
    if outcome.killed.is_some() {
        return Some("went over its limits".to_owned());
    }
    match (outcome.signal, outcome.code) {
        (None, Some(0)) => None,
        (Some(signal), _) => Some(format!(
            "was killed by {}",
            crate::run::judge::signal_name(signal)
        )),
        (None, code) => {
            let said = outcome.stderr.trim_ascii();
            Some(format!(
                "ended with {}{}",
                code.map_or_else(|| "no status".to_owned(), |c| format!("exit status {c}")),
                if said.is_empty() {
                    String::new()
                } else {
                    format!(", saying `{}`", reference::visible::escape(said))
                }
            ))
        }
    }
}
