//! A package's own programs (its output validator, its input validators) run in the box
//! like any program of the grader, on a worker of their own under the package's limits
//! for them. The case files a run reads go beside the program's files, in a folder of
//! that run: what the box shows read-only, whatever the tier.

use std::fs;
use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

use sandbox::{Files, Input, Job, Limits, Outcome, Stderr, Worker};

use crate::cli::exit::Fault;
use crate::package::format::config::Config;
use crate::submission::{PATH, Program};

/// How much of a program's feedback message is read back.
pub(crate) const FEEDBACK_CAP: u64 = 4096;

/// What a run left of the files [`Call::keep`] names, in that order: each one's first
/// bytes, `None` for one it did not leave.
pub(crate) type Kept = Vec<Option<Vec<u8>>>;

/// A feedback message left by a run (`judgemessage.txt`), as text: empty when it left
/// none.
pub(crate) fn feedback_text(kept: Option<&Vec<u8>>) -> String {
    kept.map(|bytes| String::from_utf8_lossy(bytes).trim().to_owned())
        .unwrap_or_default()
}

/// A program of a package with a worker to run it.
pub(crate) struct PackageProgram<'p> {
    program: &'p Program,
    /// Where it came from, for messages.
    pub(crate) shown: String,
    worker: Worker,
    /// The limits of its runs.
    pub(crate) limits: Limits,
}

/// One run's files, arguments and standard input.
pub(crate) struct Call<'a, A: FnOnce(&Path, &Path) -> Vec<String>> {
    /// Files shown beside the program's own, by the name it finds each under.
    pub(crate) files: &'a [(&'a str, &'a Path)],
    /// Its arguments, given where the box shows the files and its working folder.
    pub(crate) args: A,
    /// Its standard input.
    pub(crate) stdin: Input,
    /// Files of its working folder to read back after the run: each one's name, and how
    /// many of its first bytes are read.
    pub(crate) keep: &'a [(&'a str, u64)],
}

impl<'p> PackageProgram<'p> {
    /// A worker for `program` (built from `shown`) under `limits`.
    pub(crate) fn start(program: &'p Program, shown: &str, limits: Limits) -> Result<Self, Fault> {
        let config = sandbox::Config {
            tier: limits.sandbox,
            memory: limits.memory,
            toolchain: program.toolchain.clone(),
            headers: None,
        };
        let worker = Worker::start(&config)
            .map_err(|e| Fault::internal(format!("cannot start a worker: {e}")))?;
        Ok(PackageProgram {
            program,
            shown: shown.to_owned(),
            worker,
            limits,
        })
    }

    /// Runs it once: its outcome, and each kept file's first bytes (`None` when it left
    /// none), in the order of [`Call::keep`].
    pub(crate) fn run<A: FnOnce(&Path, &Path) -> Vec<String>>(
        &mut self,
        call: Call<'_, A>,
    ) -> Result<(Outcome, Kept), Fault> {
        let folder = crate::paths::temp::dir("package-run")
            .map_err(|e| Fault::internal(format!("cannot make a run's folder: {e}")))?;
        let staged = self.program.staging.path()?;
        for entry in fs::read_dir(staged)
            .map_err(|e| Fault::setup(crate::paths::files::cannot(staged, "list", &e)))?
        {
            let entry =
                entry.map_err(|e| Fault::setup(crate::paths::files::cannot(staged, "list", &e)))?;
            let to = folder.path().join(entry.file_name());
            fs::hard_link(entry.path(), &to)
                .or_else(|_| fs::copy(entry.path(), &to).map(drop))
                .map_err(|e| {
                    Fault::setup(crate::paths::files::cannot(&entry.path(), "copy", &e))
                })?;
        }
        // Written anew, not linked: a new file is readable by the run's uid whatever the
        // case file's own mode.
        for (name, from) in call.files {
            let bytes = crate::paths::files::read_capped(from)?;
            let to = folder.path().join(name);
            fs::write(&to, bytes)
                .map_err(|e| Fault::setup(crate::paths::files::cannot(&to, "write", &e)))?;
        }
        let shown_files = self.worker.files_dir(folder.path());
        let mut argv = self.program.argv_in(&shown_files, self.limits.memory);
        argv.extend((call.args)(&shown_files, &self.worker.work_dir()));
        let names: Vec<&str> = call.keep.iter().map(|&(name, _)| name).collect();
        let job = Job {
            argv,
            files: Files::Folder(folder.path()),
            in_files: false,
            env: [
                vec![format!("PATH={PATH}"), "LANG=C.UTF-8".to_owned()],
                self.program.env.clone(),
            ]
            .concat(),
            stdin: call.stdin,
            stderr: Stderr::Tail(4096),
            keep: &names,
            address_space: self.program.address_space,
        };
        let (outcome, kept) = self
            .worker
            .run(&job, &self.limits)
            .map_err(|e| Fault::setup(format!("{}: {e}", self.shown)))?;
        crate::cli::interrupt::check()?;
        let mut kept = kept
            .into_iter()
            .zip(call.keep)
            .map(|(file, &(_, cap))| {
                file.map(|file| {
                    let mut bytes = Vec::new();
                    file.take(cap).read_to_end(&mut bytes).map(|_| bytes)
                })
                .transpose()
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Fault::setup(format!("{}: cannot read what it left: {e}", self.shown)))?;
        // A run cut short gives back no files: as if it left none.
        kept.resize(call.keep.len(), None);
        Ok((outcome, kept))
    }

    /// The fault of a run that ended neither with 42 nor 43, or over a limit: the
    /// package's, never a submission's. `None` for 42 and 43.
    pub(crate) fn fault(&self, outcome: &Outcome, case: &str, role: &str) -> Option<Fault> {
        let how = if let Some(killed) = outcome.killed {
            // Which limit, so that the jury knows what to raise or fix.
            let limit = match killed {
                sandbox::Killed::Cpu => format!("{} s of CPU", self.limits.cpu.as_secs_f64()),
                sandbox::Killed::Wall => format!(
                    "{} s of wall time, with {:.3} s of CPU: it waited",
                    self.limits.wall.as_secs_f64(),
                    outcome.cpu.as_secs_f64()
                ),
                sandbox::Killed::Memory => format!("{} MiB of memory", self.limits.memory >> 20),
                sandbox::Killed::Output => format!("{} MiB of output", self.limits.output >> 20),
            };
            format!("went over its limit ({limit})")
        } else {
            match (outcome.signal, outcome.code) {
                (None, Some(42 | 43)) => return None,
                (Some(signal), _) => {
                    format!("was killed by {}", crate::run::judge::signal_name(signal))
                }
                (None, code) => {
                    let said = outcome.stderr.trim_ascii();
                    format!(
                        "ended with {}, neither 42 nor 43{}",
                        code.map_or_else(|| "no status".to_owned(), |c| format!("exit status {c}")),
                        if said.is_empty() {
                            String::new()
                        } else {
                            format!(", saying `{}`", reference::visible::escape(said))
                        }
                    )
                }
            }
        };
        Some(Fault::input(format!(
            "{}: the {role} {how} on {case}: the package's fault, not the submission's",
            self.shown
        )))
    }
}

/// The limits of the package's own programs (its validators, its generator): its limits
/// for them, and `base`'s others (processes, tier).
pub(crate) fn validation_limits(config: &Config, base: &Limits) -> Limits {
    Limits {
        cpu: config.limits.validation_time,
        wall: config.limits.validation_time * 2 + Duration::from_secs(1),
        memory: config.limits.validation_memory << 20,
        output: config.limits.validation_output << 20,
        ..*base
    }
}
