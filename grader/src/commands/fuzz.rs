//! `grader fuzz PROBLEM SUBMISSION`: earlier failures (the regressions file) are replayed
//! first, then inputs drawn from the seed (or every input, `--exhaustive`) run on N
//! workers until a failure or the budget; a failure is shrunk, recorded, optionally saved
//! as a case, and reported with the command that replays it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fuzz::regressions::Regression;
use fuzz::{Budget, Inputs, Search, differ::Drawn};
use reference::Problem;
use sandbox::Limits;

use crate::cli::args::{FuzzArgs, TestReport};
use crate::cli::exit::{Fault, Status};
use crate::fuzzing::replay::{Again, Replay};
use crate::fuzzing::under_test::ProgramCandidate;
use crate::fuzzing::{regressions_file, save, shrink};
use crate::paths::outputs::{self, Kind, Parent};
use crate::report::exporter::Exporter;
use crate::report::human::fuzz::{self as human, Summary as _};
use crate::report::progress::{Progress, StatusLine, Stream};
use crate::report::{self, json, junit};
use crate::results::finding::{Found, FuzzResult, Source};
use crate::results::limits::LimitsRecord;
use crate::results::problem::ProblemId;
use crate::submission::added::Added;
use crate::submission::{Built, Program};

/// Runs without `--runs` or `--duration`.
pub(super) const DEFAULT_RUNS: u64 = 1000;

/// `grader fuzz` of a built-in problem: the module doc says in which order. A package's is
/// `fuzz_package.rs`, which shares this file's checks of the call and its report.
pub(super) fn builtin(args: &FuzzArgs, problem: Problem) -> Result<Status, Fault> {
    // Everything the call names is checked before anything runs.
    if args.report == TestReport::Gradescope {
        return Err(gradescope_is_for_test());
    }
    if args.exhaustive && problem.enumerate().is_none() {
        return Err(Fault::call(format!(
            "--exhaustive: the inputs of {problem} are too many to enumerate; use --runs or --duration"
        )));
    }
    let regressions = Regressions::of(args, problem)?;
    check_outputs(args, regressions.file.as_deref())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let limits = super::flags::limits(&args.limits)?;
    let first = (ProblemId::Builtin(problem), seed, args.exhaustive);
    let Started {
        mut facts,
        program,
        header_printed,
    } = match start(args, first, (&limits, Arc::default()))? {
        Ok(started) => started,
        Err(status) => return Ok(status),
    };
    let jobs = super::flags::jobs(args.jobs);
    let mut candidates = (0..jobs)
        .map(|_| ProgramCandidate::start(&program, limits))
        .collect::<Result<Vec<_>, Fault>>()?;
    let start = Instant::now();
    let progress = Progress::new();
    let earlier = &regressions.earlier;
    let (search, source, replayed) =
        find(args, problem, earlier, seed, &mut candidates, &|runs| {
            progress.tick(runs, start.elapsed());
        })?;
    facts.replayed = replayed;
    facts.runs = search.runs;
    facts.elapsed = start.elapsed();
    progress.finish();

    if let Some(finding) = search.finding {
        let shrunk = shrink::shrink(problem, &mut candidates[0], &finding, args.shrink_steps)?;
        let again = Again::of(source, seed, finding.number(), regressions.file.as_deref());
        let found = Found {
            source,
            regression: regressions.replayed(source),
            replay: Replay::new(args, limits.sandbox, again).to_string(),
            finding,
            shrunk,
            saved: Vec::new(),
            recorded: None,
        };
        facts.found = Some(keep_finding(args, problem, seed, &regressions, found)?);
    }
    report_and_status(&facts, args, header_printed)
}

/// The regressions file a call names (none with `--no-regressions`), and its entries of
/// the problem.
struct Regressions {
    file: Option<PathBuf>,
    earlier: Vec<Regression>,
}

impl Regressions {
    /// Reads the regressions file `args` names: before anything runs, so that a bad line
    /// is the call's error.
    fn of(args: &FuzzArgs, problem: Problem) -> Result<Regressions, Fault> {
        let file = (!args.no_regressions).then(|| {
            args.regressions
                .clone()
                .unwrap_or_else(|| regressions_file::default_path(problem))
        });
        let earlier = match &file {
            Some(path) => regressions_file::read(path, problem)?,
            None => Vec::new(),
        };
        Ok(Regressions { file, earlier })
    }

    /// The entry a finding from `source` replays, when it came from the file.
    fn replayed(&self, source: Source) -> Option<Regression> {
        match source {
            Source::Regression(i) => self.earlier.get(i).cloned(),
            _ => None,
        }
    }
}

/// Keeps `found` where the call asks: in the regressions file, and as a case in `--save`.
fn keep_finding(
    args: &FuzzArgs,
    problem: Problem,
    seed: u64,
    regressions: &Regressions,
    mut found: Found,
) -> Result<Found, Fault> {
    if let Some(path) = &regressions.file {
        found.recorded = regressions_file::record(path, problem, seed, &found)?;
    }
    if let Some(dir) = &args.save {
        found.saved = save::save(dir, problem, seed, &found)?;
    }
    Ok(found)
}

/// Builds the submission. The header is known before anything is built: a human report
/// on stdout starts with it at once, and the rest follows at the end (the same bytes as
/// the report printed whole); a terminal on stderr says while it compiles. The build, and
/// whether the header is out.
/// What a fuzz run goes on from: its report, filled in as it goes, the submission built,
/// and whether its header was printed already.
pub(super) struct Started {
    pub(super) facts: FuzzResult,
    pub(super) program: Program,
    pub(super) header_printed: bool,
}

/// Builds the submission of a fuzz run of `problem` from `seed` (`exhaustive`, or drawn)
/// under `limits`, its report begun; `Ok(Err(status))` when it did not compile (reported
/// already).
pub(super) fn start(
    args: &FuzzArgs,
    (problem, seed, exhaustive): (ProblemId, u64, bool),
    (limits, added): (&Limits, Arc<Added>),
) -> Result<Result<Started, Status>, Fault> {
    let mut facts = FuzzResult {
        problem,
        answers: BTreeMap::new(),
        submission: String::new(),
        language: String::new(),
        seed,
        exhaustive,
        limits: LimitsRecord::of(limits),
        runs: 0,
        replayed: 0,
        elapsed: Duration::ZERO,
        compile_error: None,
        found: None,
    };
    let (built, header_printed) = build(args, &mut facts, (limits.sandbox, added))?;
    match built {
        Built::CompileError { language, message } => {
            facts.language = language;
            facts.compile_error = Some(message);
            report_and_status(&facts, args, header_printed).map(Err)
        }
        Built::Ready(program) => {
            facts.language.clone_from(&program.language);
            Ok(Ok(Started {
                facts,
                program,
                header_printed,
            }))
        }
    }
}

fn build(
    args: &FuzzArgs,
    facts: &mut FuzzResult,
    (sandbox, added): (sandbox::tiers::Tier, Arc<Added>),
) -> Result<(Built, bool), Fault> {
    let mut header_printed = false;
    let status = StatusLine::new(Stream::Stderr);
    let (built, shown) =
        super::flags::build(&args.submission, (sandbox, added), |foreseen, shown| {
            shown.clone_into(&mut facts.submission);
            facts.language.clone_from(&foreseen.language);
            if args.report == TestReport::Human && args.report_file.is_none() {
                report::out_styled(&human::header(facts));
                header_printed = true;
            }
            if foreseen.compiles {
                status.phase(&format!("compiling {shown}"));
            }
        })?;
    status.finish();
    facts.submission = shown;
    Ok((built, header_printed))
}

/// Replays the earlier failures, then runs the seeded (or every) input; the search, where
/// its finding came from, and how many runs were replays.
fn find(
    args: &FuzzArgs,
    problem: Problem,
    earlier: &[Regression],
    seed: u64,
    candidates: &mut [ProgramCandidate<'_>],
    tick: &(dyn Fn(u64) + Sync),
) -> Result<(Search, Source, u64), Fault> {
    // Earlier failures first: a fix that does not hold shows at once.
    let replay: Vec<Drawn> = earlier
        .iter()
        .map(|r| Drawn {
            kind: "regression".to_owned(),
            input: r.input.clone(),
        })
        .collect();
    let search = fuzz::search(
        problem,
        &Inputs::Listed(replay),
        candidates,
        &Budget::default(),
        tick,
    )?;
    if let Some(finding) = &search.finding {
        let source = Source::Regression(usize::try_from(finding.run).unwrap_or(0));
        let replayed = search.runs;
        return Ok((search, source, replayed));
    }
    let replayed = search.runs;
    let (inputs, budget, source) = if args.exhaustive {
        let all = problem
            .enumerate()
            .expect("checked before")
            .map(|input| Drawn {
                kind: "all".to_owned(),
                input,
            })
            .collect();
        (Inputs::Listed(all), Budget::default(), Source::Exhaustive)
    } else {
        let runs = args
            .runs
            .or(args.duration.is_none().then_some(DEFAULT_RUNS));
        let deadline = args.duration.map(|d| Instant::now() + d);
        (
            Inputs::Seeded { seed },
            Budget { runs, deadline },
            Source::Seeded,
        )
    };
    let tick = |runs: u64| tick(replayed + runs);
    let mut search = fuzz::search(problem, &inputs, candidates, &budget, &tick)?;
    search.runs += replayed;
    Ok((search, source, replayed))
}

/// A seed from the clock, for runs that name none (printed, so it can be replayed).
pub(super) fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    // Mixed so that seeds drawn a moment apart are not neighbours.
    let mut rng = reference::Rng::new(now.as_secs() ^ u64::from(now.subsec_nanos()) << 20);
    rng.next_u64() % 1_000_000_000
}

/// Writes the report (`header_printed`: the human report's header is on stdout already)
/// and tells the exit status.
pub(super) fn report_and_status(
    facts: &FuzzResult,
    args: &FuzzArgs,
    header_printed: bool,
) -> Result<Status, Fault> {
    let exporter = match args.report {
        TestReport::Human if header_printed => Exporter::styled(human::after_header),
        TestReport::Human => Exporter::styled(human::report),
        TestReport::Json => Exporter::raw(json::fuzz),
        TestReport::Junit => Exporter::raw(junit::fuzz),
        TestReport::Gradescope => return Err(gradescope_is_for_test()),
    };
    match &args.report_file {
        Some(path) => {
            exporter.save(path, facts)?;
            report::note(&format!(
                "{}; report written to {}",
                facts.summary(),
                path.display()
            ));
        }
        None => exporter.print(facts)?,
    }
    Ok(Status::failed_if(
        facts.compile_error.is_some() || facts.found.is_some(),
    ))
}

/// `--report gradescope` scores cases, which a fuzz run has none of.
pub(super) fn gradescope_is_for_test() -> Fault {
    Fault::call(
        "--report gradescope: a fuzz run has no cases to score; use it with `grader test`"
            .to_owned(),
    )
}

/// The rule of outputs (`outputs`) for the regressions file, `--report-file` and `--save`,
/// before the seed is drawn and anything runs: a finding is never lost to a bad path.
pub(super) fn check_outputs(args: &FuzzArgs, regressions: Option<&Path>) -> Result<(), Fault> {
    let mut inputs = super::flags::inputs(Some(&args.submission), []);
    if let Some(path) = regressions {
        outputs::file(path, Kind::Regressions, Parent::MayBeMade, &inputs)?;
        // Read and added to, so never a report or a saved case.
        inputs.add(path, "regressions file");
    }
    if let Some(path) = &args.report_file {
        outputs::file(path, Kind::Report, Parent::MustExist, &inputs)?;
    }
    if let Some(dir) = &args.save {
        outputs::folder(dir, &[], &inputs)?;
    }
    Ok(())
}
