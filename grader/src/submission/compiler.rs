//! Running a compiler: which toolchain a language's compile uses (its real files, its
//! version, the `PATH` it is found on), the compile's limits in a tier, the compile run in
//! a worker of that tier with a clean environment, and why a compile failed, decided by
//! cause by the same rules as any run (`judge`). `compile` and `precompiled` both run
//! compilers through here.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use sandbox::tiers::Tier;
use sandbox::trace;
use sandbox::{Files, Input, Job, Limits, Outcome, Stderr, Worker};

use super::folder::FolderFile;
use super::languages::not_installed;
use super::languages::{CompileLimits, Language};
use super::lookup::{Located, compile_path, follow, resolve};
use super::naming::PROGRAM;
use super::staging::{make_folders, stage_dir};
use crate::cli::exit::Fault;
use crate::keys::Key;
use crate::paths::files;
use crate::run::judge;
use reference::{Judgement, Verdict};

/// How much of a compiler's message the report keeps.
const MESSAGE_LINES: usize = 40;

/// How many bytes of a compiler's standard error are read into memory: the first errors.
const MESSAGE_BYTES: usize = 256 * 1024;

/// How the grader's own words open a `CE` message (a compile it stopped, or one that wrote
/// nothing), above whatever the compiler said: that line, not the compiler's, sums it up.
pub(crate) const HEAD: &str = "the compiler";

/// Runs the compiler of `toolchain` on `file` (its name and bytes, staged beside the
/// compile, which runs in its folder, with the other files of its folder when it is a
/// folder's) in a worker of the limits' tier, with the words
/// `args` gives for a program written to the path it is handed and the folder of
/// precompiled `headers` (when given) where the compile sees it: how it ended, and the
/// program it wrote, if any. `source` is named in errors.
pub(super) fn run_compiler(
    source: &Path,
    (file_name, bytes, beside): (&str, &[u8], &[FolderFile]),
    (language, toolchain): (&Language, &Toolchain),
    headers: Option<&Path>,
    limits: &Limits,
    args: impl FnOnce(&str, Option<&Path>) -> Vec<String>,
) -> Result<(Outcome, Option<fs::File>), Fault> {
    let staging = stage_dir()?;
    // The compiler runs beside a copy of the source under its own name (or the one its
    // language gives it), so its messages say `sol.cpp:4:23`, not a path of this machine.
    let own = [(file_name, bytes, false)];
    let others = beside
        .iter()
        .filter(|f| f.name != file_name)
        .map(|f| (f.name.as_str(), f.bytes.as_slice(), f.executable));
    for (name, bytes, executable) in own.into_iter().chain(others) {
        let copy = staging.path().join(name);
        if let Some(parent) = copy.parent().filter(|p| *p != staging.path()) {
            make_folders(parent)?;
        }
        let mode = if executable { 0o755 } else { 0o644 };
        fs::write(&copy, bytes).map_err(|e| Fault::setup(files::cannot(&copy, "write", &e)))?;
        fs::set_permissions(&copy, fs::Permissions::from_mode(mode))
            .map_err(|e| Fault::setup(files::cannot(&copy, "write", &e)))?;
    }
    let config = sandbox::Config {
        tier: limits.sandbox,
        memory: limits.memory,
        toolchain: toolchain.folders.clone(),
        headers: headers.map(Path::to_path_buf),
    };
    let fault = |e: io::Error| Fault::internal(format!("cannot compile {}: {e}", source.display()));
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
        keep: &[PROGRAM],
        address_space: language.compile_limits.address_space,
    };
    let ran = worker.run(&job, limits);
    // A compile the grader killed on its way out says nothing of the source.
    crate::cli::interrupt::check()?;
    let ran = ran.map_err(fault)?;
    // For the next compile of this toolchain: each run of a worker starts from a work
    // folder as new, like runs of different students in a batch.
    sandbox::keep_spare(config, worker);
    let (outcome, kept) = ran;
    Ok((outcome, kept.into_iter().next().flatten()))
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
    pub(super) message: String,
    /// Whether the failure is the source's own: the compiler exited with a status and said
    /// why, so the same source fails the same way again and the failure may be cached. A
    /// limit or a signal may be the machine's (a busy one, the OOM killer), and is not.
    pub(super) own: bool,
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
pub(super) fn above(head: &str, said: &str) -> String {
    if said.is_empty() {
        head.to_owned()
    } else {
        format!("{head}\n{said}")
    }
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

impl Toolchain {
    /// A key of kind `kind` that names this toolchain compiling as language `name` with
    /// `command` in `tier`: the part of the compile cache's keys and the precompiled
    /// headers' keys that both share. The tier is in it: a source may compile only where
    /// the box shows it more (an `#include` of a file outside), so no result is reused
    /// across tiers.
    pub(super) fn key(&self, kind: &str, name: &str, command: &[String], tier: Tier) -> Key {
        let mut key = Key::new(kind);
        key.part(name)
            .list(command)
            .part(&self.version)
            .part(&self.identity)
            .part(tier.to_string());
        key
    }
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
pub(super) fn toolchain(
    name: &str,
    language: &Language,
    source: &Path,
) -> Result<Toolchain, Fault> {
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
    for folder in &language.compile_shows {
        located.show(folder);
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
pub(super) fn said(outcome: &Outcome) -> String {
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
