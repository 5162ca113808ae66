//! The grader's side of a launcher: starting it, asking for runs, and watching each run:
//! feeding standard input, reading stdout (capped) and stderr in one `poll` loop, and
//! enforcing the wall, output, CPU and memory limits from outside by telling the launcher
//! to kill the run (which it does to every process of the run, see `launcher.rs`).

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::Locked as _;
use crate::cgroup::meter::MeterSpec;
use crate::cgroup::{Group, Usage};
use crate::facts::{Killed, Limits, Outcome};
use crate::launcher;
use crate::protocol::{Message, Next, Reply, Request, Setup, receive, send};
use crate::streams::{Kept, Runs, Streams, read_now};

/// What a run gives back: its facts, and each file it was asked to keep ([`Job::keep`],
/// in that order), if it left it; empty when the run was cut short before its end.
///
/// [`Job::keep`]: crate::Job::keep
pub type Ran = (Outcome, Vec<Option<File>>);

/// How often the CPU time and memory of a running program are sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(20);
/// When a run's pipes are first read, and its first sample taken (see [`Watch::watch`]):
/// most runs of a test are over by then.
const FIRST_LOOK: Duration = Duration::from_millis(5);
/// How far past the CPU limit a sample must be before the run is cut short: the cgroup's
/// figure includes the launcher's own few microseconds, and the verdict is decided on the
/// exact figure (from reaping) at the end anyway.
const CPU_GRACE: Duration = Duration::from_millis(50);

/// The launchers alive, for [`stop_all`] and [`reap_all`]: each one's pid and a second
/// handle on the grader's end of its socket. A pid leaves the list before its process is
/// reaped, so the list never names a pid the system could have reused.
static LAUNCHERS: Mutex<Vec<(u32, UnixStream)>> = Mutex::new(Vec::new());
/// Set by [`stop_all`]: no launcher starts any more.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Stops every launcher, and every launcher started from now on: the grader was
/// interrupted. Each launcher's socket is shut, which a launcher reads as the grader's
/// end: it kills its run (a box's init ends, and its box with it), reaps it and exits.
/// The runs being watched end at once with an error, which their callers read as the
/// interruption it is.
///
/// Why not `SIGKILL`: a launcher killed outright leaves what it would have reaped (a
/// box's init, a run's last processes) to the machine's init, which in a container may
/// never reap them.
pub fn stop_all() {
    let launchers = LAUNCHERS.locked();
    STOPPED.store(true, Ordering::SeqCst);
    for (_, socket) in launchers.iter() {
        let _ = socket.shutdown(std::net::Shutdown::Both);
    }
}

/// After [`stop_all`], on the way out: waits until every launcher has exited and reaps
/// it; one still there after `within` is killed, then reaped. A launcher another thread
/// reaped meanwhile is simply gone.
pub fn reap_all(within: Duration) {
    let pids: Vec<nix::unistd::Pid> = LAUNCHERS
        .locked()
        .iter()
        .map(|(pid, _)| nix::unistd::Pid::from_raw(pid.cast_signed()))
        .collect();
    let deadline = std::time::Instant::now() + within;
    for pid in pids {
        loop {
            match nix::sys::wait::waitpid(pid, Some(nix::sys::wait::WaitPidFlag::WNOHANG)) {
                Ok(nix::sys::wait::WaitStatus::StillAlive)
                    if std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Ok(nix::sys::wait::WaitStatus::StillAlive) => {
                    let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
                    let _ = nix::sys::wait::waitpid(pid, None);
                    break;
                }
                Err(nix::errno::Errno::EINTR) => {}
                _ => break,
            }
        }
    }
}

/// How the grader keeps a run's standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stderr {
    /// Its last bytes: a program's error is usually at the end.
    Tail(usize),
    /// Its first bytes (all of it counts against the output limit): a compiler's first
    /// error is the one that matters.
    Head(usize),
}

/// A connected pair of sockets for the protocol: `SOCK_SEQPACKET`, so that each message is
/// one `sendmsg` and one `recvmsg` (a stream needs a length first: two reads a message,
/// three messages a run), and descriptors travel with the message they belong to.
fn pair() -> io::Result<(UnixStream, UnixStream)> {
    let (a, b) = nix::sys::socket::socketpair(
        nix::sys::socket::AddressFamily::Unix,
        nix::sys::socket::SockType::SeqPacket,
        None,
        nix::sys::socket::SockFlag::SOCK_CLOEXEC,
    )?;
    Ok((UnixStream::from(a), UnixStream::from(b)))
}

/// A launcher process and the socket to it.
#[derive(Debug)]
pub(crate) struct Client {
    socket: UnixStream,
    /// Where runs to start after the one under way go (`Then`): the launcher reads it as
    /// a run ends, not while it goes.
    queue: UnixStream,
    process: Child,
    /// What each run's pipes are read into, kept from run to run.
    buffer: Vec<u8>,
    /// Standard streams kept between a box's runs.
    kept: Kept,
    /// How many runs were asked for (`Run` and `Then`): the last one's number.
    asked: std::cell::Cell<u64>,
}

impl Client {
    /// Starts a launcher and sets it up: the small `grader-launcher` binary installed
    /// beside this one, or, where it is missing (`cargo run` builds only `grader`), this
    /// binary with the hidden launcher argument, copying memory at each start so that its
    /// larger size does not become the floor of the peak memory programs report.
    pub(crate) fn start(setup: &Setup) -> io::Result<Client> {
        let (ours, theirs) = pair()?;
        let (queue, queue_theirs) = pair()?;
        let exe = std::env::current_exe()?;
        let small = exe.with_file_name("grader-launcher");
        let mut command = if small.is_file() {
            Command::new(small)
        } else {
            let mut command = Command::new(exe);
            command.args([launcher::LAUNCHER_ARG, launcher::COPY_MEMORY_ARG]);
            command
        };
        // A box's programs read their init's command line (`/proc/1/cmdline`): a plain
        // name there, not a folder of the machine.
        command.arg0("grader-launcher");
        let handle = ours.try_clone()?;
        let process = {
            let mut launchers = LAUNCHERS.locked();
            if STOPPED.load(Ordering::SeqCst) {
                return Err(io::Error::other("the grader is stopping"));
            }
            let process = command
                .stdin(Stdio::from(OwnedFd::from(theirs)))
                .stdout(Stdio::null())
                .stderr(Stdio::inherit())
                .env_clear()
                .spawn()?;
            launchers.push((process.id(), handle));
            process
        };
        // The command holds the launcher's end of the socket: without dropping it, a
        // launcher that dies while setting up would never be seen to.
        drop(command);
        let client = Client {
            socket: ours,
            queue,
            process,
            buffer: vec![0u8; 64 * 1024],
            kept: Kept::default(),
            asked: std::cell::Cell::new(0),
        };
        send(&client.socket, setup, &[queue_theirs.as_raw_fd()])?;
        drop(queue_theirs);
        match receive::<Reply>(&client.socket)? {
            Some((Reply::Ready, _)) => Ok(client),
            Some((Reply::Failed { message }, _)) => Err(io::Error::other(message)),
            _ => Err(io::Error::other("the launcher stopped while setting up")),
        }
    }

    /// Standard streams for a run reading `input`: kept from run to run when `keep` says
    /// who a box's runs are to them (see `streams.rs`).
    pub(crate) fn streams(
        &self,
        input: &crate::facts::Input,
        keep: Option<Runs>,
    ) -> io::Result<Streams> {
        self.kept.streams(input, keep)
    }

    /// Where runs are asked for.
    pub(crate) fn asker(&self) -> Asker<'_> {
        Asker {
            socket: &self.socket,
            queue: &self.queue,
            asked: &self.asked,
        }
    }

    /// Watches `flight` to its end under `limits`, and returns what happened, with the
    /// next run if it is under way. The `cgroup`, prepared by the caller, is sampled and
    /// read. That next run is `then`, when the caller asked for it to start the moment
    /// this one ends ([`Asker::then`]) and the launcher started it; otherwise the one
    /// `at_end` started. `at_end` is called once the launcher has said the run ended
    /// (every process of it gone, its cgroup read) and did not start `then`, before its
    /// output is read to the end and long before it is judged: it may ask for the next run
    /// at once (it is told whether this one was killed at a limit). `Err` means the run
    /// could not be made (a missing interpreter, a broken launcher), never that the
    /// program failed.
    pub(crate) fn watch<F>(
        &mut self,
        (flight, then): (Flight, Option<Flight>),
        limits: &Limits,
        stderr: Stderr,
        cgroup: Option<&mut Group>,
        at_end: F,
    ) -> io::Result<(Ran, Option<Flight>)>
    where
        F: FnOnce(Asker<'_>, Option<&mut Group>, bool) -> Option<Flight>,
    {
        let mut watch = Watch {
            asker: Asker {
                socket: &self.socket,
                queue: &self.queue,
                asked: &self.asked,
            },
            cgroup,
            limits,
            run: flight.run,
            start: flight.start,
            kill_sent: false,
            streams: flight.streams,
            out_open: true,
            err_open: true,
            ended: None,
            kept: Vec::new(),
            usage: None,
            then,
            at_end: Some(at_end),
            next: None,
            outcome: Outcome::default(),
            stderr,
            stderr_seen: 0,
            buffer: &mut self.buffer,
        };
        if let Err(e) = watch.watch() {
            // A run `at_end` started is not left to run unseen: the launcher must be idle
            // for the next request.
            if let Some(next) = watch.next.take() {
                let _ = end_unseen(watch.asker.socket, next, watch.cgroup.as_deref_mut());
            }
            return Err(e);
        }
        let (ran, next, streams) = watch.finish()?;
        self.kept.give_back(streams);
        Ok((ran, next))
    }

    /// Ends `flight` at once and waits for its end, reading nothing of it: a run started
    /// ahead that is not wanted after all. `Err` when the launcher does not answer.
    pub(crate) fn cancel(&mut self, flight: Flight, cgroup: Option<&mut Group>) -> io::Result<()> {
        end_unseen(&self.socket, flight, cgroup)
    }
}

/// Kills the run `flight` on the launcher at `socket` and waits for its end, its cgroup
/// read (see [`Client::cancel`]).
fn end_unseen(socket: &UnixStream, flight: Flight, cgroup: Option<&mut Group>) -> io::Result<()> {
    send(socket, &Message::Kill { run: flight.run }, &[])?;
    // Its output goes unread: closed, a program still writing gets `SIGPIPE` (it is being
    // killed anyway).
    drop(flight);
    match receive::<Reply>(socket)?.ok_or_else(gone)? {
        (Reply::Ended { .. }, _) => {
            if let Some(group) = cgroup {
                group.finish()?;
            }
            Ok(())
        }
        (Reply::Failed { .. }, _) => Ok(()),
        _ => Err(io::Error::other("launcher: no end of run")),
    }
}

/// Asks a launcher for runs (see [`Client::asker`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Asker<'a> {
    socket: &'a UnixStream,
    queue: &'a UnixStream,
    asked: &'a std::cell::Cell<u64>,
}

impl Asker<'_> {
    /// Asks for a run of `request` on `streams`, with the `attached` files (cgroup
    /// files, then staged files, as the request says); returns at once, with the run's
    /// output to watch ([`Client::watch`]).
    pub(crate) fn ask(
        self,
        request: Request,
        streams: Streams,
        attached: &[File],
    ) -> io::Result<Flight> {
        self.send(
            self.socket,
            &Message::Run(Box::new(request)),
            streams,
            attached,
        )
    }

    /// Asks for a run to start the moment the one under way ends (see [`Message::Then`]),
    /// as [`Asker::ask`] does, with the group's meter (its spec, and its four files last
    /// among `attached`) when the runs have one. Its output is watched once the launcher
    /// says it started ([`Client::watch`]).
    pub(crate) fn then(
        self,
        request: Request,
        streams: Streams,
        attached: &[File],
        meter: Option<MeterSpec>,
    ) -> io::Result<Flight> {
        self.send(
            self.queue,
            &Message::Then(Box::new(request), meter),
            streams,
            attached,
        )
    }

    fn send(
        self,
        to: &UnixStream,
        message: &Message,
        mut streams: Streams,
        attached: &[File],
    ) -> io::Result<Flight> {
        let mut fds: Vec<RawFd> = streams.fds().to_vec();
        fds.extend(attached.iter().map(AsRawFd::as_raw_fd));
        send(to, message, &fds)?;
        let start = Instant::now();
        let run = self.asked.get() + 1;
        self.asked.set(run);
        streams.sent();
        Ok(Flight {
            streams,
            start,
            run,
        })
    }
}

/// A run asked for and not yet watched to its end: its streams, and when it was asked
/// for (its wall limit counts from then).
#[derive(Debug)]
pub(crate) struct Flight {
    streams: Streams,
    start: Instant,
    /// Its number (see [`Message`]).
    run: u64,
}

impl Flight {
    /// When it was asked for.
    pub(crate) fn start(&self) -> Instant {
        self.start
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Closing the socket ends the launcher's loop (and its box with it).
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        // Reaped before it leaves the registry: a second Ctrl-C meanwhile (`reap_all`)
        // must still see it, or the grader exits while this thread waits, and the
        // launcher is left a zombie. Whichever of the two reaps it, the other finds no
        // child and goes on.
        let _ = self.process.wait();
        LAUNCHERS
            .locked()
            .retain(|(pid, _)| *pid != self.process.id());
    }
}

/// One run being watched: its pipes, what was read, and which limit it was killed for.
struct Watch<'a, F> {
    /// The launcher's sockets: its replies come on the first; `at_end` asks for the next
    /// run through it.
    asker: Asker<'a>,
    cgroup: Option<&'a mut Group>,
    limits: &'a Limits,
    /// The run's number.
    run: u64,
    /// When the run was asked for.
    start: Instant,
    kill_sent: bool,
    streams: Streams,
    /// Whether stdout and stderr may still hold something to read.
    out_open: bool,
    err_open: bool,
    ended: Option<Reply>,
    /// The files the run was asked to keep, sent with `Ended`.
    kept: Vec<Option<File>>,
    /// The cgroup's figures, read as the run ended.
    usage: Option<Usage>,
    /// The run asked to start the moment this one ends ([`Asker::then`]).
    then: Option<Flight>,
    /// Called as the run ends (see [`Client::watch`]).
    at_end: Option<F>,
    /// The run under way after this one: `then`, or the one `at_end` started.
    next: Option<Flight>,
    outcome: Outcome,
    stderr: Stderr,
    /// Bytes of stderr read so far.
    stderr_seen: u64,
    buffer: &'a mut [u8],
}

/// What `poll` watches.
#[derive(Debug, Clone, Copy)]
enum Source {
    Launcher,
    Stdout,
    Stderr,
}

impl<F> Watch<'_, F>
where
    F: FnOnce(Asker<'_>, Option<&mut Group>, bool) -> Option<Flight>,
{
    /// Reads stdout and stderr and waits for the end, killing the run when a limit passes.
    ///
    /// For its first [`FIRST_LOOK`], only the launcher is watched: what the program
    /// writes waits in the pipes (64 KiB each) and is read once it has ended, so a short
    /// run wakes this thread once, for its end, rather than for its output, its pipes'
    /// end and its end (on one core: 7.3 context switches a run instead of 11.3, 2 to 3%
    /// of a trivial run's whole command). From then on the pipes are read as they fill;
    /// a program that fills a pipe sooner waits for that, at most [`FIRST_LOOK`], once.
    fn watch(&mut self) -> io::Result<()> {
        let start = self.start;
        let deadline = start + self.limits.wall;
        let mut next_sample = start + FIRST_LOOK;
        let mut reading = false;
        while self.ended.is_none() || self.out_open || self.err_open {
            let now = Instant::now();
            if self.ended.is_some() && self.streams.kept() {
                // Everything of the run is dead and the pipes stay open: what they hold
                // is all there will be.
                self.drain()?;
                continue;
            }
            let wait = if self.ended.is_some() {
                // Everything of the run is dead: the pipes are about to close.
                reading = true;
                Duration::from_millis(100)
            } else {
                if now >= deadline {
                    self.kill(Killed::Wall)?;
                }
                if now >= next_sample {
                    next_sample = now + SAMPLE_EVERY;
                    reading = true;
                    self.sample()?;
                }
                deadline.min(next_sample).saturating_duration_since(now)
            };
            self.wait_and_read(wait, reading)?;
        }
        Ok(())
    }

    /// Reads one reply of the launcher (blocking).
    fn receive(&mut self) -> io::Result<()> {
        let (reply, mut fds) = receive::<Reply>(self.asker.socket)?.ok_or_else(gone)?;
        if let Reply::Ended { ref kept, next, .. } = reply {
            // The descriptors come in the order of the flags that are set.
            let mut attached = fds.drain(..);
            self.kept = kept
                .iter()
                .map(|&is| {
                    if is {
                        attached.next().map(File::from)
                    } else {
                        None
                    }
                })
                .collect();
            let next = match (&self.then, next) {
                // It came after this run's end: the launcher says what it did with it.
                (Some(_), Next::Unasked) => {
                    match receive::<Reply>(self.asker.socket)?.ok_or_else(gone)? {
                        (Reply::Started(boundary), _) => Next::Started(boundary),
                        (Reply::Dropped, _) => Next::Dropped,
                        _ => return Err(io::Error::other("launcher: no word of a run")),
                    }
                }
                (_, next) => next,
            };
            match (self.then.take(), next) {
                (Some(mut then), Next::Started(boundary)) => {
                    // Every process of the run is gone, and the launcher read its group
                    // before the next one started.
                    if let Some(group) = self.cgroup.as_deref_mut() {
                        let boundary = boundary.ok_or_else(|| {
                            io::Error::other("launcher: no figures between two runs")
                        })?;
                        self.usage = Some(group.finish_between(&boundary));
                    }
                    then.start = Instant::now();
                    self.next = Some(then);
                }
                (None, Next::Started(_)) => {
                    return Err(io::Error::other("launcher: a run started unasked"));
                }
                (then, _) => self.end_here(then.is_none())?,
            }
        }
        self.ended = Some(reply);
        Ok(())
    }

    /// The run ended and nothing runs after it: its cgroup is read now, before a next run
    /// joins it, and `at_end` may ask for one (not after a `Then` the launcher did not
    /// start: the caller asks again).
    fn end_here(&mut self, may_ask: bool) -> io::Result<()> {
        if let Some(group) = self.cgroup.as_deref_mut() {
            self.usage = Some(group.finish()?);
        }
        if let Some(at_end) = self.at_end.take().filter(|_| may_ask) {
            let killed = self.outcome.killed.is_some();
            self.next = at_end(self.asker, self.cgroup.as_deref_mut(), killed);
        }
        Ok(())
    }

    /// Tells the launcher to end the run, once; the first cause is the one reported.
    fn kill(&mut self, why: Killed) -> io::Result<()> {
        self.outcome.killed.get_or_insert(why);
        if !self.kill_sent && self.ended.is_none() {
            self.kill_sent = true;
            send(self.asker.socket, &Message::Kill { run: self.run }, &[])?;
        }
        Ok(())
    }

    /// Kills the run early when the CPU time or memory of all its processes, read from
    /// its cgroup, is already over the limit (the exact figures come at the end).
    fn sample(&mut self) -> io::Result<()> {
        let Some(group) = self.cgroup.as_deref_mut() else {
            return Ok(());
        };
        let sample = group.sample()?;
        if sample.cpu > self.limits.cpu + CPU_GRACE {
            self.kill(Killed::Cpu)
        } else if sample.memory > self.limits.memory {
            self.kill(Killed::Memory)
        } else {
            Ok(())
        }
    }

    /// Reads kept pipes until they are empty, once the run has ended.
    fn drain(&mut self) -> io::Result<()> {
        while self.out_open {
            self.read_stdout()?;
        }
        while self.err_open {
            self.read_stderr()?;
        }
        Ok(())
    }

    /// Waits up to `wait` for the socket or (when `reading`) a pipe, then handles what is
    /// ready.
    fn wait_and_read(&mut self, wait: Duration, reading: bool) -> io::Result<()> {
        let timeout = PollTimeout::try_from(wait.as_millis().max(1)).unwrap_or(PollTimeout::MAX);
        let mut fds = Vec::with_capacity(3);
        let mut which = Vec::with_capacity(3);
        if self.ended.is_none() {
            fds.push(PollFd::new(self.asker.socket.as_fd(), PollFlags::POLLIN));
            which.push(Source::Launcher);
        }
        if reading && self.out_open {
            fds.push(PollFd::new(
                self.streams.out.reader().as_fd(),
                PollFlags::POLLIN,
            ));
            which.push(Source::Stdout);
        }
        if reading && self.err_open {
            fds.push(PollFd::new(
                self.streams.err.reader().as_fd(),
                PollFlags::POLLIN,
            ));
            which.push(Source::Stderr);
        }
        match poll(&mut fds, timeout) {
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(e) => return Err(e.into()),
        }
        let ready: Vec<Source> = which
            .into_iter()
            .zip(&fds)
            .filter(|(_, fd)| fd.revents().is_some_and(|r| !r.is_empty()))
            .map(|(which, _)| which)
            .collect();
        drop(fds);
        for source in ready {
            match source {
                Source::Launcher => self.receive()?,
                Source::Stdout => self.read_stdout()?,
                Source::Stderr => self.read_stderr()?,
            }
        }
        Ok(())
    }

    /// Reads what stdout holds now; at its end (or, once the run has ended, when a kept
    /// pipe is empty) it is done.
    fn read_stdout(&mut self) -> io::Result<()> {
        if !self.out_open {
            return Ok(());
        }
        let Some(n) = read_now(&self.streams.out, self.buffer, self.ended.is_some())? else {
            return Ok(());
        };
        if n == 0 {
            self.out_open = false;
            return Ok(());
        }
        let room = usize::try_from(self.limits.output)
            .unwrap_or(usize::MAX)
            .saturating_sub(self.outcome.stdout.len());
        self.outcome
            .stdout
            .extend_from_slice(&self.buffer[..n.min(room)]);
        if n > room {
            self.kill(Killed::Output)?;
        }
        Ok(())
    }

    /// Reads what stderr holds now, as [`Watch::read_stdout`] does.
    fn read_stderr(&mut self) -> io::Result<()> {
        if !self.err_open {
            return Ok(());
        }
        let Some(n) = read_now(&self.streams.err, self.buffer, self.ended.is_some())? else {
            return Ok(());
        };
        if n == 0 {
            self.err_open = false;
            return Ok(());
        }
        self.stderr_seen += n as u64;
        let kept = &mut self.outcome.stderr;
        match self.stderr {
            Stderr::Tail(keep) => {
                kept.extend_from_slice(&self.buffer[..n]);
                let excess = kept.len().saturating_sub(keep);
                kept.drain(..excess);
            }
            Stderr::Head(keep) => {
                let room = keep.saturating_sub(kept.len());
                kept.extend_from_slice(&self.buffer[..n.min(room)]);
                // A compiler's messages count against the output limit: an endless
                // message (an `#include` of /dev/zero's kind) is cut off, not collected.
                if self.stderr_seen > self.limits.output {
                    self.kill(Killed::Output)?;
                }
            }
        }
        Ok(())
    }

    /// The run's facts, the next run under way, and the run's streams (read to their end).
    fn finish(self) -> io::Result<(Ran, Option<Flight>, Streams)> {
        let mut outcome = self.outcome;
        match self.ended {
            Some(Reply::Ended {
                code,
                signal,
                cpu_us,
                wall_us,
                peak_kib,
                waited_us,
                tasks,
                runnable,
                cpus,
                ..
            }) => {
                outcome.code = code;
                outcome.waited = Duration::from_micros(waited_us);
                outcome.tasks = tasks;
                outcome.runnable = runnable;
                outcome.cpus = cpus;
                outcome.signal = signal;
                outcome.cpu = Duration::from_micros(cpu_us);
                outcome.wall = Duration::from_micros(wall_us);
                outcome.peak_kib = peak_kib;
                // CPU time stays the reaped children's: exact, and without the launcher,
                // which lives in the CPU group (see `cgroup/group.rs`).
                if let Some(usage) = self.usage {
                    outcome.peak_kib = outcome.peak_kib.max(usage.peak.div_ceil(1024));
                    if usage.oom_killed {
                        outcome.killed.get_or_insert(Killed::Memory);
                    }
                }
                Ok(((outcome, self.kept), self.next, self.streams))
            }
            Some(Reply::Failed { message }) => Err(io::Error::other(message)),
            _ => Err(io::Error::other("launcher: no end of run")),
        }
    }
}

/// The error of a launcher that stopped in the middle of a run.
fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the launcher stopped")
}

/// Whether `error` says the launcher is gone (it ended, or was killed), rather than that
/// it refused a run.
pub(crate) fn launcher_gone(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset | io::ErrorKind::UnexpectedEof
    )
}
