//! Building a submission: its language told from `--lang` or its extension, a source
//! compiled (cached) or staged for its interpreter, an executable or a `--cmd` line staged
//! as it is; and the same rules foreseen without building, for a report's header.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::added::{self, Addition};
use super::compile;
use super::folder::{self, FolderFile, Shape};
use super::languages::not_installed;
use super::languages::{self, Language, Languages};
use super::lookup::{Located, interpreter, resolve, run_path};
use super::naming::{Names, PROGRAM};
use super::program::{Built, Options, Program, Submission, WorkingFolder};
use super::staging::{Staging, stage_command};
use crate::cli::exit::Fault;
use crate::paths::files;

/// Builds one submission, as `test` and `fuzz` build the one they are given and `batch`
/// builds each student's: `before` is told what is about to be built, before anything
/// compiles (not when the build will be refused); then [`build`].
pub(crate) fn build_one(
    submission: &Submission,
    options: &Options<'_>,
    before: impl FnOnce(&Foreseen),
) -> Result<Built, Fault> {
    if let Some(foreseen) = foresee(submission, options) {
        before(&foreseen);
    }
    build(submission, options)
}

/// Builds `submission`: detects its language, compiles it (cached) and stages it.
fn build(submission: &Submission, options: &Options<'_>) -> Result<Built, Fault> {
    let mut staging = Staging::reserve()?;
    // Given files (`added.rs`), a submission's runs start beside them.
    let mut working = WorkingFolder::Empty;
    // The language table's entry, for a source: what its runs need beyond the command.
    let (argv, language, cached, entry) = match submission {
        Submission::Command(line) => {
            let words = shlex::split(line)
                .filter(|w| !w.is_empty())
                .ok_or_else(|| Fault::call(format!("--cmd {line:?}: not a command line")))?;
            (
                stage_command(words, &mut staging)?,
                "command".to_owned(),
                false,
                None,
            )
        }
        Submission::File(path) => {
            let metadata =
                fs::metadata(path).map_err(|e| Fault::input(files::cannot(path, "read", &e)))?;
            // A device or a FIFO has no end to read or hash to.
            if let Some(why) = files::not_regular(path, &metadata) {
                return Err(Fault::input(why));
            }
            let chosen = options.language_of(path)?;
            match chosen {
                Some((name, language)) => {
                    let built = if let Some(addition) = options.added.of(name) {
                        working = WorkingFolder::Own;
                        let file = (path.as_path(), executable(&metadata));
                        let language = (name, language, addition);
                        from_file_with_added(file, language, options, &mut staging)?
                            .map_err(|(_, message)| message)
                    } else {
                        entry_names_the_file(path, options)?;
                        from_source(path, (name, language), options, &mut staging)?
                    };
                    match built {
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
                    let program = staging.copy(PROGRAM, path);
                    let mut argv = vec![program.to_string_lossy().into_owned()];
                    // A file the kernel cannot start (no `#!` line, no ELF header) is a
                    // shell script, as `execvp` and every shell take it: run by `sh`,
                    // not refused by the kernel as an `Exec format error`.
                    if !kernel_starts(path)? {
                        argv.insert(0, "sh".to_owned());
                    }
                    (argv, "executable".to_owned(), false, None)
                }
                None => {
                    return Err(Fault::input(format!(
                        "{}: unknown extension `.{}` (known: {}){}",
                        path.display(),
                        path.extension().unwrap_or_default().to_string_lossy(),
                        known_extensions(options.languages),
                        super::languages::ONE_LANGUAGE
                    )));
                }
            }
        }
        Submission::Folder(dir) => match from_folder(dir, options, &mut staging)? {
            Ok((built, added)) => {
                if added {
                    working = WorkingFolder::Own;
                }
                built
            }
            Err((language, message)) => return Ok(Built::CompileError { language, message }),
        },
    };
    let mut argv = argv;
    // A staged program is there once the folder is made; anything else must be now.
    if !Path::new(&argv[0]).starts_with(staging.planned()) {
        argv[0] = resolve(&argv[0], &run_path())?;
    }
    let found = PathBuf::from(&argv[0]);
    // A staged program needs nothing of the machine. A language's interpreter runs from
    // where it really is (past a pyenv or asdf shim); a `--cmd` program runs as it was
    // named, with the links on the way and its installation shown.
    let toolchain = if found.starts_with(staging.planned()) {
        Vec::new()
    } else if let Some(language) = entry {
        let located = interpreter(&found, &probe_args(language));
        argv[0] = located.run.to_string_lossy().into_owned();
        located.folders()
    } else {
        Located::at(&found).folders()
    };
    Ok(Built::Ready(Program {
        argv,
        language,
        cached,
        compiled: entry.is_some_and(|l| l.compile.is_some()),
        staging,
        toolchain,
        address_space: entry.is_none_or(|l| l.address_space),
        env: entry.map(|l| l.run_env.clone()).unwrap_or_default(),
        working,
    }))
}

/// The command line of the source `path` in language `name`, with what it needs staged in
/// `staging`, and whether its compiled program came from the cache; `Err` inside with the
/// `CE` message.
fn from_source(
    path: &Path,
    (name, language): (&str, &Language),
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Result<(Vec<String>, bool), String>, Fault> {
    let bytes = files::read_capped(path)?;
    let names = match Names::of(path, &bytes, language) {
        Ok(names) => names,
        Err(message) => return Ok(Err(message)),
    };
    let source = Source {
        path,
        bytes,
        names,
        beside: &[],
        stage_all: false,
    };
    Ok(compiled_and_staged(&source, (name, language), options, staging)?.map_err(|(_, m)| m))
}

/// The command line of the source `path` (executable or not) in language `name` built
/// with the files `addition` gives that language (`added.rs`), and whether its compiled
/// program came from the cache; `Err` inside with the language and the `CE` message.
fn from_file_with_added(
    (path, executable): (&Path, bool),
    (name, language, addition): (&str, &Language, &Addition),
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Staged, Fault> {
    let own = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = FolderFile {
        bytes: files::read_capped(path)?,
        name: own.clone(),
        executable,
    };
    let folder = path.parent().unwrap_or(Path::new("."));
    let program = (folder, vec![file], own);
    with_added(program, (name, language, addition), options, staging)
}

/// Builds the program of `own` files (named in `folder`; its main file `main`) in
/// language `name`, with the files `addition` gives that language: one program of them
/// all, its main file the added driver when there is one, its sources every file of its
/// language, and every file staged for its runs (they start beside them).
fn with_added(
    (folder, own, main): (&Path, Vec<FolderFile>, String),
    (name, language, addition): (&str, &Language, &Addition),
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Staged, Fault> {
    let files = added::merged(own, addition);
    // The entry point a package gives, else the language's driver, else its own.
    let main = match &options.entry {
        Some(entry) => entry_in(folder, &files, entry)?,
        None => addition.driver.clone().unwrap_or(main),
    };
    let sources: Vec<String> = files
        .iter()
        .filter(|f| {
            folder::language_of(&f.name, options.languages).is_some_and(|(of, _)| of == name)
        })
        .map(|f| f.name.clone())
        .collect();
    let program = (folder, files.as_slice(), main.as_str(), sources);
    from_files(program, (name, language), true, options, staging)
}

/// Builds the program of `files` (those of the folder `dir`), its main file `main` and
/// its sources `sources` in language `name`: every file staged for its runs when
/// `stage_all` (see [`Source`]).
fn from_files(
    (dir, files, main, sources): (&Path, &[FolderFile], &str, Vec<String>),
    (name, language): (&str, &Language),
    stage_all: bool,
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Staged, Fault> {
    let text = files
        .iter()
        .find(|f| f.name == main)
        .map(|f| f.bytes.clone())
        .unwrap_or_default();
    let names = match Names::of_folder(main, &text, sources, language) {
        Ok(names) => names,
        Err(message) => return Ok(Err((name.to_owned(), message))),
    };
    let source = Source {
        path: &dir.join(main),
        bytes: text,
        names,
        beside: files,
        stage_all,
    };
    compiled_and_staged(&source, (name, language), options, staging)
}

/// The file of `files` (those of the program `dir`) the entry point `entry` names, or
/// why there is none (the package's fault: the submission is not run).
fn entry_in(dir: &Path, files: &[FolderFile], entry: &str) -> Result<String, Fault> {
    folder::entry_file(files.iter().map(|f| f.name.as_str()), entry).ok_or_else(|| {
        Fault::input(format!(
            "{}: entrypoint `{entry}` (submissions.yaml) names no file of it",
            dir.display()
        ))
    })
}

/// Checks that the entry point `options` give, if any, names the source `path`.
fn entry_names_the_file(path: &Path, options: &Options<'_>) -> Result<(), Fault> {
    let Some(entry) = &options.entry else {
        return Ok(());
    };
    let own = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match folder::entry_file(std::iter::once(own.as_str()), entry) {
        Some(_) => Ok(()),
        None => Err(Fault::input(format!(
            "{}: entrypoint `{entry}` (submissions.yaml) is not this file",
            path.display()
        ))),
    }
}

/// What [`build`] makes of a program given as a folder: its command line, language and
/// entry, and whether it came from the cache; then whether it was given files
/// (`added.rs`).
type FromFolder<'a> = ((Vec<String>, String, bool, Option<&'a Language>), bool);

/// Builds the program of the folder `dir`, as `folder.rs` tells what it is (only a
/// folder of one language's sources is given files); `Err` inside with the language and
/// the `CE` message.
fn from_folder<'a>(
    dir: &Path,
    options: &Options<'a>,
    staging: &mut Staging,
) -> Result<Result<FromFolder<'a>, (String, String)>, Fault> {
    let mut read = folder::read_as(dir, options.languages, options.language)?;
    let addition = match &read.shape {
        Shape::Sources {
            language: (name, _),
            ..
        } => options.added.of(name),
        Shape::Scripts { .. } => None,
    };
    // A package's entry point chooses the main file (among the added files too, below).
    if let (Some(entry), None, Shape::Sources { main, .. }) =
        (&options.entry, addition, &mut read.shape)
    {
        *main = entry_in(dir, &read.files, entry)?;
    }
    Ok(match (read.shape, addition) {
        (
            Shape::Sources {
                language: (name, language),
                main,
                ..
            },
            Some(addition),
        ) => with_added(
            (dir, read.files, main),
            (name, language, addition),
            options,
            staging,
        )?
        .map(|(argv, cached)| ((argv, name.to_owned(), cached, Some(language)), true)),
        (
            Shape::Sources {
                language: (name, language),
                main,
                sources,
            },
            None,
        ) => {
            let program = (dir, read.files.as_slice(), main.as_str(), sources);
            from_files(program, (name, language), false, options, staging)?
                .map(|(argv, cached)| ((argv, name.to_owned(), cached, Some(language)), false))
        }
        (Shape::Scripts { build: true }, _) => built_by_script(dir, &read.files, options, staging)?
            .map(|(argv, cached)| ((argv, "build+run".to_owned(), cached, None), false)),
        (Shape::Scripts { build: false }, _) => Ok((
            (
                run_script(&read.files, staging),
                "run".to_owned(),
                false,
                None,
            ),
            false,
        )),
    })
}

/// A built program's command line and whether it came from the cache; or the language
/// and the `CE` message.
type Staged = Result<(Vec<String>, bool), (String, String)>;

/// A source to build: its file, bytes and names, and the files of its folder beside it
/// when it is a folder's main file; `stage_all` when every one of those is staged for
/// its runs, whatever the language (a submission given files: `added.rs`), not only
/// where its runs read the source.
struct Source<'a> {
    path: &'a Path,
    bytes: Vec<u8>,
    names: Names,
    beside: &'a [FolderFile],
    stage_all: bool,
}

/// The command line of `source` in language `name`, compiled (cached) when the language
/// compiles, with what its runs read staged, and whether the compile came from the
/// cache; `Err` inside with the language and the `CE` message.
fn compiled_and_staged(
    source: &Source<'_>,
    (name, language): (&str, &Language),
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Staged, Fault> {
    let Source {
        path,
        bytes,
        names,
        beside,
        stage_all,
    } = source;
    let (out, cached) = match &language.compile {
        Some(_) => {
            let compiled = compile::compile(
                path,
                (bytes, beside),
                names,
                (name, language),
                &options.cache,
                (options.tier, options.header),
            )?;
            match compiled {
                compile::Compiled::Program { path, cached } => (Some(path), cached),
                compile::Compiled::Error(message) => return Ok(Err((name.to_owned(), message))),
            }
        }
        None => (None, false),
    };
    let src = staging.planned().join(&names.source);
    // A source its runs read goes with the other files of its folder (a Python module
    // it imports, a script it sources).
    if *stage_all || language.run.iter().any(|w| w.contains(languages::SRC)) {
        staging.bytes(&names.source, bytes.clone());
        for file in beside.iter().filter(|f| f.name != names.source) {
            staging.file(&file.name, file.bytes.clone(), file.executable);
        }
    }
    let program = staging.planned().join(PROGRAM);
    // What a compile made runs when the run command names it (a check of the syntax, as
    // Python's, makes nothing the run reads).
    if let Some(out) = &out
        && language.run.iter().any(|w| w.contains(languages::OUT))
    {
        staging.copy(PROGRAM, out);
    }
    let mut argv: Vec<String> = language
        .run
        .iter()
        .map(|w| names.fill(w, &src.to_string_lossy(), &program.to_string_lossy()))
        .collect();
    if !Path::new(&argv[0]).starts_with(staging.planned()) {
        argv[0] = resolve(&argv[0], &run_path())
            .map_err(|e| not_installed(path, &format!("{e} ({name})"), language))?;
    }
    Ok(Ok((argv, cached)))
}

/// The command line of a folder whose `run` file is the program, its files staged: `run`
/// itself when the kernel starts it (executable, an ELF program or a `#!` script), else
/// under `sh`.
fn run_script(files: &[FolderFile], staging: &mut Staging) -> Vec<String> {
    let mut argv = Vec::new();
    for file in files {
        let path = staging.file(&file.name, file.bytes.clone(), file.executable);
        if file.name == "run" {
            if !(file.executable && starts_itself(&file.bytes)) {
                argv.push("sh".to_owned());
            }
            argv.push(path.to_string_lossy().into_owned());
        }
    }
    argv
}

/// How a folder's `build` script runs, in the box, as a compile does: in a copy of the
/// folder (a compile's own files are read-only to it), `./build` when executable, else
/// under `sh`; then its folder, with the `run` it must leave, is packed as the compile's
/// one program (`tar`, of plain files and folders alone: `folder::built_tree` reads it
/// back).
const BUILD: &str = r#"
compile = ["sh", "-c", """
out=$1
tree=${out%/*}/tree
mkdir "$tree" && cp -pR ./* "$tree"/ && cd "$tree" || exit 1
if [ -x build ]; then ./build >&2; else sh ./build >&2; fi || { echo "the build script failed (exit status $?)" >&2; exit 1; }
[ -f run ] || { echo "the build script left no file named run" >&2; exit 1; }
tar --format=ustar -cf "$out" .
""", "build", "{out}"]
version = ["sh", "-c", "echo sh"]
run = ["{out}"]
"#;

/// Builds a folder with a `build` script (`files`, those of `dir`), as [`BUILD`] says,
/// cached as any compile: the command line of its `run` with the files the build left
/// staged, and whether it came from the cache. `Err` inside with the build's message, a
/// `CE`.
fn built_by_script(
    dir: &Path,
    files: &[FolderFile],
    options: &Options<'_>,
    staging: &mut Staging,
) -> Result<Staged, Fault> {
    let language: Language = toml::from_str(BUILD)
        .map_err(|e| Fault::internal(format!("the build script's command: {e}")))?;
    let bytes = files
        .iter()
        .find(|f| f.name == "build")
        .map(|f| f.bytes.clone())
        .unwrap_or_default();
    let names = Names::of_folder("build", &bytes, vec!["build".to_owned()], &language)
        .map_err(Fault::internal)?;
    let compiled = compile::compile(
        &dir.join("build"),
        (&bytes, files),
        &names,
        ("build", &language),
        &options.cache,
        (options.tier, options.header),
    )?;
    let (archive, cached) = match compiled {
        compile::Compiled::Program { path, cached } => (path, cached),
        compile::Compiled::Error(message) => return Ok(Err(("build+run".to_owned(), message))),
    };
    let archive =
        fs::read(&archive).map_err(|e| Fault::setup(files::cannot(&archive, "read", &e)))?;
    match folder::built_tree(&archive) {
        Ok(tree) => Ok(Ok((run_script(&tree, staging), cached))),
        Err(why) => Ok(Err(("build+run".to_owned(), why))),
    }
}

/// Whether the kernel starts a file of these bytes itself: an ELF program, or a script
/// whose first line (`#!`) names its interpreter.
fn starts_itself(bytes: &[u8]) -> bool {
    bytes.starts_with(b"#!") || bytes.starts_with(b"\x7fELF")
}

/// The arguments of an interpreter's version probe: its language's `version` command's
/// when that runs the interpreter (`node --version`), else `--version`.
fn probe_args(language: &Language) -> Vec<String> {
    match &language.version {
        Some(probe) if language.run.first() == probe.first() => probe[1..].to_vec(),
        _ => vec!["--version".to_owned()],
    }
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
fn foresee(submission: &Submission, options: &Options<'_>) -> Option<Foreseen> {
    let path = match submission {
        Submission::Command(_) => {
            return Some(Foreseen {
                language: "command".to_owned(),
                compiles: false,
            });
        }
        Submission::File(path) => path,
        // Told when read, as it is built.
        Submission::Folder(_) => return None,
    };
    let metadata = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    match options.language_of(path).ok()? {
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

/// Whether the kernel starts the file `path` itself: an ELF program, or a script whose
/// first line (`#!`) names its interpreter.
fn kernel_starts(path: &Path) -> Result<bool, Fault> {
    let mut head = [0u8; 4];
    let mut file =
        fs::File::open(path).map_err(|e| Fault::input(files::cannot(path, "read", &e)))?;
    let read = std::io::Read::read(&mut file, &mut head)
        .map_err(|e| Fault::input(files::cannot(path, "read", &e)))?;
    Ok(starts_itself(&head[..read]))
}

/// Whether a file without a language is run as a program: any execute bit.
fn executable(metadata: &fs::Metadata) -> bool {
    metadata.permissions().mode() & 0o111 != 0
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
