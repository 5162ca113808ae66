//! The box of the `strict` tier, built once per worker by its launcher: new PID, mount,
//! network, IPC and UTS namespaces (and a user namespace when the grader is not root), in
//! which the launcher is the init process, with a root file system of its own:
//!
//! | path | what |
//! |---|---|
//! | `/usr`, `/lib*`, `/bin`, `/sbin`, `/etc`, `/opt`, a toolchain | the machine's, read-only |
//! | `/prog` | the program's staged files, copied in; a read-only view of a memory file system that only the launcher can write, through a mount detached from every path |
//! | `/box` (and `/tmp`, `/dev/shm`, links to it) | the only writable place: a memory file system owned by the run's uid, so its pages count in the run's cgroup |
//! | `/dev` | `null`, `zero`, `full`, `random`, `urandom` and the `/proc/self/fd` links |
//! | `/proc` | the box's own: only the processes of the current run |
//!
//! Nothing else of the machine is in it: no case file, no other submission, no home
//! folder, no socket of the machine's services (`/run`, `/var` and `/tmp` are not there;
//! abstract sockets belong to the network namespace, which is empty).
//!
//! Why init: as PID 1 of the namespace the launcher sees every process of a run, whatever
//! session or process group it moved to and whoever its parent is, and `kill(-1)` reaches
//! them all (and nothing outside). Orphans are reparented to it, so it reaps everything,
//! and its children's `getrusage` counts the CPU time of every process of the run. If the
//! launcher dies, the kernel kills the whole namespace.
//!
//! **Nothing of one run reaches the next.** Each run starts from the box as it was made:
//!
//! - `/box` is a new memory file system whenever the last run changed anything in it (a
//!   file, or an attribute of the folder itself: mode, owner, times, extended attributes,
//!   ACLs), so no reset can miss an attribute. What changed is known from an inotify watch
//!   on the folder (events are queued by the call that makes the change, so once a run's
//!   processes are dead its events are there); it is mounted `noatime`, so that reading
//!   it changes nothing. A run that touches nothing costs one read of the watch; a new
//!   mount costs about 50 µs. The launcher outside the box mounts it, on init's word
//!   ([`outside`]): init itself is under the programs' filters, which refuse mounting.
//! - The PID counter is set back before each run (`ns_last_pid`): its first process is
//!   always pid 2.
//! - Each run gets a cgroup namespace of its own (`launcher.rs`), and the filters of
//!   `confine.rs` refuse what could carry state past a run (System V IPC, message queues,
//!   key rings, the page cache's eviction and probing calls).
//!
//! **What it shows of the machine:** its own hostname (`box`, in `uname` and in
//! `/etc/hostname` and `/etc/hosts`), a cgroup path of `/`, and an init whose command line
//! names no folder (`grader-launcher`) and whose other `/proc` files are closed to
//! programs (it is not dumpable).
#![expect(
    unsafe_code,
    reason = "namespaces, mounts and pivot_root have no safe wrapper in our dependencies"
)]

use std::fs::{self, File};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::Path;

use nix::fcntl::{OFlag, openat};
use nix::sys::stat::Mode;

use crate::namespace::{self, c_path, check, map_own_ids, mount, own_ids};
use crate::protocol::{BoxSetup, Staged};

/// The box's writable folder, the working directory of every run.
pub(crate) const WORK: &str = "/box";
/// Where a program's staged files are, read-only.
pub(crate) const PROGRAM: &str = "/prog";
/// Where a compile's precompiled headers are shown, read-only.
pub(crate) const HEADERS: &str = "/headers";

/// How much a program's staged files may take.
const STAGE_SIZE: &str = "size=512m";

/// The devices a program may open, bound from the machine's `/dev`.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// The hostname inside the box.
const HOSTNAME: &str = "box";

/// What the box's `/etc/hosts` says, in place of the machine's (which names it).
const HOSTS: &str = "127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\tbox\n";

/// Every inotify event but those of reading (`IN_ACCESS`, `IN_OPEN`,
/// `IN_CLOSE_NOWRITE`): whatever changes the work folder or what it holds.
const CHANGES: u32 =
    libc::IN_ALL_EVENTS & !(libc::IN_ACCESS | libc::IN_OPEN | libc::IN_CLOSE_NOWRITE);

/// A launcher that is the init process of its box.
#[derive(Debug)]
pub(crate) struct Boxed {
    /// The writable side of `/prog`: a mount detached from every path, reachable only
    /// through this descriptor.
    stage: OwnedFd,
    /// An inotify instance watching `/box` for [`CHANGES`] (non-blocking).
    changes: OwnedFd,
    /// The socket to the launcher outside, which mounts each new work folder.
    renewals: UnixStream,
    /// The box's `/proc/sys/kernel/ns_last_pid`, open for writing.
    last_pid: File,
}

fn unmount(target: &str) -> io::Result<()> {
    let t = c_path(target)?;
    // SAFETY: a valid path; MNT_DETACH only detaches the mount.
    let r = unsafe { libc::umount2(t.as_ptr(), libc::MNT_DETACH) };
    check(r.into(), &format!("unmount {target}"))
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;

/// Makes the mount at `target` (and, with `recursive`, every mount below it) read-only,
/// set-uid-free and device-free. A bind's own flags cannot be changed by `MS_REMOUNT`
/// without repeating the flags the kernel locked on it; `mount_setattr` only adds.
fn seal(target: &str, recursive: bool, devices: bool) -> io::Result<()> {
    let t = c_path(target)?;
    let mut attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    if !devices {
        attr.attr_set |= MOUNT_ATTR_NODEV;
    }
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    // SAFETY: a valid path and a `mount_attr` of the size passed.
    let r = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            t.as_ptr(),
            flags,
            &raw mut attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(r, &format!("make {target} read-only"))
}

/// Enters a new box. Returns in the box's init process, with the root changed; the
/// process that called it stays outside, waits for that init and exits as it does.
pub(crate) fn enter(setup: &BoxSetup) -> io::Result<Boxed> {
    let ids = own_ids();
    let mut flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    if setup.user_namespace {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: unshare with namespace flags changes only this (single-threaded) process.
    check(unsafe { libc::unshare(flags) }.into(), "unshare")?;
    if setup.user_namespace {
        map_own_ids(ids, setup.owner)?;
    }
    // Init asks the launcher outside for each new work folder on this socket.
    let (renewals, renewer) = UnixStream::pair()?;
    // SAFETY: the launcher is single-threaded, so fork is sound; the child returns into
    // ordinary code.
    let pid = unsafe { libc::fork() };
    check(pid.into(), "fork the box's init")?;
    if pid > 0 {
        drop(renewals);
        outside(pid, &renewer, setup);
    }
    drop(renewer);
    // The init process: it dies with the launcher outside (and the box with it). Had
    // that launcher died before this line, the grader is gone too, and the socket's end
    // stops this process at its first read.
    // SAFETY: a plain prctl call.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    let stage = build(setup)?;
    // Programs run as other users (root) or are stripped of capabilities (a user
    // namespace): either way a process that is not dumpable keeps its `/proc` files
    // (environment, descriptors, memory, executable) from them.
    // SAFETY: a plain prctl call.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
    // SAFETY: inotify_init1 takes flags only; the descriptor is ours alone.
    let changes = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
    check(changes.into(), "inotify_init1")?;
    // SAFETY: a descriptor just made, owned by nothing else.
    let changes = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(changes) };
    let boxed = Boxed {
        stage,
        changes,
        renewals,
        last_pid: File::options()
            .write(true)
            .open("/proc/sys/kernel/ns_last_pid")?,
    };
    boxed.watch_work()?;
    Ok(boxed)
}

/// The launcher outside the box: it holds nothing of the grader's (the grader's socket
/// goes to the init process alone, so the grader sees the end of the box when init ends),
/// mounts a new work folder whenever init asks on `renewer`, and exits as init does.
///
/// Why here and not in init: init takes the programs' system-call filters on itself once,
/// and those refuse every mount call. This process shares the box's mount namespace (and,
/// after `pivot_root`, its root) but none of its processes can reach it: it is outside the
/// box's PID namespace and unfiltered.
fn outside(pid: libc::pid_t, renewer: &UnixStream, setup: &BoxSetup) -> ! {
    // SAFETY: closing our copy of the grader's socket. (Like every launcher, this one has
    // no parent-death signal, see `launcher::serve`: the end of the grader closes its
    // socket, which ends init, which ends this loop.)
    unsafe { libc::close(0) };
    let mut asked = [0u8; 1];
    while matches!(io::Read::read(&mut &*renewer, &mut asked), Ok(1)) {
        let renewed = unmount(WORK).and_then(|()| mount_work(WORK, setup.work_size, setup.owner));
        let errno = renewed.map_or_else(|e| e.raw_os_error().unwrap_or(libc::EIO), |()| 0);
        if io::Write::write_all(&mut &*renewer, &errno.to_ne_bytes()).is_err() {
            break;
        }
    }
    namespace::exit_as(pid)
}

/// Builds the root file system on `setup.root` and moves into it; returns the writable
/// side of `/prog`.
fn build(setup: &BoxSetup) -> io::Result<OwnedFd> {
    // Nothing mounted here may reach the machine's mount table.
    mount("", "/", "", libc::MS_REC | libc::MS_PRIVATE, "")?;
    let root = setup.root.trim_end_matches('/');
    let nosuid = libc::MS_NOSUID | libc::MS_NODEV;
    mount("tmpfs", root, "tmpfs", nosuid, "size=4m,mode=0755")?;
    for path in &setup.read_only {
        show(root, path, path)?;
    }
    if let Some(headers) = &setup.headers {
        show(root, headers, HEADERS)?;
    }
    let dev = format!("{root}/dev");
    fs::create_dir(&dev)?;
    mount(
        "tmpfs",
        &dev,
        "tmpfs",
        nosuid | libc::MS_NOEXEC,
        "size=64k,mode=0755",
    )?;
    for device in DEVICES {
        let inside = format!("{dev}/{device}");
        File::create(&inside)?;
        mount(&format!("/dev/{device}"), &inside, "", libc::MS_BIND, "")?;
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
        ("shm", WORK),
    ] {
        std::os::unix::fs::symlink(target, format!("{dev}/{link}"))?;
    }
    seal(&dev, false, true)?;
    // The box's own names in place of the machine's, bound over the shown `/etc`.
    for (file, text) in [
        ("hostname", format!("{HOSTNAME}\n")),
        ("hosts", HOSTS.to_owned()),
    ] {
        let inside = format!("{root}/etc/{file}");
        if fs::symlink_metadata(&inside).is_ok_and(|m| m.is_file()) {
            let source = format!("{root}/.{file}");
            fs::write(&source, text)?;
            mount(&source, &inside, "", libc::MS_BIND, "")?;
            seal(&inside, false, false)?;
            fs::remove_file(&source)?;
        }
    }
    let proc = format!("{root}/proc");
    fs::create_dir(&proc)?;
    mount("proc", &proc, "proc", nosuid | libc::MS_NOEXEC, "")?;
    fs::create_dir(format!("{root}{WORK}"))?;
    std::os::unix::fs::symlink(WORK, format!("{root}/tmp"))?;
    mount_work(&format!("{root}{WORK}"), setup.work_size, setup.owner)?;
    // `/prog`: a memory file system mounted twice, read-only at `/prog`, writable at a
    // place that is then detached: only the descriptor kept here reaches it.
    let writable = format!("{root}/.stage");
    let program = format!("{root}{PROGRAM}");
    fs::create_dir(&writable)?;
    fs::create_dir(&program)?;
    mount(
        "tmpfs",
        &writable,
        "tmpfs",
        nosuid,
        &format!("{STAGE_SIZE},mode=0755"),
    )?;
    mount(&writable, &program, "", libc::MS_BIND, "")?;
    seal(&program, false, false)?;
    let stage = OwnedFd::from(File::open(&writable)?);
    unmount(&writable)?;
    fs::remove_dir(&writable)?;
    // The old root goes: pivot onto the new one and detach the old from under it.
    let r = c_path(root)?;
    let dot = c_path(".")?;
    // SAFETY: valid paths; after pivot_root(".", ".") the old root is stacked on "." and
    // detached at once.
    unsafe {
        check(libc::chdir(r.as_ptr()).into(), "enter the box")?;
        check(
            libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()),
            "pivot_root",
        )?;
        check(
            libc::umount2(dot.as_ptr(), libc::MNT_DETACH).into(),
            "detach the old root",
        )?;
        check(libc::chdir(c"/".as_ptr()).into(), "enter the box")?;
    }
    seal("/", false, false)?;
    // SAFETY: a valid buffer of the given length.
    unsafe { libc::sethostname(HOSTNAME.as_ptr().cast(), HOSTNAME.len()) };
    Ok(stage)
}

/// Shows the machine's `path` at `at` in the box (its own path, but for the headers),
/// read-only: a symbolic link as the same link (Debian's `/bin -> usr/bin`), a folder or
/// file as a bind mount.
fn show(root: &str, path: &str, at: &str) -> io::Result<()> {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(());
    };
    let inside = format!("{root}{at}");
    if let Some(parent) = Path::new(&inside).parent() {
        fs::create_dir_all(parent)?;
    }
    if meta.file_type().is_symlink() {
        // A link inside a folder already shown is already there.
        if fs::symlink_metadata(&inside).is_err() {
            std::os::unix::fs::symlink(fs::read_link(path)?, &inside)?;
        }
        return Ok(());
    }
    if meta.is_dir() {
        fs::create_dir_all(&inside)?;
    } else {
        File::create(&inside)?;
    }
    mount(path, &inside, "", libc::MS_BIND | libc::MS_REC, "")?;
    seal(&inside, true, false)
}

/// Mounts a fresh, empty work folder at `target`: reading it changes nothing
/// (`noatime`), so every change is one the inotify watch sees.
fn mount_work(target: &str, size: u64, (uid, gid): (u32, u32)) -> io::Result<()> {
    mount(
        "tmpfs",
        target,
        "tmpfs",
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOATIME,
        &format!("size={size},mode=0700,uid={uid},gid={gid}"),
    )
}

impl Boxed {
    /// After a run: `/box` as it was made, whatever the run left or changed. A new memory
    /// file system when the watch saw any change (the old one goes with everything in
    /// it, and its pages leave the worker's cgroup); nothing to do otherwise.
    pub(crate) fn renew_work(&mut self) -> io::Result<()> {
        if !self.drain()? {
            return Ok(());
        }
        io::Write::write_all(&mut &self.renewals, &[1])?;
        let mut errno = [0u8; 4];
        io::Read::read_exact(&mut &self.renewals, &mut errno)?;
        match i32::from_ne_bytes(errno) {
            0 => {}
            errno => return Err(io::Error::from_raw_os_error(errno)),
        }
        self.watch_work()?;
        // The old folder's last events (`IN_UNMOUNT`, `IN_IGNORED`) go too.
        self.drain()?;
        Ok(())
    }

    /// Watches the current `/box` for [`CHANGES`].
    fn watch_work(&self) -> io::Result<()> {
        let work = c_path(WORK)?;
        // SAFETY: our inotify descriptor and a valid path.
        let watch = unsafe {
            libc::inotify_add_watch(
                std::os::fd::AsRawFd::as_raw_fd(&self.changes),
                work.as_ptr(),
                CHANGES,
            )
        };
        check(watch.into(), "watch the work folder")
    }

    /// Reads every queued event; whether there was any (an overflowed queue is one too).
    fn drain(&self) -> io::Result<bool> {
        let mut any = false;
        let mut buffer = [0u8; 4096];
        loop {
            match nix::unistd::read(&self.changes, &mut buffer) {
                Ok(0) | Err(nix::errno::Errno::EAGAIN) => return Ok(any),
                Ok(_) => any = true,
                Err(nix::errno::Errno::EINTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Sets the box's PID counter back, so that the next process made gets pid 2.
    pub(crate) fn reset_pids(&self) -> io::Result<()> {
        nix::sys::uio::pwrite(&self.last_pid, b"1", 0)?;
        Ok(())
    }

    /// Replaces what `/prog` holds with a new program's files. A name may hold folders
    /// (`include/util.h`, a program given as a folder of folders): each is made, relative
    /// to the one above it and never through a link.
    pub(crate) fn stage(&mut self, files: &[Staged], fds: Vec<OwnedFd>) -> io::Result<()> {
        if files.len() != fds.len() {
            return Err(io::Error::other("staged files and descriptors differ"));
        }
        // Only the launcher writes here, and only names it checked.
        crate::remove::empty_open_dir(&self.stage, Path::new(PROGRAM))?;
        for (file, fd) in files.iter().zip(fds) {
            let parts: Vec<&str> = file.name.split('/').collect();
            if parts.iter().any(|p| p.is_empty() || p.starts_with('.')) {
                return Err(io::Error::other(format!("bad staged name `{}`", file.name)));
            }
            let (leaf, folders) = parts.split_last().expect("split gives one part at least");
            let mut here = self.stage.try_clone()?;
            for folder in folders {
                match nix::sys::stat::mkdirat(&here, *folder, Mode::from_bits_truncate(0o755)) {
                    Ok(()) | Err(nix::errno::Errno::EEXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                here = openat(
                    &here,
                    *folder,
                    OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
                    Mode::empty(),
                )?;
                // The umask may have taken bits away.
                nix::sys::stat::fchmod(&here, Mode::from_bits_truncate(0o755))?;
            }
            let mode = if file.executable { 0o755 } else { 0o644 };
            let to = openat(
                &here,
                *leaf,
                OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_CLOEXEC,
                Mode::from_bits_truncate(mode),
            )?;
            let mut to = File::from(to);
            io::copy(&mut File::from(fd), &mut to)?;
            // The umask may have taken bits away.
            to.set_permissions(fs::Permissions::from_mode(mode))?;
        }
        Ok(())
    }
}
