//! Submissions: an executable, a source file compiled or interpreted by its extension (or
//! `--lang`), or a `--cmd` line; turned into a [`Program`] staged where an unprivileged
//! user can run it, or a compile error.

pub(crate) mod compile;
pub(crate) mod diagnosis;
pub(crate) mod languages;
mod main_class;
pub(crate) mod naming;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::exec::sandbox::{Tier, in_system_folders};
use crate::files;
use crate::status::Fault;
use languages::{Language, Languages};
use naming::{Names, PROGRAM};

/// The `PATH` programs run with, and where commands are looked up.
pub(crate) const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

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

/// Builds `submission`: detects its language, compiles it (cached) and stages it.
pub(crate) fn build(submission: &Submission, options: &Options<'_>) -> Result<Built, Fault> {
    let staging = stage_dir()?;
    // The language table's entry, for a source: what its runs need beyond the command.
    let (argv, language, cached, entry) = match submission {
        Submission::Command(line) => {
            let words = shlex::split(line)
                .filter(|w| !w.is_empty())
                .ok_or_else(|| Fault::Usage(format!("--cmd {line:?}: not a command line")))?;
            (
                stage_command(words, staging.path())?,
                "command".to_owned(),
                false,
                None,
            )
        }
        Submission::File(path) => {
            let metadata = fs::metadata(path).map_err(|e| files::cannot(path, "read", &e))?;
            if metadata.is_dir() {
                return Err(Fault::Usage(format!(
                    "{}: is a folder, expected a file",
                    path.display()
                )));
            }
            let chosen = language_of(path, options)?;
            match chosen {
                Some((name, language)) => {
                    match from_source(path, (name, language), options, staging.path())? {
                        Ok((argv, cached)) => (argv, name.to_owned(), cached, Some(language)),
                        Err(message) => {
                            return Ok(Built::CompileError {
                                language: name.to_owned(),
                                message,
                            });
                        }
                    }
                }
                None if executable(&metadata) => {
                    let program = staging.path().join(PROGRAM);
                    copy_readable(path, &program)?;
                    (
                        vec![program.to_string_lossy().into_owned()],
                        "executable".to_owned(),
                        false,
                        None,
                    )
                }
                None => {
                    return Err(Fault::Usage(format!(
                        "{}: unknown extension `.{}` (known: {}); choose one with --lang, or run it with --cmd",
                        path.display(),
                        path.extension().unwrap_or_default().to_string_lossy(),
                        known_extensions(options.languages)
                    )));
                }
            }
        }
    };
    let mut argv = argv;
    argv[0] = resolve(&argv[0], &run_path())?;
    let toolchain = interpreter_home(Path::new(&argv[0]), staging.path())
        .into_iter()
        .collect();
    Ok(Built::Ready(Program {
        argv,
        language,
        cached,
        compiled: entry.is_some_and(|l| l.compile.is_some()),
        staging,
        toolchain,
        address_space: entry.is_none_or(|l| l.address_space),
        env: entry.map(|l| l.run_env.clone()).unwrap_or_default(),
    }))
}

/// The command line of the source `path` in language `name`, with what it needs staged in
/// `staging`, and whether its compiled program came from the cache; `Err` inside with the
/// `CE` message.
fn from_source(
    path: &Path,
    (name, language): (&str, &Language),
    options: &Options<'_>,
    staging: &Path,
) -> Result<Result<(Vec<String>, bool), String>, Fault> {
    let bytes = files::read_capped(path)?;
    let names = match Names::of(path, &bytes, language) {
        Ok(names) => names,
        Err(message) => return Ok(Err(message)),
    };
    let (out, cached) = match &language.compile {
        Some(_) => {
            let compiled = compile::compile(
                path,
                &bytes,
                &names,
                (name, language),
                &options.cache,
                options.tier,
            )?;
            match compiled {
                compile::Compiled::Program { path, cached } => (Some(path), cached),
                compile::Compiled::Error(message) => return Ok(Err(message)),
            }
        }
        None => (None, false),
    };
    let src = staging.join(&names.source);
    if language.run.iter().any(|w| w.contains(languages::SRC)) {
        write_readable(&bytes, &src)?;
    }
    let program = staging.join(PROGRAM);
    if let Some(out) = &out {
        copy_readable(out, &program)?;
    }
    let mut argv: Vec<String> = language
        .run
        .iter()
        .map(|w| names.fill(w, &src.to_string_lossy(), &program.to_string_lossy()))
        .collect();
    argv[0] = resolve(&argv[0], &run_path())
        .map_err(|e| not_installed(path, &format!("{e} ({name})"), language))?;
    Ok(Ok((argv, cached)))
}

/// What [`build`] will make of a submission, told before it builds: a report's header,
/// printed at once, names the language, and a status line says when it compiles.
#[derive(Debug, Clone)]
pub(crate) struct Foreseen {
    /// The language name, or `executable` / `command`, as [`Program::language`] will be.
    pub(crate) language: String,
    /// Whether it is compiled first (or taken from the cache).
    pub(crate) compiles: bool,
}

/// Foresees [`build`] by the same rules, without building: `None` where `build` will
/// refuse the submission (it says why).
pub(crate) fn foresee(submission: &Submission, options: &Options<'_>) -> Option<Foreseen> {
    let path = match submission {
        Submission::Command(_) => {
            return Some(Foreseen {
                language: "command".to_owned(),
                compiles: false,
            });
        }
        Submission::File(path) => path,
    };
    let metadata = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    match language_of(path, options).ok()? {
        Some((name, language)) => Some(Foreseen {
            language: name.to_owned(),
            compiles: language.compile.is_some(),
        }),
        None => executable(&metadata).then(|| Foreseen {
            language: "executable".to_owned(),
            compiles: false,
        }),
    }
}

/// Whether a file without a language is run as a program: any execute bit.
fn executable(metadata: &fs::Metadata) -> bool {
    metadata.permissions().mode() & 0o111 != 0
}

/// The language `path` is built as: `--lang`, else by its extension; `None` when neither
/// names one.
fn language_of<'o>(
    path: &Path,
    options: &Options<'o>,
) -> Result<Option<(&'o str, &'o Language)>, Fault> {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if let Some(name) = options.language {
        return options.languages.chosen(name, extension).map(Some);
    }
    Ok(options.languages.for_extension(extension))
}

/// Checks what the grader's setup must give the language of the source `path`, before
/// anything is built: its compiler and a usable compile cache, or its interpreter. A
/// fault here is the setup's (exit 2), found once rather than as every student's error.
pub(crate) fn check_setup(path: &Path, options: &Options<'_>) -> Result<(), Fault> {
    let Some((name, language)) = language_of(path, options)? else {
        return Ok(());
    };
    if language.compile.is_some() {
        compile::usable_cache(&options.cache)?;
        compile::check_compiler(path, name, language)?;
    }
    // The interpreter (a run command's first word that is no placeholder) and the version
    // probe's program must be there.
    let programs = language
        .run
        .first()
        .filter(|w| !w.contains('{'))
        .into_iter()
        .chain(language.version.iter().filter_map(|v| v.first()));
    for program in programs {
        resolve(program, &run_path())
            .map_err(|e| not_installed(path, &format!("{e} ({name})"), language))?;
    }
    Ok(())
}

/// The fault of a toolchain that is missing (`what`, of the source `source`): the
/// setup's, exit 2, saying what to install.
pub(crate) fn not_installed(source: &Path, what: &str, language: &Language) -> Fault {
    Fault::Usage(format!(
        "{}: {what}: {}, or choose another language with --lang, or run it with --cmd",
        source.display(),
        language.install_hint()
    ))
}

/// A `--cmd` line, with every word that names a file of the user (the program itself, a
/// script, a data file) copied into the staging folder and named there: a box shows the
/// program nothing else of the machine. Programs of the system (`python3`) stay as they
/// are.
fn stage_command(words: Vec<String>, staging: &Path) -> Result<Vec<String>, Fault> {
    let mut staged = Vec::with_capacity(words.len());
    for (i, word) in words.into_iter().enumerate() {
        let path = Path::new(&word);
        let names_a_file = if i == 0 {
            word.contains('/') && path.is_file()
        } else {
            !word.starts_with('-') && path.is_file()
        };
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        if !names_a_file || in_system_folders(&absolute) {
            staged.push(word);
            continue;
        }
        let name = path
            .file_name()
            .map_or_else(|| format!("file-{i}"), |n| n.to_string_lossy().into_owned());
        let to = staging.join(&name);
        if to.exists() {
            return Err(Fault::Usage(format!(
                "--cmd: two files named `{name}`; give them different names"
            )));
        }
        copy_readable(path, &to)?;
        staged.push(to.to_string_lossy().into_owned());
    }
    Ok(staged)
}

/// The installation folder of an interpreter outside the system folders, which a box
/// must show; `None` for a staged program.
fn interpreter_home(program: &Path, staging: &Path) -> Option<PathBuf> {
    if program.starts_with(staging) {
        return None;
    }
    installation(program)
}

/// The installation folder of a program outside the system folders (pyenv's
/// `.../versions/3.11/bin/python3`, a compiler in `/home/x/gcc/bin/gcc`: two levels up
/// from its real path); `None` for the system's programs.
pub(crate) fn installation(program: &Path) -> Option<PathBuf> {
    let real = fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    if in_system_folders(&real) {
        return None;
    }
    real.parent()?.parent().map(Path::to_path_buf)
}

fn known_extensions(languages: &Languages) -> String {
    let mut known = Vec::new();
    for name in languages.names() {
        if let Ok((_, language)) = languages.named(name) {
            known.extend(language.extensions.iter().map(|e| format!(".{e}")));
        }
    }
    known.join(", ")
}

/// A staging folder any user can enter: programs may run as a worker's own uid.
pub(crate) fn stage_dir() -> Result<tempfile::TempDir, Fault> {
    crate::temp::dir("run")
        .map_err(|e| Fault::Internal(format!("cannot create a staging folder: {e}")))
}

/// Writes `bytes` to `to`, readable by all.
fn write_readable(bytes: &[u8], to: &Path) -> Result<(), Fault> {
    fs::write(to, bytes).map_err(|e| files::cannot(to, "write", &e))?;
    fs::set_permissions(to, fs::Permissions::from_mode(0o644))
        .map_err(|e| files::cannot(to, "write", &e))
}

/// Copies `from` to `to`, readable (and, when `from` is executable, executable) by all.
fn copy_readable(from: &Path, to: &Path) -> Result<(), Fault> {
    // A hard link is free, but would let the run change the cached file's mode.
    fs::copy(from, to).map_err(|e| files::cannot(from, "copy", &e))?;
    let executable = fs::metadata(from).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    let mode = if executable { 0o755 } else { 0o644 };
    fs::set_permissions(to, fs::Permissions::from_mode(mode))
        .map_err(|e| files::cannot(to, "copy", &e))
}

/// An absolute path for a command: as given when it has a `/`, else looked up in [`PATH`].
pub(crate) fn resolve(command: &str, search: &str) -> Result<String, Fault> {
    if command.contains('/') {
        let path = Path::new(command);
        let absolute = std::path::absolute(path).map_err(|e| files::cannot(path, "find", &e))?;
        if !absolute.is_file() {
            return Err(files::cannot(
                path,
                "run",
                &std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        }
        return Ok(absolute.to_string_lossy().into_owned());
    }
    search
        .split(':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(dir).join(command))
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
        .ok_or_else(|| Fault::Usage(format!("`{command}`: not found in {search}")))
}

/// Where compilers are looked up: the user's own `PATH` first (a toolchain installed by
/// rustup lives there), then the system folders. Compilers run as the user.
pub(crate) fn compile_path() -> String {
    match std::env::var("PATH") {
        Ok(user) if !user.is_empty() => format!("{user}:{PATH}"),
        _ => PATH.to_owned(),
    }
}

/// Where interpreters and `--cmd` programs are looked up: the system folders first, since
/// the program may run as an unprivileged user who cannot enter the user's home (a pyenv
/// shim in `/root` is no use to a worker's uid), then the user's `PATH`.
fn run_path() -> String {
    match std::env::var("PATH") {
        Ok(user) if !user.is_empty() => format!("{PATH}:{user}"),
        _ => PATH.to_owned(),
    }
}
