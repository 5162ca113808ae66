//! What `test` and `batch` (and `fuzz`, on a package) grade against, from their
//! `PROBLEM|PKG`: a built-in problem's case folder (`--cases`, its manifest's points and
//! what its groups are for), or a problem package (`package::problem`: its data, checked
//! by its validators; its judge; `problem.yaml`'s limits, which the limit flags override;
//! its groups' points). Either way the cases are read and found sound before anything of
//! the submission compiles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sandbox::Limits;

use crate::cases::points::{self, Points, PointsRule};
use crate::cli::args::{LimitArgs, ProblemOrPackage, SubmissionArgs};
use crate::cli::exit::Fault;
use crate::package::as_problem::{self as package, PackageProblem};
use crate::package::checks::verify::CEILING;
use crate::package::format::config;
use crate::package::programs::building::Setup;
use crate::report::progress::{StatusLine, Stream};
use crate::results::problem::ProblemId;
use crate::run::grade::{Checker, SoundCase};
use crate::submission::added::Added;
use crate::submission::{Built, Foreseen, Options, languages::Languages};

/// The problem a call grades against, read.
#[derive(Debug)]
pub(super) struct Graded {
    /// Its name in reports.
    pub(super) id: ProblemId,
    /// The cases, sound, in name order.
    pub(super) cases: Vec<SoundCase>,
    /// The case folder, or the package: an input of the call, never written over.
    pub(super) folder: PathBuf,
    /// The limits of every run.
    pub(super) limits: Limits,
    /// What each group is worth (`None`: nothing given), and a warning for groups left
    /// without points.
    pub(super) points: (Option<Points>, Option<String>),
    /// What each group tests (a case folder's manifest's `about`).
    pub(super) about: BTreeMap<String, String>,
    /// How outputs are judged.
    judged_by: JudgedBy,
}

/// What judges the outputs.
#[derive(Debug)]
enum JudgedBy {
    /// A built-in problem's checker.
    Builtin(reference::Problem),
    /// A package's validator.
    Package(Box<PackageProblem>),
}

/// The flags of `test` and `batch` that decide what is graded against and how.
pub(super) struct Asked<'a> {
    /// `PROBLEM|PKG`.
    pub(super) problem: &'a ProblemOrPackage,
    /// `--cases`.
    pub(super) cases: Option<&'a Path>,
    /// The limit flags.
    pub(super) limits: &'a LimitArgs,
    /// `--points`.
    pub(super) points: &'a [PointsRule],
    /// `--config`: the language table a package's own programs are built by.
    pub(super) config: Option<&'a Path>,
    /// `--cache-dir`: where they are cached.
    pub(super) cache_dir: Option<&'a Path>,
    /// `--jobs`: how many of them run at once.
    pub(super) jobs: Option<u32>,
    /// What the call grades (a submission, a class folder): found there before a
    /// package's programs run, which may take seconds.
    pub(super) graded: Option<&'a Path>,
}

impl Graded {
    /// Reads what `asked` names.
    pub(super) fn read(asked: &Asked<'_>) -> Result<Graded, Fault> {
        match asked.problem {
            ProblemOrPackage::Builtin(problem) => {
                let problem = *problem;
                let cases = super::flags::gradable_cases(problem, asked.cases)?;
                let folder = super::flags::case_folder(problem, asked.cases);
                let found: Vec<_> = cases.iter().map(|c| c.case.clone()).collect();
                let points = points::of_folder(&folder, problem, asked.points, &found)?;
                let about = crate::cases::about::of_folder(&folder, problem)?;
                Ok(Graded {
                    id: ProblemId::Builtin(problem),
                    cases,
                    folder,
                    limits: super::flags::limits(asked.limits)?,
                    points,
                    about,
                    judged_by: JudgedBy::Builtin(problem),
                })
            }
            ProblemOrPackage::Package(path) => read_package(path, asked),
        }
    }

    /// The package, when it is one.
    pub(super) fn package(&self) -> Option<&PackageProblem> {
        match &self.judged_by {
            JudgedBy::Builtin(_) => None,
            JudgedBy::Package(package) => Some(package),
        }
    }

    /// Builds the submission `args` name as [`super::flags::build`] does, in the tier of
    /// these limits, with the files added to every submission of this problem.
    pub(super) fn build(
        &self,
        args: &SubmissionArgs,
        before: impl FnOnce(&Foreseen, &str),
    ) -> Result<(Built, String), Fault> {
        super::flags::build(args, (self.limits.sandbox, self.added()), before)
    }

    /// The files added to every submission before it is built: a package's included
    /// files; none for a built-in problem.
    pub(super) fn added(&self) -> Arc<Added> {
        self.package()
            .map(|package| Arc::clone(&package.added))
            .unwrap_or_default()
    }

    /// How an output is judged.
    pub(super) fn checker(&self) -> Checker<'_> {
        match &self.judged_by {
            JudgedBy::Builtin(problem) => Checker::Builtin(*problem),
            JudgedBy::Package(package) => Checker::Package(&package.judge),
        }
    }
}

/// Reads the package at `path`: its limits (the flags', else `problem.yaml`'s, else the
/// time limit its accepted submissions set, said on stderr), its cases checked by its
/// validators, its judge and points.
fn read_package(path: &Path, asked: &Asked<'_>) -> Result<Graded, Fault> {
    if let Some(dir) = asked.cases {
        return Err(Fault::call(format!(
            "--cases {}: a package's cases are its data/ folder; give --cases only with a built-in problem",
            dir.display()
        )));
    }
    crate::paths::folders::existing(path, "read a package in")?;
    if let Some(graded) = asked.graded {
        std::fs::metadata(graded)
            .map_err(|e| Fault::input(crate::paths::files::cannot(graded, "read", &e)))?;
    }
    let config = config::load(path)?;
    let flags = asked.limits;
    let fixed = flags.time_limit.or(config.limits.time);
    let mut limits = super::flags::limits(&LimitArgs {
        // Until the accepted submissions set it, they run under the ceiling.
        time_limit: Some(fixed.unwrap_or(CEILING)),
        memory_limit: Some(flags.memory_limit.unwrap_or(config.limits.memory << 20)),
        output_limit: Some(flags.output_limit.unwrap_or(config.limits.output << 20)),
        ..*flags
    })?;
    let languages = Languages::load(asked.config)?;
    let setup = Setup {
        options: Options::new(
            &languages,
            None,
            asked.cache_dir.map(Path::to_path_buf),
            limits.sandbox,
        )
        .replacing(config.constants.pairs()),
        limits,
        jobs: super::flags::jobs(asked.jobs),
    };
    // Seconds may pass before the submission is even built: a terminal is told why.
    let status = StatusLine::new(Stream::Stderr);
    status.phase("checking the package's data with its validators");
    let mut package = package::load(path, &setup)?;
    if fixed.is_none() {
        status.phase("running the package's accepted submissions to set the time limit");
        limits.cpu = package.time_limit(path, &setup)?;
        limits.wall = flags
            .wall_limit
            .unwrap_or_else(|| super::flags::wall_for(limits.cpu));
        status.finish();
        crate::report::note(&format!(
            "grader: note: time limit {} s, set from the package's accepted submissions (problem.yaml fixes none; --time-limit sets one)",
            limits.cpu.as_secs_f64()
        ));
    }
    status.finish();
    let found: Vec<_> = package.cases.iter().map(|c| c.case.clone()).collect();
    let given = package.points(path)?.unwrap_or_default();
    let points = points::with_rules(given, asked.points, &found)?;
    Ok(Graded {
        id: ProblemId::Package(package.id.clone()),
        cases: std::mem::take(&mut package.cases),
        folder: path.to_path_buf(),
        limits,
        points,
        about: BTreeMap::new(),
        judged_by: JudgedBy::Package(Box::new(package)),
    })
}
