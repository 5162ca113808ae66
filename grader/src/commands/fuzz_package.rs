//! `grader fuzz PKG SUBMISSION`: `fuzz.rs`'s runs with a package's roles
//! (`package::trial`): its generator draws each run's input from the seed, its first
//! accepted submission answers it, its output validator judges the submission's output.
//! The same search (the lowest failing run is the finding, at any `--jobs`), the same
//! report and replay command; a finding is shrunk by seed (`fuzz::shrink_by_seed`: a
//! generator is a program, whose inputs have no simpler neighbours the grader knows).
//! The package is read as `test` reads it (its data checked, its limits), first.

use std::path::Path;
use std::time::Instant;

use fuzz::{Budget, Inputs, ShrinkBudget};
use sandbox::Limits;

use super::fuzz::{DEFAULT_RUNS, Started, check_outputs, clock_seed, report_and_status, start};
use super::graded::{Asked, Graded};
use crate::cli::args::{FuzzArgs, LimitArgs, TestReport};
use crate::cli::exit::{Fault, Status};
use crate::fuzzing::replay::{Again, Replay};
use crate::fuzzing::{save, shrink::SHRINK_TIME};
use crate::package::programs::fuzz_trial::{PackageTrial, Programs};
use crate::package::programs::in_box;
use crate::report::progress::Progress;
use crate::results::finding::{Found, FuzzResult, Source};
use crate::submission::{Options, languages::Languages};

/// Runs `grader fuzz` on the package at `path`.
pub(super) fn run(args: &FuzzArgs, path: &Path) -> Result<Status, Fault> {
    refuse_what_a_package_lacks(args, path)?;
    check_outputs(args, None)?;
    let graded = Graded::read(&Asked {
        problem: &args.problem,
        cases: None,
        limits: &args.limits,
        points: &[],
        config: args.submission.config.as_deref(),
        cache_dir: args.submission.cache_dir.as_deref(),
        jobs: args.jobs,
        graded: args.submission.submission.as_deref(),
    })?;
    let package = graded
        .package()
        .ok_or_else(|| Fault::internal("a package read as a built-in problem".to_owned()))?;
    let limits = graded.limits;
    let languages = Languages::load(args.submission.config.as_deref())?;
    let options = Options::new(
        &languages,
        None,
        args.submission.cache_dir.clone(),
        limits.sandbox,
    )
    .replacing(package.config.constants.pairs());
    let programs = Programs::build(path, &options, graded.added())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let first = (graded.id.clone(), seed, false);
    let Started {
        mut facts,
        program,
        header_printed,
    } = match start(args, first, (&limits, graded.added()))? {
        Ok(started) => started,
        Err(status) => return Ok(status),
    };
    let validation = in_box::validation_limits(&package.config, &limits);
    let mut trials = (0..super::flags::jobs(args.jobs))
        .map(|_| PackageTrial::start(&programs, &package.judge, &program, (limits, validation)))
        .collect::<Result<Vec<_>, Fault>>()?;
    let start = Instant::now();
    let progress = Progress::new();
    let budget = Budget {
        runs: args
            .runs
            .or(args.duration.is_none().then_some(DEFAULT_RUNS)),
        deadline: args.duration.map(|d| Instant::now() + d),
    };
    let search = fuzz::search_trials(&Inputs::Seeded { seed }, &mut trials, &budget, &|runs| {
        progress.tick(runs, start.elapsed());
    })?;
    facts.runs = search.runs;
    facts.elapsed = start.elapsed();
    progress.finish();
    if let Some(finding) = search.finding {
        let trial = &mut trials[0];
        facts.found = Some(shrunk_and_kept(
            args,
            (trial, &limits),
            finding,
            &mut facts,
        )?);
    }
    report_and_status(&facts, args, header_printed)
}

/// What a package's fuzzing needs and `grader fuzz` does for a built-in problem only:
/// exit 2, before anything runs.
fn refuse_what_a_package_lacks(args: &FuzzArgs, path: &Path) -> Result<(), Fault> {
    // No generator: said before the package's accepted submissions run.
    crate::package::format::generator::source(path)?;
    if args.report == TestReport::Gradescope {
        return Err(super::fuzz::gradescope_is_for_test());
    }
    if args.exhaustive {
        return Err(Fault::call(
            "--exhaustive: a package's inputs come from its generator, one seed at a time; use --runs or --duration".to_owned(),
        ));
    }
    if let Some(file) = &args.regressions {
        return Err(Fault::call(format!(
            "--regressions {}: the regressions file holds the built-in problems' findings; a package's is found again by the replay command its report prints",
            file.display()
        )));
    }
    Ok(())
}

/// The finding shrunk by seed on `trial` (whose runs had `limits`), the reference's answers to its inputs kept in
/// `facts`, with its replay command, and saved where `--save` says.
fn shrunk_and_kept(
    args: &FuzzArgs,
    (trial, limits): (&mut PackageTrial<'_>, &Limits),
    finding: fuzz::Finding,
    facts: &mut FuzzResult,
) -> Result<Found, Fault> {
    let seed = facts.seed;
    let shrink = ShrinkBudget {
        steps: args.shrink_steps,
        deadline: Some(Instant::now() + SHRINK_TIME),
    };
    let shrunk = fuzz::shrink_by_seed(trial, seed, &finding, &shrink)?;
    for input in [&finding.input, &shrunk.input] {
        let answer = trial.answer(input)?;
        facts.answers.insert(input.clone(), answer);
    }
    // The limits the runs had, spelt out: the replay neither depends on the package's
    // staying the same nor runs its accepted submissions again.
    let resolved = LimitArgs {
        time_limit: Some(limits.cpu),
        memory_limit: Some(limits.memory),
        output_limit: Some(limits.output),
        ..args.limits
    };
    let again = Again::Seeded {
        seed,
        runs: finding.number(),
    };
    let mut found = Found {
        source: Source::Seeded,
        regression: None,
        replay: Replay::with_limits(args, &resolved, limits.sandbox, again).to_string(),
        finding,
        shrunk,
        saved: Vec::new(),
        recorded: None,
    };
    if let Some(dir) = &args.save {
        let answer = facts.expected(&found.shrunk.input);
        found.saved = save::save_answered(dir, facts.problem.id(), seed, &found, &answer)?;
    }
    Ok(found)
}
