//! The runs of a class: every (student, case) run the journal does not hold goes, student
//! by student, to the worker pool; the reporter on the calling thread journals each run as
//! it finishes and tells the progress of runs and students.
//!
//! Two rules are the batch's own. A run the grader cannot make (its fault, not the
//! student's) marks only that student as not graded, and its worker starts afresh; the
//! batch goes on. With `--fail-fast-per-submission`, a student's first failing run skips
//! the rest of that student's runs: a failure journaled by an earlier, interrupted batch
//! counts as much as one made now.

use std::collections::{BTreeMap, HashMap};

use super::build::Build;
use super::discover::Student;
use super::journal::{Journal, Record};
use super::keys::Keys;
use crate::cases::discover::Case;
use crate::grade::RunsCases;
use crate::report::progress::BatchProgress;
use crate::results::case::CaseResult;
use crate::status::Fault;
use crate::submission::diagnosis;

/// How much of a failing run's output and stderr the gradebook keeps.
const EXCERPT: usize = 1024;

/// What the progress of a batch is told, on the calling thread: [`BatchProgress`], or a
/// recorder in tests.
pub(crate) trait ClassProgress {
    /// The runs to make are known.
    fn start(&mut self, runs: usize);
    /// One run finished; `failing` students have a failing case so far.
    fn run_done(&mut self, failing: usize);
    /// A student is done; `how` says how (`all AC`, `failing`, `did not compile: …`).
    fn student_done(&mut self, name: &str, how: &str);
}

impl ClassProgress for BatchProgress {
    fn start(&mut self, runs: usize) {
        BatchProgress::start(self, runs);
    }

    fn run_done(&mut self, failing: usize) {
        BatchProgress::run_done(self, failing);
    }

    fn student_done(&mut self, name: &str, how: &str) {
        BatchProgress::student_done(self, name, how);
    }
}

/// The class as the runs see it.
#[derive(Debug)]
pub(crate) struct Class<'a, P> {
    /// The students.
    pub(crate) students: &'a [Student],
    /// The cases.
    pub(crate) cases: &'a [Case],
    /// Each student's build.
    pub(crate) builds: &'a [Build<P>],
    /// The journal's keys.
    pub(crate) keys: &'a Keys,
    /// `--fail-fast-per-submission`.
    pub(crate) fail_fast: bool,
}

/// One run to make.
#[derive(Debug)]
struct Run {
    student: usize,
    case: usize,
    key: String,
}

/// The runs still to make, student by student (so students finish one after another),
/// and what the journal already says of each student.
#[derive(Debug)]
pub(crate) struct Todo {
    runs: Vec<Run>,
    /// For each student, one past the number of its last run in `runs`.
    ends: Vec<u64>,
    /// Whether each student has a failing run in the journal.
    failed: Vec<bool>,
}

impl Todo {
    /// The runs of `class` that `known` (the journal) does not hold. A student with a
    /// journaled failure gets none under `fail_fast`.
    pub(crate) fn new<P>(class: &Class<'_, P>, known: &HashMap<String, Record>) -> Todo {
        let mut todo = Todo {
            runs: Vec::new(),
            ends: Vec::new(),
            failed: vec![false; class.students.len()],
        };
        for (student, build) in class.builds.iter().enumerate() {
            if let Build::Ready { hash, .. } = build {
                let keys = (0..class.cases.len()).map(|c| (c, class.keys.run(hash, c)));
                let mut missing = Vec::new();
                for (case, key) in keys {
                    match known.get(&key) {
                        Some(record) => todo.failed[student] |= !record.result.accepted(),
                        None => missing.push(Run { student, case, key }),
                    }
                }
                if !(class.fail_fast && todo.failed[student]) {
                    todo.runs.extend(missing);
                }
            }
            todo.ends.push(todo.runs.len() as u64);
        }
        todo
    }

    /// How many runs are to make.
    pub(crate) fn len(&self) -> usize {
        self.runs.len()
    }

    /// Run number `n`'s student and case.
    fn get(&self, n: u64) -> Option<(usize, usize)> {
        let run = self.runs.get(usize::try_from(n).ok()?)?;
        Some((run.student, run.case))
    }
}

/// What the runs left: every record (the journal's and the new ones), by key, and the
/// students whose runs the grader could not make, with why.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    /// Every run's record, by key.
    pub(crate) records: HashMap<String, Record>,
    /// Students not graded because a run could not be made.
    pub(crate) faults: BTreeMap<usize, String>,
}

/// What one run gave.
#[derive(Debug)]
enum Outcome {
    /// It ran and was judged.
    Ran(CaseResult),
    /// The grader could not make it: why.
    Fault(String),
}

/// Makes `todo`'s runs on one worker thread per `workers`, journaling each as it finishes.
/// `Err` when the batch must end: stopped (Ctrl-C), a worker that cannot start, a journal
/// that cannot be written.
pub(crate) fn run_all<R: RunsCases>(
    workers: &mut [R],
    class: &Class<'_, R::Program>,
    todo: &Todo,
    journal: &mut Journal,
    known: HashMap<String, Record>,
    progress: &mut dyn ClassProgress,
) -> Result<Ran, Fault> {
    let mut reporter = Reporter::new(class, todo, journal, known, progress);
    reporter.before();
    let tasks = |n| todo.get(n);
    // A student's failing run skips the rest of that student: its runs end at `ends`.
    let stop = |n: u64, outcome: &Outcome| match (outcome, todo.get(n)) {
        (Outcome::Ran(result), Some((s, _))) if class.fail_fast && !result.accepted() => {
            pool::Stop::SkipTo(todo.ends[s])
        }
        _ => pool::Stop::Go,
    };
    let schedule = pool::Schedule {
        tasks: &tasks,
        stop: &stop,
        deadline: None,
    };
    let mut jobs: Vec<Job<'_, R>> = workers
        .iter_mut()
        .map(|worker| Job {
            worker,
            class,
            started: false,
        })
        .collect();
    pool::run(&mut jobs, &schedule, |event| reporter.event(event))?;
    Ok(reporter.ran)
}

/// One worker of [`run_all`]: its case runner, started before its first run and again
/// after a run it could not make.
struct Job<'a, R: RunsCases> {
    worker: &'a mut R,
    class: &'a Class<'a, R::Program>,
    started: bool,
}

impl<R: RunsCases> pool::Executor for Job<'_, R> {
    type Task = (usize, usize);
    type Output = Outcome;
    type Error = Fault;

    fn execute(&mut self, _index: u64, (s, c): (usize, usize)) -> Result<Outcome, Fault> {
        if !self.started {
            self.worker.start()?;
            self.started = true;
        }
        let Some(program) = self.class.builds[s].program() else {
            return Err(Fault::Internal("a run of a program not built".to_owned()));
        };
        match self.worker.run(program, c) {
            Ok(result) => Ok(Outcome::Ran(result)),
            // Stopping is the batch's end, not this student's fault.
            Err(e @ Fault::Interrupted(_)) => Err(e),
            Err(e) => {
                let case = &self.class.cases[c].name;
                let why = format!("the grader could not run case {case}: {e}");
                // A fresh worker for the next run; one that cannot start ends the batch.
                self.worker.start()?;
                Ok(Outcome::Fault(why))
            }
        }
    }
}

/// The reporter of [`run_all`], on the calling thread: journals, counts, and tells the
/// progress.
struct Reporter<'a, P> {
    class: &'a Class<'a, P>,
    todo: &'a Todo,
    journal: &'a mut Journal,
    progress: &'a mut dyn ClassProgress,
    /// Runs left per student (made or skipped).
    remaining: Vec<usize>,
    /// Whether each student has a failing run, the journal's included.
    failed: Vec<bool>,
    /// How many students have a failing run: counted as each first fails, not by a scan
    /// of every student after every run.
    failing: usize,
    ran: Ran,
}

impl<'a, P> Reporter<'a, P> {
    fn new(
        class: &'a Class<'a, P>,
        todo: &'a Todo,
        journal: &'a mut Journal,
        known: HashMap<String, Record>,
        progress: &'a mut dyn ClassProgress,
    ) -> Self {
        let mut remaining = vec![0; class.students.len()];
        for run in &todo.runs {
            remaining[run.student] += 1;
        }
        Reporter {
            class,
            todo,
            journal,
            progress,
            remaining,
            failed: todo.failed.clone(),
            failing: todo.failed.iter().filter(|&&f| f).count(),
            ran: Ran {
                records: known,
                faults: BTreeMap::new(),
            },
        }
    }

    /// Before any run: the runs to make, and the students with none are done already.
    fn before(&mut self) {
        self.progress.start(self.todo.len());
        for (s, student) in self.class.students.iter().enumerate() {
            if self.remaining[s] > 0 {
                continue;
            }
            let how = match &self.class.builds[s] {
                Build::Ready { .. } if self.failed[s] => "failing (graded earlier, journal)",
                Build::Ready { .. } => "graded earlier (journal)",
                Build::CompileError { message, .. } => {
                    let how = format!("did not compile: {}", diagnosis::summary(message));
                    self.progress.student_done(&student.name, &how);
                    continue;
                }
                Build::Error(_) => "could not be graded",
            };
            self.progress.student_done(&student.name, how);
        }
    }

    fn event(&mut self, event: pool::Event<Outcome>) -> Result<(), Fault> {
        let (index, outcome) = match event {
            pool::Event::Started { .. } => return Ok(()),
            pool::Event::Finished { index, output, .. } => (index, Some(output)),
            pool::Event::Skipped { index } => (index, None),
        };
        let run = &self.todo.runs[index as usize];
        match outcome {
            Some(Outcome::Ran(result)) => self.journal_run(run, result)?,
            Some(Outcome::Fault(why)) => {
                self.ran.faults.entry(run.student).or_insert(why);
            }
            None => {}
        }
        self.remaining[run.student] -= 1;
        if self.remaining[run.student] == 0 {
            let how = if self.failed[run.student] {
                "failing"
            } else {
                "all AC"
            };
            let name = &self.class.students[run.student].name;
            self.progress.student_done(name, how);
        }
        Ok(())
    }

    /// Journals one run and counts it.
    fn journal_run(&mut self, run: &Run, result: CaseResult) -> Result<(), Fault> {
        let record = Record {
            key: run.key.clone(),
            student: self.class.students[run.student].name.clone(),
            result: result.excerpt(EXCERPT),
        };
        if !record.result.accepted() && !self.failed[run.student] {
            self.failed[run.student] = true;
            self.failing += 1;
        }
        self.journal.append(&record)?;
        self.ran.records.insert(record.key.clone(), record);
        self.progress.run_done(self.failing);
        Ok(())
    }
}
