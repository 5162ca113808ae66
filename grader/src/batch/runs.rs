//! The runs of a class: every (student, case) run the journal does not hold goes, student
//! by student, to the worker pool; the reporter on the calling thread journals each run as
//! it finishes and tells the progress of runs and students.
//!
//! Two rules are the batch's own. A run the grader cannot make (its fault, not the
//! student's) marks only that student as not graded, and its worker starts afresh; the
//! batch goes on. With `--fail-fast-per-submission`, a student's first failing run skips
//! the rest of that student's runs: a failure journaled by an earlier, interrupted batch
//! counts as much as one made now. By the same path, a student whose program slept
//! through cases in a row (`sleepers`) is stopped, its journaled runs counted alike.
//! Both are decided by the worker that takes a run, before it is made (the run is then
//! not made, `--`): with one worker, the runs up to the stop, every time.
//!
//! A program asleep uses no CPU but holds a worker for its wall limit, a case. So that one
//! sleeping student does not hold the class, each student's first run goes ahead of every
//! student's others (a sleeper is found among the class's first runs); a worker of the
//! pool stops a first run still going at the hand-over point (`runner::hand_over_limits`)
//! and, when it slept, hands it, with the student's runs not yet taken, to the doze lane
//! (`doze`): a few more workers beside the pool, which make them in full from the start,
//! several at once, until the student is stopped. The doze lane is the one place a run
//! goes beyond `--jobs`, and only after a sleep.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc;

use super::class_build::Build;
use super::doze::{DozeQueue, Handed};
use super::journal::{Journal, Known, Record};
use super::places::Places;
use super::run_keys::Keys;
use super::sleepers::Sleepers;
use super::students::Student;
use crate::cases::find::Case;
use crate::cli::exit::{Cause, Fault};
use crate::report::progress::BatchProgress;
use crate::results::case::CaseResult;
use crate::run::grade::RunsCases;
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
    /// `--stop-after-wall-tles`: how many cases in a row that the program slept through
    /// stop a student (0: never).
    pub(crate) sleepers: usize,
}

/// One run to make (its key is made again when it is journaled: kept for every run to
/// make, keys were 100 bytes a run of a first batch's memory).
#[derive(Debug)]
struct Run {
    student: usize,
    case: usize,
}

/// Who took a run ([`Todo::take`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Taker {
    /// One of the pool's workers.
    Pool = 1,
    /// The doze lane.
    Doze = 2,
}

/// The runs still to make, student by student (so students finish one after another;
/// with the sleepers' rule on, each student's first run ahead of them all), and what the
/// journal already says of each student.
#[derive(Debug)]
pub(crate) struct Todo {
    runs: Vec<Run>,
    /// Each student's runs after its first, as numbers in `runs` (all its runs when the
    /// journal shows it asleep already): what is handed to the doze lane.
    blocks: Vec<Range<usize>>,
    /// Whether each student has a failing run: the journal's, then the new (read by the
    /// workers before each run, for fail-fast).
    failed: Vec<AtomicBool>,
    /// The cases each student slept through, the journal's and then the new.
    sleepers: Sleepers,
    /// Who took each run: 0 none yet, else a [`Taker`]. A run handed to the doze lane is
    /// made there unless a worker of the pool took it first, never twice.
    taken: Vec<AtomicU8>,
}

impl Todo {
    /// The runs of `class` that `known` (the journal) does not hold, and where those it
    /// holds are. A student with a journaled failure gets none under `fail_fast`, nor one
    /// whose journaled runs slept through enough cases in a row: a resumed batch stops whom
    /// the first one did.
    pub(crate) fn new<P>(class: &Class<'_, P>, known: &Known) -> (Todo, Places) {
        let mut places = Places::new(class.students.len(), class.cases.len());
        let sleepers = Sleepers::new(class.students.len(), class.sleepers);
        let mut failed = vec![false; class.students.len()];
        // Each student's first run to make, then each one's others.
        let mut firsts = Vec::new();
        let mut others: Vec<Vec<Run>> = Vec::new();
        for (student, build) in class.builds.iter().enumerate() {
            let mut missing = Vec::new();
            if let Build::Ready { hash, .. } = build {
                for case in 0..class.cases.len() {
                    match known.get(&class.keys.run(hash, case)) {
                        Some(place) => {
                            failed[student] |= !place.accepted();
                            sleepers.note(student, case, place.slept);
                            places.set(student, case, place);
                        }
                        None => missing.push(Run { student, case }),
                    }
                }
                let stopped = sleepers.stopped(student).is_some();
                if class.fail_fast && failed[student] || stopped {
                    missing.clear();
                }
                // A sleeper is found by its first run: ahead of the others, unless the
                // journal shows it asleep already (then all its runs go to the doze lane).
                if class.sleepers > 0 && !missing.is_empty() && !sleepers.dozing(student) {
                    firsts.push(missing.remove(0));
                }
            }
            others.push(missing);
        }
        let mut runs = firsts;
        let mut blocks = Vec::new();
        for student in others {
            let start = runs.len();
            runs.extend(student);
            blocks.push(start..runs.len());
        }
        let todo = Todo {
            taken: runs.iter().map(|_| AtomicU8::new(0)).collect(),
            runs,
            blocks,
            failed: failed.into_iter().map(AtomicBool::new).collect(),
            sleepers,
        };
        (todo, places)
    }

    /// Takes run number `n` for `taker`: false when the other took it first.
    fn take(&self, n: u64, taker: Taker) -> bool {
        let Some(taken) = usize::try_from(n).ok().and_then(|n| self.taken.get(n)) else {
            return false;
        };
        taken
            .compare_exchange(0, taker as u8, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }

    /// Whether `student`'s runs are no longer made: stopped for sleeping, or failing under
    /// `fail_fast`.
    fn stopped(&self, student: usize, fail_fast: bool) -> bool {
        fail_fast && self.failed[student].load(Ordering::SeqCst)
            || self.sleepers.stopped(student).is_some()
    }

    /// Notes `student`'s `result` on `case`, as it finishes: a failure, a sleep. When the
    /// student is found dozing, its runs are handed to `doze`, if there is a lane.
    fn note(&self, student: usize, case: usize, result: &CaseResult, doze: Option<&DozeQueue>) {
        if !result.accepted() {
            self.failed[student].store(true, Ordering::SeqCst);
        }
        self.sleepers.note(student, case, result.slept());
        if let Some(doze) = doze {
            self.hand_off(student, doze);
        }
    }

    /// Hands run number `n`, of `student`, whose first try slept and was not made again,
    /// to `doze`, which makes it in full; and with it the student's runs not taken yet.
    fn hand_over(&self, n: u64, student: usize, doze: &DozeQueue) {
        self.sleepers.slept_once(student);
        if let Some((_, case)) = self.get(n) {
            doze.push([Handed {
                run: n,
                student,
                case,
            }]);
        }
        self.hand_off(student, doze);
    }

    /// Hands `student`'s runs that no worker took yet to `doze`, when it is found dozing
    /// (once): each is the lane's from now on, so that no worker of the pool takes one
    /// and sleeps through it.
    fn hand_off(&self, student: usize, doze: &DozeQueue) {
        if self.sleepers.hand_off(student) {
            let block = self.blocks[student].clone();
            doze.push(
                block
                    .map(|n| n as u64)
                    .filter(|&n| self.take(n, Taker::Doze))
                    .map(|run| Handed {
                        run,
                        student,
                        case: self.runs[run as usize].case,
                    }),
            );
        }
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

/// What the runs left: where every run of every student is in the journal (the
/// journal's and the new ones), and the students whose runs the grader could not make,
/// with why.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    /// Every run's place in the journal.
    pub(crate) places: Places,
    /// Students not graded because a run could not be made.
    pub(crate) faults: BTreeMap<usize, String>,
    /// Students stopped for sleeping (`sleepers`), with the cases in a row that did it.
    pub(crate) slept: BTreeMap<usize, std::ops::RangeInclusive<usize>>,
}

/// What one run gave.
#[derive(Debug)]
enum Outcome {
    /// It ran and was judged.
    Ran(Box<CaseResult>),
    /// The grader could not make it: why.
    Fault(String),
    /// It was not made: its student was stopped (fail-fast, or asleep).
    NotRun,
    /// The doze lane has it, and tells of it.
    Handed,
}

/// Makes `todo`'s runs on one worker thread per `workers`, and the runs of students found
/// asleep on one per `doze` (the doze lane, none without it), journaling each as it
/// finishes. `Err` when the batch must end: stopped (Ctrl-C), a worker that cannot start,
/// a journal that cannot be written.
pub(crate) fn run_all<R: RunsCases>(
    workers: &mut [R],
    doze: &mut [R],
    class: &Class<'_, R::Program>,
    todo: &Todo,
    journal: &mut Journal,
    places: Places,
    progress: &mut dyn ClassProgress,
) -> Result<Ran, Fault> {
    let mut reporter = Reporter::new(class, todo, journal, places, progress);
    reporter.before();
    let queue = &DozeQueue::default();
    let lane = (!doze.is_empty()).then_some(queue);
    if let Some(queue) = lane {
        // Students the journal shows asleep: their runs go to the lane from the start.
        for s in 0..class.students.len() {
            todo.hand_off(s, queue);
        }
    }
    let tasks = |n| todo.get(n);
    // What a run shows is noted as it finishes, on its worker: the next run taken of its
    // student reads it (`Job::execute_then`).
    let stop = |n: u64, outcome: &Outcome| {
        if let (Outcome::Ran(result), Some((s, c))) = (outcome, todo.get(n)) {
            todo.note(s, c, result, lane);
        }
        pool::Stop::Go
    };
    let schedule = pool::Schedule {
        tasks: &tasks,
        stop: &stop,
        deadline: None,
        announce: false,
    };
    let job = |worker, taker| Job {
        worker,
        class,
        todo,
        taker,
        lane,
        started: false,
    };
    let mut jobs: Vec<Job<'_, R>> = workers
        .iter_mut()
        .map(|worker| job(worker, Taker::Pool))
        .collect();
    let (done, told) = mpsc::channel();
    std::thread::scope(|scope| {
        let dozers: Vec<_> = doze
            .iter_mut()
            .map(|worker| {
                let mut job = job(worker, Taker::Doze);
                let done = done.clone();
                scope.spawn(move || {
                    let joins = |s, cases: &[usize], c| todo.sleepers.joins(s, cases, c);
                    while let Some(handed) = queue.pop(&joins) {
                        let n = handed.run;
                        let Some(task) = todo.get(n) else {
                            queue.ended(handed);
                            continue;
                        };
                        let outcome = pool::Executor::execute_then(&mut job, n, task, None);
                        if let Ok(Outcome::Ran(result)) = &outcome {
                            todo.note(task.0, task.1, result, lane);
                        }
                        // Noted first: the next wave of its student reads it.
                        queue.ended(handed);
                        let end = outcome.is_err();
                        if done.send((n, outcome)).is_err() || end {
                            break;
                        }
                    }
                })
            })
            .collect();
        drop(done);
        let pooled = pool::run(&mut jobs, &schedule, |event| {
            // The lane's runs are told between the pool's.
            while let Ok((n, outcome)) = told.try_recv() {
                reporter.finished(n, Some(outcome?))?;
            }
            reporter.event(event)
        });
        // No run is handed after the pool's last: the lane ends with those it has.
        queue.close();
        let all_told = pooled.and_then(|()| {
            told.iter()
                .try_for_each(|(n, outcome)| reporter.finished(n, Some(outcome?)))
        });
        if all_told.is_err() {
            // Told to stop: the lane's workers end after their runs under way.
            queue.clear();
        }
        for dozer in dozers {
            dozer
                .join()
                .map_err(|_| Fault::internal("the doze lane panicked".to_owned()))?;
        }
        all_told
    })?;
    let mut ran = reporter.ran;
    ran.slept = (0..class.students.len())
        .filter_map(|s| Some((s, todo.sleepers.stopped(s)?)))
        .collect();
    Ok(ran)
}

/// One worker of [`run_all`] (of the pool, or the doze lane): its case runner, started
/// before its first run and again after a run it could not make.
struct Job<'a, R: RunsCases> {
    worker: &'a mut R,
    class: &'a Class<'a, R::Program>,
    todo: &'a Todo,
    taker: Taker,
    /// The doze lane, if there is one: a worker of the pool hands it a run that slept.
    lane: Option<&'a DozeQueue>,
    started: bool,
}

impl<R: RunsCases> pool::Executor for Job<'_, R> {
    type Task = (usize, usize);
    type Output = Outcome;
    type Error = Fault;

    const LOOKAHEAD: bool = true;

    fn execute(&mut self, index: u64, task: (usize, usize)) -> Result<Outcome, Fault> {
        self.execute_then(index, task, None)
    }

    fn execute_then(
        &mut self,
        index: u64,
        (s, c): (usize, usize),
        next: Option<&(usize, usize)>,
    ) -> Result<Outcome, Fault> {
        // The lane's runs were taken for it when handed over.
        if self.taker == Taker::Pool && !self.todo.take(index, Taker::Pool) {
            return Ok(Outcome::Handed);
        }
        if self.todo.stopped(s, self.class.fail_fast) {
            return Ok(Outcome::NotRun);
        }
        if !self.started {
            self.worker.start()?;
            self.started = true;
        }
        let Some(program) = self.class.builds[s].program() else {
            return Err(Fault::internal("a run of a program not built".to_owned()));
        };
        // Under `--fail-fast-per-submission` no run starts before the last one is judged.
        // Nor one of a student asleep: it would go to the doze lane.
        let then = next
            .filter(|&&(s, _)| !self.class.fail_fast && !self.todo.sleepers.dozing(s))
            .and_then(|&(s, c)| Some((self.class.builds[s].program()?, c)));
        // A worker of the pool keeps no program asleep when there is a lane for it.
        let lane = self.lane.filter(|_| self.taker == Taker::Pool);
        let ran = match lane {
            Some(_) => self.worker.run_unless_asleep(program, c, then),
            None => self.worker.run_then(program, c, then).map(Some),
        };
        match ran {
            Ok(Some(result)) => Ok(Outcome::Ran(Box::new(result))),
            Ok(None) => {
                if let Some(lane) = lane {
                    self.todo.hand_over(index, s, lane);
                }
                Ok(Outcome::Handed)
            }
            // Stopping is the batch's end, not this student's fault.
            Err(e) if matches!(e.cause(), Cause::Interrupted(_)) => Err(e),
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
    /// Runs skipped per student.
    skipped: Vec<usize>,
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
        places: Places,
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
            skipped: vec![0; remaining.len()],
            remaining,
            failed: todo
                .failed
                .iter()
                .map(|f| f.load(Ordering::SeqCst))
                .collect(),
            failing: todo
                .failed
                .iter()
                .filter(|f| f.load(Ordering::SeqCst))
                .count(),
            ran: Ran {
                places,
                ..Ran::default()
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
                Build::Ready { .. } if self.todo.sleepers.stopped(s).is_some() => {
                    "stopped: it slept through cases in a row (graded earlier, journal)"
                }
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
        match event {
            pool::Event::Started { .. } => Ok(()),
            pool::Event::Finished { index, output, .. } => self.finished(index, Some(output)),
            pool::Event::Skipped { index } => self.finished(index, None),
        }
    }

    /// Run number `index` finished with `outcome` (`None`: skipped by the pool).
    fn finished(&mut self, index: u64, outcome: Option<Outcome>) -> Result<(), Fault> {
        let run = &self.todo.runs[index as usize];
        match outcome {
            Some(Outcome::Handed) => return Ok(()),
            Some(Outcome::Ran(result)) => self.journal_run(run, *result)?,
            Some(Outcome::Fault(why)) => {
                self.ran.faults.entry(run.student).or_insert(why);
            }
            Some(Outcome::NotRun) | None => self.skipped[run.student] += 1,
        }
        self.remaining[run.student] -= 1;
        if self.remaining[run.student] == 0 {
            let skipped = self.skipped[run.student];
            let how = if let Some(why) = self.ran.faults.get(&run.student) {
                // Its gradebook line is `--`: never "all AC" for a run not made.
                format!("not graded: {why}")
            } else if self.todo.sleepers.stopped(run.student).is_some() && skipped > 0 {
                format!("stopped: it slept through cases in a row, {skipped} runs not made")
            } else if self.failed[run.student] {
                "failing".to_owned()
            } else {
                "all AC".to_owned()
            };
            let name = &self.class.students[run.student].name;
            self.progress.student_done(name, &how);
        }
        Ok(())
    }

    /// Journals one run and counts it.
    fn journal_run(&mut self, run: &Run, result: CaseResult) -> Result<(), Fault> {
        let Some(hash) = self.class.builds[run.student].hash() else {
            return Err(Fault::internal("a run of a program not built".to_owned()));
        };
        let record = Record {
            key: self.class.keys.run(hash, run.case).hex(),
            student: self.class.students[run.student].name.clone(),
            result: result.excerpt(EXCERPT),
        };
        if !record.result.accepted() && !self.failed[run.student] {
            self.failed[run.student] = true;
            self.failing += 1;
        }
        let place = self.journal.append(&record)?;
        self.ran.places.set(run.student, run.case, place);
        self.progress.run_done(self.failing);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use reference::Verdict;

    use super::*;
    use crate::run::grade::fake::{Answers, Recorded, result};

    /// The progress lines, as a person would read them.
    #[derive(Default)]
    struct Lines {
        runs: Option<usize>,
        done: Vec<usize>,
        students: Vec<String>,
    }

    impl ClassProgress for Lines {
        fn start(&mut self, runs: usize) {
            self.runs = Some(runs);
        }

        fn run_done(&mut self, failing: usize) {
            self.done.push(failing);
        }

        fn student_done(&mut self, name: &str, how: &str) {
            self.students.push(format!("{name}: {how}"));
        }
    }

    /// What a graded class did.
    struct Graded {
        /// (program, case) of every run made, in order on one job.
        runs: Vec<(String, usize)>,
        /// What the progress heard.
        lines: Lines,
        /// What the runs left.
        ran: Result<Ran, Fault>,
        /// How many times the workers were started.
        starts: usize,
    }

    /// Alice and Carol are built (programs `alice`, `carol`), Bob does not compile.
    struct Scene {
        students: Vec<Student>,
        cases: Vec<Case>,
        builds: Vec<Build<String>>,
        keys: Keys,
        dir: tempfile::TempDir,
        /// `Class::sleepers`.
        sleepers: usize,
    }

    impl Scene {
        fn new(cases: usize) -> Scene {
            let student = |name: &str| Student {
                name: name.to_owned(),
                entry: PathBuf::from(format!("{name}.py")),
                not_graded: None,
            };
            let ready = |name: &str| Build::Ready {
                program: name.to_owned(),
                language: "python".to_owned(),
                hash: format!("hash of {name}"),
            };
            Scene {
                students: vec![student("alice"), student("bob"), student("carol")],
                cases: (0..cases)
                    .map(|c| Case {
                        name: format!("{c:02}"),
                        input: PathBuf::from(format!("{c:02}.in")),
                        answer: None,
                    })
                    .collect(),
                builds: vec![
                    ready("alice"),
                    Build::CompileError {
                        language: "c".to_owned(),
                        message: "bob.c:1:1: error: expected ';'".to_owned(),
                    },
                    ready("carol"),
                ],
                keys: Keys::without_texts(cases),
                dir: tempfile::tempdir().unwrap(),
                sleepers: 0,
            }
        }

        fn class(&self, fail_fast: bool) -> Class<'_, String> {
            Class {
                students: &self.students,
                cases: &self.cases,
                builds: &self.builds,
                keys: &self.keys,
                fail_fast,
                sleepers: self.sleepers,
            }
        }

        /// The journal line of `student`'s run on `case`.
        fn record(&self, student: usize, case: usize, verdict: Verdict) -> Record {
            let Build::Ready { hash, .. } = &self.builds[student] else {
                panic!("not built");
            };
            Record {
                key: self.keys.run(hash, case).hex(),
                student: self.students[student].name.clone(),
                result: result(case, verdict),
            }
        }

        /// The journal's path.
        fn journal(&self) -> PathBuf {
            self.dir.path().join("journal.jsonl")
        }

        /// Grades with `jobs` fakes giving `answers`, the journal holding `journaled`.
        fn grade(
            &self,
            jobs: usize,
            fail_fast: bool,
            answers: &Answers,
            journaled: &[Record],
        ) -> Graded {
            let _ = std::fs::remove_file(self.journal());
            let (mut journal, _) = Journal::open(&self.journal(), WALL).unwrap();
            for record in journaled {
                journal.append(record).unwrap();
            }
            let (mut journal, known) = Journal::open(&self.journal(), WALL).unwrap();
            let class = self.class(fail_fast);
            let (todo, places) = Todo::new(&class, &known);
            let mut fakes = Recorded::many(jobs, answers);
            let mut lines = Lines::default();
            let ran = run_all(
                &mut fakes,
                &mut [],
                &class,
                &todo,
                &mut journal,
                places,
                &mut lines,
            );
            Graded {
                starts: fakes.iter().map(|f| f.starts).sum(),
                runs: fakes.into_iter().flat_map(|f| f.ran).collect(),
                lines,
                ran,
            }
        }

        /// The runs the journal holds now.
        fn journaled(&self) -> Known {
            Journal::open(&self.journal(), WALL).unwrap().1
        }
    }

    /// A fake whose `TLE`s are at the wall limit with the program asleep: on a worker
    /// that keeps no program asleep, such a case's first try is all it makes (`None`).
    struct Asleep<'a>(Recorded<'a>);

    impl RunsCases for Asleep<'_> {
        type Program = String;

        fn start(&mut self) -> Result<(), Fault> {
            self.0.start()
        }

        fn run(&mut self, program: &String, case: usize) -> Result<CaseResult, Fault> {
            let mut result = self.0.run(program, case)?;
            if result.verdict == Verdict::TimeLimit {
                result.message = format!(
                    "{}4 s limit with 2 ms of CPU: {}",
                    crate::results::case::WALL_TLE,
                    crate::results::case::SLEPT
                );
            }
            Ok(result)
        }

        fn run_unless_asleep(
            &mut self,
            program: &String,
            case: usize,
            _then: Option<(&String, usize)>,
        ) -> Result<Option<CaseResult>, Fault> {
            let result = self.run(program, case)?;
            Ok((!result.slept()).then_some(result))
        }
    }

    /// `count` fakes of [`Asleep`] giving `answers`.
    fn asleep(count: usize, answers: &Answers) -> Vec<Asleep<'_>> {
        Recorded::many(count, answers)
            .into_iter()
            .map(Asleep)
            .collect()
    }

    /// The runs `fakes` made, sorted: the lane's workers run side by side.
    fn sorted(fakes: &[Asleep<'_>]) -> Vec<(String, usize)> {
        let mut runs: Vec<_> = fakes.iter().flat_map(|f| f.0.ran.clone()).collect();
        runs.sort();
        runs
    }

    #[test]
    fn a_sleepers_first_sleep_is_handed_over_and_its_runs_sleep_side_by_side_on_the_lane() {
        let mut scene = Scene::new(5);
        scene.sleepers = 2;
        let answers = |program: &str, _| {
            Ok(if program == "carol" {
                Verdict::TimeLimit
            } else {
                Verdict::Accepted
            })
        };
        let class = scene.class(false);
        let (mut journal, known) = Journal::open(&scene.journal(), WALL).unwrap();
        let (todo, places) = Todo::new(&class, &known);
        let mut pooled = asleep(1, &answers);
        let mut lane = asleep(crate::batch::doze::workers(2), &answers);
        assert_eq!(lane.len(), 2);
        let mut lines = Lines::default();
        let ran = run_all(
            &mut pooled,
            &mut lane,
            &class,
            &todo,
            &mut journal,
            places,
            &mut lines,
        )
        .unwrap();
        // Each student's first run first; carol's first try of case 0 slept: not made
        // again on the pool, but handed with the rest of her runs to the lane, where it is
        // made in full beside her case 1, and the two stop her. No worker of the pool slept
        // twice, nor on a second case.
        let carol = |case| ("carol".to_owned(), case);
        let alice = |case| ("alice".to_owned(), case);
        assert_eq!(
            pooled[0].0.ran,
            [alice(0), carol(0), alice(1), alice(2), alice(3), alice(4)]
        );
        // The wave of her cases 0 and 1, asleep, would stop her: nothing more of hers
        // starts until it has ended, and then her stop.
        assert_eq!(sorted(&lane), [carol(0), carol(1)]);
        assert_eq!(ran.slept.into_iter().collect::<Vec<_>>(), [(2, 0..=1)]);
        assert_eq!(ran.places.live().len(), 7);
        assert!(
            lines.students.contains(
                &"carol: stopped: it slept through cases in a row, 3 runs not made".to_owned()
            ),
            "{:?}",
            lines.students
        );
        // Her first try's run, handed over, is told once, as the lane's.
        assert_eq!(lines.done.len(), 7);
        // Resumed from a journal of her first sleep only, she starts on the lane.
        drop(journal);
        std::fs::remove_file(scene.journal()).unwrap();
        let (mut journal, _) = Journal::open(&scene.journal(), WALL).unwrap();
        journal.append(&slept(&scene, 2, 0)).unwrap();
        let (mut journal, known) = Journal::open(&scene.journal(), WALL).unwrap();
        let (todo, places) = Todo::new(&class, &known);
        let mut pooled = asleep(1, &answers);
        let mut lane = asleep(2, &answers);
        let ran = run_all(
            &mut pooled,
            &mut lane,
            &class,
            &todo,
            &mut journal,
            places,
            &mut Lines::default(),
        )
        .unwrap();
        assert_eq!(pooled[0].0.ran, (0..5).map(alice).collect::<Vec<_>>());
        // Her case 1 completes the journal's row: no other case of hers goes beside it.
        assert_eq!(sorted(&lane), [carol(1)]);
        assert_eq!(ran.slept.into_iter().collect::<Vec<_>>(), [(2, 0..=1)]);
    }

    /// The wall limit the journal is read under.
    const WALL: std::time::Duration = std::time::Duration::from_secs(4);

    /// Every run `AC`.
    static ALL_AC: &Answers = &|_, _| Ok(Verdict::Accepted);

    fn of(runs: &[(String, usize)], program: &str) -> Vec<usize> {
        runs.iter()
            .filter(|r| r.0 == program)
            .map(|r| r.1)
            .collect()
    }

    #[test]
    fn a_student_who_did_not_compile_costs_no_runs_and_every_run_is_journaled() {
        let scene = Scene::new(3);
        let Graded {
            runs, lines, ran, ..
        } = scene.grade(2, false, ALL_AC, &[]);
        let ran = ran.unwrap();
        assert!(of(&runs, "bob").is_empty());
        let mut alice = of(&runs, "alice");
        alice.sort_unstable();
        assert_eq!(alice, [0, 1, 2]);
        assert_eq!(runs.len(), 6);
        assert_eq!(ran.places.live().len(), 6);
        assert_eq!(scene.journaled().len(), 6);
        // Each run is where the batch noted it, and reads back as the run's result.
        let (journal, _) = Journal::open(&scene.journal(), WALL).unwrap();
        for (s, c) in [(0, 0), (0, 2), (2, 1)] {
            let place = ran.places.get(s, c).unwrap();
            assert_eq!(
                journal.read(&[place]).unwrap(),
                [result(c, Verdict::Accepted)]
            );
        }
        assert_eq!(ran.places.get(1, 0), None, "bob has no runs");
        // Bob is said first (before any run), then each student as its runs end.
        assert_eq!(lines.runs, Some(6));
        assert_eq!(lines.done, [0; 6], "one event per run, none failing");
        assert_eq!(
            lines.students[0],
            "bob: did not compile: bob.c:1:1: error: expected ';'"
        );
        let mut rest = lines.students[1..].to_vec();
        rest.sort();
        assert_eq!(rest, ["alice: all AC", "carol: all AC"]);
    }

    #[test]
    fn a_journaled_run_is_not_made_again() {
        let scene = Scene::new(3);
        let known = [
            scene.record(0, 1, Verdict::Accepted),
            scene.record(2, 0, Verdict::Accepted),
            scene.record(2, 1, Verdict::Accepted),
            scene.record(2, 2, Verdict::Accepted),
        ];
        let Graded {
            runs, lines, ran, ..
        } = scene.grade(1, false, ALL_AC, &known);
        assert_eq!(runs, [("alice".to_owned(), 0), ("alice".to_owned(), 2)]);
        assert_eq!(
            ran.unwrap().places.live().len(),
            7 - 1,
            "the journal's and the new"
        );
        assert!(
            lines
                .students
                .contains(&"carol: graded earlier (journal)".to_owned())
        );
        assert!(lines.students.contains(&"alice: all AC".to_owned()));
    }

    #[test]
    fn per_student_fail_fast_skips_the_rest_of_that_student_only() {
        let scene = Scene::new(5);
        let answers = |program: &str, case: usize| {
            Ok(if program == "alice" && case == 1 {
                Verdict::WrongAnswer
            } else {
                Verdict::Accepted
            })
        };
        let Graded {
            runs, lines, ran, ..
        } = scene.grade(1, true, &answers, &[]);
        assert_eq!(of(&runs, "alice"), [0, 1]);
        assert_eq!(of(&runs, "carol"), [0, 1, 2, 3, 4]);
        assert_eq!(ran.unwrap().places.live().len(), 7);
        assert_eq!(
            lines.students,
            [
                "bob: did not compile: bob.c:1:1: error: expected ';'",
                "alice: failing",
                "carol: all AC"
            ]
        );
        assert_eq!(lines.done, [0, 1, 1, 1, 1, 1, 1]);
        // With several workers the rest of alice is skipped too, but for runs already
        // under way; carol's all run.
        let Graded { runs, lines, .. } = scene.grade(3, true, &answers, &[]);
        assert!(of(&runs, "alice").len() <= 4, "{runs:?}");
        assert_eq!(of(&runs, "carol").len(), 5);
        assert_eq!(lines.students.len(), 3, "every student said once");
        // Without the flag every run is made.
        let Graded { runs, .. } = scene.grade(1, false, &answers, &[]);
        assert_eq!(of(&runs, "alice"), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_run_the_grader_cannot_make_marks_only_that_student_and_a_fresh_worker_goes_on() {
        let scene = Scene::new(3);
        let answers = |program: &str, case: usize| {
            if program == "alice" && case == 1 {
                Err(Fault::internal("the launcher died".to_owned()))
            } else {
                Ok(Verdict::Accepted)
            }
        };
        let Graded {
            runs,
            lines,
            ran,
            starts,
        } = scene.grade(1, false, &answers, &[]);
        let ran = ran.unwrap();
        assert_eq!(ran.faults.keys().copied().collect::<Vec<_>>(), [0]);
        assert!(
            ran.faults[&0].contains("the grader could not run case 01: ")
                && ran.faults[&0].contains("the launcher died"),
            "{:?}",
            ran.faults
        );
        assert_eq!(starts, 2, "started again after the fault");
        assert_eq!(runs.len(), 6, "the batch went on");
        assert_eq!(
            ran.places.live().len(),
            5,
            "the run not made is not journaled"
        );
        assert_eq!(lines.done.len(), 5);
        assert!(lines.students.contains(&"carol: all AC".to_owned()));
        // Alice's line says she is not graded, and why: never "all AC" (her gradebook
        // line is `--`).
        let alice = lines
            .students
            .iter()
            .find(|l| l.starts_with("alice: "))
            .unwrap();
        assert!(
            alice.starts_with("alice: not graded: the grader could not run case 01: ")
                && alice.contains("the launcher died"),
            "{alice}"
        );
    }

    #[test]
    fn a_stopped_run_ends_the_batch_with_the_finished_runs_journaled() {
        let scene = Scene::new(3);
        let answers = |program: &str, case: usize| {
            if program == "alice" && case == 2 {
                Err(Fault::interrupted(nix::sys::signal::Signal::SIGINT))
            } else {
                Ok(Verdict::Accepted)
            }
        };
        let Graded {
            runs, ran, starts, ..
        } = scene.grade(1, false, &answers, &[]);
        assert!(matches!(
            ran.map_err(|e| e.cause()),
            Err(Cause::Interrupted(_))
        ));
        assert_eq!(runs.len(), 3, "nothing after the stop");
        assert_eq!(starts, 1, "no fresh worker for a stop");
        assert_eq!(scene.journaled().len(), 2);
    }

    #[test]
    fn a_resumed_students_journaled_failure_counts_for_the_progress_and_for_fail_fast() {
        let scene = Scene::new(4);
        let known = [scene.record(0, 0, Verdict::WrongAnswer)];
        // Without fail-fast alice's other runs are made, and she is failing, not all AC.
        let Graded { runs, lines, .. } = scene.grade(1, false, ALL_AC, &known);
        assert_eq!(of(&runs, "alice"), [1, 2, 3]);
        assert!(
            lines.students.contains(&"alice: failing".to_owned()),
            "{:?}",
            lines.students
        );
        assert!(
            lines.done.iter().all(|&failing| failing == 1),
            "{:?}",
            lines.done
        );
        // With it nothing more of alice runs.
        let Graded {
            runs, lines, ran, ..
        } = scene.grade(1, true, ALL_AC, &known);
        assert!(of(&runs, "alice").is_empty(), "{runs:?}");
        assert_eq!(of(&runs, "carol"), [0, 1, 2, 3]);
        assert_eq!(lines.runs, Some(4));
        assert!(
            lines
                .students
                .contains(&"alice: failing (graded earlier, journal)".to_owned())
        );
        assert_eq!(ran.unwrap().places.live().len(), 5);
    }

    /// The journal line of `student`'s run on `case`, asleep at the wall limit twice: a
    /// mark the journal upholds.
    fn slept(scene: &Scene, student: usize, case: usize) -> Record {
        let mut record = scene.record(student, case, Verdict::TimeLimit);
        record.result.message = format!(
            "{}4 s limit with 2 ms of CPU: {}",
            crate::results::case::WALL_TLE,
            crate::results::case::SLEPT
        );
        let stall = crate::results::case::Stalled {
            cpu_ms: 2.0,
            wall_ms: 4001.0,
            waited_ms: 0.2,
            threads: 1,
            runnable: None,
            cpus: 2,
        };
        record.result.stalls = vec![stall; 2];
        record
    }

    #[test]
    fn a_resumed_student_that_slept_through_cases_in_a_row_gets_no_more_runs() {
        let mut scene = Scene::new(5);
        scene.sleepers = 2;
        let slept = |student, case| slept(&scene, student, case);
        // Alice slept through 1 and 2: stopped. Carol through 0 and 2, not in a row.
        let known = [slept(0, 1), slept(0, 2), slept(2, 0), slept(2, 2)];
        let Graded {
            runs, lines, ran, ..
        } = scene.grade(1, false, ALL_AC, &known);
        assert!(of(&runs, "alice").is_empty(), "{runs:?}");
        assert_eq!(of(&runs, "carol"), [1, 3, 4]);
        assert_eq!(
            ran.unwrap().slept.into_iter().collect::<Vec<_>>(),
            [(0, 1..=2)]
        );
        assert!(
            lines.students.contains(
                &"alice: stopped: it slept through cases in a row (graded earlier, journal)"
                    .to_owned()
            ),
            "{:?}",
            lines.students
        );
    }
}
