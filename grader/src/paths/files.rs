//! Reading inputs with a size cap, and writing files atomically (a temp file beside the
//! target, then a rename), so that nothing the user had is ever half-overwritten.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use crate::cli::exit::Fault;
use crate::paths::spelling;

/// The largest input or answer file the grader reads: boards are tiny, so anything
/// bigger is a mistake (a wrong path), not a board.
pub(crate) const READ_CAP: u64 = 16 << 20;

/// Reads `path`, or standard input when `None`, up to [`READ_CAP`] bytes.
pub(crate) fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Fault> {
    if let Some(path) = path {
        read_capped(path)
    } else {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .take(READ_CAP + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Fault::input(format!("<stdin>: cannot read: {e}")))?;
        if bytes.len() as u64 > READ_CAP {
            return Err(Fault::input(format!(
                "<stdin>: larger than {} MiB; not a board",
                READ_CAP >> 20
            )));
        }
        Ok(bytes)
    }
}

/// Reads a file of at most [`READ_CAP`] bytes, with a one-line error naming it.
pub(crate) fn read_capped(path: &Path) -> Result<Vec<u8>, Fault> {
    let (bytes, whole) = read_prefix(path)?;
    if !whole {
        return Err(Fault::input(format!(
            "{}: larger than {} MiB; too large to be a board or a source file",
            spelling::path(path),
            READ_CAP >> 20
        )));
    }
    Ok(bytes)
}

/// `path` opened for reading, with a one-line error naming it.
fn open_file(path: &Path) -> Result<fs::File, Fault> {
    fs::File::open(path).map_err(|e| Fault::input(cannot(path, "read", &e)))
}

/// Why reading `path` failed, in one line. A folder opens, and is told by its first read
/// (`EISDIR`): no call asks first what it is, one for each of the thousand cases a `test`
/// reads before its first run.
fn read_failed(path: &Path, error: &io::Error) -> Fault {
    match error.kind() {
        io::ErrorKind::IsADirectory => Fault::input(format!(
            "{}: is a folder, expected a file",
            spelling::path(path)
        )),
        _ => Fault::input(cannot(path, "read", error)),
    }
}

/// What stands at `path` when it is there but is not a file to read (links followed): "a
/// folder", "a FIFO", "a character device", "a link to a folder", "a broken link"...;
/// `None` for a regular file, a link to one, or nothing at all (what a missing file means
/// is the caller's to say). Only the caller's few files are asked this (a package's
/// `problem.yaml`, a `testdata.yaml`), or entries a folder's listing already showed to be
/// odd: a regular case file is never asked, so a thousand cases cost no call.
pub(crate) fn not_a_file(path: &Path) -> Option<String> {
    let own = fs::symlink_metadata(path).ok()?;
    if !own.file_type().is_symlink() {
        return (!own.is_file()).then(|| kind_in_words(own.file_type()).to_owned());
    }
    match fs::metadata(path) {
        Ok(target) if target.is_file() => None,
        Ok(target) => Some(format!("a link to {}", kind_in_words(target.file_type()))),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => Some("a link in a loop".to_owned()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Some("a broken link".to_owned()),
        Err(e) => Some(format!("a link that cannot be followed ({e})")),
    }
}

/// Whether a folder a package may have (`input_validators/`, `generators/`) is there:
/// `false` when nothing is, `true` for a folder or a link to one, and exit 2 saying what
/// it is otherwise, where asking only `is_dir()` would take a broken link for no folder
/// and drop what it holds unsaid (input validators: the data would go unchecked).
pub(crate) fn folder_if_any(path: &Path) -> Result<bool, Fault> {
    let Ok(own) = fs::symlink_metadata(path) else {
        return Ok(false);
    };
    let what = match fs::metadata(path) {
        Ok(target) if target.is_dir() => return Ok(true),
        Ok(target) if own.file_type().is_symlink() => {
            format!("a link to {}", kind_in_words(target.file_type()))
        }
        Ok(target) => kind_in_words(target.file_type()).to_owned(),
        Err(_) => not_a_file(path).unwrap_or_else(|| "unreadable".to_owned()),
    };
    Err(Fault::input(format!(
        "{}: is {what}, not a folder",
        path.display()
    )))
}

/// What a file of type `kind` is, in words (with its article).
/// What stands at `path` (links followed), in words: "a file", "a character device"...;
/// "a file" when it cannot be asked (the caller found something there that is no folder).
pub(crate) fn kind_at(path: &Path) -> &'static str {
    fs::metadata(path).map_or("a file", |m| kind_in_words(m.file_type()))
}

fn kind_in_words(kind: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a file"
    } else if kind.is_symlink() {
        "a link"
    } else if kind.is_fifo() {
        "a FIFO (a named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// Reads a file a package or a case folder is made of (`problem.yaml`, a `testdata.yaml`),
/// of at most [`READ_CAP`] bytes: one that is there but is not a file (a link to a device,
/// a FIFO, a broken link) is exit 2 saying what it is, where reading it would hang on a
/// FIFO, fill the cap from `/dev/zero`, or, asked only `is_file()`, be skipped as absent.
pub(crate) fn read_file_of_data(path: &Path) -> Result<Vec<u8>, Fault> {
    if let Some(what) = not_a_file(path) {
        return Err(Fault::input(format!(
            "{}: is {what}, not a file",
            path.display()
        )));
    }
    read_capped(path)
}

/// Reads a whole file of the grader's own making, whatever its size (a gradebook holds a
/// class: a shard of 1,500 students of 150 cases is some 40 MB), with a one-line error
/// naming it. Only a regular file is read, and only as much as it held when opened, plus
/// [`READ_CAP`] for one still being written: a device, a FIFO or a socket has no end to
/// stop at (`/dev/zero` as a gradebook grew the grader to 24 GB), so it is refused, never
/// opened.
pub(crate) fn read_whole(path: &Path) -> Result<Vec<u8>, Fault> {
    let meta = fs::metadata(path).map_err(|e| Fault::input(cannot(path, "read", &e)))?;
    if let Some(why) = not_regular(path, &meta) {
        return Err(Fault::input(why));
    }
    // Without blocking: a regular file never does, and a FIFO swapped in since the check
    // above would block this open until a writer came.
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Fault::input(cannot(path, "read", &e)))?;
    let meta = file
        .metadata()
        .map_err(|e| Fault::input(cannot(path, "read", &e)))?;
    if let Some(why) = not_regular(path, &meta) {
        return Err(Fault::input(why));
    }
    let bound = meta.len().saturating_add(READ_CAP);
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(meta.len()).unwrap_or(usize::MAX))
        .map_err(|_| {
            Fault::input(format!(
                "{}: too large to read ({} bytes)",
                spelling::path(path),
                meta.len()
            ))
        })?;
    file.take(bound.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| read_failed(path, &e))?;
    if bytes.len() as u64 > bound {
        return Err(Fault::input(format!(
            "{}: grew by more than {} MiB while it was read; read it again once it is \
             written",
            spelling::path(path),
            READ_CAP >> 20
        )));
    }
    Ok(bytes)
}

/// What to say of reading `path` (whose metadata, links followed, is `meta`) as a file
/// when it is not a regular one: a folder, or a device, a FIFO or a socket, none of which
/// ends where a file does. `None` for a regular file. Whose fault it is (an input's, an
/// output's) is the caller's to say.
pub(crate) fn not_regular(path: &Path, meta: &fs::Metadata) -> Option<String> {
    (!meta.is_file()).then(|| {
        format!(
            "{}: is {}, expected a file",
            spelling::path(path),
            kind_in_words(meta.file_type())
        )
    })
}

/// Reads the first [`READ_CAP`] bytes of a file, and whether that was all of it: a
/// contestant's output may be any size, and its size is a verdict, not a fault.
pub(crate) fn read_prefix(path: &Path) -> Result<(Vec<u8>, bool), Fault> {
    read_head(path, READ_CAP)
}

/// Reads the first `cap` bytes of a file, and whether that was all of it.
pub(crate) fn read_head(path: &Path, cap: u64) -> Result<(Vec<u8>, bool), Fault> {
    let file = open_file(path)?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| read_failed(path, &e))?;
    let whole = bytes.len() as u64 <= cap;
    bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    Ok((bytes, whole))
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a
/// part of either.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Fault> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Writes what `write` writes to `path` atomically, streamed through a buffer into a temp
/// file beside it, then renamed over it: readers see the old file or the new one, never a
/// part of either. A write that fails or is stopped leaves no temp file (nor does a
/// grader that exits at a second signal: the temp file is the grader's own to remove,
/// `temp::Pending`).
pub(crate) fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Fault> {
    let mut atomic = Atomic::create(path, "write")?;
    write(atomic.out()).map_err(|e| stopped_or(path, "write", &e))?;
    atomic.commit()
}

/// A file being replaced: a temp file beside `path` that a writer fills and
/// [`Atomic::commit`] puts in its place, durably. The one way the grader writes a file
/// that must never be seen half-written (reports, gradebooks, case files, a compacted
/// journal). Dropped without a commit, it leaves the old file and no temp file.
pub(crate) struct Atomic {
    path: std::path::PathBuf,
    /// What the call was doing, for its errors (`write`, `compact`).
    action: &'static str,
    /// The mode the result gets: the replaced file's, or 0644.
    mode: u32,
    out: io::BufWriter<tempfile::NamedTempFile>,
    /// Removes the temp file if the grader exits before the commit.
    pending: crate::paths::temp::Pending,
}

impl Atomic {
    /// A temp file beside `path`, to replace it.
    pub(crate) fn create(path: &Path, action: &'static str) -> Result<Atomic, Fault> {
        let temp = tempfile::Builder::new()
            .prefix(".grader-")
            .tempfile_in(parent_or_here(path))
            .map_err(|e| Fault::output(cannot(path, action, &e)))?;
        let pending = crate::paths::temp::Pending::new(temp.path());
        // The temporary file is private (0600); the result keeps the mode of the file it
        // replaces, or gets the usual 0644 (reports and case files are meant to be read).
        let mode = fs::metadata(path).map_or(0o644, |m| {
            std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o7777
        });
        Ok(Atomic {
            path: path.to_path_buf(),
            action,
            mode,
            out: io::BufWriter::with_capacity(1 << 16, temp),
            pending,
        })
    }

    /// Where the new contents go.
    pub(crate) fn out(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Puts the new file in place: flushed, given its mode, synced, renamed over the old
    /// one, and the rename itself made durable by syncing the folder (without that, a
    /// power cut can bring back the old file, or none, after the write was reported
    /// done).
    pub(crate) fn commit(self) -> Result<(), Fault> {
        let Atomic {
            path,
            action,
            mode,
            out,
            pending,
        } = self;
        let temp = out
            .into_inner()
            .map_err(|e| stopped_or(&path, action, e.error()))?;
        temp.as_file()
            .set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode))
            .and_then(|()| temp.as_file().sync_all())
            .map_err(|e| Fault::output(cannot(&path, action, &e)))?;
        temp.persist(&path)
            .map_err(|e| Fault::output(cannot(&path, action, &e.error)))?;
        drop(pending);
        sync_folder(parent_or_here(&path)).map_err(|e| Fault::output(cannot(&path, action, &e)))
    }
}

/// A tree of files by relative path (`secret/01.in`), as staged before it replaces a
/// folder (`cases regen`, `package export`).
pub(crate) type Tree = std::collections::BTreeMap<String, Vec<u8>>;

/// Writes `tree` into the new folder `staging` and makes it durable (every file, then
/// every folder, synced), so that once it is renamed into place a power cut cannot leave
/// the name pointing at files that were never written.
pub(crate) fn write_tree(staging: &Path, tree: &Tree) -> Result<(), Fault> {
    let mut folders = std::collections::BTreeSet::new();
    for (name, bytes) in tree {
        let path = staging.join(name);
        if let Some(folder) = path.parent()
            && !folders.contains(folder)
        {
            fs::create_dir_all(folder).map_err(|e| Fault::output(cannot(folder, "create", &e)))?;
            // Every folder made, the ones between included, is synced below.
            folders.extend(
                folder
                    .ancestors()
                    .take_while(|f| *f != staging)
                    .map(Path::to_path_buf),
            );
        }
        let mut file =
            fs::File::create(&path).map_err(|e| Fault::output(cannot(&path, "write", &e)))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| Fault::output(cannot(&path, "write", &e)))?;
    }
    // A folder sorts after the folders above it: backwards, each folder's entries are
    // durable before its parent's.
    for folder in folders.iter().rev().chain([&staging.to_path_buf()]) {
        sync_folder(folder).map_err(|e| Fault::output(cannot(folder, "write", &e)))?;
    }
    Ok(())
}

/// Replaces the folder `dest` by `tree` as one change (`cases regen`'s `data/`, `package
/// export`'s package): the tree is written in full and made durable beside it
/// (`.NAME.new-*`, in the same parent), `dest` is moved aside to `.NAME.old`, and the new
/// tree renamed into place; only once that rename is durable does the old tree go. A
/// reader sees the old folder or the new one, never a part; a failure puts the old one
/// back; a kill at any point leaves what [`recover_tree`] finishes or undoes. An empty
/// folder at `dest` is replaced by the rename itself. The folder is left readable by all
/// (0755): the staging folder is made private, and what replaces it is meant to be shared.
pub(crate) fn replace_tree(dest: &Path, tree: &Tree) -> Result<(), Fault> {
    recover_tree(dest)?;
    let parent = parent_or_here(dest);
    let name = tree_name(dest);
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(parent)
        .map_err(|e| Fault::output(cannot(dest, "write", &e)))?;
    write_tree(staging.path(), tree)?;
    fs::set_permissions(
        staging.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .map_err(|e| Fault::output(cannot(staging.path(), "write", &e)))?;
    let old = parent.join(format!(".{name}.old"));
    let occupied = fs::read_dir(dest).is_ok_and(|mut e| e.next().is_some());
    if occupied {
        fs::rename(dest, &old).map_err(|e| Fault::output(cannot(dest, "move aside", &e)))?;
    }
    let staged = staging.keep();
    if let Err(e) = fs::rename(&staged, dest) {
        // The old tree goes back before the fault is told: nothing the user had is lost.
        if occupied {
            let _ = fs::rename(&old, dest);
        }
        let _ = sandbox::remove::remove_tree(&staged);
        return Err(Fault::output(cannot(dest, "replace", &e)));
    }
    // The swap is durable before the old tree goes.
    sync_folder(parent).map_err(|e| Fault::output(cannot(dest, "replace", &e)))?;
    if occupied {
        sandbox::remove::remove_tree(&old)
            .map_err(|e| Fault::output(cannot(&old, "remove", &e)))?;
    }
    Ok(())
}

/// Finishes or undoes a [`replace_tree`] of `dest` that a killed grader left half done:
/// an old tree moved aside is removed when the new one is in place, and put back when it
/// is not; staged trees are removed.
pub(crate) fn recover_tree(dest: &Path) -> Result<(), Fault> {
    let parent = parent_or_here(dest);
    let name = tree_name(dest);
    let old = parent.join(format!(".{name}.old"));
    if fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
        if dest.exists() {
            // The new tree was in place; only the cleanup was lost.
            sandbox::remove::remove_tree(&old)
                .map_err(|e| Fault::output(cannot(&old, "remove", &e)))?;
        } else {
            fs::rename(&old, dest).map_err(|e| Fault::output(cannot(&old, "restore", &e)))?;
        }
    }
    let staged = format!(".{name}.new-");
    if let Ok(entries) = fs::read_dir(parent) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&staged) {
                let _ = sandbox::remove::remove_tree(&entry.path());
            }
        }
    }
    Ok(())
}

/// The name [`replace_tree`]'s folders beside `dest` are named from.
fn tree_name(dest: &Path) -> String {
    dest.file_name()
        .map_or_else(|| "tree".into(), |n| n.to_string_lossy().into_owned())
}

/// The folder `path` is in: its parent, or `.` for a bare name.
pub(crate) fn parent_or_here(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Makes the entries of `dir` durable (a rename into it, a file made in it).
pub(crate) fn sync_folder(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// The fault of an `action` on `path`, an output, that failed: the grader's stop, when it
/// was told to stop (a writer reading students stops between two), else the error.
pub(crate) fn stopped_or(path: &Path, action: &str, error: &io::Error) -> Fault {
    match crate::cli::interrupt::check() {
        Err(stopped) => stopped,
        Ok(()) => Fault::output(cannot(path, action, error)),
    }
}

/// `PATH: cannot ACTION: REASON`, the one line of an I/O error on `path`. Whose fault it
/// is, the caller says by the path's part in the call: an input it reads
/// ([`Fault::input`]), an output it writes ([`Fault::output`]), a place of the grader's own
/// work such as the temp folder or the compile cache ([`Fault::setup`]).
pub(crate) fn cannot(path: &Path, action: &str, error: &io::Error) -> String {
    let reason = match error.kind() {
        io::ErrorKind::NotFound => "no such file or folder".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        // `f.txt/x`: name the file in the way, not the OS's "Not a directory".
        io::ErrorKind::NotADirectory => file_in_the_way(path).map_or_else(
            || "a folder in the path is a file".to_owned(),
            |file| {
                format!(
                    "{} is {}, not a folder",
                    spelling::path(file),
                    kind_at(file)
                )
            },
        ),
        // The OS's own words: an error of `tempfile` adds the temp file's path ("at path
        // .../.grader-Xy12"), a name the user never gave and cannot find.
        _ => os_words(error),
    };
    format!("{}: cannot {action}: {reason}", spelling::path(path))
}

/// `error` in the OS's own words: an error of `tempfile` adds the temp file's path to
/// them (`... at path ".../.grader-Xy12"`), a name the user never gave and cannot find.
/// Its type is `tempfile`'s own and private, and tells only through its text.
fn os_words(error: &io::Error) -> String {
    let text = error.to_string();
    match (error.get_ref().is_some(), text.find(" at path \"")) {
        (true, Some(at)) => text[..at].to_owned(),
        _ => text,
    }
}

/// The file that stands where a folder of `path` should be: `path` itself or one of the
/// folders above it, when one of them is a file (the cause of `NotADirectory`).
pub(crate) fn file_in_the_way(path: &Path) -> Option<&Path> {
    path.ancestors().find(|p| is_file(p))
}

/// Whether `path` exists and is not a folder (links followed).
fn is_file(path: &Path) -> bool {
    !path.as_os_str().is_empty() && fs::metadata(path).is_ok_and(|m| !m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::exit::Cause;

    #[test]
    fn a_folder_read_as_a_file_is_named_as_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        for fault in [
            read_capped(dir.path()).unwrap_err(),
            read_whole(dir.path()).unwrap_err(),
        ] {
            assert_eq!(
                fault.to_string(),
                format!("{}: is a folder, expected a file", dir.path().display())
            );
        }
        fs::write(dir.path().join("f"), "board").unwrap();
        assert_eq!(
            read_head(&dir.path().join("f"), 3).unwrap(),
            (b"boa".to_vec(), false)
        );
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_and_oversized_files_are_faults_of_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.in");
        let fault = read_capped(&missing).unwrap_err();
        assert_eq!(fault.cause(), Cause::Input);
        assert!(
            fault
                .message()
                .ends_with("nope.in: cannot read: no such file or folder"),
            "{fault}"
        );
        let big = dir.path().join("big.in");
        fs::write(&big, vec![b'b'; READ_CAP as usize + 1]).unwrap();
        for (fault, told) in [
            (read_capped(&big).unwrap_err(), "too large"),
            (read_capped(dir.path()).unwrap_err(), "is a folder"),
        ] {
            assert_eq!(fault.cause(), Cause::Input);
            assert!(fault.message().contains(told), "{fault}");
        }
    }
}
