//! Grading a whole class: every submission is built once (compiles are cached), then every
//! (submission, case) run that the journal does not already hold goes to one shared pool of
//! workers; each finished run is journaled at once, and the gradebook is assembled from the
//! journal. A submission that does not compile costs no runs.

pub(crate) mod discover;
pub(crate) mod journal;
pub(crate) mod lang_for;
pub(crate) mod shard;
pub(crate) mod validate;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use reference::{Problem, Verdict};
use sha2::{Digest, Sha256};

use crate::cases::discover::Case;
use crate::exec::Limits;
use crate::files;
use crate::grade::{self, CaseText, Plan};
use crate::report::progress::BatchProgress;
use crate::results::case::CaseResult;
use crate::results::gradebook::{Gradebook, SkippedReport, StudentReport, Tally};
use crate::results::limits::LimitsRecord;
use crate::results::mark::{self, Mark};
use crate::runner::Runner;
use crate::status::Fault;
use crate::submission::compile::hex;
use crate::submission::{self, Built, Options, Program, Submission, diagnosis};
use discover::{Skipped, Student};
use journal::{Journal, Record};
use lang_for::LangChoices;

/// How much of a failing run's output and stderr the gradebook keeps.
const EXCERPT: usize = 1024;

/// How to grade a class.
#[derive(Debug)]
pub(crate) struct Batch<'a> {
    /// The problem.
    pub(crate) problem: Problem,
    /// The limits of every run.
    pub(crate) limits: Limits,
    /// Workers.
    pub(crate) jobs: usize,
    /// Stop a submission's runs after its first failing case.
    pub(crate) fail_fast: bool,
    /// How submissions are built.
    pub(crate) options: Options<'a>,
    /// `--lang-for`: the students built as another language than their extension's.
    pub(crate) choices: LangChoices,
    /// The class folder (names in the gradebook are relative to it).
    pub(crate) class: &'a Path,
}

/// A student's build.
enum Build {
    Ready { program: Program, hash: String },
    CompileError { language: String, message: String },
    Error(String),
}

/// Checks the grader's setup for each language `students` use (one student of each names
/// it): see [`submission::check_setup`].
pub(crate) fn check_setup(
    students: &[Student],
    options: &Options<'_>,
    choices: &LangChoices,
) -> Result<(), Fault> {
    let mut seen = std::collections::HashSet::new();
    for student in students {
        let language = choices.of(&student.name);
        if seen.insert((student.entry.extension().map(ToOwned::to_owned), language)) {
            submission::check_setup(&student.entry, &options_for(options, choices, student))?;
        }
    }
    Ok(())
}

/// How `student` is built: by extension, or as `--lang-for` chose.
fn options_for<'a>(
    options: &Options<'a>,
    choices: &'a LangChoices,
    student: &Student,
) -> Options<'a> {
    Options {
        language: choices.of(&student.name),
        ..options.clone()
    }
}

/// Grades `students` on `cases`, resuming from and appending to `journal`.
pub(crate) fn grade_class(
    batch: &Batch<'_>,
    students: &[Student],
    skipped: &[Skipped],
    cases: &[Case],
    journal: &Journal,
    known: HashMap<String, Record>,
) -> Result<Gradebook, Fault> {
    let (texts, case_keys): (Vec<CaseText>, Vec<String>) = case_texts(cases)?.into_iter().unzip();
    let limits_key = LimitsRecord::of(&batch.limits).key();
    let progress = BatchProgress::new(students.len());
    let mut builds = build_all(batch, students);
    // A build the stopping cut short is no student's result.
    crate::interrupt::check()?;
    // Every run still to make, student by student (so students finish one after another).
    let key = |hash: &str, c: usize| run_key(hash, &case_keys[c], &limits_key);
    let mut todo: Vec<(usize, usize)> = Vec::new();
    let mut remaining = vec![0usize; students.len()];
    for (s, build) in builds.iter().enumerate() {
        if let Build::Ready { hash, .. } = build {
            for c in 0..cases.len() {
                if !known.contains_key(&key(hash, c)) {
                    todo.push((s, c));
                    remaining[s] += 1;
                }
            }
        }
    }
    progress.start(todo.len());
    for (s, student) in students.iter().enumerate() {
        if remaining[s] == 0 {
            let how = match &builds[s] {
                Build::Ready { .. } => "graded earlier (journal)".to_owned(),
                Build::CompileError { message, .. } => {
                    format!("did not compile: {}", diagnosis::summary(message))
                }
                Build::Error(_) => "could not be graded".to_owned(),
            };
            progress.student_done(&student.name, &how);
        }
    }
    let pool = Pool {
        batch,
        students,
        cases,
        texts: &texts,
        journal,
        builds: &builds,
        programs: builds
            .iter()
            .filter_map(|b| match b {
                Build::Ready { program, .. } => Some(program),
                _ => None,
            })
            .collect(),
        plan: Plan {
            problem: batch.problem,
            limits: batch.limits,
            jobs: batch.jobs,
            fail_fast: false,
        },
        key: &key,
        todo: &todo,
        next: AtomicUsize::new(0),
        records: Mutex::new(known),
        remaining: remaining.into_iter().map(AtomicUsize::new).collect(),
        failed: students.iter().map(|_| AtomicBool::new(false)).collect(),
        failing: AtomicUsize::new(0),
        progress: &progress,
        run_faults: Mutex::new(BTreeMap::new()),
    };
    let fault: Mutex<Option<Fault>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..batch.jobs.clamp(1, todo.len().max(1)) {
            let (pool, fault) = (&pool, &fault);
            scope.spawn(move || {
                if let Err(e) = pool.work(fault) {
                    fault.lock().expect("not poisoned").get_or_insert(e);
                }
            });
        }
    });
    progress.finish();
    if let Some(e) = fault.into_inner().expect("not poisoned") {
        return Err(e);
    }
    let run_faults = pool.run_faults.into_inner().expect("not poisoned");
    let records = pool.records.into_inner().expect("not poisoned");
    for (s, message) in run_faults {
        builds[s] = Build::Error(message);
    }
    Ok(assemble(
        batch,
        students,
        skipped,
        cases,
        &builds,
        &records,
        |hash, c| key(hash, c),
    ))
}

/// What the workers of [`grade_class`] share.
struct Pool<'a, 'b> {
    batch: &'a Batch<'b>,
    students: &'a [Student],
    cases: &'a [Case],
    /// The cases' texts, read once.
    texts: &'a [CaseText],
    journal: &'a Journal,
    builds: &'a [Build],
    /// Every program to run, for the workers' boxes.
    programs: Vec<&'a Program>,
    plan: Plan,
    key: &'a (dyn Fn(&str, usize) -> String + Sync),
    /// (student, case) runs still to make, in order.
    todo: &'a [(usize, usize)],
    next: AtomicUsize,
    records: Mutex<HashMap<String, Record>>,
    /// Runs left per student.
    remaining: Vec<AtomicUsize>,
    /// Whether a student has a failing case.
    failed: Vec<AtomicBool>,
    /// How many students have a failing case so far, for the progress line: counted as
    /// each first fails, not by a scan of every student after every run.
    failing: AtomicUsize,
    progress: &'a BatchProgress,
    /// Runs the grader could not make (its fault, not the student's), by student: that
    /// student is reported as not graded, and the batch goes on with a fresh worker.
    run_faults: Mutex<BTreeMap<usize, String>>,
}

impl Pool<'_, '_> {
    /// One worker: takes runs until none is left or another worker failed for good.
    fn work(&self, fault: &Mutex<Option<Fault>>) -> Result<(), Fault> {
        let limits = &self.batch.limits;
        let mut runner = Runner::start(limits, self.programs.iter().copied())?;
        while let Some(&(s, c)) = self.todo.get(self.next.fetch_add(1, Ordering::SeqCst)) {
            crate::interrupt::check()?;
            if fault.lock().expect("not poisoned").is_some() {
                return Ok(());
            }
            let Build::Ready { program, hash } = &self.builds[s] else {
                continue;
            };
            let skip = self.batch.fail_fast && self.failed[s].load(Ordering::SeqCst);
            if !skip {
                let (case, text) = (&self.cases[c], &self.texts[c]);
                match grade::run_case(&mut runner, program, case, text, &self.plan) {
                    Ok(result) => self.journal_run(s, (self.key)(hash, c), result)?,
                    // Stopping is the batch's end, not this student's fault.
                    Err(e @ Fault::Interrupted(_)) => return Err(e),
                    Err(e) => {
                        let case = &self.cases[c].name;
                        self.run_faults
                            .lock()
                            .expect("not poisoned")
                            .entry(s)
                            .or_insert_with(|| {
                                format!("the grader could not run case {case}: {e}")
                            });
                        runner = Runner::start(limits, self.programs.iter().copied())?;
                    }
                }
            }
            if self.remaining[s].fetch_sub(1, Ordering::SeqCst) == 1 {
                let failing = self.failed[s].load(Ordering::SeqCst);
                let how = if failing { "failing" } else { "all AC" };
                self.progress.student_done(&self.students[s].name, how);
            }
        }
        Ok(())
    }

    /// Journals one run of student `s` and counts it.
    fn journal_run(&self, s: usize, key: String, result: CaseResult) -> Result<(), Fault> {
        let record = Record {
            key,
            student: self.students[s].name.clone(),
            result: result.excerpt(EXCERPT),
        };
        if !record.result.accepted() && !self.failed[s].swap(true, Ordering::SeqCst) {
            self.failing.fetch_add(1, Ordering::Relaxed);
        }
        self.journal.append(&record)?;
        self.records
            .lock()
            .expect("not poisoned")
            .insert(record.key.clone(), record);
        self.progress.run_done(self.failing.load(Ordering::Relaxed));
        Ok(())
    }
}

/// Builds every submission on the worker pool; a build that fails is that student's
/// result, never the batch's.
fn build_all(batch: &Batch<'_>, students: &[Student]) -> Vec<Build> {
    let next = AtomicUsize::new(0);
    let builds: Vec<Mutex<Option<Build>>> = students.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..batch.jobs.clamp(1, students.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let slot = next.fetch_add(1, Ordering::SeqCst);
                    let Some(student) = students.get(slot) else {
                        return;
                    };
                    let options = options_for(&batch.options, &batch.choices, student);
                    let built =
                        submission::build(&Submission::File(student.entry.clone()), &options);
                    let build = match built {
                        Ok(Built::Ready(program)) => match program_hash(&program) {
                            Ok(hash) => Build::Ready { program, hash },
                            Err(e) => Build::Error(e.to_string()),
                        },
                        Ok(Built::CompileError { language, message }) => {
                            Build::CompileError { language, message }
                        }
                        // The machine failed the grader: labelled so, not the student's.
                        Err(e @ Fault::Internal(_)) => Build::Error(format!("grader fault: {e}")),
                        Err(e) => Build::Error(e.to_string()),
                    };
                    *builds[slot].lock().expect("not poisoned") = Some(build);
                }
            });
        }
    });
    builds
        .into_iter()
        .map(|b| {
            b.into_inner()
                .expect("not poisoned")
                .expect("every student built")
        })
        .collect()
}

/// A hash of what runs: the staged files (the compiled program, or the source an
/// interpreter reads) and the command line's shape.
fn program_hash(program: &Program) -> Result<String, Fault> {
    let mut hash = Sha256::new();
    hash.update(program.language.as_bytes());
    let staging = program.staging.path();
    for word in &program.argv {
        let shape = word.replace(&*staging.to_string_lossy(), "{staging}");
        hash.update((shape.len() as u64).to_le_bytes());
        hash.update(shape.as_bytes());
    }
    let mut names: Vec<_> = std::fs::read_dir(staging)
        .map_err(|e| files::cannot(staging, "read", &e))?
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.path())
        .collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).map_err(|e| files::cannot(&path, "read", &e))?;
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(hex(&hash.finalize()))
}

/// A hash of each case's input and answer.
/// Each case's text (read once for the whole batch) and its hash for the journal keys.
fn case_texts(cases: &[Case]) -> Result<Vec<(CaseText, String)>, Fault> {
    cases
        .iter()
        .map(|case| {
            let text = CaseText::load(case)?;
            let mut hash = Sha256::new();
            hash.update(case.name.as_bytes());
            hash.update([0]);
            hash.update((text.input.len() as u64).to_le_bytes());
            hash.update(&text.input);
            hash.update(&text.answer);
            Ok((text, hex(&hash.finalize())))
        })
        .collect()
}

fn run_key(program: &str, case: &str, limits: &str) -> String {
    let mut hash = Sha256::new();
    for part in [program, case, limits] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hex(&hash.finalize())
}

/// One student's report, from the build and the journal.
fn student_report(
    batch: &Batch<'_>,
    student: &Student,
    build: &Build,
    cases: &[Case],
    groups: &BTreeMap<String, usize>,
    records: &HashMap<String, Record>,
    key: &impl Fn(&str, usize) -> String,
) -> StudentReport {
    let submission = student
        .entry
        .strip_prefix(batch.class)
        .unwrap_or(&student.entry)
        .to_string_lossy()
        .replace('\\', "/");
    let mut report = StudentReport {
        student: student.name.clone(),
        problem: batch.problem.id().to_owned(),
        submission,
        language: String::new(),
        verdict: Mark::NotGraded,
        score: 0.0,
        passed: 0,
        total: cases.len(),
        groups: groups
            .iter()
            .map(|(g, &n)| {
                (
                    g.clone(),
                    Tally {
                        passed: 0,
                        total: n,
                    },
                )
            })
            .collect(),
        compile_error: None,
        suggestion: None,
        error: None,
        cases: Vec::new(),
    };
    match build {
        Build::CompileError { language, message } => {
            report.language.clone_from(language);
            report.verdict = Mark::Graded(Verdict::CompileError);
            report.compile_error = Some(message.clone());
            report.suggestion = diagnosis::suggestion(language, message);
        }
        Build::Error(message) => report.error = Some(message.clone()),
        Build::Ready { program, hash } => {
            report.language.clone_from(&program.language);
            for (c, case) in cases.iter().enumerate() {
                let Some(r) = records.get(&key(hash, c)) else {
                    continue;
                };
                if r.result.accepted() {
                    report.passed += 1;
                    if let Some(t) = report.groups.get_mut(case.group()) {
                        t.passed += 1;
                    }
                }
                // Named as the case folder names it now (the key holds its contents).
                report.cases.push(CaseResult {
                    name: case.name.clone(),
                    ..r.result.clone()
                });
            }
            let verdicts = report.cases.iter().map(|c| c.verdict);
            report.verdict = Mark::Graded(mark::overall(verdicts, cases.len()));
        }
    }
    report.score = mark::score(report.passed, cases.len());
    report
}

/// The gradebook, from the builds and the journal.
fn assemble(
    batch: &Batch<'_>,
    students: &[Student],
    skipped: &[Skipped],
    cases: &[Case],
    builds: &[Build],
    records: &HashMap<String, Record>,
    key: impl Fn(&str, usize) -> String,
) -> Gradebook {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases {
        *groups.entry(case.group().to_owned()).or_default() += 1;
    }
    let reports = students
        .iter()
        .zip(builds)
        .map(|(student, build)| {
            student_report(batch, student, build, cases, &groups, records, &key)
        })
        .collect();
    Gradebook {
        problem: batch.problem.id().to_owned(),
        limits: LimitsRecord::of(&batch.limits),
        cases: cases.iter().map(|c| c.name.clone()).collect(),
        groups,
        students: reports,
        boards: cases
            .iter()
            .filter_map(|case| {
                let input = files::read_capped(&case.input).ok()?;
                let answer = files::read_capped(case.answer.as_ref()?).ok()?;
                Some((
                    case.name.clone(),
                    crate::results::case::Board {
                        input: String::from_utf8_lossy(&input).into_owned(),
                        answer: String::from_utf8_lossy(&answer).into_owned(),
                    },
                ))
            })
            .collect(),
        skipped: skipped
            .iter()
            .map(|s| SkippedReport {
                path: s.path.clone(),
                why: s.why.clone(),
            })
            .collect(),
    }
}
