//! `grader fuzz PROBLEM SUBMISSION`: earlier failures (the regressions file) are replayed
//! first, then inputs drawn from the seed (or every input, `--exhaustive`) run on N
//! workers until a failure or the budget; a failure is shrunk, recorded, optionally saved
//! as a case, and reported with the command that replays it.

mod replay;
mod shell_quote;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fuzz::regressions::{self, HEADER, Regression};
use fuzz::{Budget, Finding, Inputs, Search, ShrinkBudget, differ::Drawn};
use reference::Problem;

use crate::candidate::ProgramCandidate;
use crate::cli::{FuzzArgs, TestReport};
use crate::files;
use crate::outputs::{self, Kind, Parent};
use crate::report::export::Exporter;
use crate::report::human::fuzz::{self as human, Summary as _};
use crate::report::progress::{Progress, StatusLine, Stream};
use crate::report::{self, json, junit};
use crate::results::finding::{Found, FuzzResult, Source};
use crate::results::limits::LimitsRecord;
use crate::status::{Fault, Status};
use crate::submission::Built;

use replay::Again;
use replay::Replay;

/// Runs without `--runs` or `--duration`.
const DEFAULT_RUNS: u64 = 1000;
/// How long shrinking may take, whatever `--shrink-steps` allows.
const SHRINK_TIME: Duration = Duration::from_secs(30);

pub(crate) fn run(args: &FuzzArgs) -> Result<Status, Fault> {
    let problem = args.problem;
    // Everything the call names is checked before anything runs.
    if args.exhaustive && problem.enumerate().is_none() {
        return Err(Fault::Usage(format!(
            "--exhaustive: the inputs of {problem} are too many to enumerate; use --runs or --duration"
        )));
    }
    let regressions_file = (!args.no_regressions).then(|| {
        args.regressions
            .clone()
            .unwrap_or_else(|| PathBuf::from("fuzz-regressions").join(format!("{problem}.txt")))
    });
    let earlier = match &regressions_file {
        Some(path) => read_regressions(path, problem)?,
        None => Vec::new(),
    };
    check_outputs(args, regressions_file.as_deref())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let limits = super::limits(&args.limits)?;
    let mut facts = FuzzResult {
        problem,
        submission: String::new(),
        language: String::new(),
        seed,
        exhaustive: args.exhaustive,
        limits: LimitsRecord::of(&limits),
        runs: 0,
        replayed: 0,
        elapsed: Duration::ZERO,
        compile_error: None,
        found: None,
    };
    let (built, header_printed) = build(args, &mut facts, limits.sandbox)?;
    let program = match built {
        Built::CompileError { language, message } => {
            facts.language = language;
            facts.compile_error = Some(message);
            return report_and_status(&facts, args, header_printed);
        }
        Built::Ready(program) => program,
    };
    facts.language.clone_from(&program.language);
    let jobs = super::jobs(args.jobs);
    let mut candidates = (0..jobs)
        .map(|_| ProgramCandidate::start(&program, limits))
        .collect::<Result<Vec<_>, Fault>>()?;
    let start = Instant::now();
    let progress = Progress::new();
    let (search, source, replayed) = find(args, &earlier, seed, &mut candidates, &|runs| {
        progress.tick(runs, start.elapsed());
    })?;
    facts.replayed = replayed;
    facts.runs = search.runs;
    facts.elapsed = start.elapsed();
    progress.finish();

    if let Some(finding) = search.finding {
        let shrunk = shrink(problem, &mut candidates[0], &finding, args.shrink_steps)?;
        let again = match source {
            Source::Seeded => Again::Seeded {
                seed,
                runs: finding.number(),
            },
            Source::Exhaustive => Again::Exhaustive,
            Source::Regression(_) => {
                Again::Regressions(regressions_file.as_deref().expect("replayed from it"))
            }
        };
        let mut found = Found {
            source,
            regression: match source {
                Source::Regression(i) => earlier.get(i).cloned(),
                _ => None,
            },
            replay: Replay::new(args, limits.sandbox, again).to_string(),
            finding,
            shrunk,
            saved: Vec::new(),
            recorded: None,
        };
        if let Some(path) = &regressions_file
            && source != Source::Exhaustive
        {
            found.recorded = record(path, problem, seed, &found)?;
        }
        if let Some(dir) = &args.save {
            found.saved = save(dir, problem, seed, &found)?;
        }
        facts.found = Some(found);
    }
    report_and_status(&facts, args, header_printed)
}

/// Builds the submission. The header is known before anything is built: a human report
/// on stdout starts with it at once, and the rest follows at the end (the same bytes as
/// the report printed whole); a terminal on stderr says while it compiles. The build, and
/// whether the header is out.
fn build(
    args: &FuzzArgs,
    facts: &mut FuzzResult,
    sandbox: crate::exec::sandbox::Tier,
) -> Result<(Built, bool), Fault> {
    let mut header_printed = false;
    let status = StatusLine::new(Stream::Stderr);
    let (built, shown) = super::build(&args.submission, sandbox, |foreseen, shown| {
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
    earlier: &[Regression],
    seed: u64,
    candidates: &mut [ProgramCandidate<'_>],
    tick: &(dyn Fn(u64) + Sync),
) -> Result<(Search, Source, u64), Fault> {
    let problem = args.problem;
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

/// Shrinks the finding itself: the input the report shows as the original is the one
/// shrunk, and shrinking runs on one worker, step after step, so one seed gives one
/// shrunk input at any `--jobs`.
fn shrink(
    problem: Problem,
    candidate: &mut ProgramCandidate<'_>,
    finding: &Finding,
    steps: u32,
) -> Result<fuzz::Shrunk, Fault> {
    let budget = ShrinkBudget {
        steps,
        deadline: Some(Instant::now() + SHRINK_TIME),
    };
    fuzz::shrink(
        problem,
        candidate,
        &finding.input,
        &finding.failure,
        &budget,
    )
}

/// The earlier failures of `problem` in the regressions file (none when it is missing).
fn read_regressions(path: &Path, problem: Problem) -> Result<Vec<Regression>, Fault> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = files::read_capped(path)?;
    let text = String::from_utf8(text)
        .map_err(|_| Fault::Usage(format!("{}: not UTF-8 text", path.display())))?;
    // The whole file first: a malformed line is named before any regression is used.
    regressions::parse(&text).map_err(|bad| {
        Fault::Usage(format!(
            "{}:{}:{}: {}",
            path.display(),
            bad.line,
            bad.column,
            bad.message
        ))
    })?;
    // A regression is a case: one that is not a valid input is located like a broken case
    // file (`FILE:LINE:COL`, at its `input=`), before anything runs. Each line parses alone,
    // so its number is known.
    let mut mine = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for r in regressions::parse(line).unwrap_or_default() {
            if r.problem != problem {
                continue;
            }
            if let Err(e) = problem.validate(r.input.as_bytes()) {
                let column = line.find("input=").map_or(1, |at| at + 1);
                return Err(Fault::Usage(format!(
                    "{}:{}:{column}: this {problem} regression is not a valid input: its line \
                     {}, column {}: {}",
                    path.display(),
                    index + 1,
                    e.line,
                    e.column,
                    e.message
                )));
            }
            mine.push(r);
        }
    }
    Ok(mine)
}

/// Adds the shrunk failure to the regressions file (atomically), unless it is there.
fn record(
    path: &Path,
    problem: Problem,
    seed: u64,
    found: &Found,
) -> Result<Option<PathBuf>, Fault> {
    let old = if path.exists() {
        String::from_utf8_lossy(&files::read_capped(path)?).into_owned()
    } else {
        HEADER.to_owned()
    };
    let known = regressions::parse(&old).unwrap_or_default();
    if known
        .iter()
        .any(|r| r.problem == problem && r.input == found.shrunk.input)
    {
        return Ok(None);
    }
    let (seed, run) = match &found.regression {
        Some(r) => (r.seed, r.run),
        None => (seed, found.finding.number()),
    };
    let line = Regression {
        problem,
        seed,
        run,
        input: found.shrunk.input.clone(),
        note: format!(
            "{}: {}",
            found.shrunk.failure.verdict.code(),
            found.shrunk.failure.message
        ),
    }
    .to_line();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::folders::create(parent)?;
    }
    let mut text = old;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&line);
    files::write_atomic(path, text.as_bytes())?;
    Ok(Some(path.to_path_buf()))
}

/// Writes the shrunk input and its reference answer into `dir`, ready for a case folder.
fn save(dir: &Path, problem: Problem, seed: u64, found: &Found) -> Result<Vec<PathBuf>, Fault> {
    crate::folders::create(dir)?;
    let stem = match found.source {
        // Named by the run the report shows.
        Source::Seeded => format!("{problem}-seed{seed}-run{}", found.finding.number()),
        Source::Exhaustive => format!("{problem}-all-{}", found.finding.number()),
        Source::Regression(i) => format!("{problem}-regression-{}", i + 1),
    };
    let input = &found.shrunk.input;
    let answer = problem
        .solve(input.as_bytes())
        .map_err(|e| Fault::Internal(format!("the shrunk input does not parse: {e}")))?;
    let paths = [
        dir.join(format!("{stem}.in")),
        dir.join(format!("{stem}.ans")),
    ];
    files::write_atomic(&paths[0], input.as_bytes())?;
    files::write_atomic(&paths[1], answer.as_bytes())?;
    Ok(paths.to_vec())
}

/// A seed from the clock, for runs that name none (printed, so it can be replayed).
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    // Mixed so that seeds drawn a moment apart are not neighbours.
    let mut rng = reference::Rng::new(now.as_secs() ^ u64::from(now.subsec_nanos()) << 20);
    rng.next_u64() % 1_000_000_000
}

/// Writes the report (`header_printed`: the human report's header is on stdout already)
/// and tells the exit status.
fn report_and_status(
    facts: &FuzzResult,
    args: &FuzzArgs,
    header_printed: bool,
) -> Result<Status, Fault> {
    let exporter = match args.report {
        TestReport::Human if header_printed => Exporter::styled(human::after_header),
        TestReport::Human => Exporter::styled(human::report),
        TestReport::Json => Exporter::raw(json::fuzz),
        TestReport::Junit => Exporter::raw(junit::fuzz),
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
        None => exporter.print(facts),
    }
    Ok(Status::failed_if(
        facts.compile_error.is_some() || facts.found.is_some(),
    ))
}

/// The rule of outputs (`outputs`) for the regressions file, `--report-file` and `--save`,
/// before the seed is drawn and anything runs: a finding is never lost to a bad path.
fn check_outputs(args: &FuzzArgs, regressions: Option<&Path>) -> Result<(), Fault> {
    let mut inputs = super::inputs(Some(&args.submission), []);
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
