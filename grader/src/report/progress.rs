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
