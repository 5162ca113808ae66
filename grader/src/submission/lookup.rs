//! Where programs are found: the `PATH` runs get, the search paths of compilers (the
//! user's first) and of interpreters (the system's first), and the installation folder a
//! program outside the system folders needs shown in a box.

use std::fs;
use std::path::{Path, PathBuf};

use crate::exec::sandbox::in_system_folders;
use crate::files;
use crate::status::Fault;

/// The `PATH` programs run with, and where commands are looked up.
pub(crate) const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// An absolute path for a command: as given when it has a `/`, else looked up in [`PATH`].
pub(super) fn resolve(command: &str, search: &str) -> Result<String, Fault> {
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

/// The installation folder of an interpreter outside the system folders, which a box
/// must show; `None` for a staged program.
pub(super) fn interpreter_home(program: &Path, staging: &Path) -> Option<PathBuf> {
    if program.starts_with(staging) {
        return None;
    }
    installation(program)
}

/// The installation folder of a program outside the system folders (pyenv's
/// `.../versions/3.11/bin/python3`, a compiler in `/home/x/gcc/bin/gcc`: two levels up
/// from its real path); `None` for the system's programs.
pub(super) fn installation(program: &Path) -> Option<PathBuf> {
    let real = fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    if in_system_folders(&real) {
        return None;
    }
    real.parent()?.parent().map(Path::to_path_buf)
}
