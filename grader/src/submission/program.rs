//! What a submission is and what it becomes: the [`Submission`] the user named, the
//! [`Options`] it is built with, and the [`Program`] (or the compiler's refusal, [`Built`])
//! that runs.

use std::path::{Path, PathBuf};

use sandbox::tiers::Tier;

use super::added::Added;
use super::compile::default_cache;
use super::languages::{Language, Languages};
use super::naming;
use super::precompiled::HeaderUse;
use crate::cli::exit::Fault;
use crate::keys::Key;

/// What the user asked to grade.
#[derive(Debug, Clone)]
pub(crate) enum Submission {
    /// A file: a source by extension (or `--lang`), or an executable.
    File(PathBuf),
    /// A command line, split like a shell would.
    Command(String),
    /// A program given as a folder (a package's: `folder.rs` says what it is).
    Folder(PathBuf),
}

impl Submission {
    /// How reports name it: the path as given, or the command line.
    pub(crate) fn shown(&self) -> String {
        match self {
            Submission::Command(line) => line.clone(),
            Submission::File(path) | Submission::Folder(path) => path.display().to_string(),
        }
    }
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
    /// When a precompiled header not yet in the cache is built.
    pub(crate) header: HeaderUse,
    /// Text replaced in a program's files before it is built, each sequence by its text:
    /// a problem package's constants (`{{name}}`), which the package's builds apply
    /// (`package::programs::building`); none for anything else.
    pub(crate) replaced: std::sync::Arc<Vec<(String, String)>>,
    /// Files added to a submission of a language before it is built: a problem package's
    /// included files (`added.rs`), for its submissions alone, never its validators.
    pub(crate) added: std::sync::Arc<Added>,
    /// The entry point a program's build takes for its main file (a package's
    /// `submissions.yaml` `entrypoint`): a file's name, or its class's (`folder::entry_file`).
    pub(crate) entry: Option<String>,
}

impl<'a> Options<'a> {
    /// Building with `languages`, as `language` when one is asked for, caching compiled
    /// programs in `cache` (by default the user's cache folder), compiling in `tier`.
    pub(crate) fn new(
        languages: &'a Languages,
        language: Option<&'a str>,
        cache: Option<PathBuf>,
        tier: Tier,
    ) -> Options<'a> {
        Options {
            language,
            languages,
            cache: cache.unwrap_or_else(default_cache),
            tier,
            header: HeaderUse::OnFirstNeed,
            replaced: std::sync::Arc::default(),
            added: std::sync::Arc::default(),
            entry: None,
        }
    }

    /// These options, with `replaced` replaced in a program's files before it is built
    /// (a problem package's constants).
    pub(crate) fn replacing(self, replaced: Vec<(String, String)>) -> Options<'a> {
        Options {
            replaced: std::sync::Arc::new(replaced),
            ..self
        }
    }

    /// These options, with `added` added to a submission before it is built (a problem
    /// package's included files).
    pub(crate) fn adding(self, added: std::sync::Arc<Added>) -> Options<'a> {
        Options { added, ..self }
    }

    /// The language `path` is built as: `--lang`, else by its extension; `None` when
    /// neither names one.
    pub(crate) fn language_of(
        &self,
        path: &Path,
    ) -> Result<Option<(&'a str, &'a Language)>, Fault> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if let Some(name) = self.language {
            return self.languages.chosen(name, extension).map(Some);
        }
        Ok(self.languages.for_extension(extension))
    }
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
    pub(crate) staging: super::staging::Staging,
    /// Folders outside the system's its interpreter needs (a pyenv installation): a box
    /// shows them read-only.
    pub(crate) toolchain: Vec<PathBuf>,
    /// Whether its runs get the address-space backstop where no cgroup keeps the memory
    /// limit (see the language table's `address_space`).
    pub(crate) address_space: bool,
    /// Its language's environment, beyond the clean one every run gets (`NAME=value`).
    pub(crate) env: Vec<String>,
    /// Where its runs start.
    pub(crate) working: WorkingFolder,
}

/// Where a program's runs start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorkingFolder {
    /// In an empty folder of their own, which they may write in.
    Empty,
    /// In its staging folder, read-only, where its files are: a submission given a
    /// package's included files, which the format's working directory holds
    /// (`added.rs`).
    Own,
}

impl Program {
    /// Its command line for a run with `memory` bytes of memory, with the staging
    /// folder's paths under `files` instead (where a box shows them).
    pub(crate) fn argv_in(&self, files: &Path, memory: u64) -> Vec<String> {
        let staging = self.staging.planned();
        self.argv
            .iter()
            .map(|word| match Path::new(word).strip_prefix(staging) {
                Ok(rest) => files.join(rest).to_string_lossy().into_owned(),
                Err(_) => naming::with_memory(word, memory),
            })
            .collect()
    }
}

impl Program {
    /// A hash of what runs: the language, the command line's shape (its staging folder's
    /// path left out) and the staged files (the compiled program, or the source an
    /// interpreter reads). A batch's journal keys its runs by it.
    pub(crate) fn hash(&self) -> Result<String, Fault> {
        let staging = self.staging.planned();
        let shapes: Vec<String> = self
            .argv
            .iter()
            .map(|word| word.replace(&*staging.to_string_lossy(), "{staging}"))
            .collect();
        let mut key = Key::new("program");
        key.part(&self.language).list(&shapes);
        self.staging.key_files(&mut key)?;
        Ok(key.hex())
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
