//! The staging folder a program runs from: readable by the unprivileged user it may run
//! as, holding the program's own files (a compiled program, a source for its interpreter,
//! the files a `--cmd` line names) and nothing else of the machine.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::exec::sandbox::in_system_folders;
use crate::files;
use crate::status::Fault;

/// A `--cmd` line, with every word that names a file of the user (the program itself, a
/// script, a data file) copied into the staging folder and named there: a box shows the
/// program nothing else of the machine. Programs of the system (`python3`) stay as they
/// are.
pub(super) fn stage_command(words: Vec<String>, staging: &Path) -> Result<Vec<String>, Fault> {
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

/// A staging folder any user can enter: programs may run as a worker's own uid.
pub(crate) fn stage_dir() -> Result<tempfile::TempDir, Fault> {
    crate::temp::dir("run")
        .map_err(|e| Fault::Internal(format!("cannot create a staging folder: {e}")))
}

/// Writes `bytes` to `to`, readable by all.
pub(super) fn write_readable(bytes: &[u8], to: &Path) -> Result<(), Fault> {
    fs::write(to, bytes).map_err(|e| files::cannot(to, "write", &e))?;
    fs::set_permissions(to, fs::Permissions::from_mode(0o644))
        .map_err(|e| files::cannot(to, "write", &e))
}

/// Copies `from` to `to`, readable (and, when `from` is executable, executable) by all.
pub(super) fn copy_readable(from: &Path, to: &Path) -> Result<(), Fault> {
    // A hard link is free, but would let the run change the cached file's mode.
    fs::copy(from, to).map_err(|e| files::cannot(from, "copy", &e))?;
    let executable = fs::metadata(from).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    let mode = if executable { 0o755 } else { 0o644 };
    fs::set_permissions(to, fs::Permissions::from_mode(mode))
        .map_err(|e| files::cannot(to, "copy", &e))
}
