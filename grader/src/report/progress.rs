//! A live progress line on stderr (runs, rate, elapsed), only on a terminal: redrawn at
//! most ten times a second, and cleared at the end so the report starts on a clean line.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the line is redrawn at most.
const EVERY: Duration = Duration::from_millis(100);

/// The progress line of one long command.
#[derive(Debug)]
pub(crate) struct Progress {
    /// `None` when stderr is not a terminal: nothing is drawn.
    last: Option<Mutex<Instant>>,
}

impl Progress {
    /// A progress line, drawn only when stderr is a terminal.
    pub(crate) fn new() -> Progress {
        Progress {
            last: std::io::stderr()
                .is_terminal()
                .then(|| Mutex::new(Instant::now())),
        }
    }

    /// Redraws the line, unless it was drawn less than 100 ms ago.
    pub(crate) fn tick(&self, runs: u64, elapsed: Duration) {
        let Some(last) = &self.last else {
            return;
        };
        let Ok(mut last) = last.try_lock() else {
            return;
        };
        if last.elapsed() < EVERY {
            return;
        }
        *last = Instant::now();
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { runs as f64 / secs } else { 0.0 };
        let _ = write!(
            std::io::stderr().lock(),
            "\r\x1b[2K  {runs} runs  {rate:.0}/s  {secs:.1} s"
        );
    }

    /// Clears the line.
    pub(crate) fn finish(&self) {
        if self.last.is_some() {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

/// The progress of `grader batch`: on a terminal a bar (runs done, runs per second, ETA,
/// students done and failing); otherwise a plain line per finished student.
#[derive(Debug)]
pub(crate) struct BatchProgress {
    bar: Option<indicatif::ProgressBar>,
    students: usize,
    done: std::sync::atomic::AtomicUsize,
}

impl BatchProgress {
    /// For a class of `students`.
    pub(crate) fn new(students: usize) -> BatchProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} runs  {per_sec}  ETA {eta}  {msg}",
                )
                .expect("a valid template"),
            );
            bar
        });
        BatchProgress {
            bar,
            students,
            done: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// The runs to make are known.
    pub(crate) fn start(&self, runs: usize) {
        if let Some(bar) = &self.bar {
            bar.set_length(runs as u64);
        }
    }

    /// One run finished; `failing` students have a failing case so far.
    pub(crate) fn run_done(&self, failing: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            let done = self.done.load(std::sync::atomic::Ordering::Relaxed);
            bar.set_message(format!(
                "{done}/{} students, {failing} failing",
                self.students
            ));
        }
    }

    /// A student is done; `how` says how (`all AC`, `failing`, `did not compile`, ...).
    pub(crate) fn student_done(&self, name: &str, how: &str) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if self.bar.is_none() {
            let _ = writeln!(
                std::io::stderr().lock(),
                "[{done}/{}] {name}: {how}",
                self.students
            );
        }
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
