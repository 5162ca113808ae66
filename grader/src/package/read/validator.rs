//! A package's own output validator, run in the box like any program of the grader:
//! `VALIDATOR INPUT ANSWER FEEDBACK_DIR [flags] < OUTPUT`, exit 42 accepted, 43 wrong
//! answer, its reason in `FEEDBACK_DIR/judgemessage.txt`, under the package's
//! `validation_time`, `validation_memory` and `validation_output`. Any other ending (a
//! crash, another exit status, a limit) is the package's fault, never a submission's mark.

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use reference::{Judgement, Verdict};

use crate::exec::{self, Input, Job, Limits, Stderr, Worker};
use crate::status::Fault;
use crate::submission::{PATH, Program};

/// The names a run of the validator finds the case's files by, beside its own files.
const INPUT: &str = "testcase.in";
const ANSWER: &str = "testcase.ans";
/// The feedback file read back after a run.
const JUDGE_MESSAGE: &str = "judgemessage.txt";

/// The source of the package's output validator: the one program of
/// `output_validators/` (legacy: a folder per validator) or `output_validator/` (2023-07).
pub(crate) fn source(package: &Path) -> Result<PathBuf, Fault> {
    for top in ["output_validators", "output_validator"] {
        let dir = package.join(top);
        if !dir.is_dir() {
            continue;
        }
        let mut sources = Vec::new();
        collect(&dir, &mut sources)?;
        return match sources.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(Fault::Usage(format!(
                "{}: no output validator in it (`validation: custom` asks for one)",
                dir.display()
            ))),
            _ => Err(Fault::Usage(format!(
                "{}: an output validator of several files is not supported yet ({} files)",
                dir.display(),
                sources.len()
            ))),
        };
    }
    Err(Fault::Usage(format!(
        "{}: `validation: custom` but no output_validators/ folder",
        package.join("problem.yaml").display()
    )))
}

/// The files below `dir` (a validator's folder holds its program's files).
fn collect(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), Fault> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| crate::files::cannot(dir, "list", &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .starts_with('.')
        })
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, into)?;
        } else {
            into.push(path);
        }
    }
    Ok(())
}

/// A worker that runs the output validator, with its limits.
pub(crate) struct Validator<'p> {
    program: &'p Program,
    /// Where it came from, for messages.
    shown: String,
    worker: Worker,
    limits: Limits,
}

impl<'p> Validator<'p> {
    /// A worker for `program` (built from `shown`) under `limits`.
    pub(crate) fn start(program: &'p Program, shown: &str, limits: Limits) -> Result<Self, Fault> {
        let config = exec::Config {
            tier: limits.sandbox,
            memory: limits.memory,
            toolchain: program.toolchain.clone(),
            headers: None,
        };
        let worker = Worker::start(&config)
            .map_err(|e| Fault::Internal(format!("cannot start a worker: {e}")))?;
        Ok(Validator {
            program,
            shown: shown.to_owned(),
            worker,
            limits,
        })
    }

    /// Judges `output` for the case of `input` and `answer` (named `case`), with `flags`.
    pub(crate) fn judge(
        &mut self,
        case: &str,
        (input, answer): (&Path, &Path),
        flags: &[String],
        output: &[u8],
    ) -> Result<Judgement, Fault> {
        // The case's files go beside the validator's own, in a folder of this run: what the
        // box shows read-only, whatever the tier.
        let files = crate::temp::dir("validated")
            .map_err(|e| Fault::Internal(format!("cannot make a validator's folder: {e}")))?;
        let staged = self.program.staging.path()?;
        let copy = |from: &Path, name: &str| {
            let to = files.path().join(name);
            fs::hard_link(from, &to)
                .or_else(|_| fs::copy(from, &to).map(drop))
                .map_err(|e| crate::files::cannot(from, "copy", &e))
        };
        for entry in fs::read_dir(staged).map_err(|e| crate::files::cannot(staged, "list", &e))? {
            let entry = entry.map_err(|e| crate::files::cannot(staged, "list", &e))?;
            copy(&entry.path(), &entry.file_name().to_string_lossy())?;
        }
        // Written anew, not linked: a new file is readable by the run's uid whatever the
        // case file's own mode.
        for (from, name) in [(input, INPUT), (answer, ANSWER)] {
            let bytes = crate::files::read_capped(from)?;
            let to = files.path().join(name);
            fs::write(&to, bytes).map_err(|e| crate::files::cannot(&to, "write", &e))?;
        }
        let shown_files = self.worker.files_dir(files.path());
        let mut argv = self.program.argv_in(&shown_files, self.limits.memory);
        argv.push(shown_files.join(INPUT).to_string_lossy().into_owned());
        argv.push(shown_files.join(ANSWER).to_string_lossy().into_owned());
        argv.push(format!("{}/", self.worker.work_dir().display()));
        argv.extend(flags.iter().cloned());
        let job = Job {
            argv,
            files: files.path(),
            in_files: false,
            env: [
                vec![format!("PATH={PATH}"), "LANG=C.UTF-8".to_owned()],
                self.program.env.clone(),
            ]
            .concat(),
            stdin: Input::Bytes(output.to_vec()),
            stderr: Stderr::Tail(4096),
            keep: Some(JUDGE_MESSAGE),
            address_space: self.program.address_space,
        };
        let (outcome, kept) = self
            .worker
            .run(&job, &self.limits)
            .map_err(|e| Fault::Usage(format!("{}: {e}", self.shown)))?;
        crate::interrupt::check()?;
        let mut message = String::new();
        if let Some(mut file) = kept {
            let mut bytes = Vec::new();
            let _ = file.by_ref().take(4096).read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes)
                .trim()
                .clone_into(&mut message);
        }
        let fault = |how: String| {
            Fault::Usage(format!(
                "{}: the output validator {how} on {case}: the package's fault, not the \
                 submission's",
                self.shown
            ))
        };
        if outcome.killed.is_some() {
            return Err(fault(format!(
                "went over its limits ({:?}; validation_time {} s)",
                outcome.killed,
                self.limits.cpu.as_secs_f64()
            )));
        }
        match (outcome.signal, outcome.code) {
            (None, Some(42)) => Ok(Judgement {
                verdict: Verdict::Accepted,
                message: String::new(),
            }),
            (None, Some(43)) => Ok(Judgement {
                verdict: Verdict::WrongAnswer,
                message: if message.is_empty() {
                    "the output validator rejected it".to_owned()
                } else {
                    reference::visible::escape(message.lines().next().unwrap_or("").as_bytes())
                },
            }),
            (Some(signal), _) => Err(fault(format!(
                "was killed by {}",
                crate::judge::signal_name(signal)
            ))),
            (None, code) => Err(fault(format!(
                "ended with {}, neither 42 (accepted) nor 43 (wrong answer), saying `{}`",
                code.map_or_else(|| "no status".to_owned(), |c| format!("exit status {c}")),
                reference::visible::escape(outcome.stderr.trim_ascii())
            ))),
        }
    }
}
