//! Building a class: every submission is built once on the worker pool (compiles are
//! cached), and what runs is hashed for the journal's keys. A build that fails is that
//! student's result, never the batch's.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;

use super::lang_for::LangChoices;
use super::students::Student;
use crate::cli::exit::{Cause, Fault};
use crate::submission::{self, Built, Options, Program, Submission};

/// A student's build.
#[derive(Debug)]
pub(crate) enum Build<P> {
    /// Ready to run.
    Ready {
        /// What runs.
        program: P,
        /// Its language.
        language: String,
        /// A hash of what runs ([`Program::hash`]), for the journal's keys.
        hash: String,
    },
    /// It does not compile: the student's mark.
    CompileError {
        /// Its language.
        language: String,
        /// The compiler's message.
        message: String,
    },
    /// It could not be built or run: the student is listed as not graded.
    Error(String),
}

impl<P> Build<P> {
    /// The program, when it is ready.
    pub(crate) fn program(&self) -> Option<&P> {
        match self {
            Build::Ready { program, .. } => Some(program),
            _ => None,
        }
    }

    /// The hash of what runs, when it is ready.
    pub(crate) fn hash(&self) -> Option<&str> {
        match self {
            Build::Ready { hash, .. } => Some(hash),
            _ => None,
        }
    }
}

/// Builds one student's submission: the real [`Builder`], or a fake in tests.
pub(crate) trait Builds: Sync {
    /// What a build makes.
    type Program: Send;

    /// Builds `student`'s submission.
    fn build(&self, student: &Student) -> Build<Self::Program>;
}

/// The real builder: by extension, or as `--lang-for` chose.
#[derive(Debug)]
pub(crate) struct Builder<'a> {
    /// How submissions are built.
    pub(crate) options: &'a Options<'a>,
    /// `--lang-for`.
    pub(crate) choices: &'a LangChoices,
    /// The students whose toolchain is not installed ([`check_setup`]): not built.
    pub(crate) missing: &'a BTreeMap<String, String>,
}

impl Builds for Builder<'_> {
    type Program = Program;

    fn build(&self, student: &Student) -> Build<Program> {
        if let Some(why) = &student.not_graded {
            return Build::Error(why.clone());
        }
        if let Some(why) = self.missing.get(&student.name) {
            return Build::Error(why.clone());
        }
        let options = options_for(self.options, self.choices, student);
        match submission::build_one(&Submission::File(student.entry.clone()), &options, |_| {}) {
            Ok(Built::Ready(program)) => match program.hash() {
                Ok(hash) => Build::Ready {
                    language: program.language.clone(),
                    program,
                    hash,
                },
                Err(e) => Build::Error(e.to_string()),
            },
            Ok(Built::CompileError { language, message }) => {
                Build::CompileError { language, message }
            }
            // The machine failed the grader: labelled so, not the student's.
            Err(e) if e.cause() == Cause::Internal => Build::Error(format!("grader fault: {e}")),
            Err(e) => Build::Error(e.to_string()),
        }
    }
}

/// Builds every student on `jobs` worker threads; the builds in the students' order.
/// `built` is told how many are built, as each is (on the calling thread).
pub(crate) fn build_all<B: Builds>(
    builder: &B,
    students: &[Student],
    jobs: usize,
    built: &mut dyn FnMut(usize),
) -> Vec<Build<B::Program>> {
    let tasks = |n: u64| usize::try_from(n).ok().filter(|&s| s < students.len());
    let schedule = pool::Schedule {
        tasks: &tasks,
        stop: &pool::go,
        deadline: None,
        announce: false,
    };
    let mut workers: Vec<BuildJob<'_, B>> = (0..jobs.clamp(1, students.len().max(1)))
        .map(|_| BuildJob { builder, students })
        .collect();
    let mut builds: Vec<Option<Build<B::Program>>> = students.iter().map(|_| None).collect();
    let mut done = 0;
    let ran = pool::run(&mut workers, &schedule, |event| {
        if let pool::Event::Finished { index, output, .. } = event {
            builds[index as usize] = Some(output);
            done += 1;
            built(done);
        }
        Ok(())
    });
    ran.unwrap_or_else(|never| match never {});
    builds
        .into_iter()
        .map(|b| b.unwrap_or_else(|| Build::Error("grader fault: never built".to_owned())))
        .collect()
}

/// One worker of [`build_all`]: builds student number `task`.
struct BuildJob<'b, B> {
    builder: &'b B,
    students: &'b [Student],
}

impl<B: Builds> pool::Executor for BuildJob<'_, B> {
    type Task = usize;
    type Output = Build<B::Program>;
    type Error = std::convert::Infallible;

    fn execute(&mut self, _index: u64, student: usize) -> Result<Self::Output, Self::Error> {
        Ok(self.builder.build(&self.students[student]))
    }
}

/// Checks the grader's setup for each language `students` use (one student of each names
/// it), before anything is built: a fault of the whole setup (an unusable compile cache)
/// is `Err`. A language whose toolchain is not installed leaves only its own students
/// ungraded: they are returned, by name, with why and what to install, and the rest of
/// the class is graded.
pub(crate) fn check_setup(
    students: &[Student],
    options: &Options<'_>,
    choices: &LangChoices,
) -> Result<BTreeMap<String, String>, Fault> {
    let mut kinds: HashMap<(Option<OsString>, Option<&str>), Option<String>> = HashMap::new();
    let mut missing = BTreeMap::new();
    for student in students.iter().filter(|s| s.not_graded.is_none()) {
        let language = choices.of(&student.name);
        let kind = (student.entry.extension().map(ToOwned::to_owned), language);
        if !kinds.contains_key(&kind) {
            let options = options_for(options, choices, student);
            let said = submission::check_toolchain(&student.entry, &options)?.map(|m| {
                format!(
                    "{}: {}, or give the student another language with --lang-for",
                    m.what, m.install
                )
            });
            kinds.insert(kind.clone(), said);
        }
        if let Some(Some(why)) = kinds.get(&kind) {
            missing.insert(student.name.clone(), why.clone());
        }
    }
    Ok(missing)
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
