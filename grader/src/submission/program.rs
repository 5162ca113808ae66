//! What a submission is and what it becomes: the [`Submission`] the user named, the
//! [`Options`] it is built with, and the [`Program`] (or the compiler's refusal, [`Built`])
//! that runs.

use std::path::{Path, PathBuf};

use super::languages::Languages;
use super::naming;
use crate::exec::sandbox::Tier;

/// What the user asked to grade.
#[derive(Debug, Clone)]
pub(crate) enum Submission {
    /// A file: a source by extension (or `--lang`), or an executable.
    File(PathBuf),
    /// A command line, split like a shell would.
    Command(String),
}

/// How a submission is built.
#[derive(Debug, Clone)]
pub(crate) struct Options<'a> {
    /// `--lang`: a language or profile by name.
    pub(crate) language: Option<&'a str>,
    /// The language table.
    pub(crate) languages: &'a Languages,
    /// Where compiled programs are cached.
    pub(crate) cache: PathBuf,
    /// The tier compiles run in.
    pub(crate) tier: Tier,
}

/// A runnable program: its command line, in a staging folder readable by the user the
/// program runs as; the folder (and the runs' scratch folders in it) goes with it.
#[derive(Debug)]
pub(crate) struct Program {
    /// The command line; `argv[0]` is an absolute path.
    pub(crate) argv: Vec<String>,
    /// The language name, or `executable` / `command`.
    pub(crate) language: String,
    /// Whether the compiled program came from the cache.
    pub(crate) cached: bool,
    /// Whether it was compiled (now or earlier), rather than run from its source or as it
    /// was given: its language has a compile step.
    pub(crate) compiled: bool,
    /// The staging folder: the program's files (a compiled program, a source for an
    /// interpreter, the files a `--cmd` line names), and nothing else.
    pub(crate) staging: tempfile::TempDir,
    /// Folders outside the system's its interpreter needs (a pyenv installation): a box
    /// shows them read-only.
    pub(crate) toolchain: Vec<PathBuf>,
    /// Whether its runs get the address-space backstop where no cgroup keeps the memory
    /// limit (see the language table's `address_space`).
    pub(crate) address_space: bool,
    /// Its language's environment, beyond the clean one every run gets (`NAME=value`).
    pub(crate) env: Vec<String>,
}

impl Program {
    /// Its command line for a run with `memory` bytes of memory, with the staging
    /// folder's paths under `files` instead (where a box shows them).
    pub(crate) fn argv_in(&self, files: &Path, memory: u64) -> Vec<String> {
        let staging = self.staging.path();
        self.argv
            .iter()
            .map(|word| match Path::new(word).strip_prefix(staging) {
                Ok(rest) => files.join(rest).to_string_lossy().into_owned(),
                Err(_) => naming::with_memory(word, memory),
            })
            .collect()
    }
}

/// A program, or the compiler's refusal.
#[derive(Debug)]
pub(crate) enum Built {
    /// Ready to run.
    Ready(Program),
    /// `CE`: the language it was compiled as, and the compiler's message.
    CompileError {
        /// The language name.
        language: String,
        /// What the compiler said.
        message: String,
    },
}
