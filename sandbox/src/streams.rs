//! A run's standard streams: its input, and a pipe each for its output and its errors.
//!
//! Made anew for each run, a memory file and two pipes cost the grader about 15 us a run
//! here (making them, and ending them when their last descriptor closes: inodes, dentries,
//! a pipe's buffers; measured in C, 7.4 us for two pipes and 7.2 us for a filled memory
//! file), where checking a kept set and putting it back as new, below, takes about 5 us
//! where runs have a uid of their own and 8 us where they are the grader's (the same calls
//! in C). A box's run ends with every process of it gone (the launcher is their init and
//! kills them all before it says the run ended), so a worker in a box keeps a set for the
//! run under way and the one after it, and hands a set to a new run only once it is as
//! new.
//!
//! "As new" is checked, not assumed: the run held the very descriptions the grader keeps
//! (the pipes' write ends, and a read-only description of the memory file), and what it
//! could change of them or of their files, the next run could read:
//! - what they hold: the pipes are read to their end once the run has ended (nothing can
//!   write to them any more); the memory file is written whole before each run, its
//!   length set and its read position put back;
//! - the descriptions' status flags (`O_NONBLOCK`, `O_APPEND`, `O_ASYNC`, `O_DIRECT`),
//!   their owner and signal for `SIGIO` (`F_SETOWN`, `F_SETSIG`), a lease, a lock
//!   (`flock`, `F_OFD_SETLK`), a pipe's size;
//! - the files' owner, mode, length, blocks and extended attributes (ACLs among them);
//! - their times, which say when the last run wrote or read: set to now before each
//!   run, as a new file's are.
//!
//! What only a file's owner may change, or see through a description of its own (a lock
//! on another), is checked only where runs are the grader's own uid ([`Runs::OwnUid`]);
//! with a uid of their own they cannot (a pipe is `0600`, the memory file `0444`, both the
//! grader's), and each check is a system call a run saved.
//!
//! A set that differs from new in anything is closed, and a new one made. Where runs are
//! not in a box, a process of a run may outlive it: its streams are made for it alone.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::os::unix::fs::FileExt;

use crate::facts::{Input, filled};

/// How many sets a worker keeps between runs: one for a run under way and one for the
/// next are all it uses at once.
const KEPT: usize = 2;

/// Who a worker's runs are to the files of their streams, which the grader makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// A uid of their own, without capabilities (the grader is root): they may change the
    /// descriptions they hold, and open the memory file anew to read, nothing more.
    OtherUid,
    /// The grader's own uid (a box in a user namespace): they own the files, and may
    /// change their mode, length, attributes and leases, and open them anew.
    OwnUid,
}

/// What a description and its file were made as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Made {
    /// The description's status flags (`F_GETFL`).
    flags: i32,
    /// A pipe's capacity; 0 for the memory file.
    capacity: i32,
    /// What only the file's owner may change (read where runs own it).
    file: Option<FileMade>,
}

/// What a file was made as, of what only its owner may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileMade {
    /// Its mode, owner and group.
    mode: u32,
    uid: u32,
    gid: u32,
    /// Its length (a pipe's is 0), and the blocks it holds: a memory file's blocks past
    /// its end (`fallocate` with `FALLOC_FL_KEEP_SIZE`) would hold memory charged to the
    /// worker's group, and count against the next run's limit.
    len: i64,
    blocks: i64,
}

impl FileMade {
    fn of(fd: BorrowedFd<'_>) -> io::Result<FileMade> {
        let stat = nix::sys::stat::fstat(fd)?;
        Ok(FileMade {
            mode: stat.st_mode,
            uid: stat.st_uid,
            gid: stat.st_gid,
            len: stat.st_size,
            blocks: stat.st_blocks,
        })
    }
}

impl Made {
    /// What `fd` (a pipe's when `pipe`) is now, as far as `runs` could change it, or
    /// `None` when its description carries an owner or signal for `SIGIO` or a lease,
    /// which a new one never does.
    fn of(fd: BorrowedFd<'_>, pipe: bool, runs: Runs) -> io::Result<Option<Made>> {
        let owned = runs == Runs::OwnUid;
        if get(fd, libc::F_GETOWN)? != 0
            || get(fd, F_GETSIG)? != 0
            // A lease needs the file's owner (or `CAP_LEASE`), and a regular file.
            || (owned && !pipe && get(fd, libc::F_GETLEASE)? != libc::F_UNLCK)
        {
            return Ok(None);
        }
        Ok(Some(Made {
            flags: get(fd, libc::F_GETFL)?,
            capacity: if pipe {
                get(fd, libc::F_GETPIPE_SZ)?
            } else {
                0
            },
            file: if owned { Some(FileMade::of(fd)?) } else { None },
        }))
    }
}

/// `fcntl`'s command for the signal `SIGIO` is sent as (Linux's, which the `libc` crate
/// does not name).
const F_GETSIG: libc::c_int = 11;

/// `fcntl(fd, cmd)` for a `cmd` that reads a number and takes no argument.
fn get(fd: BorrowedFd<'_>, cmd: libc::c_int) -> io::Result<libc::c_int> {
    #[expect(
        unsafe_code,
        reason = "fcntl queries no crate wraps (owner, signal, lease)"
    )]
    // SAFETY: a query of a descriptor we hold; no pointer is passed.
    let r = unsafe { libc::fcntl(fd.as_raw_fd(), cmd) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// Sets the access and change times of `fd`'s file to now, as a new file's are.
fn times_now(fd: BorrowedFd<'_>) -> io::Result<()> {
    let now = nix::sys::time::TimeSpec::UTIME_NOW;
    nix::sys::stat::futimens(fd, &now, &now)?;
    Ok(())
}

/// Whether `fd`'s file has extended attributes (an ACL among them).
fn has_attributes(fd: BorrowedFd<'_>) -> io::Result<bool> {
    #[expect(
        unsafe_code,
        reason = "flistxattr, asked only for the size of the list"
    )]
    // SAFETY: a null buffer of size 0 asks only for the list's length.
    let r = unsafe { libc::flistxattr(fd.as_raw_fd(), std::ptr::null_mut(), 0) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r > 0)
    }
}

/// Whether a description other than `ours` holds a lock on its file: `flock`'s (our own
/// exclusive one is then refused) or a record lock of its own (`F_OFD_SETLK`; a process's
/// record locks end with it). A run's would outlive it, on the description it held, and
/// a later run opening the file anew would find it.
fn locked_by_another(ours: BorrowedFd<'_>) -> io::Result<bool> {
    let fd = ours.as_raw_fd();
    #[expect(
        unsafe_code,
        reason = "flock and F_OFD_GETLK, which take a C structure"
    )]
    // SAFETY: calls on a descriptor we hold; `probe` is a valid `flock` for the kernel to
    // fill.
    unsafe {
        if libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) != 0 {
            let error = io::Error::last_os_error();
            return match error.raw_os_error() {
                Some(libc::EWOULDBLOCK) => Ok(true),
                _ => Err(error),
            };
        }
        if libc::flock(fd, libc::LOCK_UN) != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut probe: libc::flock = std::mem::zeroed();
        probe.l_type = libc::F_WRLCK as libc::c_short;
        probe.l_whence = libc::SEEK_SET as libc::c_short;
        if libc::fcntl(fd, libc::F_OFD_GETLK, &raw mut probe) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(probe.l_type != libc::F_UNLCK as libc::c_short)
    }
}

/// A pipe: the end the grader reads, and the end the run writes to while the grader holds
/// it (kept), or not at all (made for one run: the reads see its end once the run's
/// processes are gone).
#[derive(Debug)]
pub(crate) struct Pipe {
    read: File,
    write: Option<File>,
    /// What the write end was made as, and who the runs are to it, when kept.
    made: Option<(Made, Runs)>,
}

impl Pipe {
    fn new(keep: Option<Runs>) -> io::Result<Pipe> {
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
        let made = if let Some(runs) = keep {
            // Kept, its write end never closes: the grader reads until it is empty.
            let flags = nix::fcntl::OFlag::from_bits_retain(get(read.as_fd(), libc::F_GETFL)?);
            nix::fcntl::fcntl(
                &read,
                nix::fcntl::FcntlArg::F_SETFL(flags | nix::fcntl::OFlag::O_NONBLOCK),
            )?;
            Made::of(write.as_fd(), true, runs)?.map(|made| (made, runs))
        } else {
            None
        };
        Ok(Pipe {
            read: File::from(read),
            write: Some(File::from(write)),
            made,
        })
    }

    /// The end the grader reads.
    pub(crate) fn reader(&self) -> &File {
        &self.read
    }

    /// Whether it is as new, once it was read until empty.
    fn as_new(&self) -> io::Result<bool> {
        match (&self.write, self.made) {
            (Some(write), Some((made, runs))) => {
                Ok(Made::of(write.as_fd(), true, runs)? == Some(made)
                    // Opened anew, a pipe would show a lock its run left: by its owner only.
                    && (runs == Runs::OtherUid || !locked_by_another(self.read.as_fd())?))
            }
            _ => Ok(false),
        }
    }

    /// Its times set to now, as a new pipe's are, as it is handed to a run.
    fn renew_times(&self) -> io::Result<()> {
        self.write
            .as_ref()
            .map_or(Ok(()), |write| times_now(write.as_fd()))
    }
}

/// A kept memory file for standard input: the grader writes through its own description;
/// the run reads through another, read-only, whose position is put back before each run.
#[derive(Debug)]
struct MemoryInput {
    writer: File,
    reader: File,
    /// What the reader and the file were made as, its length that of what it holds.
    made: Made,
    /// Who the runs are to it.
    runs: Runs,
    /// The bytes the grader last wrote in it.
    len: u64,
}

impl MemoryInput {
    /// A new one, or `None` where a read-only description of it cannot be had (no `/proc`).
    fn new(runs: Runs) -> io::Result<Option<MemoryInput>> {
        let writer = filled(&[])?;
        let path = format!("/proc/self/fd/{}", writer.as_raw_fd());
        let Ok(reader) = File::open(path) else {
            return Ok(None);
        };
        // Readable by all, as a run reopening `/dev/stdin` needs; writable by none but the
        // grader, so that no run of another uid can change it (or give it attributes).
        nix::sys::stat::fchmod(&writer, nix::sys::stat::Mode::from_bits_truncate(0o444))?;
        let Some(made) = Made::of(reader.as_fd(), false, runs)? else {
            return Ok(None);
        };
        Ok(Some(MemoryInput {
            writer,
            reader,
            made,
            runs,
            len: 0,
        }))
    }

    /// Fills it with `bytes`, to be read from the start.
    fn fill(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.writer.write_all_at(bytes, 0)?;
        let len = bytes.len() as u64;
        if len != self.len {
            self.writer.set_len(len)?;
            self.len = len;
        }
        // What it holds now is what the run must leave it holding (a run can change it
        // only as its owner).
        if self.made.file.is_some() {
            self.made.file = Some(FileMade::of(self.writer.as_fd())?);
        }
        self.reader.rewind()?;
        times_now(self.writer.as_fd())
    }

    /// Whether it is as the grader left it: the same description, mode, owner and length,
    /// no lock, and no attributes (its content is written whole before the next run
    /// anyway). Anyone may open it anew to read, and lock it there.
    fn as_new(&self) -> io::Result<bool> {
        let fd = self.reader.as_fd();
        Ok(Made::of(fd, false, self.runs)? == Some(self.made)
            && !locked_by_another(self.writer.as_fd())?
            // Attributes need write access or ownership: its owner's.
            && (self.runs == Runs::OtherUid || !has_attributes(fd)?))
    }
}

/// A run's standard input.
#[derive(Debug)]
enum Stdin {
    /// Opened for this run (a case file, `/dev/null`, a memory file of its own).
    Once(Option<File>),
    /// A kept memory file.
    Kept(MemoryInput),
}

/// A run's three standard streams.
#[derive(Debug)]
pub(crate) struct Streams {
    stdin: Stdin,
    pub(crate) out: Pipe,
    pub(crate) err: Pipe,
    /// Where standard output goes instead of `out` (a run joined to another): `out` is
    /// then read by nobody's writes, and ends (or, kept, stays empty) with the run.
    out_to: Option<File>,
}

impl Streams {
    /// The descriptors the run gets as 0, 1 and 2.
    pub(crate) fn fds(&self) -> [RawFd; 3] {
        let stdin = match &self.stdin {
            Stdin::Once(file) => file.as_ref().map_or(-1, AsRawFd::as_raw_fd),
            Stdin::Kept(memory) => memory.reader.as_raw_fd(),
        };
        let write = |pipe: &Pipe| pipe.write.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        let out = self
            .out_to
            .as_ref()
            .map_or_else(|| write(&self.out), AsRawFd::as_raw_fd);
        [stdin, out, write(&self.err)]
    }

    /// The run was sent: what was made for it alone is closed here (the launcher holds
    /// its own copies), so that the pipes' reads see their end with the run's.
    pub(crate) fn sent(&mut self) {
        if let Stdin::Once(file) = &mut self.stdin {
            file.take();
        }
        // The other run's end must see this one's end: no copy of it stays here.
        self.out_to.take();
        for pipe in [&mut self.out, &mut self.err] {
            if pipe.made.is_none() {
                pipe.write.take();
            }
        }
    }

    /// Whether the pipes stay open after the run (kept): they are then read until empty
    /// once it has ended, not until their end.
    pub(crate) fn kept(&self) -> bool {
        self.out.made.is_some()
    }
}

/// A worker's kept streams: memory files and pairs of pipes, as new, for its next runs.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    inputs: RefCell<Vec<MemoryInput>>,
    pipes: RefCell<Vec<(Pipe, Pipe)>>,
    /// Set once a memory file could not be kept (no `/proc` to reopen it read-only):
    /// each run then gets one of its own, without trying again.
    unkeepable: std::cell::Cell<bool>,
}

impl Kept {
    /// Streams for a run reading `input`: kept ones for a box's runs (`keep`: who they
    /// are to the files; its input is always in a memory file: its programs must not learn
    /// where the cases are), else made for this run.
    pub(crate) fn streams(&self, input: &Input, keep: Option<Runs>) -> io::Result<Streams> {
        let out_to = match input {
            Input::Joined(joined) => Some(joined.stdout()?),
            _ => None,
        };
        let Some(runs) = keep else {
            return Ok(Streams {
                stdin: Stdin::Once(Some(input.open()?)),
                out: Pipe::new(None)?,
                err: Pipe::new(None)?,
                out_to,
            });
        };
        let stdin = match input {
            // A pipe to another run: what the run reads is the other's writing.
            Input::Empty | Input::Joined(_) => Stdin::Once(Some(input.open()?)),
            Input::Bytes(bytes) => self.input(bytes, runs)?,
            // Copied into the memory file, so that the run's `/proc/self/fd/0` names no
            // path of the machine. Read whole, then written: `io::copy` tries
            // `copy_file_range` and `sendfile` first, which a memory file refuses, at a few
            // microseconds a run.
            Input::File(path) => self.input(&std::fs::read(path)?, runs)?,
        };
        // A kept pair whose times cannot be set is not handed on: new ones are made.
        let spare = self.pipes.borrow_mut().pop();
        let renewed =
            spare.filter(|(out, err)| out.renew_times().is_ok() && err.renew_times().is_ok());
        let (out, err) = match renewed {
            Some(pipes) => pipes,
            None => (Pipe::new(keep)?, Pipe::new(keep)?),
        };
        Ok(Streams {
            stdin,
            out,
            err,
            out_to,
        })
    }

    /// A kept memory file holding `bytes`, or one of this run's own where none can be kept.
    fn input(&self, bytes: &[u8], runs: Runs) -> io::Result<Stdin> {
        let spare = self.inputs.borrow_mut().pop();
        if let Some(mut memory) = spare
            && memory.fill(bytes).is_ok()
        {
            return Ok(Stdin::Kept(memory));
        }
        let made = if self.unkeepable.get() {
            None
        } else {
            MemoryInput::new(runs)?
        };
        if let Some(mut memory) = made {
            memory.fill(bytes)?;
            return Ok(Stdin::Kept(memory));
        }
        self.unkeepable.set(true);
        Ok(Stdin::Once(Some(filled(bytes)?)))
    }

    /// Takes back the streams of a run that ended and whose pipes were read until empty:
    /// kept for another run when they are as new, closed otherwise.
    pub(crate) fn give_back(&self, streams: Streams) {
        let Streams {
            stdin, out, err, ..
        } = streams;
        if let Stdin::Kept(memory) = stdin
            && memory.as_new().unwrap_or(false)
        {
            let mut inputs = self.inputs.borrow_mut();
            if inputs.len() < KEPT {
                inputs.push(memory);
            }
        }
        if out.as_new().unwrap_or(false) && err.as_new().unwrap_or(false) {
            let mut pipes = self.pipes.borrow_mut();
            if pipes.len() < KEPT {
                pipes.push((out, err));
            }
        }
    }
}

/// Reads what `pipe` holds now into `buffer`: `Ok(Some(0))` at its end, which for a kept
/// pipe is when it is empty once its run has `ended` (nothing can write to it any more);
/// `Ok(None)` when a kept pipe holds nothing for now.
pub(crate) fn read_now(pipe: &Pipe, buffer: &mut [u8], ended: bool) -> io::Result<Option<usize>> {
    loop {
        match (&pipe.read).read(buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                return Ok(ended.then_some(0));
            }
            other => return other.map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    use super::*;

    /// The inode of descriptor `fd`: which file it is.
    fn inode(fd: RawFd) -> u64 {
        // SAFETY (of the borrow): `fd` belongs to streams alive in the caller.
        #[expect(unsafe_code, reason = "borrowing a descriptor the test's streams own")]
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        File::from(fd.try_clone_to_owned().unwrap())
            .metadata()
            .unwrap()
            .ino()
    }

    fn read_stdin(streams: &Streams) -> String {
        let Stdin::Kept(memory) = &streams.stdin else {
            panic!("not kept");
        };
        let mut text = String::new();
        (&memory.reader).read_to_string(&mut text).unwrap();
        text
    }

    fn bytes(text: &str) -> Input {
        Input::Bytes(text.as_bytes().to_vec())
    }

    #[test]
    fn a_set_handed_back_as_new_is_handed_on_its_input_rewritten_and_read_from_its_start() {
        for runs in [Runs::OwnUid, Runs::OtherUid] {
            let kept = Kept::default();
            let first = kept
                .streams(&bytes("a longer input\n"), Some(runs))
                .unwrap();
            let fds = first.fds();
            assert_eq!(read_stdin(&first), "a longer input\n");
            kept.give_back(first);
            let second = kept.streams(&bytes("short\n"), Some(runs)).unwrap();
            assert_eq!(
                second.fds().map(inode),
                fds.map(inode),
                "{runs:?}: the same three files"
            );
            assert_eq!(read_stdin(&second), "short\n");
        }
    }

    #[test]
    fn a_pipe_whose_flags_or_size_a_run_changed_is_closed_not_handed_on() {
        type Change = fn(BorrowedFd<'_>);
        let changes: [(&str, Change); 3] = [
            ("O_NONBLOCK", |fd| {
                nix::fcntl::fcntl(
                    fd,
                    nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
                )
                .unwrap();
            }),
            ("a smaller pipe", |fd| {
                nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETPIPE_SZ(4096)).unwrap();
            }),
            ("the mode", |fd| {
                nix::sys::stat::fchmod(fd, nix::sys::stat::Mode::from_bits_truncate(0o666))
                    .unwrap();
            }),
        ];
        let cases = changes
            .into_iter()
            .flat_map(|(what, change)| {
                [Runs::OwnUid, Runs::OtherUid].map(|runs| (what, change, runs))
            })
            // Only its owner may change a file's mode.
            .filter(|(what, _, runs)| *what != "the mode" || *runs == Runs::OwnUid);
        for (what, change, runs) in cases {
            let kept = Kept::default();
            let streams = kept.streams(&bytes("1\n"), Some(runs)).unwrap();
            let [_, out, err] = streams.fds();
            let (out_inode, err_inode) = (inode(out), inode(err));
            change(streams.out.write.as_ref().unwrap().as_fd());
            kept.give_back(streams);
            let next = kept.streams(&bytes("1\n"), Some(runs)).unwrap();
            let [_, out, err] = next.fds();
            assert_ne!(
                inode(out),
                out_inode,
                "{what}, {runs:?}: a new pipe for stdout"
            );
            assert_ne!(inode(err), err_inode, "{what}, {runs:?}: and for stderr");
        }
    }

    #[test]
    fn an_input_whose_description_a_run_changed_is_closed_not_handed_on() {
        let kept = Kept::default();
        let streams = kept.streams(&bytes("1\n"), Some(Runs::OwnUid)).unwrap();
        let [stdin, ..] = streams.fds();
        let before = inode(stdin);
        let Stdin::Kept(memory) = &streams.stdin else {
            panic!("not kept");
        };
        nix::fcntl::fcntl(
            &memory.reader,
            nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_APPEND),
        )
        .unwrap();
        kept.give_back(streams);
        let next = kept.streams(&bytes("1\n"), Some(Runs::OwnUid)).unwrap();
        assert_ne!(inode(next.fds()[0]), before);
    }

    #[test]
    fn a_stream_a_run_left_locked_is_closed_not_handed_on() {
        #[expect(unsafe_code, reason = "the locks a run may take, on its descriptors")]
        // SAFETY: calls on descriptors the streams own; `lock` is a valid `flock`.
        let lock = |fd: RawFd, record: bool| unsafe {
            if record {
                let mut lock: libc::flock = std::mem::zeroed();
                lock.l_type = libc::F_WRLCK as libc::c_short;
                lock.l_whence = libc::SEEK_SET as libc::c_short;
                assert_eq!(libc::fcntl(fd, libc::F_OFD_SETLK, &raw const lock), 0);
            } else {
                assert_eq!(libc::flock(fd, libc::LOCK_SH), 0);
            }
        };
        for (record, runs) in [
            (false, Runs::OwnUid),
            (true, Runs::OwnUid),
            (false, Runs::OtherUid),
        ] {
            let kept = Kept::default();
            let streams = kept.streams(&bytes("1\n"), Some(runs)).unwrap();
            let [stdin, out, err] = streams.fds();
            let before = [stdin, out, err].map(inode);
            // A record lock needs write access: the run's pipe ends only.
            if !record {
                lock(stdin, record);
            }
            // A pipe (0600) is opened anew, and its lock seen, by its owner only.
            if runs == Runs::OwnUid {
                lock(out, record);
            }
            kept.give_back(streams);
            let next = kept
                .streams(&bytes("1\n"), Some(runs))
                .unwrap()
                .fds()
                .map(inode);
            if !record {
                assert_ne!(next[0], before[0], "flock, {runs:?}: a new input");
            }
            if runs == Runs::OwnUid {
                assert_ne!(next[1], before[1], "record {record}: a new pipe");
            }
        }
    }

    #[test]
    fn an_input_holding_memory_past_its_end_is_closed_not_handed_on() {
        let kept = Kept::default();
        let streams = kept.streams(&bytes("1\n"), Some(Runs::OwnUid)).unwrap();
        let before = inode(streams.fds()[0]);
        let Stdin::Kept(memory) = &streams.stdin else {
            panic!("not kept");
        };
        // What a run of the grader's own uid may do through `/proc/self/fd/0` reopened.
        nix::fcntl::fallocate(
            &memory.writer,
            nix::fcntl::FallocateFlags::FALLOC_FL_KEEP_SIZE,
            0,
            1 << 20,
        )
        .unwrap();
        assert_eq!(
            memory.writer.metadata().unwrap().len(),
            2,
            "its length kept"
        );
        kept.give_back(streams);
        let next = kept.streams(&bytes("1\n"), Some(Runs::OwnUid)).unwrap();
        assert_ne!(inode(next.fds()[0]), before);
    }

    #[test]
    fn the_input_is_read_only_to_the_run() {
        let kept = Kept::default();
        let streams = kept.streams(&bytes("1\n"), Some(Runs::OwnUid)).unwrap();
        let Stdin::Kept(memory) = &streams.stdin else {
            panic!("not kept");
        };
        assert!((&memory.reader).write_all(b"x").is_err(), "its description");
        let mode = memory.reader.metadata().unwrap().mode();
        assert_eq!(mode & 0o7777, 0o444, "its file");
    }

    #[test]
    fn streams_of_one_run_close_the_grader_s_write_ends_once_sent() {
        let kept = Kept::default();
        let mut streams = kept.streams(&Input::Empty, None).unwrap();
        assert!(!streams.kept());
        streams.sent();
        assert!(streams.out.write.is_none() && streams.err.write.is_none());
        let mut buffer = [0u8; 8];
        assert_eq!(
            read_now(&streams.out, &mut buffer, false).unwrap(),
            Some(0),
            "its end"
        );
    }
}
