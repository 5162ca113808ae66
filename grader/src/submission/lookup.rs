//! Where programs are found: the `PATH` runs get, the search paths of compilers (the
//! user's first) and of interpreters (the system's first), and where a program found
//! there really is: through the links on the way (a folder of links early in `PATH`, a
//! Nix profile, ccache's `/usr/lib/ccache`) and, once its probe was traced
//! (`trace.rs`), through the shims, wrapper scripts and dispatchers that start it
//! (pyenv, asdf, mise, ccache): the path a box runs it by, and the installation the box
//! must show for it.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sandbox::tiers::in_system_folders;
use sandbox::trace::{self, Exec, Probe};

use crate::cli::exit::Fault;
use crate::paths::files;

/// The `PATH` programs run with, and where commands are looked up.
pub(crate) const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The box's own folders (the `sandbox` crate's `boxed.rs`): a path of the machine there
/// cannot be shown at its place.
const BOX_OWN: [&str; 5] = ["/tmp", "/box", "/prog", "/dev", "/proc"];

/// Package stores whose packages name one another by absolute path (a Nix compiler's
/// wrapper, its libc's headers, its shell): a program there needs the whole store.
const STORES: [&str; 2] = ["/nix/store", "/gnu/store"];

/// How many symbolic links a chain may have (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// An absolute path for a command: as given when it has a `/`, else looked up in [`PATH`].
pub(super) fn resolve(command: &str, search: &str) -> Result<String, Fault> {
    if command.contains('/') {
        let path = Path::new(command);
        let absolute =
            std::path::absolute(path).map_err(|e| Fault::input(files::cannot(path, "find", &e)))?;
        if !absolute.is_file() {
            return Err(Fault::input(files::cannot(
                path,
                "run",
                &std::io::Error::from(std::io::ErrorKind::NotFound),
            )));
        }
        return Ok(absolute.to_string_lossy().into_owned());
    }
    search
        .split(':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(dir).join(command))
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
        .ok_or_else(|| Fault::setup(format!("`{command}`: not found in {search}")))
}

/// Where compilers are looked up: the user's own `PATH` first (a toolchain installed by
/// rustup lives there), then the system folders. Compilers run as the user.
pub(super) fn compile_path() -> String {
    match std::env::var("PATH") {
        Ok(user) if !user.is_empty() => format!("{user}:{PATH}"),
        _ => PATH.to_owned(),
    }
}

/// Where interpreters and `--cmd` programs are looked up: the system folders first, since
/// the program may run as an unprivileged user who cannot enter the user's home (a pyenv
/// shim in `/root` is no use to a worker's uid), then the user's `PATH`.
pub(super) fn run_path() -> String {
    match std::env::var("PATH") {
        Ok(user) if !user.is_empty() => format!("{PATH}:{user}"),
        _ => PATH.to_owned(),
    }
}

/// A program as a box runs it: by which path, what the box must show of the machine for
/// it, and which files it really is.
#[derive(Debug, Clone, Default)]
pub(super) struct Located {
    /// The path it runs by: the last link on the way to it that still has the name it was
    /// found by (ccache, busybox and mise's shims tell by that name what to be) and that a
    /// box can show, else the first path on the way a box can show; with its folder's own
    /// links resolved.
    pub(super) run: PathBuf,
    /// What a box must show for it: the links from `run` on, and the installation of each
    /// real file (see [`installation`]); those in the system folders go.
    shown: Vec<PathBuf>,
    /// The folders of the real files outside the system folders, for the front of `PATH`.
    bin: Vec<PathBuf>,
    /// The real files it runs, canonical: the program, and what a probe saw it need (the
    /// interpreter of a script, the programs a wrapper starts).
    real: Vec<PathBuf>,
}

impl Located {
    /// `found` as the file system has it: the chain of its links, run by the last one
    /// with its name that a box can show (see [`Located::run`]).
    pub(super) fn at(found: &Path) -> Located {
        let chain = links(found);
        let name = found.file_name();
        let run = chain
            .iter()
            .rposition(|p| p.file_name() == name && showable(p))
            .or_else(|| chain.iter().position(|p| showable(p)))
            .unwrap_or(0);
        let mut located = Located {
            run: chain[run].clone(),
            ..Located::default()
        };
        // The box makes each link the same link, so the program runs by its path.
        located
            .shown
            .extend(chain[run..chain.len() - 1].iter().cloned());
        located.also(&chain[chain.len() - 1]);
        located
    }

    /// A rustup toolchain's compiler: the one in `root/bin` (the `sysroot`), else `found`;
    /// the box shows the whole `root`, whose `bin` leads the `PATH`.
    pub(super) fn in_sysroot(found: &Path, root: &Path) -> Located {
        let inner = root.join("bin").join(found.file_name().unwrap_or_default());
        let mut located = Located::at(if inner.is_file() { &inner } else { found });
        if !in_system_folders(root) {
            let bin = root.join("bin");
            located.shown.push(root.to_path_buf());
            located.bin.retain(|b| *b != bin);
            located.bin.insert(0, bin);
        }
        located
    }

    /// Adds a program the runs also need (the interpreter of a script, a program a
    /// wrapper starts): its installation is shown, its folder joins `PATH`, and it is one
    /// of the real files.
    fn also(&mut self, program: &Path) {
        let real = canonical(program);
        if self.real.contains(&real) {
            return;
        }
        self.shown.extend(installation(&real));
        if !in_system_folders(&real)
            && let Some(folder) = real.parent()
            && !self.bin.iter().any(|b| b == folder)
        {
            self.bin.push(folder.to_path_buf());
        }
        self.real.push(real);
    }

    /// Adds a folder its compiles read beside its programs (see `compile_shows` in
    /// `languages.rs`), when it exists.
    pub(super) fn show(&mut self, folder: &Path) {
        if folder.is_dir() {
            self.shown.push(folder.to_path_buf());
        }
    }

    /// Adds what `other` needs shown, on `PATH` and as real files.
    pub(super) fn join(&mut self, other: Located) {
        self.shown.extend(other.shown);
        for folder in other.bin {
            if !self.bin.contains(&folder) {
                self.bin.push(folder);
            }
        }
        for real in other.real {
            if !self.real.contains(&real) {
                self.real.push(real);
            }
        }
    }

    /// What a box must show: outside the system folders, sorted (a folder before what is
    /// in it), without what a shown folder already holds.
    pub(super) fn folders(&self) -> Vec<PathBuf> {
        let mut shown: Vec<PathBuf> = self
            .shown
            .iter()
            .filter(|p| !in_system_folders(p) && showable(p))
            .cloned()
            .collect();
        shown.sort();
        shown.dedup();
        let all = shown.clone();
        shown.retain(|p| !all.iter().any(|q| q != p && p.starts_with(q)));
        shown
    }

    /// The `PATH` of its runs: the real files' folders outside the system's, then [`PATH`].
    pub(super) fn path(&self) -> String {
        let mut path = String::new();
        for folder in &self.bin {
            let _ = write!(path, "{}:", folder.display());
        }
        path.push_str(PATH);
        path
    }

    /// The real files it runs, each with its size and modification time (an upgrade, or
    /// another program put in its place, changes them): a part of the compile cache's key.
    pub(super) fn identity(&self) -> String {
        let mut identity = String::new();
        for real in &self.real {
            let _ = write!(identity, "{}", real.display());
            if let Ok(meta) = fs::metadata(real) {
                let _ = write!(
                    identity,
                    " {} {}.{:09}",
                    meta.len(),
                    meta.mtime(),
                    meta.mtime_nsec()
                );
            }
            identity.push('\n');
        }
        identity
    }
}

/// Where `found` runs from, after its probe (`found args`, traced) showed what it starts.
/// A program that started nothing more runs as it is. One that ended by starting another
/// program on the very same arguments (a shim, a dispatcher: pyenv, asdf, mise, ccache,
/// `exec real-gcc "$@"`) chose that program by the user's settings, outside the box:
/// the runs start that program directly (a script's interpreter shown too). One that
/// changed the arguments on the way (a wrapper adding flags, as Nix's compiler wrapper
/// does) runs itself, with every program it started shown.
pub(super) fn follow(found: &Path, args: &[String], probe: Option<&Probe>) -> Located {
    let mut located = Located::at(found);
    let execs = probe.map_or(&[][..], |p| &p.execs[..]);
    let [_, .., last] = execs else {
        return located;
    };
    match started(last, args) {
        Some(program) => {
            let real = canonical(&program);
            if located.real.first() != Some(&real) {
                located = Located::at(&program);
            }
            if real != last.exe {
                located.also(&last.exe);
            }
        }
        None => {
            for exec in execs {
                located.also(&exec.exe);
            }
        }
    }
    located
}

/// The program that `exec` runs on `args` unchanged: its executable (by its `argv[0]` when
/// that is the same file, which keeps the name a multi-call program reads), or the script
/// its interpreter was given; `None` when the arguments are not `args`.
fn started(exec: &Exec, args: &[String]) -> Option<PathBuf> {
    let (head, tail) = exec
        .argv
        .split_at_checked(exec.argv.len().checked_sub(args.len())?)?;
    if tail != args {
        return None;
    }
    match head {
        [name] => {
            let by_name = Path::new(name);
            Some(if by_name.is_absolute() && canonical(by_name) == exec.exe {
                by_name.to_path_buf()
            } else {
                exec.exe.clone()
            })
        }
        [_, .., script] if Path::new(script).is_absolute() && is_script(Path::new(script)) => {
            Some(PathBuf::from(script))
        }
        _ => None,
    }
}

/// Whether `path` is a file that starts with `#!`.
fn is_script(path: &Path) -> bool {
    let mut start = [0u8; 2];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok()
        && &start == b"#!"
}

/// An interpreter a language's runs start, found at `found` (and not staged), as the
/// runs use it: when it or its real file lies outside the system folders (a pyenv or asdf
/// shim, a link into a version manager's folder), followed through its probe (`found
/// args`); probed once per process.
pub(super) fn interpreter(found: &Path, args: &[String]) -> Located {
    /// Each interpreter and probe's arguments, and where it runs from.
    type Known = Mutex<HashMap<(PathBuf, Vec<String>), Located>>;
    static KNOWN: OnceLock<Known> = OnceLock::new();
    let at = Located::at(found);
    if in_system_folders(found) && at.real.iter().all(|r| in_system_folders(r)) {
        return at;
    }
    let known = KNOWN.get_or_init(Mutex::default);
    let key = (found.to_path_buf(), args.to_vec());
    if let Some(located) = known.lock().expect("not poisoned").get(&key) {
        return located.clone();
    }
    let probe = trace::probe(found, args, &run_path());
    let located = follow(found, args, probe.as_ref());
    known
        .lock()
        .expect("not poisoned")
        .insert(key, located.clone());
    located
}

/// The chain of links from `found` to its real file: `found` first, the real file (or
/// a link that leads nowhere) last, each with its folder's own links resolved.
fn links(found: &Path) -> Vec<PathBuf> {
    let mut chain = vec![in_real_folder(found)];
    while chain.len() <= MAX_LINKS {
        let path = &chain[chain.len() - 1];
        let Ok(target) = fs::read_link(path) else {
            break;
        };
        // A relative link is relative to its folder; an absolute one replaces the path.
        let next = path.parent().map_or(target.clone(), |f| f.join(&target));
        chain.push(in_real_folder(&next));
    }
    chain
}

/// `path` with its folder canonical and its own name kept.
fn in_real_folder(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(folder), Some(name)) if !folder.as_os_str().is_empty() => {
            fs::canonicalize(folder).map_or_else(|_| path.to_path_buf(), |f| f.join(name))
        }
        _ => path.to_path_buf(),
    }
}

/// `path` canonical, or as it is when it cannot be.
fn canonical(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Whether a box can show `path` at its place: not in the box's own folders.
fn showable(path: &Path) -> bool {
    !BOX_OWN.iter().any(|own| path.starts_with(own))
}

/// The installation folder of a program outside the system folders, which a box must
/// show; `None` for the system's programs. See [`installation_in`].
fn installation(program: &Path) -> Option<PathBuf> {
    let wide: Vec<PathBuf> = std::env::var_os("HOME")
        .map(PathBuf::from)
        .into_iter()
        .chain([std::env::temp_dir()])
        .map(|p| canonical(&p))
        .collect();
    installation_in(&canonical(program), &wide)
}

/// The installation of the program whose real path is `real`: a whole package store
/// (`/nix/store`); the prefix above Homebrew's `Cellar`; the prefix above a `bin`,
/// `sbin` or `libexec` folder (pyenv's `.../versions/3.11/bin/python3`, a compiler in
/// `/home/x/gcc/bin/gcc`); else the folder it is in. Never the root or a folder right
/// below it, nor a folder that holds one of `wide` (the home folder, the temporary
/// folder): then the narrower folder, else the file alone.
fn installation_in(real: &Path, wide: &[PathBuf]) -> Option<PathBuf> {
    if in_system_folders(real) {
        return None;
    }
    if let Some(store) = STORES.iter().find(|s| real.starts_with(s)) {
        return Some(PathBuf::from(store));
    }
    // Two levels deep at least: a whole `/home` or `/srv` is no installation.
    let fits = |folder: &&Path| {
        folder.parent().and_then(Path::parent).is_some()
            && !wide.iter().any(|w| w.starts_with(folder))
    };
    let cellar = real
        .ancestors()
        .skip(1)
        .find(|a| a.file_name() == Some(OsStr::new("Cellar")))
        .and_then(Path::parent);
    let folder = real.parent()?;
    let prefix = folder.parent().filter(|_| {
        matches!(
            folder.file_name().and_then(OsStr::to_str),
            Some("bin" | "sbin" | "libexec")
        )
    });
    Some(
        cellar
            .into_iter()
            .chain(prefix)
            .chain([folder])
            .find(fits)
            .unwrap_or(real)
            .to_path_buf(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn installed(real: &str) -> Option<String> {
        let wide = [PathBuf::from("/home/ann"), PathBuf::from("/tmp")];
        installation_in(Path::new(real), &wide).map(|p| p.to_string_lossy().into_owned())
    }

    #[test]
    fn an_installation_is_the_prefix_a_store_or_the_folder_never_a_home() {
        assert_eq!(installed("/usr/bin/gcc-12"), None);
        assert_eq!(
            installed("/home/ann/.pyenv/versions/3.11.7/bin/python3.11").as_deref(),
            Some("/home/ann/.pyenv/versions/3.11.7")
        );
        assert_eq!(
            installed("/nix/store/abc-gcc-wrapper-12/bin/gcc").as_deref(),
            Some("/nix/store")
        );
        assert_eq!(
            installed("/home/linuxbrew/.linuxbrew/Cellar/gcc/13.2.0/bin/gcc-13").as_deref(),
            Some("/home/linuxbrew/.linuxbrew")
        );
        // A wrapper script in a folder of its own: that folder.
        assert_eq!(
            installed("/home/ann/wrappers/gcc").as_deref(),
            Some("/home/ann/wrappers")
        );
        // `~/bin/gcc`: the home is not shown, its `bin` is.
        assert_eq!(
            installed("/home/ann/bin/gcc").as_deref(),
            Some("/home/ann/bin")
        );
        // A program right in the home: itself alone.
        assert_eq!(installed("/home/ann/gcc").as_deref(), Some("/home/ann/gcc"));
        assert_eq!(installed("/srv/gcc").as_deref(), Some("/srv/gcc"));
    }

    #[test]
    fn a_chain_of_links_runs_by_the_last_with_its_name() {
        // Beside the test binary: `/tmp` is the box's own, and shows nothing of the machine
        // (in `/var/tmp` when the build itself is in `/tmp`).
        let exe = fs::canonicalize(std::env::current_exe().unwrap()).unwrap();
        let beside = exe.parent().unwrap();
        let base = if beside.starts_with("/tmp") {
            Path::new("/var/tmp")
        } else {
            beside
        };
        let dir = tempfile::tempdir_in(base).unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("inst/bin")).unwrap();
        fs::create_dir_all(root.join("links")).unwrap();
        fs::create_dir_all(root.join("path")).unwrap();
        fs::write(root.join("inst/bin/real-cc"), "").unwrap();
        symlink("../inst/bin/real-cc", root.join("links/cc")).unwrap();
        symlink("../links/cc", root.join("path/cc")).unwrap();
        let located = Located::at(&root.join("path/cc"));
        assert_eq!(located.run, root.join("links/cc"));
        assert_eq!(located.real, [root.join("inst/bin/real-cc")]);
        assert_eq!(located.shown, [root.join("links/cc"), root.join("inst")]);
        assert_eq!(
            located.path(),
            format!("{}:{PATH}", root.join("inst/bin").display())
        );
        // A link to a system program of the same name runs as the system's.
        symlink("/bin/sh", root.join("path/sh")).unwrap();
        let sh = Located::at(&root.join("path/sh"));
        assert!(in_system_folders(&sh.run), "{sh:?}");
        assert!(sh.folders().is_empty(), "{sh:?}");
        assert_eq!(sh.path(), PATH);
    }

    fn exec(exe: &str, argv: &[&str]) -> Exec {
        Exec {
            exe: PathBuf::from(exe),
            argv: argv.iter().map(|w| (*w).to_owned()).collect(),
        }
    }

    #[test]
    fn a_program_started_on_the_same_arguments_is_the_one_that_runs() {
        let args = ["--version".to_owned()];
        let sh = canonical(Path::new("/bin/sh"));
        let sh_name = sh.to_string_lossy().into_owned();
        assert_eq!(
            started(&exec(&sh_name, &["/bin/sh", "--version"]), &args),
            Some(PathBuf::from("/bin/sh"))
        );
        // A name that is not the same file: the executable.
        assert_eq!(
            started(&exec(&sh_name, &["sh", "--version"]), &args),
            Some(sh.clone())
        );
        // A wrapper that added a flag.
        assert_eq!(
            started(&exec(&sh_name, &["/bin/sh", "-DX", "--version"]), &args),
            None
        );
        assert_eq!(started(&exec(&sh_name, &[]), &args), None);
    }
}
