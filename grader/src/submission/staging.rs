//! The staging folder a program runs from: readable by the unprivileged user it may run
//! as, holding the program's own files (a compiled program, a source for its interpreter,
//! the files a `--cmd` line names) and nothing else of the machine.
//!
//! It is made when a run first needs it ([`Staging::path`]): its path is reserved when
//! the program is built, and what goes in it is noted. A batch's rerun finds most
//! students' runs in its journal and makes no folder for them: making a folder and
//! copying the program for each of 3,000 students was half of such a rerun here (an
//! ext4 folder's inode, where many were just deleted, is slow to find).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A program's staging folder: its path, what goes in it, and whether it was made.
#[derive(Debug)]
pub(crate) struct Staging {
    /// Where it is, or will be (reserved in this process's temp folder).
    path: PathBuf,
    /// Its files: each one's name in it, and where its bytes come from.
    files: Vec<(String, Part)>,
    /// The folder, once made; why not, if it could not be.
    made: OnceLock<Result<(), String>>,
}

/// Where a staged file's bytes come from.
#[derive(Debug)]
enum Part {
    /// A file of the machine (a compiled program in the cache, a `--cmd` file), copied
    /// with its executable bit.
    Copy(PathBuf),
    /// Bytes read already (a source for its interpreter), readable by all, and whether
    /// executable (a folder's `run` script).
    Bytes(Vec<u8>, bool),
}

impl Staging {
    /// A staging folder to be, with nothing in it yet.
    pub(crate) fn reserve() -> Result<Staging, Fault> {
        let path = crate::paths::temp::reserve("staged")
            .map_err(|e| Fault::internal(format!("cannot create a staging folder: {e}")))?;
        Ok(Staging {
            path,
            files: Vec::new(),
            made: OnceLock::new(),
        })
    }

    /// Where it is, or will be: for command lines, before it is made.
    pub(crate) fn planned(&self) -> &Path {
        &self.path
    }

    /// Notes the file `name`, a copy of `from`; its path in the folder.
    pub(super) fn copy(&mut self, name: &str, from: &Path) -> PathBuf {
        self.files
            .push((name.to_owned(), Part::Copy(from.to_path_buf())));
        self.path.join(name)
    }

    /// Notes the file `name`, holding `bytes`; its path in the folder.
    pub(super) fn bytes(&mut self, name: &str, bytes: Vec<u8>) -> PathBuf {
        self.file(name, bytes, false)
    }

    /// Notes the file `name`, holding `bytes`, executable or not; its path in the folder.
    pub(super) fn file(&mut self, name: &str, bytes: Vec<u8>, executable: bool) -> PathBuf {
        self.files
            .push((name.to_owned(), Part::Bytes(bytes, executable)));
        self.path.join(name)
    }

    /// Whether a file `name` is noted already.
    fn holds(&self, name: &str) -> bool {
        self.files.iter().any(|(n, _)| n == name)
    }

    /// The folder, made (mode 0755, its files readable by all) when first asked for.
    pub(crate) fn path(&self) -> Result<&Path, Fault> {
        let made = self
            .made
            .get_or_init(|| self.make().map_err(|e| e.to_string()));
        match made {
            Ok(()) => Ok(&self.path),
            Err(why) => Err(Fault::internal(format!(
                "cannot create a staging folder: {why}"
            ))),
        }
    }

    fn make(&self) -> Result<(), Fault> {
        fs::create_dir(&self.path)
            .map_err(|e| Fault::setup(files::cannot(&self.path, "create", &e)))?;
        fs::set_permissions(&self.path, fs::Permissions::from_mode(0o755))
            .map_err(|e| Fault::setup(files::cannot(&self.path, "create", &e)))?;
        for (name, part) in &self.files {
            let to = self.path.join(name);
            // A program given as a folder of folders (`include/util.h`).
            if let Some(parent) = to.parent().filter(|p| *p != self.path) {
                make_folders(parent)?;
            }
            match part {
                Part::Copy(from) => copy_readable(from, &to)?,
                Part::Bytes(bytes, executable) => write_readable(bytes, &to, *executable)?,
            }
        }
        Ok(())
    }

    /// Adds to `key` the staged files in name order, as a list of names and bytes: the
    /// same whether or not the folder was made.
    pub(crate) fn key_files(&self, key: &mut Key) -> Result<(), Fault> {
        let mut files: Vec<&(String, Part)> = self.files.iter().collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        key.count(files.len());
        for (name, part) in files {
            let read;
            let bytes: &[u8] = match part {
                Part::Copy(from) => {
                    read = fs::read(from)
                        .map_err(|e| Fault::input(files::cannot(from, "read", &e)))?;
                    &read
                }
                Part::Bytes(bytes, _) => bytes,
            };
            key.part(name).part(bytes);
        }
        Ok(())
    }
}

impl sandbox::OpenFiles for Staging {
    /// Each file where its bytes are: a copied file opened in place (its mode as the
    /// cache has it), bytes in a memory file, readable by all.
    fn open_files(&self) -> std::io::Result<Vec<(String, fs::File, bool)>> {
        self.files
            .iter()
            .map(|(name, part)| {
                let (file, executable) = match part {
                    Part::Copy(from) => {
                        let file = fs::File::open(from)?;
                        let mode = file.metadata()?.permissions().mode();
                        (file, mode & 0o111 != 0)
                    }
                    Part::Bytes(bytes, executable) => (sandbox::memory_file(bytes)?, *executable),
                };
                Ok((name.clone(), file, executable))
            })
            .collect()
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if matches!(self.made.get(), Some(Ok(()))) {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

use sandbox::tiers::in_system_folders;

use crate::cli::exit::Fault;
use crate::keys::Key;
use crate::paths::files;

/// A `--cmd` line, with every word that names a file of the user (the program itself, a
/// script, a data file) copied into the staging folder and named there: a box shows the
/// program nothing else of the machine. Programs of the system (`python3`) stay as they
/// are.
pub(super) fn stage_command(
    words: Vec<String>,
    staging: &mut Staging,
) -> Result<Vec<String>, Fault> {
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
        if staging.holds(&name) {
            return Err(Fault::call(format!(
                "--cmd: two files named `{name}`; give them different names"
            )));
        }
        // Read now, so that a file that cannot be read is the call's fault at once.
        fs::File::open(path).map_err(|e| Fault::input(files::cannot(path, "read", &e)))?;
        let to = staging.copy(&name, &absolute);
        staged.push(to.to_string_lossy().into_owned());
    }
    Ok(staged)
}

/// A folder any user can enter, for a compile's copy of its source.
pub(super) fn stage_dir() -> Result<tempfile::TempDir, Fault> {
    crate::paths::temp::dir("run")
        .map_err(|e| Fault::internal(format!("cannot create a staging folder: {e}")))
}

/// Makes `folder` and those above it that are missing, each readable and searchable by
/// all (the unprivileged user a program may run as reads its files there).
pub(super) fn make_folders(folder: &Path) -> Result<(), Fault> {
    let made = |e: std::io::Error| Fault::setup(files::cannot(folder, "create", &e));
    let missing: Vec<&Path> = folder.ancestors().take_while(|a| !a.is_dir()).collect();
    for each in missing.into_iter().rev() {
        fs::create_dir(each).map_err(made)?;
        // The umask may have taken bits away.
        fs::set_permissions(each, fs::Permissions::from_mode(0o755)).map_err(made)?;
    }
    Ok(())
}

/// Writes `bytes` to `to`, readable (and, when `executable`, executable) by all.
fn write_readable(bytes: &[u8], to: &Path, executable: bool) -> Result<(), Fault> {
    fs::write(to, bytes).map_err(|e| Fault::setup(files::cannot(to, "write", &e)))?;
    let mode = if executable { 0o755 } else { 0o644 };
    fs::set_permissions(to, fs::Permissions::from_mode(mode))
        .map_err(|e| Fault::setup(files::cannot(to, "write", &e)))
}

/// Copies `from` to `to`, readable (and, when `from` is executable, executable) by all.
fn copy_readable(from: &Path, to: &Path) -> Result<(), Fault> {
    // A hard link is free, but would let the run change the cached file's mode.
    fs::copy(from, to).map_err(|e| Fault::setup(files::cannot(from, "copy", &e)))?;
    let executable = fs::metadata(from).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
    let mode = if executable { 0o755 } else { 0o644 };
    fs::set_permissions(to, fs::Permissions::from_mode(mode))
        .map_err(|e| Fault::setup(files::cannot(to, "copy", &e)))
}
