//! A package's own output validator, run in the box like any program of the grader:
//! `VALIDATOR INPUT ANSWER FEEDBACK_DIR [flags] < OUTPUT`, exit 42 accepted, 43 wrong
//! answer, its reason in `FEEDBACK_DIR/judgemessage.txt`, under the package's
//! `validation_time`, `validation_memory` and `validation_output`. Any other ending (a
//! crash, another exit status, a limit) is the package's fault, never a submission's mark.

use std::path::{Path, PathBuf};

use reference::{Judgement, Verdict};
use sandbox::{Input, Limits};

use crate::cli::exit::Fault;
use crate::package::programs::building::build;
use crate::package::programs::in_box::{Call, FEEDBACK_CAP, PackageProgram, feedback_text};
use crate::paths::files::READ_CAP;
use crate::paths::folders::visible_entries;
use crate::submission::{Options, Program};

/// The names a run of the validator finds the case's files by, beside its own files.
const INPUT: &str = "testcase.in";
const ANSWER: &str = "testcase.ans";
/// The feedback file read back after a run.
const JUDGE_MESSAGE: &str = "judgemessage.txt";
/// The file a multi-pass problem's validator leaves, as it accepts a pass, to ask for
/// another: the next pass's input.
const NEXT_PASS: &str = "nextpass.in";
/// The files by which a validator scores a case (2025-09), which the grader does not read:
/// one left is warned of, once.
const SCORES: [&str; 2] = ["score.txt", "score_multiplier.txt"];
/// What a run leaves that is read back: its message, the next pass's input (no larger
/// than a case's input may be, and a byte more to tell it was larger), and whether it
/// left a score (a byte of each tells).
const KEPT: [(&str, u64); 4] = [
    (JUDGE_MESSAGE, FEEDBACK_CAP),
    (NEXT_PASS, READ_CAP + 1),
    (SCORES[0], 1),
    (SCORES[1], 1),
];

/// What a validator's run left in its feedback folder.
#[derive(Debug, Default)]
struct Feedback {
    /// Its `judgemessage.txt`, as text (empty when it left none).
    message: String,
    /// Its `nextpass.in`, if it left one.
    next_pass: Option<Vec<u8>>,
}

/// Where the package's output validator is: the one folder (or file) in
/// `output_validators/` (legacy), or `output_validator/` (2023-07) itself; a folder is
/// read as one program (`sources`).
pub(crate) fn source(package: &Path) -> Result<PathBuf, Fault> {
    let modern = package.join("output_validator");
    // A 2023-07 package's `output_validator` that is no folder was refused as its
    // config was read; in a legacy one, only a folder there is one.
    if modern.is_dir() {
        // The draft of 2023-07 (problemtools' `guess`) put the one validator in a
        // folder of its own there, as the legacy `output_validators/NAME/`.
        return Ok(only_folder(&modern)?.unwrap_or(modern));
    }
    let dir = package.join("output_validators");
    if !crate::paths::files::folder_if_any(&dir)? {
        return Err(Fault::input(format!(
            "{}: `validation: custom` (or an interactive problem, whose interactor it is, or \
             a multi-pass problem, whose validator it is) but no output_validators/ or \
             output_validator/ folder",
            package.join("problem.yaml").display()
        )));
    }
    let entries = visible_entries(&dir)?;
    match entries.as_slice() {
        [] => Err(Fault::input(format!(
            "{}: no output validator in it (`validation: custom` and an interactive problem \
             ask for one)",
            dir.display()
        ))),
        [one] if one.is_dir() => Ok(one.clone()),
        // Files right in the folder: they are the one program.
        _ if entries.iter().all(|p| p.is_file()) => Ok(dir),
        _ => Err(Fault::input(format!(
            "{}: several output validators; the format allows one",
            dir.display()
        ))),
    }
}

/// The one folder `dir` holds when it holds nothing else (hidden files aside).
fn only_folder(dir: &Path) -> Result<Option<PathBuf>, Fault> {
    let entries = visible_entries(dir)?;
    Ok(match entries.as_slice() {
        [one] if one.is_dir() => Some(one.clone()),
        _ => None,
    })
}

/// The output validator, with a worker to run it.
pub(crate) struct Validator<'p>(PackageProgram<'p>);

impl<'p> Validator<'p> {
    /// A worker for `program` (built from `shown`) under `limits`.
    pub(crate) fn start(program: &'p Program, shown: &str, limits: Limits) -> Result<Self, Fault> {
        PackageProgram::start(program, shown, limits).map(Validator)
    }

    /// Judges `output` for the case of `input` and `answer` (named `case`), with `flags`.
    pub(crate) fn judge(
        &mut self,
        case: &str,
        files: (&Path, &Path),
        flags: &[String],
        output: &[u8],
    ) -> Result<Judgement, Fault> {
        self.judge_pass(case, files, flags, output)
            .map(|(judgement, _)| judgement)
    }

    /// Judges `output` as [`Validator::judge`] does, with the input of a multi-pass
    /// problem's next pass if the validator left one (`nextpass.in`, at most
    /// [`READ_CAP`]).
    pub(crate) fn judge_pass(
        &mut self,
        case: &str,
        (input, answer): (&Path, &Path),
        flags: &[String],
        output: &[u8],
    ) -> Result<(Judgement, Option<Vec<u8>>), Fault> {
        let (outcome, feedback) =
            self.run((input, answer), flags, Input::Bytes(output.to_vec()))?;
        if let Some(fault) = self.0.fault(&outcome, case, "output validator") {
            return Err(fault);
        }
        if feedback
            .next_pass
            .as_ref()
            .is_some_and(|next| next.len() as u64 > READ_CAP)
        {
            return Err(Fault::input(format!(
                "{}: the output validator's {NEXT_PASS} on {case} is larger than {} MiB: \
                 the package's fault, not the submission's",
                self.0.shown,
                READ_CAP >> 20
            )));
        }
        let message = feedback.message;
        let judgement = if outcome.code == Some(42) {
            Judgement {
                verdict: Verdict::Accepted,
                message: String::new(),
            }
        } else {
            Judgement {
                verdict: Verdict::WrongAnswer,
                message: if message.is_empty() {
                    "the output validator rejected it".to_owned()
                } else {
                    reference::visible::escape(message.lines().next().unwrap_or("").as_bytes())
                },
            }
        };
        Ok((judgement, feedback.next_pass))
    }
}

impl Validator<'_> {
    /// One run as the format calls it, `VALIDATOR INPUT ANSWER FEEDBACK_DIR [flags]`,
    /// reading `stdin`: its outcome, and what it left in its feedback folder.
    fn run(
        &mut self,
        (input, answer): (&Path, &Path),
        flags: &[String],
        stdin: Input,
    ) -> Result<(sandbox::Outcome, Feedback), Fault> {
        let (outcome, kept) = self.0.run(Call {
            files: &[(INPUT, input), (ANSWER, answer)],
            args: |files: &Path, work: &Path| {
                let mut args = vec![
                    files.join(INPUT).to_string_lossy().into_owned(),
                    files.join(ANSWER).to_string_lossy().into_owned(),
                    // The feedback folder is its working folder, emptied for every run.
                    format!("{}/", work.display()),
                ];
                args.extend(flags.iter().cloned());
                args
            },
            stdin,
            keep: &KEPT,
        })?;
        let mut kept = kept.into_iter();
        let feedback = Feedback {
            message: feedback_text(kept.next().flatten().as_ref()),
            next_pass: kept.next().flatten(),
        };
        for (name, left) in SCORES.iter().zip(kept) {
            if left.is_some() {
                crate::package::format::config::warn_once(&format!(
                    "grader: warning: the output validator left {name}, which is not read: \
                     a case scores its group's share (docs/packages.md)"
                ));
            }
        }
        Ok((outcome, feedback))
    }

    /// Runs it as an interactive problem's interactor on the case of `input` and
    /// `answer`, joined to a submission by `joined`: its outcome, the last line of its
    /// `judgemessage.txt` (shown safely; empty when it left none): an interactor logs the
    /// exchange as it goes (`I'm thinking of 500`, `Guess 1 is 250`), and the line it
    /// wrote as it gave up is why; and the input of a multi-pass problem's next pass, if
    /// it left one.
    pub(crate) fn interact(
        &mut self,
        (input, answer): (&Path, &Path),
        flags: &[String],
        joined: sandbox::Joined,
    ) -> Result<(sandbox::Outcome, String, Option<Vec<u8>>), Fault> {
        let (outcome, feedback) = self.run((input, answer), flags, Input::Joined(joined))?;
        let line = feedback
            .message
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        let line = reference::visible::escape(line.as_bytes());
        Ok((outcome, line, feedback.next_pass))
    }

    /// The fault of an interactor's run that ended neither with 42 nor 43, or over a
    /// limit, on the case `case`.
    pub(crate) fn interactor_fault(&self, outcome: &sandbox::Outcome, case: &str) -> Fault {
        self.0
            .fault(outcome, case, "interactor")
            .unwrap_or_else(|| Fault::internal(format!("{case}: the interactor did not fail")))
    }
}

/// The package's output validator, built, and its source as messages name it.
pub(in crate::package) fn built(
    package: &Path,
    options: &Options<'_>,
) -> Result<(Program, String), Fault> {
    let source = source(package)?;
    let program = build(&source, options)?.map_err(|message| {
        Fault::input(format!(
            "{}: the output validator does not compile: {message}",
            source.display()
        ))
    })?;
    Ok((program, source.display().to_string()))
}
