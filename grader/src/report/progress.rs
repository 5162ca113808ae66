//! What long commands show while they work, all drawn by `indicatif`: `grader fuzz`'s run
//! counter, `grader batch`'s bar (or a plain line per student off a terminal), and
//! `grader test`'s live table with its status line. Each is fed on the command's own
//! thread, from the worker pool's events: no worker draws anything.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// The run counter of `grader fuzz` on stderr (`  1234 runs  410/s  3.0 s`), only on a
/// terminal; `indicatif` redraws it at most 20 times a second, and it is cleared at the
/// end so the report starts on a clean line.
#[derive(Debug)]
pub(crate) struct Progress {
    /// Hidden when stderr is not a terminal.
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A counter, drawn only when stderr is a terminal.
    pub(crate) fn new() -> Progress {
        let target = if std::io::stderr().is_terminal() {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        };
        let style = indicatif::ProgressStyle::with_template("  {pos} runs  {msg}")
            .expect("a valid template");
        Progress {
            bar: indicatif::ProgressBar::with_draw_target(None, target).with_style(style),
        }
    }

    /// `runs` runs are made, `elapsed` after the first started.
    pub(crate) fn tick(&self, runs: u64, elapsed: Duration) {
        if self.bar.is_hidden() {
            return;
        }
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 { runs as f64 / secs } else { 0.0 };
        self.bar.set_message(format!("{rate:.0}/s  {secs:.1} s"));
        self.bar.set_position(runs);
    }

    /// Clears the line.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The progress of `grader batch`: on a terminal a line while submissions are built, then
/// a bar (runs done, their recent pace and the time left at it, students done and
/// failing); otherwise a plain line per finished student.
#[derive(Debug)]
pub(crate) struct BatchProgress {
    bar: Option<indicatif::ProgressBar>,
    students: usize,
    done: usize,
    /// When the runs started.
    started: std::time::Instant,
    pace: super::pace::Pace,
}

impl BatchProgress {
    /// For a class of `students`.
    pub(crate) fn new(students: usize) -> BatchProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{msg}").expect("a valid template"),
            );
            // At once: a cold compile cache takes a while before the first run.
            bar.set_message(format!("building the submissions: 0/{students}"));
            bar.enable_steady_tick(TICK);
            bar
        });
        BatchProgress {
            bar,
            students,
            done: 0,
            started: std::time::Instant::now(),
            pace: super::pace::Pace::default(),
        }
    }

    /// `built` of the class's submissions are built (compiled, or found in the cache).
    pub(crate) fn built(&mut self, built: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "building the submissions: {built}/{}",
                self.students
            ));
        }
    }

    /// The runs to make are known.
    pub(crate) fn start(&mut self, runs: usize) {
        self.started = std::time::Instant::now();
        if let Some(bar) = &self.bar {
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} runs  {msg}")
                    .expect("a valid template"),
            );
            bar.set_length(runs as u64);
            bar.set_position(0);
            bar.set_message(format!("0/{} students", self.students));
        }
    }

    /// One run finished; `failing` students have a failing case so far.
    pub(crate) fn run_done(&mut self, failing: usize) {
        self.pace.done(self.started.elapsed());
        if let Some(bar) = &self.bar {
            bar.inc(1);
            let left = bar.length().unwrap_or(0).saturating_sub(bar.position());
            let pace = match (self.pace.rate(), self.pace.time_left(left)) {
                (Some(rate), Some(time)) => format!(
                    "{}  ETA {}  ",
                    super::pace::rate(rate),
                    super::pace::left(time)
                ),
                _ => String::new(),
            };
            bar.set_message(format!(
                "{pace}{}/{} students, {failing} failing",
                self.done, self.students
            ));
        }
    }

    /// A student is done; `how` says how (`all AC`, `failing`, `did not compile`, ...).
    pub(crate) fn student_done(&mut self, name: &str, how: &str) {
        self.done += 1;
        if self.bar.is_none() {
            // As every line on stderr: a name or a compiler's line (which may quote the
            // source) neither splits it nor steers the terminal.
            super::note(&format!("[{}/{}] {name}: {how}", self.done, self.students));
        }
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How long a phase runs before the status line shows it: a cached compile or a quick
/// case never flashes a line that is gone before it can be read.
const GRACE: Duration = Duration::from_millis(300);

/// How often the status line is redrawn (its clock counts seconds; a redraw is one write
/// of the whole line, so it does not flicker).
const TICK: Duration = Duration::from_millis(500);

/// Whether `stream` is a terminal that moves its cursor (not `TERM=dumb`): a status line
/// is redrawn in place only there.
fn redraws(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("TERM").is_none_or(|term| term != "dumb")
}

/// Which stream a status line is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    /// Under the report, when the report itself goes to the terminal.
    Stdout,
    /// Beside a report that goes elsewhere (a pipe, a file).
    Stderr,
}

/// One line at the bottom of a terminal saying what the command is doing and for how long
/// (`compiling sol.cpp… 3s`), under the lines printed above it; drawn only on a terminal
/// that redraws, only once a phase has lasted [`GRACE`], and cleared when dropped.
#[derive(Debug)]
pub(crate) struct StatusLine {
    /// `None` when nothing is drawn.
    bar: Option<indicatif::ProgressBar>,
    /// What the line says; read by the bar's ticker thread.
    label: std::sync::Arc<Mutex<String>>,
}

impl StatusLine {
    /// A status line on `stream`, drawn only when it is a terminal that redraws.
    pub(crate) fn new(stream: Stream) -> StatusLine {
        let target = match stream {
            Stream::Stdout if redraws(&std::io::stdout()) => {
                Some(indicatif::ProgressDrawTarget::stdout())
            }
            Stream::Stderr if redraws(&std::io::stderr()) => {
                Some(indicatif::ProgressDrawTarget::stderr())
            }
            _ => None,
        };
        let label = std::sync::Arc::new(Mutex::new(String::new()));
        let bar = target.map(|target| {
            let shown = std::sync::Arc::clone(&label);
            let style = indicatif::ProgressStyle::with_template("{status}")
                .expect("a valid template")
                .with_key(
                    "status",
                    move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let label = shown.lock().map(|l| l.clone()).unwrap_or_default();
                        let elapsed = state.elapsed();
                        if !label.is_empty() && elapsed >= GRACE {
                            let _ = write!(w, "  {label}…");
                            if elapsed.as_secs() > 0 {
                                let _ = write!(w, " {}s", elapsed.as_secs());
                            }
                        }
                    },
                );
            let bar = indicatif::ProgressBar::with_draw_target(None, target).with_style(style);
            bar.enable_steady_tick(TICK);
            bar
        });
        StatusLine { bar, label }
    }

    /// A new phase: the line says `label` and its clock starts again.
    pub(crate) fn phase(&self, label: &str) {
        self.says(label);
        if let Some(bar) = &self.bar {
            bar.reset_elapsed();
        }
    }

    /// The same phase says something new (its clock runs on).
    pub(crate) fn says(&self, label: &str) {
        // Drawn by the next tick, or at once by the next `print`: never twice in a row.
        // A label names the user's files: what a terminal would obey in a name is escaped.
        if let Ok(mut shown) = self.label.lock() {
            *shown = reference::visible::escape(label.as_bytes());
        }
    }

    /// Writes `text` (with ANSI styles, kept or stripped as `report::out_styled` does)
    /// to stdout, above the line when the line is on stdout.
    pub(crate) fn print(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| super::out_styled(text)),
            None => super::out_styled(text),
        }
    }

    /// Clears the line for good.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        // A command that stops on an error leaves no half-drawn line above its message.
        self.finish();
    }
}

/// What `grader test` shows while it works. When its human report goes to a terminal, the
/// report is printed as it is known: the header at once (before compiling), each case's
/// line as soon as it and every case before it in name order have finished (so the table
/// is in name order as always, and no line is printed twice), the rest at the end, with a
/// status line under it (`compiling sol.cpp…`, `running: 12/69 done, 1 failing…`) that
/// also counts the cases finished out of order. Otherwise the report is printed whole at
/// the end, byte for byte as before, and a terminal on stderr shows only the status line.
#[derive(Debug)]
pub(crate) struct TestProgress {
    status: StatusLine,
    /// Whether the report is printed as it is known (stdout is a terminal).
    streams: bool,
    /// Whether the submission is compiled (said once it is built).
    compiles: bool,
    live: Live,
}

/// The cases so far.
#[derive(Debug, Default)]
struct Live {
    total: usize,
    done: usize,
    failing: usize,
    /// The table's width of a name.
    width: usize,
    /// Lines of finished cases not yet printed, by index.
    waiting: Vec<Option<String>>,
    /// The first case whose line is not printed.
    next: usize,
}

impl TestProgress {
    /// For a report that goes to stdout (`report_on_stdout`: human, no `--report-file`)
    /// or elsewhere.
    pub(crate) fn new(report_on_stdout: bool) -> TestProgress {
        let streams = report_on_stdout && std::io::stdout().is_terminal();
        TestProgress {
            status: StatusLine::new(if streams {
                Stream::Stdout
            } else {
                Stream::Stderr
            }),
            streams,
            compiles: false,
            live: Live::default(),
        }
    }

    /// Whether the report's header and table were printed as they came: only the rest
    /// (`human::submission::after_streamed_table`) is left to print.
    pub(crate) fn streamed(&self) -> bool {
        self.streams
    }

    /// The submission is about to be built: `header` is the report's first line as known
    /// before building; `compiling` names the source when it is compiled.
    pub(crate) fn building(&mut self, header: &str, compiling: Option<&str>) {
        if self.streams {
            self.status.print(header);
        }
        if let Some(source) = compiling {
            self.compiles = true;
            self.status.phase(&format!("compiling {source}"));
        }
    }

    /// It is built; when it was compiled, `how` (`compiled`, `compiled earlier (cached)`)
    /// is said under the header, where the piped report says it in the header.
    pub(crate) fn built(&self, how: &str) {
        self.status.phase("");
        if self.streams && self.compiles {
            let line = format!("  {how}");
            self.status.print(&format!(
                "{}\n",
                super::paint(anstyle::Style::new().dimmed(), &line)
            ));
        }
    }

    /// The cases named `names` (in name order) start running.
    pub(crate) fn running(&mut self, names: &[String]) {
        self.live = Live::new(
            names.len(),
            super::human::case_table::name_width(names.iter().map(String::as_str)),
        );
        self.status.phase(&self.live.summary());
    }

    /// Case `index` (in name order) finished with `result`.
    /// Called on the command's thread, from the pool's events: lines leave in name order.
    pub(crate) fn case_done(&mut self, index: usize, result: &crate::results::case::CaseResult) {
        let line = super::human::case_table::case_line(result, self.live.width);
        let ready = self.live.finished(index, !result.accepted(), line);
        self.status.says(&self.live.summary());
        if self.streams && !ready.is_empty() {
            self.status.print(&ready);
        }
    }

    /// Clears the status line: the rest of the report follows.
    pub(crate) fn finish(&self) {
        self.status.finish();
    }
}

impl Live {
    /// For `total` cases whose names are `width` wide at most.
    fn new(total: usize, width: usize) -> Live {
        Live {
            total,
            width,
            waiting: vec![None; total],
            ..Live::default()
        }
    }

    /// Case `index` finished (`failed`: not `AC`) with its table `line`; the lines now
    /// ready to print, in name order: its own and those after it that waited for it, or
    /// nothing while a case before it runs.
    fn finished(&mut self, index: usize, failed: bool, line: String) -> String {
        self.done += 1;
        if failed {
            self.failing += 1;
        }
        if let Some(slot) = self.waiting.get_mut(index) {
            *slot = Some(line);
        }
        let mut ready = String::new();
        while let Some(line) = self.waiting.get_mut(self.next).and_then(Option::take) {
            ready.push_str(&line);
            self.next += 1;
        }
        ready
    }

    /// `running: 12/69 done, 1 failing`.
    fn summary(&self) -> String {
        let mut text = format!("running: {}/{} done", self.done, self.total);
        if self.failing > 0 {
            let _ = write!(text, ", {} failing", self.failing);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::Live;

    #[test]
    fn lines_leave_in_name_order_each_as_soon_as_those_before_it_are_done() {
        let mut live = Live::new(4, 2);
        assert_eq!(live.summary(), "running: 0/4 done");
        // 02 and 03 finish before 01: counted at once, printed after it.
        assert_eq!(live.finished(1, false, "02\n".into()), "");
        assert_eq!(live.finished(2, true, "03\n".into()), "");
        assert_eq!(live.summary(), "running: 2/4 done, 1 failing");
        assert_eq!(live.finished(0, false, "01\n".into()), "01\n02\n03\n");
        assert_eq!(live.finished(3, true, "04\n".into()), "04\n");
        assert_eq!(live.summary(), "running: 4/4 done, 2 failing");
    }

    #[test]
    fn a_case_after_a_fail_fast_gap_is_never_printed_twice() {
        let mut live = Live::new(3, 2);
        assert_eq!(live.finished(0, true, "01\n".into()), "01\n");
        // 02 never ran (--fail-fast); 03 finished: it waits, and is never printed twice.
        assert_eq!(live.finished(2, false, "03\n".into()), "");
        assert_eq!(live.next, 1);
    }
}
