//! Compiling a source, cached by a hash of the source, the compiler's version and the
//! command, so that a second run of the same submission does not compile again.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::{compile_path, resolve};
use crate::files;
use crate::status::Fault;

/// How long a compiler may run: generous, a compile is trusted code.
const COMPILE_WALL: Duration = Duration::from_mins(2);
/// How much of a compiler's message the report keeps.
const MESSAGE_LINES: usize = 40;

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
/// `~/.cache/grader`.
pub(crate) fn default_cache() -> PathBuf {
    if let Some(dir) = std::env::var_os("GRADER_CACHE_DIR") {
        return dir.into();
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Path::new(&dir).join("grader");
    }
    match std::env::var_os("HOME") {
        Some(home) => Path::new(&home).join(".cache/grader"),
        None => std::env::temp_dir().join("grader-cache"),
    }
}

/// Compiles `source` with the `command` template of language `name`, or takes it from the
/// cache.
pub(crate) fn compile(
    source: &Path,
    name: &str,
    command: &[String],
    cache: &Path,
) -> Result<Compiled, Fault> {
    let bytes = files::read_capped(source)?;
    let compiler = resolve(&command[0], &compile_path()).map_err(|_| {
        Fault::Usage(format!(
            "{}: the compiler `{}` for {name} is not installed (or choose another with --lang, or --cmd)",
            source.display(),
            command[0]
        ))
    })?;
    let mut hash = Sha256::new();
    for part in [
        name.as_bytes(),
        command.join("\0").as_bytes(),
        version(&compiler).as_bytes(),
        &bytes,
    ] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    let key = hex(&hash.finalize());
    let entry = cache.join(&key);
    let program = entry.join("program");
    if program.is_file() {
        return Ok(Compiled::Program {
            path: program,
            cached: true,
        });
    }
    fs::create_dir_all(cache).map_err(|e| files::cannot(cache, "create", &e))?;
    let work = tempfile::Builder::new()
        .prefix(".compile-")
        .tempdir_in(cache)
        .map_err(|e| files::cannot(cache, "write into", &e))?;
    let out = work.path().join("program");
    // The compiler runs in its work folder on a copy of the source under its own name, so
    // its messages say `sol.cpp:4:23`, not a path of this machine.
    let name = source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "program")
        .unwrap_or_else(|| "source".to_owned());
    let copy = work.path().join(&name);
    fs::write(&copy, &bytes).map_err(|e| files::cannot(&copy, "write", &e))?;
    let argv: Vec<String> = command
        .iter()
        .map(|w| {
            w.replace("{src}", &name)
                .replace("{out}", &out.to_string_lossy())
        })
        .collect();
    let (ok, message) = run_compiler(&compiler, &argv[1..], work.path())?;
    if !ok || !out.is_file() {
        return Ok(Compiled::Error(trim(&message)));
    }
    // Publish atomically: a concurrent grader either finds the whole entry or none.
    let staged = work.keep();
    match fs::rename(&staged, &entry) {
        Ok(()) => {}
        Err(_) if program.is_file() => {
            let _ = fs::remove_dir_all(&staged);
        }
        Err(e) => return Err(files::cannot(&entry, "write", &e)),
    }
    Ok(Compiled::Program {
        path: program,
        cached: false,
    })
}

/// Lower-case hexadecimal, for digests used as names and keys.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut text, b| {
        let _ = write!(text, "{b:02x}");
        text
    })
}

/// The first line of `compiler --version`, remembered for the life of the process.
fn version(compiler: &str) -> String {
    static VERSIONS: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let versions = VERSIONS.get_or_init(Mutex::default);
    if let Some(v) = versions.lock().expect("not poisoned").get(compiler) {
        return v.clone();
    }
    let v = Command::new(compiler)
        .arg("--version")
        .env("PATH", compile_path())
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .unwrap_or_default();
    versions
        .lock()
        .expect("not poisoned")
        .insert(compiler.to_owned(), v.clone());
    v
}

/// Runs a compiler in `dir`, its output merged, with a wall limit.
fn run_compiler(compiler: &str, args: &[String], dir: &Path) -> Result<(bool, String), Fault> {
    let mut child = Command::new(compiler)
        .args(args)
        .current_dir(dir)
        .env("PATH", compile_path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Fault::Usage(format!("{compiler}: cannot run: {e}")))?;
    // Both pipes are read on their own threads so a chatty compiler never blocks.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| Fault::Internal(e.to_string()))?
        {
            break Some(status);
        }
        if start.elapsed() > COMPILE_WALL {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut message = err.join().unwrap_or_default();
    message.extend(out.join().unwrap_or_default());
    let message = String::from_utf8_lossy(&message).into_owned();
    match status {
        Some(status) => Ok((status.success(), message)),
        None => Ok((
            false,
            format!(
                "the compiler ran over {} s\n{message}",
                COMPILE_WALL.as_secs()
            ),
        )),
    }
}

/// The first lines of a compiler's message.
fn trim(message: &str) -> String {
    let lines: Vec<&str> = message.lines().collect();
    let mut kept = lines[..lines.len().min(MESSAGE_LINES)].join("\n");
    if lines.len() > MESSAGE_LINES {
        let _ = write!(kept, "\n... ({} more lines)", lines.len() - MESSAGE_LINES);
    }
    if kept.trim().is_empty() {
        "the compiler failed without a message".to_owned()
    } else {
        kept
    }
}
