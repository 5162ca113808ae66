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

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use sandbox::tiers::Tier;
use sandbox::trace;
use sandbox::{Files, Input, Job, Limits, Outcome, Stderr, Worker};
use sha2::{Digest, Sha256};

use super::languages::{CompileLimits, Language};
use super::lookup::{Located, compile_path, follow, resolve};
use super::naming::{Names, PROGRAM};
use super::precompiled;
use super::setup::not_installed;
use super::staging::stage_dir;
use crate::cli::exit::Fault;
use crate::paths::files;
use crate::run::judge;
use reference::{Judgement, Verdict};

/// How much of a compiler's message the report keeps.
const MESSAGE_LINES: usize = 40;
/// How many bytes of a compiler's standard error are read into memory: the first errors.
const MESSAGE_BYTES: usize = 256 * 1024;
/// The name of a failed compile's message in a cache entry.
const MESSAGE: &str = "message";
/// How the grader's own words open a `CE` message (a compile it stopped, or one that wrote
/// nothing), above whatever the compiler said: that line, not the compiler's, sums it up.
pub(crate) const HEAD: &str = "the compiler";

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
        crate::paths::folders::create(parent)?;
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(files::cannot(dir, "create", &e)),
    }
    let meta = fs::symlink_metadata(dir).map_err(|e| files::cannot(dir, "read", &e))?;
    let refuse = |why: &str| {
        Err(Fault::Usage(format!(
            "{}: the compile cache {why}; a program in it could be planted (use a folder of your own, mode 0700, or --cache-dir)",
            dir.display()
        )))
    };
    if meta.is_file() {
        return Err(crate::paths::folders::not_a_folder(
            dir,
            "use as the compile cache",
        ));
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
    if found(&USABLE.lock().unwrap_or_else(PoisonError::into_inner)) {
        return Ok(());
    }
    checked_cache(dir)?;
    super::cache_sweep::once(dir);
    tempfile::Builder::new()
        .prefix(".probe-")
        .tempdir_in(dir)
        .map_err(|e| files::cannot(dir, "write into the compile cache", &e))?;
    let mut usable = USABLE.lock().unwrap_or_else(PoisonError::into_inner);
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

/// Compiles `source` (holding `bytes`, named `names` in its commands) as language `name`,
/// or takes it from the cache.
pub(crate) fn compile(
    source: &Path,
    bytes: &[u8],
    names: &Names,
    (name, language): (&str, &Language),
    cache: &Path,
    tier: Tier,
) -> Result<Compiled, Fault> {
    let toolchain = toolchain(name, language, source)?;
    let key = cache_key((name, language), &toolchain, tier, (&names.source, bytes));
    usable_cache(cache)?;
    let entry = cache.join(&key);
    if let Some(cached) = from_cache(&entry) {
        return Ok(cached);
    }
    let limits = limits(&language.compile_limits, tier);
    let header = precompiled::folder(bytes, (name, language), &toolchain, tier, cache)?;
    let command = language
        .compile
        .as_ref()
        .expect("only compiled languages are compiled");
    let file_name = &names.source;
    let run = |headers: Option<&Path>| {
        run_compiler(
            source,
            (file_name, bytes),
            (language, &toolchain),
            headers,
            &limits,
            |out, headers| {
                let mut args: Vec<String> = command[1..]
                    .iter()
                    .map(|w| names.fill(w, file_name, out))
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
/// text).
fn cache_key(
    (name, language): (&str, &Language),
    toolchain: &Toolchain,
    tier: Tier,
    (file_name, bytes): (&str, &[u8]),
) -> String {
    let command = language
        .compile
        .as_ref()
        .expect("only compiled languages are compiled");
    // The tier is part of the key: a source may compile only where the box shows it
    // more (an `#include` of a file outside), so no result is reused across tiers.
    let tier_name = format!("{tier:?}");
    hash_of(&[
        name.as_bytes(),
        command.join("\0").as_bytes(),
        toolchain.version.as_bytes(),
        toolchain.identity.as_bytes(),
        tier_name.as_bytes(),
        file_name.as_bytes(),
        bytes,
    ])
}

/// A key from its parts (a cache entry's name, a package judge's journal key): each
/// hashed after its length, so that no two lists of parts give the same bytes. The one
/// framing of keys kept on disk.
pub(crate) fn hash_of(parts: &[&[u8]]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hex(&hash.finalize())
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

/// Runs the compiler of `toolchain` on `file` (its name and bytes, staged beside the
/// compile, which runs in its folder) in a worker of the limits' tier, with the words
/// `args` gives for a program written to the path it is handed and the folder of
/// precompiled `headers` (when given) where the compile sees it: how it ended, and the
/// program it wrote, if any. `source` is named in errors.
pub(super) fn run_compiler(
    source: &Path,
    (file_name, bytes): (&str, &[u8]),
    (language, toolchain): (&Language, &Toolchain),
    headers: Option<&Path>,
    limits: &Limits,
    args: impl FnOnce(&str, Option<&Path>) -> Vec<String>,
) -> Result<(Outcome, Option<fs::File>), Fault> {
    let staging = stage_dir()?;
    // The compiler runs beside a copy of the source under its own name (or the one its
    // language gives it), so its messages say `sol.cpp:4:23`, not a path of this machine.
    let copy = staging.path().join(file_name);
    fs::write(&copy, bytes).map_err(|e| files::cannot(&copy, "write", &e))?;
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o644))
        .map_err(|e| files::cannot(&copy, "write", &e))?;
    let config = sandbox::Config {
        tier: limits.sandbox,
        memory: limits.memory,
        toolchain: toolchain.folders.clone(),
        headers: headers.map(Path::to_path_buf),
    };
    let fault = |e: io::Error| Fault::Internal(format!("cannot compile {}: {e}", source.display()));
    let mut worker = Worker::start(&config).map_err(fault)?;
    let out = worker.work_dir().join(PROGRAM);
    let mut argv = vec![toolchain.compiler.clone()];
    argv.extend(args(
        &out.to_string_lossy(),
        config.headers_dir().as_deref(),
    ));
    let mut env = vec![
        format!("PATH={}", toolchain.path),
        "LANG=C.UTF-8".to_owned(),
        // A ccache in the way (`/usr/lib/ccache` early in PATH) runs the compiler without
        // a cache of its own, which the box could not write anyway: the grader keeps one.
        "CCACHE_DISABLE=1".to_owned(),
    ];
    env.extend(language.compile_env.iter().cloned());
    let job = Job {
        argv,
        files: Files::Folder(staging.path()),
        in_files: true,
        env,
        stdin: Input::Empty,
        stderr: Stderr::Head(MESSAGE_BYTES),
        keep: Some(PROGRAM),
        address_space: true,
    };
    let ran = worker.run(&job, limits);
    // A compile the grader killed on its way out says nothing of the source.
    crate::cli::interrupt::check()?;
    let ran = ran.map_err(fault)?;
    // For the next compile of this toolchain: each run of a worker starts from a work
    // folder as new, like runs of different students in a batch.
    sandbox::keep_spare(config, worker);
    Ok(ran)
}

/// The limits of a compile in `tier`.
pub(super) fn limits(limits: &CompileLimits, tier: Tier) -> Limits {
    Limits {
        cpu: Duration::from_secs(limits.cpu_secs),
        wall: Duration::from_secs(limits.wall_secs),
        memory: limits.memory_mib << 20,
        output: limits.messages_mib << 20,
        processes: limits.processes,
        sandbox: tier,
    }
}

/// Why a compile failed.
pub(super) struct Refusal {
    /// The `CE` message.
    message: String,
    /// Whether the failure is the source's own: the compiler exited with a status and said
    /// why, so the same source fails the same way again and the failure may be cached. A
    /// limit or a signal may be the machine's (a busy one, the OOM killer), and is not.
    own: bool,
}

/// Why a compile failed; `None` when it succeeded. A limit is decided by cause, by the
/// same rules as any run's verdict.
pub(super) fn refusal(outcome: &Outcome, limits: &Limits) -> Option<Refusal> {
    let judgement = judge::judge(outcome, limits, |_| Judgement::accepted());
    let said = said(outcome);
    let head = match judgement.verdict {
        Verdict::Accepted => return None,
        Verdict::TimeLimit | Verdict::MemoryLimit | Verdict::OutputLimit => {
            format!("{HEAD} was stopped: {}", judgement.message)
        }
        _ if said.is_empty() => format!("{HEAD} failed without a message ({})", judgement.message),
        _ => {
            return Some(Refusal {
                message: said,
                own: outcome.code.is_some() && outcome.signal.is_none(),
            });
        }
    };
    Some(Refusal {
        message: above(&head, &said),
        own: false,
    })
}

/// `head`, with what the compiler said below it when it said anything.
fn above(head: &str, said: &str) -> String {
    if said.is_empty() {
        head.to_owned()
    } else {
        format!("{head}\n{said}")
    }
}

/// Whether the cache entry holds the file `name` (the program or a failure's message)
/// with the hash recorded beside it.
pub(super) fn verified(entry: &Path, name: &str) -> bool {
    // A hash is 64 hex digits: anything longer there is not one, and is not read on.
    let (Ok((recorded, true)), Ok(mut file)) = (
        crate::paths::files::read_head(&entry.join(format!("{name}.sha256")), 256),
        fs::File::open(entry.join(name)),
    ) else {
        return false;
    };
    digest(&mut file).is_ok_and(|d| d.as_bytes() == recorded.trim_ascii())
}

/// The message of a failed compile the cache entry holds, when it is verified.
fn cached_message(entry: &Path) -> Option<String> {
    if !verified(entry, MESSAGE) {
        return None;
    }
    // Read after the check: the cache belongs to the grader's user alone.
    fs::read_to_string(entry.join(MESSAGE)).ok()
}

/// Whether the cache entry holds a verified program or message.
fn intact(entry: &Path) -> bool {
    verified(entry, PROGRAM) || verified(entry, MESSAGE)
}

fn digest(reader: &mut impl Read) -> io::Result<String> {
    let mut hashing = Hashing::new(io::sink());
    io::copy(reader, &mut hashing)?;
    Ok(hashing.hex())
}

/// A writer that hashes what passes through it.
struct Hashing<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Hashing<W> {
    fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            hash: Sha256::new(),
        }
    }

    /// The hash of everything written, in hexadecimal.
    fn hex(self) -> String {
        hex(&self.hash.finalize())
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hash.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Copies the compiled program (or a failure's message), as the file `name`, into the
/// cache with its hash, and publishes the entry atomically: a concurrent grader either
/// finds the whole entry or none.
pub(super) fn publish(
    built: &mut impl Read,
    cache: &Path,
    entry: &Path,
    name: &str,
) -> Result<(), Fault> {
    let work = tempfile::Builder::new()
        .prefix(".compile-")
        .tempdir_in(cache)
        .map_err(|e| files::cannot(cache, "write into", &e))?;
    // Readable by all (the cache itself is the grader's user's alone): a precompiled
    // header's entry is shown to boxes whose programs run as another uid.
    let open = |dir: &Path| {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
            .map_err(|e| files::cannot(dir, "write", &e))
    };
    open(work.path())?;
    let program = work.path().join(name);
    let mut dir = work.path().to_path_buf();
    for folder in Path::new(name)
        .parent()
        .into_iter()
        .flat_map(Path::components)
    {
        dir.push(folder);
        fs::create_dir(&dir).map_err(|e| files::cannot(&dir, "write", &e))?;
        open(&dir)?;
    }
    let to = fs::File::create(&program).map_err(|e| files::cannot(&program, "write", &e))?;
    // Hashed as it is written: the record is of these very bytes.
    let mut to = Hashing::new(to);
    io::copy(built, &mut to).map_err(|e| files::cannot(&program, "write", &e))?;
    let hash = to.hex();
    let mode = if name == PROGRAM { 0o755 } else { 0o644 };
    fs::set_permissions(&program, fs::Permissions::from_mode(mode))
        .map_err(|e| files::cannot(&program, "write", &e))?;
    let record = work.path().join(format!("{name}.sha256"));
    fs::write(&record, hash).map_err(|e| files::cannot(&record, "write", &e))?;
    // A stale entry (it failed verification) makes way; a whole one stays (another
    // grader published it meanwhile, and may be using it).
    let whole = |entry: &Path| verified(entry, name) || intact(entry);
    if entry.exists() && !whole(entry) {
        let _ = fs::remove_dir_all(entry);
    }
    let staged = work.keep();
    match fs::rename(&staged, entry) {
        Ok(()) => Ok(()),
        Err(_) if whole(entry) => {
            let _ = fs::remove_dir_all(&staged);
            Ok(())
        }
        Err(e) => Err(files::cannot(entry, "write", &e)),
    }
}

/// Lower-case hexadecimal, for digests used as names and keys.
pub(crate) fn hex(bytes: &[u8]) -> String {
    // By table, not `write!`: a batch's rerun keys every (student, case) run, 450,000 of
    // them for a class of 3,000, and formatting each byte showed in its profile.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    text
}

/// A compiler as the box runs it.
#[derive(Debug, Clone)]
pub(super) struct Toolchain {
    /// The compiler's absolute path.
    compiler: String,
    /// What of the machine outside the system folders it needs shown.
    folders: Vec<PathBuf>,
    /// `PATH` in the compile's environment.
    path: String,
    /// The first line of its `--version`, for the cache key.
    pub(super) version: String,
    /// The real files the compile runs, with their sizes and times, for the cache key.
    pub(super) identity: String,
}

/// Where the programs of language `language`'s compile are looked up: the compile's own
/// `PATH` (the user's first), except for a check run by the language's own interpreter
/// (Python's syntax check), found where the runs find it, the system's folders first: a
/// worker's uid may enter those, and the check must judge the source with the interpreter
/// that will run it.
pub(super) fn search_path(language: &Language) -> String {
    let command = language.compile.as_ref().expect("a compiled language");
    if language.run.first() == Some(&command[0]) {
        super::lookup::run_path()
    } else {
        compile_path()
    }
}

/// The toolchain of language `name`, probed once per process: where the compiler really
/// is (through its `sysroot` command when it has one, else through the links on the way
/// and what its traced version probe starts: `lookup::follow`), what the box must show,
/// and its version. The probes run the user's own compiler with fixed arguments (trusted,
/// no source involved), as the grader's user.
fn toolchain(name: &str, language: &Language, source: &Path) -> Result<Toolchain, Fault> {
    static KNOWN: OnceLock<Mutex<HashMap<String, Toolchain>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Mutex::default);
    let command = language.compile.as_ref().expect("a compiled language");
    let cache_key = format!("{name}\0{}", command.join("\0"));
    if let Some(t) = known.lock().expect("not poisoned").get(&cache_key) {
        return Ok(t.clone());
    }
    let search = search_path(language);
    // `what` (a program the compile needs) in the compile's PATH, or why it is missing.
    let installed = |program: &str, what: String| {
        resolve(program, &search)
            .map(PathBuf::from)
            .map_err(|_| not_installed(source, &what, language))
    };
    let found = installed(
        &command[0],
        format!("the compiler `{}` for {name} is not installed", command[0]),
    )?;
    // The version probe: the language's own (a compile that is a script names the program
    // that must be there by it: `javac`), else the compiler's `--version`.
    let (probed, args) = match &language.version {
        Some(probe) => (
            installed(
                &probe[0],
                format!("`{}` for {name} is not installed", probe[0]),
            )?,
            probe[1..].to_vec(),
        ),
        None => (found.clone(), vec!["--version".to_owned()]),
    };
    let probe = trace::probe(&probed, &args, &search);
    let sysroot = language
        .sysroot
        .as_ref()
        .and_then(|sysroot| trace::probe(&found, &sysroot[1..], &search))
        .and_then(|probe| probe.first_line())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute() && p.is_dir());
    let mut located = match &sysroot {
        Some(root) => Located::in_sysroot(&found, root),
        None if probed == found => follow(&found, &args, probe.as_ref()),
        None => Located::at(&found),
    };
    if probed != found {
        // The compile runs the probed program by its name: it is shown, and its folder
        // leads the PATH.
        located.join(follow(&probed, &args, probe.as_ref()));
    }
    let toolchain = Toolchain {
        compiler: located.run.to_string_lossy().into_owned(),
        folders: located.folders(),
        path: located.path(),
        version: probe
            .as_ref()
            .and_then(trace::Probe::first_line)
            .unwrap_or_default(),
        identity: located.identity(),
    };
    known
        .lock()
        .expect("not poisoned")
        .insert(cache_key, toolchain.clone());
    Ok(toolchain)
}

/// The first lines of what the compiler printed (standard error, then standard output);
/// empty when it printed nothing.
fn said(outcome: &Outcome) -> String {
    let mut text = String::from_utf8_lossy(&outcome.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&outcome.stdout));
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = lines[..lines.len().min(MESSAGE_LINES)].join("\n");
    if lines.len() > MESSAGE_LINES {
        let _ = write!(kept, "\n... ({} more lines)", lines.len() - MESSAGE_LINES);
    }
    if kept.trim().is_empty() {
        kept.clear();
    }
    kept
}
