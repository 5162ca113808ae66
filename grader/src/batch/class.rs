//! Grading a whole class: every submission is built once, then every (submission, case)
//! run that the journal does not already hold goes to the worker pool; each finished run
//! is journaled at once, and the gradebook is assembled from the journal, a student at a
//! time. A submission that does not compile costs no runs. Once the gradebook is written,
//! the journal is compacted when most of it is dead (`compact`).

use std::path::Path;

use sandbox::Limits;

use super::assemble::{self, Heading, Reports};
use super::class_build::{self, Builder};
use super::compact;
use super::doze;
use super::journal::{Journal, Known};
use super::lang_for::LangChoices;
use super::run_keys::Keys;
use super::runs::{self, Class, Todo};
use super::students::{Skipped, Student};
use crate::cases::find::Case;
use crate::cli::exit::Fault;
use crate::report::book::{self, Book};
use crate::report::progress::BatchProgress;
use crate::results::problem::ProblemId;
use crate::run::grade::{CaseWorker, Checker, Plan};
use crate::submission::Options;

/// How to grade a class.
#[derive(Debug)]
pub(crate) struct Batch<'a> {
    /// The problem.
    pub(crate) problem: ProblemId,
    /// How its outputs are judged.
    pub(crate) checker: Checker<'a>,
    /// The limits of every run.
    pub(crate) limits: Limits,
    /// Workers.
    pub(crate) jobs: usize,
    /// Stop a submission's runs after its first failing case.
    pub(crate) fail_fast: bool,
    /// Stop a submission's runs after it slept through this many cases in a row (0:
    /// never).
    pub(crate) sleepers: usize,
    /// How submissions are built.
    pub(crate) options: Options<'a>,
    /// `--lang-for`: the students built as another language than their extension's.
    pub(crate) choices: LangChoices,
    /// The class folder (names in the gradebook are relative to it).
    pub(crate) class: &'a Path,
    /// What each group of cases is worth, if anything.
    pub(crate) points: Option<crate::cases::points::Points>,
    /// What each group of cases is for (`cases::about`).
    pub(crate) about: std::collections::BTreeMap<String, String>,
    /// The students whose language's toolchain is not installed, with why: not graded.
    pub(crate) missing: std::collections::BTreeMap<String, String>,
    /// The shard of the class graded (`--shard K/N`), when it is one.
    pub(crate) shard: Option<crate::results::gradebook::ShardOf>,
}

/// Grades `students` on `cases`, resuming from and appending to `journal` (which holds
/// `known`); gives the gradebook to `write` (whose answer it returns), then compacts the
/// journal.
pub(crate) fn grade_class<T>(
    batch: &Batch<'_>,
    (students, skipped, cases): (&[Student], &[Skipped], &[Case]),
    mut journal: Journal,
    known: Known,
    write: impl FnOnce(&Book<'_>) -> Result<T, Fault>,
) -> Result<T, Fault> {
    let judge = match batch.checker {
        Checker::Builtin(_) => None,
        Checker::Package(judge) => Some(judge.hash()?),
    };
    let keys = Keys::read(cases, &batch.limits, judge.as_deref())?;
    let mut progress = BatchProgress::new(students.len());
    let builder = Builder {
        options: &batch.options,
        choices: &batch.choices,
        missing: &batch.missing,
    };
    let builds = class_build::build_all(&builder, students, batch.jobs, &mut |n| progress.built(n));
    // A build the stopping cut short is no student's result.
    crate::cli::interrupt::check()?;
    let class = Class {
        students,
        cases,
        builds: &builds,
        keys: &keys,
        fail_fast: batch.fail_fast,
        sleepers: batch.sleepers,
    };
    let (todo, places) = Todo::new(&class, &known);
    // Where each student's runs are is all the batch keeps of the journal from now on.
    drop(known);
    let programs: Vec<_> = builds
        .iter()
        .filter_map(class_build::Build::program)
        .collect();
    let texts: Vec<_> = cases.iter().zip(&keys.texts).collect();
    let plan = Plan {
        checker: batch.checker,
        limits: batch.limits,
    };
    let jobs = batch.jobs.clamp(1, todo.len().max(1));
    // A few more for the doze lane, when the sleepers' rule is on: started only if a
    // student's program sleeps.
    let lane = doze::workers(class.sleepers);
    let mut workers = CaseWorker::many(jobs + lane, &programs, &texts, &plan);
    let (pooled, dozing) = workers.split_at_mut(jobs);
    let ran = runs::run_all(
        pooled,
        dozing,
        &class,
        &todo,
        &mut journal,
        places,
        &mut progress,
    );
    progress.finish();
    // The boxes end while the gradebook is written, an error or a stop included.
    workers.into_iter().for_each(CaseWorker::retire);
    let ran = ran?;
    drop(todo);
    let heading = Heading {
        problem: &batch.problem,
        limits: &batch.limits,
        class: batch.class,
        points: batch.points.as_ref(),
        about: &batch.about,
        shard: batch.shard,
    };
    let head = assemble::head(&heading, cases, skipped);
    let reports = Reports::new(heading, students, cases, &builds, &ran, &journal);
    // A read that failed names the journal (`Journal::read`), unless the grader was told
    // to stop.
    let standings = book::standings(&head, students.len(), &reports).map_err(|e| {
        crate::cli::interrupt::check()
            .err()
            .unwrap_or_else(|| Fault::output(e.to_string()))
    })?;
    let written = write(&Book::new(&head, &standings, &reports))?;
    drop(reports);
    compact::compact(journal, &ran.places)?;
    Ok(written)
}
