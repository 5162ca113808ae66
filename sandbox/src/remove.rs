//! Removing folder trees that a contestant's program built to resist removal.
//!
//! A program runs with a scratch folder as its working directory and may leave anything
//! there: a chain of folders thousands deep (its full path far beyond `PATH_MAX`, more
//! levels than a recursive removal has descriptors), folders it made unreadable (mode
//! 000) or unwritable (0500), FIFOs, sockets, and symbolic links to folders outside
//! (`/etc`, the grader's own files). [`empty_dir`] and [`remove_tree`] remove all of it,
//! and nothing else.
//!
//! How, and why it is sound:
//!
//! - **Nothing outside the tree is touched.** Every folder is opened relative to its
//!   parent's descriptor, by one name, with `O_NOFOLLOW | O_DIRECTORY`: a symbolic link,
//!   even one swapped in for a folder after the folder was listed, is never entered. Only
//!   folders are ever opened: files, links, FIFOs (opening one would block), sockets and
//!   device nodes are unlinked by name with `unlinkat`, which removes the link, not what
//!   it points to, and needs rights on the folder only (a mode-000 file goes too).
//! - **Depth costs memory, not descriptors or path length.** The walk is iterative. It
//!   keeps the *names* of the folders from the root down to the current one (and each
//!   one's device and inode) and a descriptor for the current folder only. It goes down
//!   with `openat(current, name)` and back up with `openat(current, "..")`, then checks
//!   that the folder it reached is the one it came down from (same device and inode), so
//!   a folder moved elsewhere mid-walk cannot lead it out of the tree; `..` is otherwise
//!   safe because nothing else changes the tree while it is cleaned (the run is over,
//!   its processes are dead). At most five descriptors are open at any depth, and no
//!   system call gets a path longer than one name (but for the root's, given by the
//!   caller, and `/proc/self/fd/N`, below).
//! - **Huge folders are read once, never held in memory.** Listing a folder unlinks each
//!   non-folder as it is read and notes the subfolders; after `BATCH` subfolders, or
//!   at the end of the listing, the noted subfolders are removed one by one, and a
//!   listing that stopped early starts again from the beginning (where what was removed
//!   is no longer listed). A million files cost one pass and no memory; a million
//!   subfolders cost a thousand passes.
//! - **Locked folders are unlocked with their owner's rights.** A folder its owner may
//!   not read, write or search (mode 000, 0100, 0500) gets `u+rwx` before it is listed:
//!   by `fchmod` on its descriptor or, when it cannot even be opened for reading, by
//!   `chmod` through the `/proc/self/fd` link of an `O_PATH` descriptor (opened with
//!   `O_NOFOLLOW | O_DIRECTORY`, so it is that folder and no link's target). Root needs
//!   none of this (modes do not stop it); an unprivileged grader owns what its runs made.
//!
//! The folder [`empty_dir`] empties keeps its mode (when unlocking it changed its mode,
//! the mode is put back) and its owner. Errors are `io::Error`s naming the path (its
//! middle elided when deep) and what could not be done; the caller decides what a
//! failure means.

use std::ffi::{CStr, CString, OsStr};
use std::fs;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use nix::NixPath;
use nix::dir::{Dir, Type};
use nix::errno::Errno;
use nix::fcntl::{AT_FDCWD, AtFlags, OFlag, openat};
use nix::sys::stat::{FileStat, Mode, fchmod, fstat, fstatat};
use nix::unistd::{UnlinkatFlags, Whence, lseek, unlinkat};

/// How many subfolders one listing notes before they are removed and the folder listed
/// again: bounds the names held per folder (a folder of a million subfolders is not
/// held in memory) while keeping re-listings rare.
const BATCH: usize = 1024;

/// The owner's read, write and search bits: what removing a folder's entries needs.
const OWNER_RWX: libc::mode_t = 0o700;

/// The permission bits of a mode (with set-id and sticky bits), without the file type.
const PERMISSIONS: libc::mode_t = 0o7777;

/// Removes everything inside `dir`, leaving `dir` itself (empty, its mode and owner
/// untouched by this call). `dir` itself must be a folder, not a link to one.
pub fn empty_dir(dir: &Path) -> io::Result<()> {
    let (root, found) = match open_folder(AT_FDCWD, dir) {
        Ok(Opened::Folder(fd, found)) => (fd, found),
        Ok(Opened::Gone) => return Err(failure(dir, "empty", Errno::ENOENT)),
        Ok(Opened::NotFolder) => {
            return Err(failure(dir, "empty", Errno::ENOTDIR));
        }
        Err(e) => return Err(failure(dir, "open", e)),
    };
    let emptied = Walk::new(dir).empty(&root, &found);
    // Unlocking may have changed the mode (only when an owner bit was missing); put it
    // back if it did.
    if found.st_mode & OWNER_RWX != OWNER_RWX
        && fstat(&root).map_or(true, |now| now.st_mode != found.st_mode)
    {
        let mode = Mode::from_bits_truncate(found.st_mode & PERMISSIONS);
        let restored = fchmod(&root, mode).map_err(|e| failure(dir, "restore the mode of", e));
        return emptied.and(restored);
    }
    emptied
}

/// Removes everything inside the folder open as `dir` (named `named` in errors), as
/// [`empty_dir`] does: for a folder known by its descriptor alone (a box's `/prog`).
pub(crate) fn empty_open_dir(dir: &OwnedFd, named: &Path) -> io::Result<()> {
    let found = fstat(dir).map_err(|e| failure(named, "inspect", e))?;
    Walk::new(named).empty(dir, &found)
}

/// Removes `path` and everything below it; `Ok` if it does not exist. A symbolic link is
/// removed as a link (its target stays); the folders leading to `path` are the caller's
/// and are used as they are (following links).
///
/// This, not `fs::remove_dir_all` (one descriptor per level, gives up on a locked
/// folder), is the removal for any folder a contestant's program could write in: for a
/// `tempfile::TempDir` holding scratch folders, `remove_tree(dir.path())` before it drops
/// (its own removal then finds nothing to do).
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let Some(name) = path.file_name() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: cannot remove: not a file or folder name",
                path.display()
            ),
        ));
    };
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // `O_PATH`: the parent is only named through, never listed, so it needs no read right.
    let parent = match openat(
        AT_FDCWD,
        parent,
        OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::ENOENT) => return Ok(()),
        Err(e) => return Err(failure(parent, "open", e)),
    };
    // Look before opening: a FIFO is never opened, even with `O_DIRECTORY`.
    let is_folder = match fstatat(&parent, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(stat) => is_dir(&stat),
        Err(Errno::ENOENT) => return Ok(()),
        Err(e) => return Err(failure(path, "inspect", e)),
    };
    if is_folder {
        match open_folder(parent.as_fd(), name) {
            Ok(Opened::Folder(fd, found)) => {
                Walk::new(path).empty(&fd, &found)?;
                drop(fd);
                return match unlinkat(&parent, name, UnlinkatFlags::RemoveDir) {
                    Ok(()) | Err(Errno::ENOENT) => Ok(()),
                    Err(e) => Err(failure(path, "remove", e)),
                };
            }
            Ok(Opened::Gone) => return Ok(()),
            // Swapped for a link or a file since it was looked at: unlink that.
            Ok(Opened::NotFolder) => {}
            Err(e) => return Err(failure(path, "open", e)),
        }
    }
    match unlinkat(&parent, name, UnlinkatFlags::NoRemoveDir) {
        Ok(()) | Err(Errno::ENOENT) => Ok(()),
        Err(e) => Err(failure(path, "remove", e)),
    }
}

/// A walk emptying one folder: the folders from that root down to the current one.
struct Walk<'a> {
    /// The root as the caller named it, for error messages.
    root: &'a Path,
    /// The root first, the current folder last.
    levels: Vec<Level>,
}

/// One folder on the way from the root to the current folder.
struct Level {
    /// Its name in its parent (empty for the root).
    name: CString,
    /// Its device and inode, to recognise it when coming back up by `..`.
    id: (libc::dev_t, libc::ino_t),
    /// Subfolders listed and not yet removed.
    pending: Vec<CString>,
    /// Whether it must be listed (again): never listed yet, or the last listing stopped
    /// at [`BATCH`] subfolders.
    unlisted: bool,
    /// Whether removing it found it not empty once already (then it was listed again).
    relisted: bool,
}

impl Level {
    fn new(name: CString, found: &FileStat) -> Level {
        Level {
            name,
            id: (found.st_dev, found.st_ino),
            pending: Vec::new(),
            unlisted: true,
            relisted: false,
        }
    }
}

impl Walk<'_> {
    fn new(root: &Path) -> Walk<'_> {
        Walk {
            root,
            levels: Vec::new(),
        }
    }

    /// Removes everything in `root` (opened, `found` its status before any unlocking).
    fn empty(&mut self, root: &OwnedFd, found: &FileStat) -> io::Result<()> {
        // A descriptor of our own: the walk replaces it as it moves, the caller keeps its.
        let mut here = root
            .try_clone()
            .map_err(|e| failure(self.root, "open", e))?;
        self.levels.push(Level::new(CString::default(), found));
        loop {
            let depth = self.levels.len();
            if let Some(name) = self.levels[depth - 1].pending.pop() {
                if let Some((fd, found)) = self.enter(&here, &name)? {
                    self.levels.push(Level::new(name, &found));
                    here = fd;
                }
            } else if self.levels[depth - 1].unlisted {
                self.list(&here)?;
            } else if depth == 1 {
                return Ok(());
            } else {
                here = self.leave(here)?;
            }
        }
    }

    /// Lists the current folder from its beginning: unlinks every non-folder and notes
    /// subfolders, up to [`BATCH`] of them.
    fn list(&mut self, here: &OwnedFd) -> io::Result<()> {
        let depth = self.levels.len();
        // The listing reads a duplicate descriptor (sharing the position, set to the
        // beginning here) so that `here` stays free for the unlinks.
        lseek(here, 0, Whence::SeekSet).map_err(|e| self.failure(None, "list", e))?;
        let mut stream = here
            .try_clone()
            .and_then(|fd| Dir::from_fd(fd).map_err(io::Error::from))
            .map_err(|e| self.failure(None, "list", e))?;
        let mut unlisted = false;
        for entry in stream.iter() {
            let entry = entry.map_err(|e| self.failure(None, "list", e))?;
            let name = entry.file_name();
            if matches!(name.to_bytes(), b"." | b"..") {
                continue;
            }
            let folder = match entry.file_type() {
                Some(Type::Directory) => true,
                Some(_) => false,
                // The file system did not say (`DT_UNKNOWN`): ask, not following a link.
                None => match fstatat(here, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
                    Ok(stat) => is_dir(&stat),
                    Err(Errno::ENOENT) => continue,
                    Err(e) => return Err(self.failure(Some(name), "inspect", e)),
                },
            };
            if !folder && !self.unlink(here, name)? {
                continue;
            }
            let pending = &mut self.levels[depth - 1].pending;
            pending.push(name.to_owned());
            if pending.len() >= BATCH {
                unlisted = true;
                break;
            }
        }
        self.levels[depth - 1].unlisted = unlisted;
        Ok(())
    }

    /// Unlinks non-folder `name` in the current folder; `Ok(true)` if it is a folder.
    fn unlink(&self, here: &OwnedFd, name: &CStr) -> io::Result<bool> {
        match unlinkat(here, name, UnlinkatFlags::NoRemoveDir) {
            Ok(()) | Err(Errno::ENOENT) => Ok(false),
            Err(Errno::EISDIR) => Ok(true),
            Err(e) => Err(self.failure(Some(name), "remove", e)),
        }
    }

    /// Opens subfolder `name` of the current folder, unlocked; `None` when it turned out
    /// not to be a folder (then it is unlinked) or is gone.
    fn enter(&self, here: &OwnedFd, name: &CStr) -> io::Result<Option<(OwnedFd, FileStat)>> {
        match open_folder(here.as_fd(), name) {
            Ok(Opened::Folder(fd, found)) => Ok(Some((fd, found))),
            Ok(Opened::Gone) => Ok(None),
            Ok(Opened::NotFolder) => {
                if self.unlink(here, name)? {
                    // A folder again: something is racing us; say so rather than loop.
                    return Err(self.failure(Some(name), "open", Errno::EAGAIN));
                }
                Ok(None)
            }
            Err(e) => Err(self.failure(Some(name), "open", e)),
        }
    }

    /// Goes up from the current folder, now empty, and removes it; returns the parent.
    /// If the folder is not empty after all, stays in it to list it once more.
    fn leave(&mut self, here: OwnedFd) -> io::Result<OwnedFd> {
        let depth = self.levels.len();
        let up = openat(&here, "..", open_flags(), Mode::empty())
            .map_err(|e| self.failure(None, "leave", e))?;
        let reached = fstat(&up).map_err(|e| self.failure(None, "leave", e))?;
        if (reached.st_dev, reached.st_ino) != self.levels[depth - 2].id {
            return Err(io::Error::other(format!(
                "{}: cannot remove: it was moved out of its folder during the removal",
                self.location(None).display()
            )));
        }
        match unlinkat(
            &up,
            self.levels[depth - 1].name.as_c_str(),
            UnlinkatFlags::RemoveDir,
        ) {
            Ok(()) | Err(Errno::ENOENT) => {
                self.levels.pop();
                Ok(up)
            }
            // A listing that missed an entry (no file system here should, but a second
            // look costs nothing when it does not happen).
            Err(Errno::ENOTEMPTY | Errno::EEXIST) if !self.levels[depth - 1].relisted => {
                let level = &mut self.levels[depth - 1];
                level.relisted = true;
                level.unlisted = true;
                Ok(here)
            }
            Err(e) => Err(self.failure(None, "remove", e)),
        }
    }

    /// An error naming `name` in the current folder (the current folder when `None`).
    fn failure(&self, name: Option<&CStr>, verb: &str, cause: impl Into<io::Error>) -> io::Error {
        failure(&self.location(name), verb, cause)
    }

    /// The path of `name` in the current folder, or of the current folder; when deep,
    /// only the first and last few names are shown.
    fn location(&self, name: Option<&CStr>) -> PathBuf {
        const SHOWN: usize = 6;
        let names: Vec<&CStr> = self
            .levels
            .iter()
            .skip(1)
            .map(|level| level.name.as_c_str())
            .chain(name)
            .collect();
        let as_os = |name: &&CStr| OsStr::from_bytes(name.to_bytes()).to_owned();
        let mut path = self.root.to_path_buf();
        if names.len() > 2 * SHOWN + 1 {
            path.extend(names[..SHOWN].iter().map(as_os));
            path.push(format!("…{} more…", names.len() - 2 * SHOWN));
            path.extend(names[names.len() - SHOWN..].iter().map(as_os));
        } else {
            path.extend(names.iter().map(as_os));
        }
        path
    }
}

/// What [`open_folder`] found.
enum Opened {
    /// The folder, opened for listing and unlocked, and its status before unlocking.
    Folder(OwnedFd, FileStat),
    /// Not a folder: a link (to a folder or not), a file, a FIFO…
    NotFolder,
    /// Nothing by that name.
    Gone,
}

/// The flags every folder is opened with: for listing, never through a link.
fn open_flags() -> OFlag {
    OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC
}

/// Opens folder `name` in `at` for listing, never through a link, and makes sure its
/// owner may read, write and search it (a run may have locked it).
fn open_folder<P: ?Sized + NixPath>(at: BorrowedFd<'_>, name: &P) -> nix::Result<Opened> {
    let mut unlocked = None;
    let fd = loop {
        match openat(at, name, open_flags(), Mode::empty()) {
            Ok(fd) => break fd,
            Err(Errno::ENOENT) => return Ok(Opened::Gone),
            // `O_NOFOLLOW` on a link says `ELOOP`, `O_DIRECTORY` on a non-folder `ENOTDIR`.
            Err(Errno::ENOTDIR | Errno::ELOOP) => return Ok(Opened::NotFolder),
            Err(Errno::EACCES) if unlocked.is_none() => unlocked = Some(unlock(at, name)?),
            Err(e) => return Err(e),
        }
    };
    let found = fstat(&fd)?;
    if found.st_mode & OWNER_RWX != OWNER_RWX {
        // Best effort: when it fails (not the owner), the unlinks fail and say why.
        let _ = fchmod(
            &fd,
            Mode::from_bits_truncate((found.st_mode & PERMISSIONS) | OWNER_RWX),
        );
    }
    Ok(Opened::Folder(fd, unlocked.unwrap_or(found)))
}

/// Gives the owner full rights over folder `name` in `at`, which cannot be opened for
/// reading; returns its status before.
///
/// `fchmod` refuses `O_PATH` descriptors, and `fchmodat` would follow a link swapped in
/// by then; the descriptor's `/proc/self/fd` link, by contrast, leads to the very folder
/// the descriptor holds, whatever happens to its name (this is how the C library does
/// `fchmodat(…, AT_SYMLINK_NOFOLLOW)` too).
fn unlock<P: ?Sized + NixPath>(at: BorrowedFd<'_>, name: &P) -> nix::Result<FileStat> {
    let handle = openat(
        at,
        name,
        OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
        Mode::empty(),
    )?;
    let found = fstat(&handle)?;
    let mode = (found.st_mode & PERMISSIONS) | OWNER_RWX;
    fs::set_permissions(
        format!("/proc/self/fd/{}", handle.as_raw_fd()),
        fs::Permissions::from_mode(mode),
    )
    // Not the owner, or no `/proc`: the folder stays locked, which is the error to report.
    .map_err(|_| Errno::EACCES)?;
    Ok(found)
}

/// Whether a status is a folder's.
fn is_dir(stat: &FileStat) -> bool {
    stat.st_mode & libc::S_IFMT == libc::S_IFDIR
}

/// `path: cannot <verb>: <cause>`, keeping the cause's kind.
fn failure(path: &Path, verb: &str, cause: impl Into<io::Error>) -> io::Error {
    let cause = cause.into();
    io::Error::new(
        cause.kind(),
        format!("{}: cannot {verb}: {cause}", path.display()),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use std::os::unix::net::UnixListener;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::Instant;

    use nix::sys::stat::{SFlag, makedev, mkdirat, mknodat};
    use nix::unistd::{geteuid, mkfifoat, symlinkat};

    /// Set in a child test process (see [`in_child`]) to run the real test body.
    const CHILD: &str = "GRADER_REMOVE_TEST_CHILD";

    /// A temporary folder for a test tree, removed with [`remove_tree`] (which unlocks
    /// what a test locked) even when the test fails.
    pub(crate) struct Temp(tempfile::TempDir);

    impl Temp {
        pub(crate) fn path(&self) -> &Path {
            self.0.path()
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = remove_tree(self.0.path());
        }
    }

    /// A [`Temp`] folder: in memory (`/dev/shm`) when there is one and `TMPDIR` does not
    /// say otherwise, because the tests check the walk, not the disk, and some disks take
    /// milliseconds per `rmdir` (ext4 mounted with `discard`: 3 ms here).
    pub(crate) fn temp() -> Temp {
        let builder = tempfile::Builder::new().prefix("grader-remove-").clone();
        if std::env::var_os("TMPDIR").is_none()
            && let Ok(dir) = builder.tempdir_in("/dev/shm")
        {
            return Temp(dir);
        }
        Temp(builder.tempdir().unwrap())
    }

    fn open_dir(path: &Path) -> OwnedFd {
        openat(AT_FDCWD, path, open_flags(), Mode::empty()).unwrap()
    }

    fn chmod(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    fn mode_of(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    fn is_empty(dir: &Path) -> bool {
        fs::read_dir(dir).unwrap().next().is_none()
    }

    /// Makes empty files `prefix0`, `prefix1`… in `at` without opening them.
    fn make_files(at: &OwnedFd, prefix: &str, count: usize) {
        for i in 0..count {
            mknodat(
                at,
                format!("{prefix}{i}").as_str(),
                SFlag::S_IFREG,
                Mode::S_IRUSR,
                0,
            )
            .unwrap();
        }
    }

    /// Makes a chain of `depth` folders named `name` in `dir`, relative to descriptors
    /// (no path is ever longer than one name), all but the deepest given `mode` once
    /// their child is made; returns the deepest one, open (mode 0700).
    pub(crate) fn build_chain(dir: &Path, name: &str, depth: usize, mode: u32) -> OwnedFd {
        let mut here = open_dir(dir);
        for level in 0..depth {
            mkdirat(&here, name, Mode::S_IRWXU).unwrap();
            let next = openat(&here, name, open_flags(), Mode::empty()).unwrap();
            if level > 0 {
                fchmod(&here, Mode::from_bits_truncate(mode)).unwrap();
            }
            here = next;
        }
        here
    }

    /// Runs test `name` (of this module) in a child process of this test binary with
    /// [`CHILD`] set, after `configure`; panics with its output if it fails. Skips (with
    /// a note) when the child cannot be started for lack of rights.
    fn in_child(name: &str, configure: impl FnOnce(&mut Command)) {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command
            .args([
                "--exact",
                &format!("remove::tests::{name}"),
                "--test-threads=1",
            ])
            .env(CHILD, "1");
        configure(&mut command);
        let output = match command.output() {
            Ok(output) => output,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                eprintln!("{name}: skipped the child process: {e}");
                return;
            }
            Err(e) => panic!("cannot start a child test: {e}"),
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("1 passed"),
            "{name} failed in its child process:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn in_child_process() -> bool {
        std::env::var_os(CHILD).is_some()
    }

    #[test]
    fn a_5000_deep_chain_goes_with_a_few_descriptors() {
        if !in_child_process() {
            return in_child("a_5000_deep_chain_goes_with_a_few_descriptors", |_| {});
        }
        // Far fewer descriptors than levels: a walk holding one per level cannot pass.
        nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, 32, 32).unwrap();
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        chmod(&root, 0o751);
        let bottom = build_chain(&root, "d", 5_000, 0o700);
        fs::write(dir.path().join("outside"), "keep").unwrap();
        symlinkat(&dir.path().join("outside"), &bottom, "link").unwrap();
        mkfifoat(&bottom, "fifo", Mode::S_IRWXU).unwrap();
        drop(bottom);
        empty_dir(&root).unwrap();
        assert!(is_empty(&root));
        assert_eq!(mode_of(&root), 0o751, "the folder keeps its mode");
        assert_eq!(fs::read(dir.path().join("outside")).unwrap(), b"keep");
        drop(build_chain(&root, "d", 5_000, 0o500));
        remove_tree(&root).unwrap();
        assert!(!root.exists());
    }

    #[test]
    fn paths_longer_than_path_max_are_no_obstacle() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        let name = "n".repeat(250);
        let depth = 24;
        let bottom = build_chain(&root, &name, depth, 0o700);
        mkdirat(&bottom, "locked", Mode::empty()).unwrap();
        make_files(&bottom, "f", 3);
        drop(bottom);
        assert!(root.as_os_str().len() + depth * (name.len() + 1) > libc::PATH_MAX as usize);
        remove_tree(&root).unwrap();
        assert!(!root.exists());
    }

    #[test]
    fn links_are_removed_never_followed() {
        let dir = temp();
        let outside = dir.path().join("outside");
        fs::create_dir_all(outside.join("inner")).unwrap();
        fs::write(outside.join("inner/keep"), "keep").unwrap();
        fs::write(outside.join("file"), "file").unwrap();
        chmod(&outside.join("inner"), 0o500);
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("sub/deeper")).unwrap();
        let links: [(&Path, &str); 10] = [
            (&outside, "to_dir"),
            (&outside.join("inner"), "to_locked_dir"),
            (&outside.join("file"), "to_file"),
            (Path::new("/etc"), "to_etc"),
            (Path::new(".."), "up"),
            (Path::new("."), "here"),
            (Path::new("missing"), "dangling"),
            (Path::new("loop_b"), "loop_a"),
            (Path::new("loop_a"), "loop_b"),
            (Path::new("self"), "self"),
        ];
        for place in [&root, &root.join("sub"), &root.join("sub/deeper")] {
            for (target, name) in links {
                std::os::unix::fs::symlink(target, place.join(name)).unwrap();
            }
        }
        chmod(&root.join("sub"), 0o000);
        empty_dir(&root).unwrap();
        assert!(is_empty(&root));
        assert_eq!(fs::read(outside.join("inner/keep")).unwrap(), b"keep");
        assert_eq!(fs::read(outside.join("file")).unwrap(), b"file");
        assert_eq!(mode_of(&outside.join("inner")), 0o500);
        assert!(Path::new("/etc/passwd").exists());
        // A link given as the tree is removed as a link; `empty_dir` refuses one.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        assert!(empty_dir(&link).is_err());
        remove_tree(&link).unwrap();
        assert!(fs::symlink_metadata(&link).is_err());
        assert_eq!(fs::read(outside.join("file")).unwrap(), b"file");
        chmod(&outside.join("inner"), 0o700);
    }

    #[test]
    fn fifos_sockets_devices_and_locked_files_are_unlinked_unopened() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("sub")).unwrap();
        for place in [root.clone(), root.join("sub")] {
            let at = open_dir(&place);
            // Opening the FIFO would block the test for good.
            mkfifoat(&at, "fifo", Mode::S_IRWXU).unwrap();
            mkfifoat(&at, "locked_fifo", Mode::empty()).unwrap();
            drop(UnixListener::bind(place.join("socket")).unwrap());
            mknodat(&at, "locked_file", SFlag::S_IFREG, Mode::empty(), 0).unwrap();
            // Only root may make device nodes; elsewhere there is nothing to check.
            let _ = mknodat(&at, "null", SFlag::S_IFCHR, Mode::S_IRWXU, makedev(1, 3));
            let _ = mknodat(&at, "block", SFlag::S_IFBLK, Mode::empty(), makedev(7, 0));
        }
        chmod(&root.join("sub"), 0o500);
        empty_dir(&root).unwrap();
        assert!(is_empty(&root));
        mkfifoat(AT_FDCWD, &root.join("fifo"), Mode::S_IRWXU).unwrap();
        remove_tree(&root.join("fifo")).unwrap();
        remove_tree(&root).unwrap();
        assert!(!root.exists());
    }

    /// Fills `root` with folders their owner may not list, enter or write, files in
    /// them, and a chain of locked folders; leaves `root` itself with `root_mode`.
    fn build_locked_tree(root: &Path, root_mode: u32) {
        for (name, mode) in [("none", 0o000), ("x", 0o100), ("rx", 0o500), ("wx", 0o300)] {
            let folder = root.join(name);
            fs::create_dir_all(folder.join("sub/subsub")).unwrap();
            fs::write(folder.join("file"), "x").unwrap();
            fs::write(folder.join("sub/file"), "x").unwrap();
            chmod(&folder.join("sub/file"), 0o000);
            chmod(&folder.join("sub/subsub"), mode);
            chmod(&folder.join("sub"), mode);
            chmod(&folder, mode);
        }
        let bottom = build_chain(root, "locked", 50, 0o000);
        make_files(&bottom, "f", 2);
        fchmod(&bottom, Mode::empty()).unwrap();
        chmod(root, root_mode);
    }

    #[test]
    fn locked_folders_are_unlocked_and_the_root_keeps_its_mode() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        build_locked_tree(&root, 0o500);
        if !geteuid().is_root() {
            // The point of the test: the owner alone could not list these.
            let error = fs::read_dir(root.join("none")).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
        }
        empty_dir(&root).unwrap();
        assert!(is_empty(&root));
        assert_eq!(mode_of(&root), 0o500);
        chmod(&root, 0o700);
        build_locked_tree(&root, 0o000);
        empty_dir(&root).unwrap();
        assert_eq!(mode_of(&root), 0o000);
        chmod(&root, 0o700);
        assert!(is_empty(&root));
        build_locked_tree(&root, 0o000);
        remove_tree(&root).unwrap();
        assert!(!root.exists());
        // As root, modes stop nothing: run it again as a user they do stop.
        if geteuid().is_root() && !in_child_process() {
            in_child(
                "locked_folders_are_unlocked_and_the_root_keeps_its_mode",
                |command| {
                    command.uid(65534).gid(65534);
                },
            );
        }
    }

    #[test]
    fn more_subfolders_than_a_batch_with_files_between() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        let at = open_dir(&root);
        for i in 0..BATCH * 2 + 100 {
            let name = format!("d{i}");
            mkdirat(&at, name.as_str(), Mode::S_IRWXU).unwrap();
            let sub = openat(&at, name.as_str(), open_flags(), Mode::empty()).unwrap();
            make_files(&sub, "f", 1);
            mknodat(
                &at,
                format!("f{i}").as_str(),
                SFlag::S_IFREG,
                Mode::empty(),
                0,
            )
            .unwrap();
        }
        drop(at);
        empty_dir(&root).unwrap();
        assert!(is_empty(&root));
    }

    #[test]
    fn a_folder_of_100000_files() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        let start = Instant::now();
        make_files(&open_dir(&root), "file-number-", 100_000);
        let made = start.elapsed();
        let start = Instant::now();
        empty_dir(&root).unwrap();
        println!(
            "100,000 files: made in {made:.2?}, removed in {:.2?}",
            start.elapsed()
        );
        assert!(is_empty(&root));
    }

    #[test]
    fn missing_trees_are_fine_and_errors_name_the_path() {
        let dir = temp();
        let missing = dir.path().join("missing");
        remove_tree(&missing).unwrap();
        remove_tree(&missing.join("below")).unwrap();
        let error = empty_dir(&missing).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: cannot ", missing.display()))
        );
        let file = dir.path().join("file");
        fs::write(&file, "x").unwrap();
        let error = empty_dir(&file).unwrap_err();
        assert!(error.to_string().contains("file: cannot empty"), "{error}");
        remove_tree(&file).unwrap();
        assert!(!file.exists());
        for bad in [".", "..", "/", "a/.."] {
            let error = remove_tree(Path::new(bad)).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{bad}");
        }
        // Deep paths show their ends, not thousands of names.
        let mut walk = Walk::new(Path::new("run-0"));
        let stat = fstat(open_dir(dir.path())).unwrap();
        walk.levels.push(Level::new(CString::default(), &stat));
        for i in 0..5000 {
            walk.levels
                .push(Level::new(CString::new(format!("d{i}")).unwrap(), &stat));
        }
        assert_eq!(
            walk.location(Some(c"f")),
            Path::new("run-0/d0/d1/d2/d3/d4/d5/…4989 more…/d4995/d4996/d4997/d4998/d4999/f")
        );
    }

    #[test]
    #[ignore = "slow: a 100,000-deep chain; run by hand to time it"]
    fn a_100000_deep_chain() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        let start = Instant::now();
        drop(build_chain(&root, "d", 100_000, 0o700));
        let made = start.elapsed();
        let start = Instant::now();
        remove_tree(&root).unwrap();
        println!(
            "100,000-deep chain: made in {made:.2?}, removed in {:.2?}",
            start.elapsed()
        );
        assert!(!root.exists());
    }

    #[test]
    #[ignore = "slow: a million files; run by hand to time it"]
    fn a_folder_of_a_million_files() {
        let dir = temp();
        let root = dir.path().join("root");
        fs::create_dir(&root).unwrap();
        let start = Instant::now();
        make_files(&open_dir(&root), "file-number-", 1_000_000);
        let made = start.elapsed();
        let start = Instant::now();
        empty_dir(&root).unwrap();
        println!(
            "1,000,000 files: made in {made:.2?}, removed in {:.2?}",
            start.elapsed()
        );
        assert!(is_empty(&root));
    }
}
