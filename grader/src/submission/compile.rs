//! Compiling a source in a worker of the run's tier (in `strict`, a box that shows only the
//! system folders, the toolchain and the one source), under the language's compile
//! limits, with a clean environment; cached by a hash of the source, the compiler's
//! version, the real files it runs, the command and the tier, so that a second run of the
//! same submission does not compile again. A failed compile is cached like a success,
//! with the compiler's message, when the failure is the source's own (the compiler exited
//! and said why); a compile stopped by a limit or a signal (which a busy machine can
//! cause) is not.
//!
//! The cache is trusted only when nobody else can write it: its folder must belong to the
//! grader's user and be writable by nobody else (a folder made here is mode 0700), and a
//! cached program or message must still have the hash recorded when it was written.

use std::fs;
use std::io::{self};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sandbox::tiers::Tier;

use super::cache_entry::{MESSAGE, cached_message, publish, verified};
use super::compiler::{HEAD, Toolchain, above, limits, refusal, run_compiler, said, toolchain};
use super::folder::FolderFile;
use super::languages::Language;
use super::naming::{Names, PROGRAM};
use super::precompiled::{self, HeaderUse};
use crate::cli::exit::Fault;
use crate::paths::files;
use sandbox::Locked as _;

/// The result of a compile.
#[derive(Debug)]
pub(crate) enum Compiled {
    /// The compiled program, and whether it came from the cache.
    Program {
        /// Where it is.
        path: PathBuf,
        /// Whether no compile was needed.
        cached: bool,
    },
    /// The compiler's message.
    Error(String),
}

/// The default cache: `$GRADER_CACHE_DIR`, else `$XDG_CACHE_HOME/grader`, else
/// `~/.cache/grader`, else a folder of the temporary folder named for the user (checked
/// like any other: a folder planted there by someone else is refused).
pub(crate) fn default_cache() -> PathBuf {
    if let Some(dir) = std::env::var_os("GRADER_CACHE_DIR") {
        return dir.into();
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Path::new(&dir).join("grader");
    }
    match std::env::var_os("HOME") {
        Some(home) => Path::new(&home).join(".cache/grader"),
        None => std::env::temp_dir().join(format!("grader-cache-{}", nix::unistd::geteuid())),
    }
}

/// Makes sure `dir` is a cache only the grader's user can write: created mode 0700 when
/// missing; refused (a usage error naming it) when it is not a folder, belongs to someone
/// else, or others may write it.
fn checked_cache(dir: &Path) -> Result<(), Fault> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::paths::folders::create_own(parent)?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(Fault::setup(files::cannot(dir, "create", &e))),
    }
    let meta =
        fs::symlink_metadata(dir).map_err(|e| Fault::setup(files::cannot(dir, "read", &e)))?;
    let refuse = |why: &str| {
        Err(Fault::setup(format!(
            "{}: the compile cache {why}; a program in it could be planted (use a folder of your own, mode 0700, or --cache-dir)",
            dir.display()
        )))
    };
    if meta.is_file() {
        return Err(Fault::setup(crate::paths::folders::not_a_folder(
            dir,
            "use as the compile cache",
        )));
    }
    if !meta.is_dir() {
        return refuse("is not a folder");
    }
    if meta.uid() != nix::unistd::geteuid().as_raw() {
        return refuse(&format!("belongs to uid {}, not to you", meta.uid()));
    }
    if meta.permissions().mode() & 0o022 != 0 {
        return refuse(&format!(
            "may be written by others (mode {:o})",
            meta.permissions().mode() & 0o7777
        ));
    }
    Ok(())
}

/// Makes sure `dir` can serve as the compile cache: [`checked_cache`]'s rules, and a
/// folder can be made in it. A cache that cannot be written is the setup's fault, found
/// before anything compiles (and before a batch grades anyone), never a student's.
///
/// Once per folder and process: what was found can change only by the hand of the
/// folder's owner, who runs the grader; and a probe folder made and removed for each of
/// a class's 3,000 compiles was a quarter of its rerun's time (ext4 looks long for a new
/// folder's inode where many were just removed).
pub(crate) fn usable_cache(dir: &Path) -> Result<(), Fault> {
    static USABLE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let found = |usable: &Vec<PathBuf>| usable.iter().any(|d| d == dir);
    if found(&USABLE.locked()) {
        return Ok(());
    }
    checked_cache(dir)?;
    super::cache_sweep::once(dir);
    tempfile::Builder::new()
        .prefix(".probe-")
        .tempdir_in(dir)
        .map_err(|e| Fault::setup(files::cannot(dir, "write into the compile cache", &e)))?;
    let mut usable = USABLE.locked();
    if !found(&usable) {
        usable.push(dir.to_path_buf());
    }
    Ok(())
}

/// Makes sure the compiler of language `name` is installed (`source` is named in the
/// error).
pub(crate) fn check_compiler(source: &Path, name: &str, language: &Language) -> Result<(), Fault> {
    toolchain(name, language, source).map(drop)
}

/// Compiles `source` (holding `bytes`, named `names` in its commands, with the files of
/// its folder `beside` it, when it is a folder's) as language `name`, or takes it from
/// the cache.
pub(crate) fn compile(
    source: &Path,
    (bytes, beside): (&[u8], &[FolderFile]),
    names: &Names,
    (name, language): (&str, &Language),
    cache: &Path,
    (tier, usage): (Tier, HeaderUse),
) -> Result<Compiled, Fault> {
    let toolchain = toolchain(name, language, source)?;
    let key = cache_key(
        (name, language),
        &toolchain,
        tier,
        (&names.source, bytes, beside),
    );
    usable_cache(cache)?;
    let entry = cache.join(&key);
    if let Some(cached) = from_cache(&entry) {
        return Ok(cached);
    }
    let limits = limits(&language.compile_limits, tier);
    let header = precompiled::folder(bytes, (name, language), &toolchain, (tier, usage), cache)?;
    let command = language
        .compile
        .as_ref()
        .expect("only compiled languages are compiled");
    let file_name = &names.source;
    let run = |headers: Option<&Path>| {
        run_compiler(
            source,
            (file_name, bytes, beside),
            (language, &toolchain),
            headers,
            &limits,
            |out, headers| {
                let mut args: Vec<String> = command[1..]
                    .iter()
                    .flat_map(|w| names.fill_words(w, file_name, out))
                    .collect();
                // Last: the command's first word may be a wrapper of the compiler, and
                // GCC takes an include folder anywhere among its words.
                args.extend(headers.map(|dir| format!("-I{}", dir.display())));
                args
            },
        )
    };
    let (mut outcome, mut built) = run(header.as_deref())?;
    if header.is_some() && refusal(&outcome, &limits).is_some() {
        // A failed compile again without the precompiled header: its message is then the
        // compiler's own for the source as written (with one, GCC names the file the
        // header was built from where an include chain would name the student's).
        (outcome, built) = run(None)?;
    }
    if let Some(refusal) = refusal(&outcome, &limits) {
        if refusal.own {
            publish(&mut refusal.message.as_bytes(), cache, &entry, MESSAGE)?;
        }
        return Ok(Compiled::Error(refusal.message));
    }
    let Some(mut built) = built else {
        return Ok(Compiled::Error(above(
            &format!("{HEAD} ended without writing the program"),
            &said(&outcome),
        )));
    };
    publish(&mut built, cache, &entry, PROGRAM)?;
    Ok(Compiled::Program {
        path: entry.join(PROGRAM),
        cached: false,
    })
}

/// The name of a compile's cache entry: a hash of the language, its compile command, the
/// compiler's version and real files (their paths, sizes and times: another compiler of
/// the same name and version, or an upgrade, is not the same), the tier and the source:
/// its text and the file name the compiler sees (its messages say `sol.c:4:2`, and a `CE`
/// replayed from the cache must name the student's own file, not another's with the same
/// text); and a folder's other files, each with its name and whether it is executable.
fn cache_key(
    (name, language): (&str, &Language),
    toolchain: &Toolchain,
    tier: Tier,
    (file_name, bytes, beside): (&str, &[u8], &[FolderFile]),
) -> String {
    let command = language
        .compile
        .as_ref()
        .expect("only compiled languages are compiled");
    let mut key = toolchain.key("compile", name, command, tier);
    key.part(file_name).part(bytes);
    // A single file's key is as it always was: its cached compiles stay good.
    if !beside.is_empty() {
        key.count(beside.len());
        for file in beside {
            key.part(&file.name)
                .part(&file.bytes)
                .part(if file.executable { "x" } else { "-" });
        }
    }
    key.hex()
}

/// What the cache entry holds, when it is verified: the program, or a failure's message.
fn from_cache(entry: &Path) -> Option<Compiled> {
    if verified(entry, PROGRAM) {
        return Some(Compiled::Program {
            path: entry.join(PROGRAM),
            cached: true,
        });
    }
    cached_message(entry).map(Compiled::Error)
}
