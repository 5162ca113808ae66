//! Recording an interaction: a thread of the grader between the submission and the
//! interactor, passing on what each writes and keeping the first bytes of it, as a
//! `.interaction` sample shows an exchange (`>` what the submission wrote, `<` what it
//! read). Only where the interaction is shown (`test`, `batch`); `verify` joins the two
//! directly.
//!
//! The relay holds the ends the grader would otherwise hold (see `interaction.rs`), and
//! keeps their rules: what the submission writes after the interactor ended with 42 is
//! read and dropped (no `SIGPIPE` racing the interactor's end), after any other end the
//! submission's pipe is closed; what the interactor writes after the submission ended is
//! always read and dropped (the interactor is never killed by `SIGPIPE`). Each direction
//! holds at most one read's bytes: a side that stops reading stops the other side's
//! writes, as a pipe does.

use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

/// How long the relay waits between looks at its flags.
const LOOK_EVERY: Duration = Duration::from_millis(20);
/// How long after both sides ended the relay may still wait for its pipes' end (a
/// process a run left behind may hold one open where no box ends it).
const AFTER_END: Duration = Duration::from_secs(1);

/// Who wrote a part of an interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writer {
    /// The submission (to the interactor): `>` in a `.interaction` file.
    Submission,
    /// The interactor (to the submission): `<`.
    Interactor,
}

impl Writer {
    fn mark(self) -> u8 {
        match self {
            Writer::Submission => b'>',
            Writer::Interactor => b'<',
        }
    }
}

/// What passed each way, in order, up to a number of bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Transcript {
    parts: Vec<(Writer, Vec<u8>)>,
    kept: usize,
    /// Bytes that passed and were not kept.
    dropped: u64,
}

impl Transcript {
    /// Adds `bytes` written by `writer`, within `cap` bytes in all.
    pub(crate) fn add(&mut self, writer: Writer, bytes: &[u8], cap: usize) {
        let room = cap.saturating_sub(self.kept);
        let taken = &bytes[..bytes.len().min(room)];
        self.dropped += (bytes.len() - taken.len()) as u64;
        if taken.is_empty() {
            return;
        }
        self.kept += taken.len();
        match self.parts.last_mut() {
            Some((last, text)) if *last == writer => text.extend_from_slice(taken),
            _ => self.parts.push((writer, taken.to_vec())),
        }
    }

    /// As a `.interaction` file writes it: each line of each part after its writer's mark,
    /// and a last line saying how much more passed when not all was kept.
    pub(crate) fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (writer, text) in &self.parts {
            for line in text.split_inclusive(|&b| b == b'\n') {
                out.push(writer.mark());
                out.extend_from_slice(line);
                if !line.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
        }
        if self.dropped > 0 {
            out.extend_from_slice(format!("[{} more bytes passed]\n", self.dropped).as_bytes());
        }
        out
    }
}

/// One direction of the relay.
struct Way {
    writer: Writer,
    /// The end it reads; `None` once at its end or closed.
    from: Option<File>,
    /// The end it writes; `None` once closed (by its end, or the reader gone).
    to: Option<File>,
    /// Bytes read and not yet written.
    held: Vec<u8>,
}

impl Way {
    fn new(writer: Writer, from: OwnedFd, to: OwnedFd) -> io::Result<Way> {
        for fd in [&from, &to] {
            let flags = nix::fcntl::OFlag::from_bits_retain(nix::fcntl::fcntl(
                fd,
                nix::fcntl::FcntlArg::F_GETFL,
            )?);
            nix::fcntl::fcntl(
                fd,
                nix::fcntl::FcntlArg::F_SETFL(flags | nix::fcntl::OFlag::O_NONBLOCK),
            )?;
        }
        Ok(Way {
            writer,
            from: Some(File::from(from)),
            to: Some(File::from(to)),
            held: Vec::new(),
        })
    }

    fn done(&self) -> bool {
        self.from.is_none() && (self.held.is_empty() || self.to.is_none())
    }

    /// Reads what is there, keeping it in `transcript` (within `cap`).
    fn read(&mut self, buffer: &mut [u8], transcript: &mut Transcript, cap: usize) {
        let Some(from) = &mut self.from else { return };
        match from.read(buffer) {
            Ok(0) => {
                self.from = None;
                if self.held.is_empty() {
                    // Its end is passed on.
                    self.to = None;
                }
            }
            Ok(n) => {
                transcript.add(self.writer, &buffer[..n], cap);
                if self.to.is_some() {
                    self.held.extend_from_slice(&buffer[..n]);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => self.from = None,
        }
    }

    /// Writes what it holds, as far as the pipe takes it.
    fn write(&mut self) {
        let Some(to) = &mut self.to else {
            self.held.clear();
            return;
        };
        match to.write(&self.held) {
            Ok(n) => {
                self.held.drain(..n);
                if self.held.is_empty() && self.from.is_none() {
                    self.to = None;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // The reader is gone: what comes is read and dropped from now on.
            Err(_) => {
                self.to = None;
                self.held.clear();
            }
        }
    }
}

/// The relay's flags, set by the threads that watch the two runs.
#[derive(Debug, Default)]
pub(crate) struct Signals {
    /// The interactor ended with something else than 42: the submission's pipe closes.
    pub(crate) refused: AtomicBool,
    /// The submission ended: what the interactor writes from now on is read and
    /// dropped, never held for a reader that is gone (a box may keep the submission's
    /// end of the pipe open after its run, so no write would fail: an interactor that
    /// answers a flood it was sent would block on a full pipe until its wall limit).
    pub(crate) submission_ended: AtomicBool,
    /// Both sides ended: the relay ends once its pipes do, or soon after.
    pub(crate) ended: AtomicBool,
}

/// The relay: the submission's output to the interactor (`to_interactor`: the ends it
/// reads and writes), the interactor's to the submission (`to_submission`).
pub(crate) struct Relay {
    ways: [Way; 2],
    cap: usize,
}

impl Relay {
    /// A relay between the pipes' ends, keeping at most `cap` bytes of what passes.
    pub(crate) fn new(
        to_interactor: (OwnedFd, OwnedFd),
        to_submission: (OwnedFd, OwnedFd),
        cap: usize,
    ) -> io::Result<Relay> {
        Ok(Relay {
            ways: [
                Way::new(Writer::Submission, to_interactor.0, to_interactor.1)?,
                Way::new(Writer::Interactor, to_submission.0, to_submission.1)?,
            ],
            cap,
        })
    }

    /// Passes bytes on until both ways are done, or `AFTER_END` after `signals.ended`.
    pub(crate) fn run(mut self, signals: &Signals) -> Transcript {
        let mut transcript = Transcript::default();
        let mut buffer = vec![0u8; 64 * 1024];
        let mut deadline: Option<Instant> = None;
        while !self.ways.iter().all(Way::done) {
            if signals.refused.load(Ordering::SeqCst) {
                self.ways[0].from = None;
                self.ways[0].held.clear();
                self.ways[0].to = None;
            }
            if signals.submission_ended.load(Ordering::SeqCst) {
                self.ways[1].to = None;
                self.ways[1].held.clear();
            }
            if signals.ended.load(Ordering::SeqCst) {
                let at = *deadline.get_or_insert_with(|| Instant::now() + AFTER_END);
                if Instant::now() >= at {
                    break;
                }
            }
            let mut fds = Vec::with_capacity(4);
            let mut what = Vec::with_capacity(4);
            for (i, way) in self.ways.iter().enumerate() {
                if way.held.is_empty() {
                    if let Some(from) = &way.from {
                        fds.push(PollFd::new(from.as_fd(), PollFlags::POLLIN));
                        what.push((i, true));
                    }
                } else if let Some(to) = &way.to {
                    fds.push(PollFd::new(to.as_fd(), PollFlags::POLLOUT));
                    what.push((i, false));
                }
            }
            let timeout = PollTimeout::try_from(LOOK_EVERY.as_millis()).unwrap_or(PollTimeout::MAX);
            if poll(&mut fds, timeout).is_err() {
                continue;
            }
            let ready: Vec<(usize, bool)> = what
                .into_iter()
                .zip(&fds)
                .filter(|(_, fd)| fd.revents().is_some_and(|r| !r.is_empty()))
                .map(|(what, _)| what)
                .collect();
            drop(fds);
            for (i, reading) in ready {
                if reading {
                    self.ways[i].read(&mut buffer, &mut transcript, self.cap);
                } else {
                    self.ways[i].write();
                }
            }
        }
        transcript
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe() -> (File, File) {
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).unwrap();
        (File::from(read), File::from(write))
    }

    #[test]
    fn the_relay_passes_each_side_s_bytes_on_records_them_and_passes_ends_on() {
        // Pipes for the two sides: what the submission writes, what the interactor reads,
        // what the interactor writes, what the submission reads.
        let (up_read, mut submission_out) = pipe();
        let (mut interactor_in, up_far_write) = pipe();
        let (down_read, mut interactor_out) = pipe();
        let (mut submission_in, down_far_write) = pipe();
        let relay = Relay::new(
            (up_read.into(), up_far_write.into()),
            (down_read.into(), down_far_write.into()),
            1024,
        )
        .unwrap();
        let signals = Signals::default();
        std::thread::scope(|scope| {
            let relay = scope.spawn(|| relay.run(&signals));
            submission_out.write_all(b"500\n").unwrap();
            let mut line = [0u8; 4];
            interactor_in.read_exact(&mut line).unwrap();
            assert_eq!(&line, b"500\n");
            interactor_out.write_all(b"lower\n").unwrap();
            let mut reply = [0u8; 6];
            submission_in.read_exact(&mut reply).unwrap();
            assert_eq!(&reply, b"lower\n");
            // The interactor leaves: the submission reads the end of its input.
            drop(interactor_out);
            let mut rest = Vec::new();
            submission_in.read_to_end(&mut rest).unwrap();
            assert!(rest.is_empty());
            // The submission leaves: so does the interactor's input.
            drop(submission_out);
            interactor_in.read_to_end(&mut rest).unwrap();
            assert!(rest.is_empty());
            let transcript = relay.join().unwrap();
            assert_eq!(transcript.render(), b">500\n<lower\n".to_vec());
        });
    }

    #[test]
    fn a_transcript_marks_each_line_by_its_writer_and_says_what_was_not_kept() {
        let mut t = Transcript::default();
        t.add(Writer::Submission, b"500\n", 100);
        t.add(Writer::Interactor, b"lower\n", 100);
        t.add(Writer::Submission, b"250", 100);
        t.add(Writer::Submission, b"\n125\n", 100);
        assert_eq!(t.render(), b">500\n<lower\n>250\n>125\n".to_vec());
        t.add(Writer::Interactor, b"0123456789", 22);
        assert_eq!(
            String::from_utf8(t.render()).unwrap(),
            ">500\n<lower\n>250\n>125\n<0123\n[6 more bytes passed]\n"
        );
    }
}
