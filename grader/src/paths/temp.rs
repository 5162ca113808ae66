//! The grader's own temporary folder: every folder a command makes in the temp folder
//! (staging folders, boxes' roots, scratch folders) lives in one folder per grader
//! process, `$TMPDIR/grader-tmp-XXXXXX`, so that one removal takes them all.
//!
//! The folder holds a `.lock` file the process keeps an exclusive `flock` on. A grader
//! that was killed (SIGKILL, a power cut) releases its lock with its descriptors, so the
//! next grader to make its own folder finds that one unlocked and removes it: what a
//! killed grader left does not pile up. (Commands that start no program make no folder,
//! leave none, and skip the sweep: `solve` and `check` stay one process start.) The lock is taken before the folder gets its
//! final name (it is made under a name no sweep looks at, then renamed), so a sweep never
//! sees a folder whose owner has not locked it yet.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use nix::fcntl::{Flock, FlockArg};
use sandbox::remove;

use crate::cli::exit::Fault;
use sandbox::Locked as _;

/// The names of graders' folders (the part before the random suffix).
const PREFIX: &str = "grader-tmp-";
/// The lock file in each.
const LOCK: &str = ".lock";

/// This process's folder, made on first use.
static ROOT: OnceLock<Mutex<Option<Root>>> = OnceLock::new();

/// The temp files beside their targets that this process is writing now (an atomic
/// write's, the journal's compaction's): in the target's folder, not in this process's
/// folder (a rename does not cross file systems), so removed one by one when the grader
/// exits at once at a signal, as its folder is.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temp file being written beside its target, listed in [`PENDING`] while it lives.
#[derive(Debug)]
pub(crate) struct Pending(PathBuf);

impl Pending {
    /// Lists `path` until the guard is dropped (the file renamed or removed).
    pub(crate) fn new(path: &Path) -> Pending {
        pending().push(path.to_path_buf());
        Pending(path.to_path_buf())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut files = pending();
        if let Some(at) = files.iter().position(|p| *p == self.0) {
            files.swap_remove(at);
        }
    }
}

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.locked()
}

/// A grader's folder and the lock that says its grader is alive.
#[derive(Debug)]
struct Root {
    path: PathBuf,
    _lock: Flock<File>,
}

/// A new folder `NAME-XXXXXX` inside this process's folder, mode 0755 (programs running as
/// a worker's own uid must enter the folders below it); removed on drop.
pub(crate) fn dir(name: &str) -> io::Result<tempfile::TempDir> {
    let root = root()?;
    let dir = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir_in(root)?;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// A path `NAME-N` inside this process's folder that nothing holds yet, for a folder made
/// later (or never): the folder is this process's alone, and `N` counts up, so no other
/// name there is the same (those of [`dir`] have six random characters).
pub(crate) fn reserve(name: &str) -> io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(root()?.join(format!("{name}-{n}")))
}

/// Makes sure the temporary folder can hold this process's folder and what goes in it:
/// the folder is made (once), and room for a probe file taken in it. An unusable
/// `TMPDIR` (missing, a file, not writable, full) is the user's setup, as an unusable
/// compile cache is: exit 2 naming it and why, before any work, where each run's staging
/// failing would end a `batch` with every student `--` and a `test` as an internal error
/// blaming the sandbox. Called by every command that runs programs before it runs one.
pub(crate) fn usable() -> Result<(), Fault> {
    /// Enough to be told `ENOSPC` by a full file system, little enough to cost nothing.
    const PROBE: i64 = 64 << 10;
    let parent = std::env::temp_dir();
    let fault = |e: &io::Error| {
        let named = match std::env::var_os("TMPDIR") {
            Some(_) => format!("TMPDIR {}", parent.display()),
            None => format!("{} (TMPDIR is not set)", parent.display()),
        };
        let why = match e.kind() {
            io::ErrorKind::NotFound => "no such folder".to_owned(),
            io::ErrorKind::NotADirectory => "is a file, not a folder".to_owned(),
            io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
                "cannot be written: permission denied".to_owned()
            }
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                "is full: no space left for the grader's temporary files".to_owned()
            }
            _ => e.to_string(),
        };
        Fault::setup(format!(
            "{named}: {why}: the grader keeps its temporary files there (set TMPDIR to a \
             folder you can write, or unset it for /tmp)"
        ))
    };
    if let Ok(meta) = fs::metadata(&parent)
        && !meta.is_dir()
    {
        return Err(fault(&io::Error::from(io::ErrorKind::NotADirectory)));
    }
    let root = root().map_err(|e| fault(&e))?;
    // A file with no name, gone when closed: nothing to remove. Its blocks are asked for,
    // not written: a full file system says ENOSPC at once, and no command waits for a
    // disk write (a sync) before its first run.
    tempfile::tempfile_in(&root)
        .and_then(|file| nix::fcntl::posix_fallocate(&file, 0, PROBE).map_err(io::Error::from))
        .map_err(|e| fault(&e))
}

/// Set once this process's folder is being removed for good (the command's end, a panic,
/// a second signal): no folder is made after it.
static ENDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// This process's folder, made (and the folders of graders that are gone removed) on
/// first use.
fn root() -> io::Result<PathBuf> {
    // Unit tests run in-process, where no command's end removes the folder: their
    // folders go with their `TempDir`s, straight in the temp folder.
    if cfg!(test) {
        return Ok(std::env::temp_dir());
    }
    let cell = ROOT.get_or_init(|| Mutex::new(None));
    let mut root = cell.locked();
    if let Some(root) = root.as_ref() {
        return Ok(root.path.clone());
    }
    // Checked under the lock `remove_own_within` takes after it sets the flag: a folder
    // is either made before the removal (and removed by it) or not at all.
    if ENDED.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(io::Error::other(
            "the grader is ending: no new temporary folder",
        ));
    }
    let parent = std::env::temp_dir();
    // What graders that were killed left goes before this one adds its own.
    sweep_in(&parent);
    let made = make_root(&parent)?;
    let path = made.path.clone();
    *root = Some(made);
    Ok(path)
}

fn make_root(parent: &Path) -> io::Result<Root> {
    let staging = tempfile::Builder::new()
        .prefix(".grader-new-")
        .tempdir_in(parent)?;
    let lock = File::create(staging.path().join(LOCK))?;
    let lock = Flock::lock(lock, FlockArg::LockExclusiveNonblock).map_err(|(_, e)| e)?;
    let ((), named) = tempfile::Builder::new()
        .prefix(PREFIX)
        .make_in(parent, |path| fs::rename(staging.path(), path))?
        .keep()
        .map_err(|e| e.error)?;
    // The staging name is gone: nothing is left for `TempDir` to remove.
    let _ = staging.keep();
    fs::set_permissions(&named, fs::Permissions::from_mode(0o755))?;
    Ok(Root {
        path: named,
        _lock: lock,
    })
}

/// Whether this process has made its folder: whether it has started programs' work
/// (staging, boxes, scratch folders) that a stop must wind down.
pub(crate) fn in_use() -> bool {
    ROOT.get()
        .is_some_and(|cell| cell.try_lock().map_or(true, |root| root.is_some()))
}

/// Removes this process's folder, if it made one: at the end of every command, whether it
/// ended well, failed or was interrupted. Waits for a thread that holds the folder's lock
/// at that moment (a trial ahead making the folder, a worker naming a box's): given up
/// at once, the folder that thread made or was using would outlive the grader.
pub(crate) fn remove_own() {
    remove_own_within(std::time::Duration::MAX);
}

/// [`remove_own`] from the panic hook: never waits, as the panicking thread may hold the
/// lock.
pub(crate) fn remove_own_now() {
    remove_own_within(std::time::Duration::ZERO);
}

/// [`remove_own`] before the process exits at once (a second Ctrl-C): another thread may
/// be removing the folder right now (the command's own end); it is waited for, up to
/// `patience`, so that the exit does not cut its removal short and leave half a folder.
pub(crate) fn remove_own_within(patience: std::time::Duration) {
    // From now on no thread makes a new folder (`root`): a worker set up on another thread
    // as the command ends (a spare, a trial ahead) would otherwise make one after this
    // removal, and the process would leave it behind as it exits.
    ENDED.store(true, std::sync::atomic::Ordering::SeqCst);
    // Never waited for: the panic hook's thread may hold the list.
    if let Ok(files) = PENDING.try_lock() {
        for file in files.iter() {
            let _ = fs::remove_file(file);
        }
    }
    let Some(cell) = ROOT.get() else {
        return;
    };
    // No end (`Duration::MAX`): wait as long as the holder takes.
    let until = std::time::Instant::now().checked_add(patience);
    let mut root = loop {
        match cell.try_lock() {
            Ok(root) => break root,
            Err(std::sync::TryLockError::Poisoned(e)) => break e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock)
                if until.is_none_or(|until| std::time::Instant::now() < until) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => return,
        }
    };
    if let Some(root) = root.take() {
        let _ = remove::remove_tree(&root.path);
    }
}

/// Removes the folders of graders that are gone from `parent`; the number removed.
/// Folders of graders still running (their lock is held) and anything else are left
/// alone; a folder that cannot be removed (another user's) is skipped in silence: it is
/// not this call's fault.
fn sweep_in(parent: &Path) -> usize {
    let Ok(entries) = fs::read_dir(parent) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(|n| n.starts_with(PREFIX))
            || !entry.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        let path = entry.path();
        let Ok(lock) = File::open(path.join(LOCK)) else {
            continue;
        };
        // Held while the folder goes: a grader cannot start using it meanwhile (no
        // grader reuses another's folder anyway).
        if let Ok(_held) = Flock::lock(lock, FlockArg::LockExclusiveNonblock)
            && remove::remove_tree(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_temp_file_is_listed_while_it_lives_and_removed_at_an_exit_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".grader-x");
        let guard = Pending::new(&path);
        assert!(pending().contains(&path));
        drop(guard);
        assert!(!pending().contains(&path));
        // A write under way when the grader exits at a second signal.
        fs::write(&path, b"half a gradebook").unwrap();
        let _guard = Pending::new(&path);
        remove_own_within(std::time::Duration::ZERO);
        assert!(!path.exists());
    }

    #[test]
    fn a_live_graders_folder_is_kept_and_a_dead_ones_swept() {
        let parent = tempfile::tempdir().unwrap();
        let live = make_root(parent.path()).unwrap();
        fs::create_dir(live.path.join("run-1")).unwrap();
        let dead = make_root(parent.path()).unwrap();
        let dead_path = dead.path.clone();
        fs::create_dir_all(dead_path.join("box-1/work")).unwrap();
        // Not ours: no lock file, or another prefix.
        fs::create_dir(parent.path().join("grader-tmp-nolock")).unwrap();
        fs::create_dir(parent.path().join("grader-cache-0")).unwrap();
        assert_eq!(sweep_in(parent.path()), 0);
        drop(dead);
        assert_eq!(sweep_in(parent.path()), 1);
        assert!(!dead_path.exists());
        assert!(live.path.join("run-1").is_dir());
        assert!(parent.path().join("grader-tmp-nolock").is_dir());
        assert!(parent.path().join("grader-cache-0").is_dir());
        // No staging folder is left beside the folders made.
        let names: Vec<String> = fs::read_dir(parent.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with(".grader-new-")),
            "{names:?}"
        );
        let mode = fs::metadata(&live.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}
