//! `grader package verify`: every submission of a package run on its test data in the box,
//! judged by the package's validator, and its verdict compared with those its folder or
//! its `@EXPECTED_RESULTS@:` comment allow (`format::submissions`).
//!
//! The time limit is the package's when it fixes one; otherwise it is set as the format
//! says from the accepted submissions: they run first (under a ceiling, [`CEILING`] unless
//! `--time-ceiling` says), and the limit is the slowest CPU time of those accepted within
//! it times `time_multiplier`, rounded up to a whole second (at least 1 s). An accepted
//! submission that hit the ceiling is run again under the limit so set: the ceiling only
//! bounds the measuring, and a verdict is always the problem's limit's (a slow accepted
//! submission under a limit above the ceiling gets its chance). When none is accepted
//! within the ceiling there is nothing to set the limit from: see [`LimitFrom`]. The
//! others then run under that limit times `time_safety_margin` and are
//! judged at the limit itself, so a submission that must time out and does so only within
//! the margin is told apart (`Row::within_margin`). In a pass-fail problem a submission
//! stops at its first case that is not `AC`, whose verdict is the submission's (the
//! format's default grading); in a scoring problem the groups give the verdict and score
//! (`format::scoring`), and a group that stops at its first rejected part (`on_reject:
//! break`, the default) runs no case after it: it is decided.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use reference::{Judgement, Verdict};
use sandbox::{Input, Limits};

use crate::cli::exit::Fault;
use crate::package::checks::data_check::{self, Checked};
use crate::package::format::expectations::NOT_ACCEPTED;
use crate::package::format::scoring::{self, Rules};
use crate::package::format::submissions::Entry;
use crate::package::format::{config, data, score_groups, submissions};
use crate::package::programs::building::{NotBuilt, Setup, build_all, joined};
use crate::package::programs::interaction::{self, Interacted};
use crate::package::programs::output_judge::{CaseFiles, Origin, PackageJudge};
use crate::package::programs::output_validator::Validator;
use crate::run::runner::Runner;
use crate::submission::Program;
use sandbox::Locked as _;

/// The CPU limit the accepted submissions are timed under, when the package fixes none
/// (`package verify --time-ceiling` sets another).
pub(crate) const CEILING: Duration = Duration::from_secs(10);

/// Where the time limit came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LimitFrom {
    /// Fixed by the package, in the file named.
    Fixed(&'static str),
    /// Set from the accepted submissions accepted within the ceiling; `again` of them hit
    /// the ceiling and were run again under the limit.
    Accepted { again: usize },
    /// Some accepted submission hit the ceiling and none was accepted within it: the
    /// limit cannot be measured, only said to be above the ceiling, so the ceiling is the
    /// limit every submission is judged at (the accepted ones that hit it disagree, and
    /// the jury sees why: the package needs a `time_limit` or a higher ceiling).
    Ceiling,
    /// No accepted submission was accepted and none hit the ceiling (they all failed
    /// otherwise): the format's least limit, 1 s.
    Least,
}

/// What a verification found.
#[derive(Debug)]
pub(crate) struct Verified {
    /// The problem's name.
    pub(crate) name: String,
    /// How many test cases.
    pub(crate) cases: usize,
    /// The time limit the submissions were judged at.
    pub(crate) time_limit: Duration,
    /// Where it came from.
    pub(crate) from: LimitFrom,
    /// The ceiling the accepted submissions were first timed under, when it was set.
    pub(crate) ceiling: Duration,
    /// What the package's validators found of its data.
    pub(crate) inputs: Checked,
    /// One row per submission, in the order of their folders and names.
    pub(crate) rows: Vec<Row>,
    /// The submissions not run because their names end with `.disabled` (`FOLDER/NAME`).
    pub(crate) disabled: Vec<String>,
}

/// One submission's outcome.
#[derive(Debug)]
pub(crate) struct Row {
    /// `FOLDER/FILE`.
    pub(crate) name: String,
    /// The verdicts it may get, in the format's words (none: nothing says).
    pub(crate) expected: Vec<&'static str>,
    /// What says so: `folder`, `rejected/` or `@EXPECTED_RESULTS@`.
    pub(crate) from: Option<&'static str>,
    /// Its verdict, or why it was not run.
    pub(crate) got: Result<Verdict, String>,
    /// The first case that was not `AC`, and why.
    pub(crate) failed: Option<(String, String)>,
    /// Its slowest CPU time over the cases it ran.
    pub(crate) time: Duration,
    /// A `TLE` that would not be one at the time limit times the safety margin.
    pub(crate) within_margin: bool,
    /// A scoring problem's: the score it got.
    pub(crate) score: Option<f64>,
    /// A scoring problem's: the score its folder asks for.
    pub(crate) wanted: Option<Wanted>,
}

/// The score a scoring problem's submission must get, given the full score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Wanted {
    /// `accepted`: the full score.
    Full(f64),
    /// `partially_accepted`: more than nothing, less than the full score.
    Partial(f64),
}

impl Row {
    /// Whether it got a verdict it may get (a submission not run, for want of its
    /// language, disagrees with nothing; nor does one nothing expects of).
    pub(crate) fn agrees(&self) -> bool {
        let scored = match (self.wanted, self.score) {
            (Some(Wanted::Full(full)), Some(score)) => score >= full,
            (Some(Wanted::Partial(full)), Some(score)) => score > 0.0 && score < full,
            _ => true,
        };
        match &self.got {
            Ok(verdict) if !self.expected.is_empty() => {
                self.expected.contains(&kattis(*verdict)) && scored
            }
            _ => true,
        }
    }
}

/// A verdict in the format's words: it has no `PE` (a wrong layout is a wrong answer),
/// and a run over its memory limit is a run-time error.
pub(crate) fn kattis(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "AC",
        Verdict::WrongAnswer | Verdict::Presentation => "WA",
        Verdict::TimeLimit => "TLE",
        Verdict::MemoryLimit | Verdict::RuntimeError => "RTE",
        Verdict::OutputLimit => "OLE",
        Verdict::CompileError => "CE",
    }
}

/// Verifies the package at `package`, timing its accepted submissions under `ceiling`
/// when it fixes no time limit.
pub(crate) fn verify(
    package: &Path,
    setup: &Setup<'_>,
    ceiling: Duration,
) -> Result<Verified, Fault> {
    let config = config::load(package)?;
    let cases = data::load(package, &config.constants)?;
    let submissions::Listed { entries, disabled } = submissions::load(package)?;
    // The data's check (building and running the validators) and the submissions' builds
    // need nothing of each other: side by side, a cold verification's compiles overlap.
    let (checked, built) = std::thread::scope(|scope| {
        let builds = scope.spawn(|| build_all(&entries, &setup.for_submissions(package)?));
        let checked = data_check::checked_and_judge(package, &config, &cases, setup);
        let built = builds
            .join()
            .unwrap_or_else(|_| Err(Fault::internal("a build thread panicked".to_owned())));
        (checked, built)
    });
    let (inputs, judge) = checked?;
    let built = built?;
    if config.limits.time.is_none() {
        some_accepted_runs(package, &entries, &built, "")?;
    }
    // 2025-09's scoring judges a case's verdict apart from its score.
    let (scoring, scored_2025) = if config.scoring {
        let (rules, of_2025) = group_rules(package, &cases, &config)?;
        (Some(rules), of_2025)
    } else {
        score_groups::warn_unread(&score_groups::given(package, &cases, &config.constants)?);
        (None, false)
    };
    let work = Work {
        cases: &cases,
        scoring: scoring.as_ref(),
        judge: &judge,
        setup,
    };
    let accepted: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].accepted())
        .collect();
    let others: Vec<usize> = (0..entries.len())
        .filter(|&i| !entries[i].accepted())
        .collect();
    let fixed = config.limits.time;
    let mut first = work.run_all(&accepted, &built, fixed.unwrap_or(ceiling), 1.0)?;
    let (time_limit, from) = if let Some(limit) = fixed {
        (limit, LimitFrom::Fixed(config.limits.time_from))
    } else {
        match set_limit(&first, &config) {
            (_, LimitFrom::Ceiling) => (ceiling, LimitFrom::Ceiling),
            // Nothing hit the ceiling, nothing to run again.
            (limit, LimitFrom::Least) => (limit, LimitFrom::Least),
            (limit, _) => {
                // The ceiling's TLE is no verdict: those that hit it run again under the limit
                // now set, above the ceiling or below it (where the run is short, and its
                // message names the problem's limit).
                let hit = hit_ceiling(&first);
                if !hit.is_empty() {
                    let again = work.run_all(&hit, &built, limit, 1.0)?;
                    first.retain(|(index, _)| !hit.contains(index));
                    first.extend(again);
                }
                (limit, LimitFrom::Accepted { again: hit.len() })
            }
        }
    };
    let rest = work.run_all(&others, &built, time_limit, config.limits.safety_margin)?;
    let mut rows: Vec<(usize, Row)> = first.into_iter().chain(rest).collect();
    rows.sort_by_key(|(index, _)| *index);
    let rows = rows
        .into_iter()
        .map(|(index, mut row)| {
            let entry = &entries[index];
            row.name.clone_from(&entry.name);
            row.expected.clone_from(&entry.expected);
            row.from = entry.from;
            if let Some(rules) = &scoring {
                let full = scoring::full(&rules[""]);
                if entry.accepted() {
                    row.wanted = Some(Wanted::Full(full));
                } else if entry.partial {
                    // Legacy: accepted with less than the full score; 2025-09: some case
                    // not accepted (its verdict is its cases'), and a score between.
                    row.expected = if scored_2025 {
                        NOT_ACCEPTED.to_vec()
                    } else {
                        vec!["AC"]
                    };
                    row.from = Some("folder");
                    row.wanted = Some(Wanted::Partial(full));
                }
            }
            match &built[index] {
                Err(NotBuilt::NotRun(why)) => row.got = Err(why.clone()),
                Err(NotBuilt::CompileError(message)) => {
                    row.got = Ok(Verdict::CompileError);
                    // The line that says what failed, not the first of the compiler's
                    // context (`In file included from ...`).
                    let summary = crate::submission::diagnosis::summary(message);
                    row.failed = Some(("compile".to_owned(), summary));
                }
                Ok(_) => {}
            }
            row
        })
        .collect();
    Ok(Verified {
        name: config.name,
        cases: cases.len(),
        time_limit,
        from,
        ceiling,
        inputs,
        rows,
        disabled,
    })
}

/// The time limit the accepted submissions' `rows` set: the slowest CPU time of those
/// accepted within the ceiling times the multiplier, rounded up to a whole second, at
/// least 1 s; and whether it could be set so ([`LimitFrom::Ceiling`], [`LimitFrom::Least`]
/// when not).
fn set_limit(rows: &[(usize, Row)], config: &config::Config) -> (Duration, LimitFrom) {
    // Only the accepted submissions that were accepted: one that timed out at the ceiling
    // has no time to go by (it is run again under the limit the others set).
    let slowest = rows
        .iter()
        .filter(|(_, r)| matches!(r.got, Ok(Verdict::Accepted)))
        .map(|(_, r)| r.time)
        .max();
    let from = match slowest {
        Some(_) => LimitFrom::Accepted { again: 0 },
        None if hit_ceiling(rows).is_empty() => LimitFrom::Least,
        None => LimitFrom::Ceiling,
    };
    let set = (slowest.unwrap_or_default().as_secs_f64() * config.limits.time_multiplier).ceil();
    (Duration::from_secs_f64(set.max(1.0)), from)
}

/// The accepted submissions of `rows` that hit the ceiling they were timed under.
fn hit_ceiling(rows: &[(usize, Row)]) -> Vec<usize> {
    rows.iter()
        .filter(|(_, r)| matches!(r.got, Ok(Verdict::TimeLimit)))
        .map(|(index, _)| *index)
        .collect()
}

/// The time limit of a package that fixes none, for the commands that judge one
/// submission on it (`test`, `batch`, `fuzz`): set from its accepted submissions, built
/// and run as `setup` says (the package's setup for its submissions, with its included
/// files), on `cases` judged by `judge`, as [`verify`] sets it; `config` its
/// `problem.yaml`.
pub(crate) fn limit_from_accepted(
    package: &Path,
    (config, cases, judge): (&config::Config, &[data::TestCase], &PackageJudge),
    setup: &Setup<'_>,
) -> Result<Duration, Fault> {
    let entries: Vec<Entry> = submissions::load(package)?
        .entries
        .into_iter()
        .filter(Entry::accepted)
        .collect();
    let built = build_all(&entries, setup)?;
    some_accepted_runs(package, &entries, &built, "; or give --time-limit")?;
    let work = Work {
        cases,
        scoring: None,
        judge,
        setup,
    };
    let all: Vec<usize> = (0..entries.len()).collect();
    let rows = work.run_all(&all, &built, CEILING, 1.0)?;
    match set_limit(&rows, config) {
        (_, LimitFrom::Ceiling) => Err(Fault::input(format!(
            "{}: no accepted submission passes within the {} s the grader times them under, \
             so the time limit cannot be set from them; give --time-limit",
            package.join("submissions/accepted").display(),
            CEILING.as_secs_f64()
        ))),
        (limit, _) => Ok(limit),
    }
}

/// Refuses a package none of whose accepted submissions runs here: the time limit is set
/// from them, and everything would pass with nothing measured. `or_else` says what else
/// the call could do.
fn some_accepted_runs(
    package: &Path,
    entries: &[Entry],
    built: &[Result<Program, NotBuilt>],
    or_else: &str,
) -> Result<(), Fault> {
    let accepted = || entries.iter().zip(built).filter(|(e, _)| e.accepted());
    if accepted().any(|(_, b)| b.is_ok()) {
        return Ok(());
    }
    let why = accepted()
        .find_map(|(e, b)| match b {
            Err(NotBuilt::NotRun(why)) => Some(format!(" ({}: {why})", e.name)),
            _ => None,
        })
        .unwrap_or_default();
    Err(Fault::input(format!(
        "{}: no accepted submission runs here{why}; the time limit is set from them{or_else}",
        package.join("submissions/accepted").display()
    )))
}

/// The scoring rules of every group of `cases`: each folder a case is in, and the folders
/// above it, up to `data/` itself (`""`); read before anything runs. 2025-09's keys where
/// they apply (a package of a version that gives no legacy scoring key), else the legacy
/// ones; and whether they were 2025-09's.
pub(crate) fn group_rules(
    package: &Path,
    cases: &[data::TestCase],
    config: &config::Config,
) -> Result<(BTreeMap<String, Rules>, bool), Fault> {
    if score_groups::applies(package, cases, config)? {
        return Ok((
            score_groups::rules(package, cases, &config.constants)?,
            true,
        ));
    }
    let mut rules = BTreeMap::new();
    rules.insert(
        String::new(),
        data::rules_for(package, "", &config.constants)?,
    );
    for test in cases {
        let mut group = test.case.name.as_str();
        while let Some((parent, _)) = group.rsplit_once('/') {
            if !rules.contains_key(parent) {
                let ruled = data::rules_for(package, parent, &config.constants)?;
                rules.insert(parent.to_owned(), ruled);
            }
            group = parent;
        }
    }
    Ok((rules, false))
}

/// What every run of a verification shares.
struct Work<'w> {
    cases: &'w [data::TestCase],
    /// A scoring problem's rules, by group (`""` for `data/`).
    scoring: Option<&'w BTreeMap<String, Rules>>,
    judge: &'w PackageJudge,
    setup: &'w Setup<'w>,
}

impl Work<'_> {
    /// Runs the built submissions `chosen` (indices into `built`), `setup.jobs` at once,
    /// judged at `limit` and run under `limit` times `margin`.
    fn run_all(
        &self,
        chosen: &[usize],
        built: &[Result<Program, NotBuilt>],
        limit: Duration,
        margin: f64,
    ) -> Result<Vec<(usize, Row)>, Fault> {
        let next = AtomicUsize::new(0);
        let rows = Mutex::new(Vec::new());
        let judged = Limits {
            cpu: limit,
            wall: limit.mul_f64(margin) * 3 + Duration::from_secs(1),
            ..self.setup.limits
        };
        let run = Limits {
            cpu: limit.mul_f64(margin),
            ..judged
        };
        let programs: Vec<&Program> = chosen
            .iter()
            .filter_map(|&i| built[i].as_ref().ok())
            .collect();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.setup.jobs.min(chosen.len()).max(1))
                .map(|_| {
                    scope.spawn(|| -> Result<(), Fault> {
                        let mut runner = Runner::start(&run, programs.iter().copied())?;
                        let mut validator = self.judge.worker()?;
                        while let Some(&index) = chosen.get(next.fetch_add(1, Ordering::Relaxed)) {
                            let row = match &built[index] {
                                Ok(program) => self.submission(
                                    program,
                                    &mut runner,
                                    validator.as_mut(),
                                    (&run, &judged),
                                )?,
                                Err(_) => Row::not_run(),
                            };
                            rows.locked().push((index, row));
                        }
                        Ok(())
                    })
                })
                .collect();
            joined(workers)
        })?;
        Ok(rows.into_value())
    }

    /// One submission on the cases, up to its first case that is not `AC`.
    fn submission(
        &self,
        program: &Program,
        runner: &mut Runner,
        mut validator: Option<&mut Validator<'_>>,
        (run, judged): (&Limits, &Limits),
    ) -> Result<Row, Fault> {
        let mut row = Row::not_run();
        row.got = Ok(Verdict::Accepted);
        let mut results = Vec::new();
        for test in self.cases {
            // A group that stops at its first rejection is decided by it: its later
            // cases cannot change the verdict or the score, so they are not run.
            if let Some(rules) = self.scoring
                && !scoring::needed(&test.case.name, &results, &|g: &str| rules[g].clone())
            {
                continue;
            }
            let (outcome, judgement) = if let Some(most) = self.judge.passes() {
                let validator = validator.as_deref_mut().ok_or_else(|| {
                    Fault::internal("no worker for the output validator".to_owned())
                })?;
                let passed = crate::package::programs::passes::case(
                    (runner, validator),
                    (self.judge, most),
                    program,
                    files_of(test),
                    (run, judged),
                    false,
                )?;
                (passed.outcome, passed.judgement)
            } else if self.judge.interactive_problem() {
                let ran =
                    self.interact(test, program, runner, validator.as_deref_mut(), run, judged)?;
                (ran.submission, ran.judgement)
            } else {
                let ran = runner.run(program, &Input::File(test.case.input.clone()), run)?;
                let mut fault = None;
                let judgement = crate::run::judge::judge(&ran.outcome, judged, |output| match self
                    .check(test, output, validator.as_deref_mut())
                {
                    Ok(judgement) => judgement,
                    Err(f) => {
                        fault = Some(f);
                        Judgement {
                            verdict: Verdict::Accepted,
                            message: String::new(),
                        }
                    }
                });
                if let Some(fault) = fault {
                    return Err(fault);
                }
                (ran.outcome, judgement)
            };
            row.time = row.time.max(outcome.cpu);
            results.push((test.case.name.clone(), judgement.verdict));
            if judgement.verdict != Verdict::Accepted && row.failed.is_none() {
                row.within_margin = judgement.verdict == Verdict::TimeLimit
                    && outcome.killed.is_none()
                    && outcome.cpu <= run.cpu;
                row.got = Ok(judgement.verdict);
                row.failed = Some((test.case.name.clone(), judgement.message));
                // A pass-fail problem's verdict is its first failing case's; a scoring
                // problem's groups need every case.
                if self.scoring.is_none() {
                    break;
                }
            }
        }
        if let Some(rules) = self.scoring {
            let (verdict, score) = scoring::grade(&results, &|group: &str| rules[group].clone());
            row.got = Ok(verdict);
            row.score = Some(score);
        }
        Ok(row)
    }

    /// Runs `program` on the case `test` of an interactive problem, against the
    /// interactor on `validator`, directly joined (nothing is shown of the exchange).
    fn interact(
        &self,
        test: &data::TestCase,
        program: &Program,
        runner: &mut Runner,
        validator: Option<&mut Validator<'_>>,
        run: &Limits,
        judged: &Limits,
    ) -> Result<Interacted, Fault> {
        let validator =
            validator.ok_or_else(|| Fault::internal("no worker for the interactor".to_owned()))?;
        let files = files_of(test);
        let case = interaction::Case {
            name: &test.case.name,
            files: (&test.case.input, &test.answer),
            flags: self.judge.flags(&files)?,
        };
        interaction::interact((runner, validator), program, case, (run, judged), false)
    }

    /// Judges one output of the case `test`.
    fn check(
        &self,
        test: &data::TestCase,
        output: &[u8],
        validator: Option<&mut Validator<'_>>,
    ) -> Result<Judgement, Fault> {
        let answer = crate::paths::files::read_capped(&test.answer)?;
        let files = CaseFiles {
            name: &test.case.name,
            origin: Origin::Data,
            input: &test.case.input,
            answer: &test.answer,
            answer_text: &answer,
        };
        self.judge.judge(files, output, validator)
    }
}

/// The files of the case `test` as a validator that reads them itself is given them (an
/// interactor, a multi-pass problem's validator): no answer's bytes.
fn files_of(test: &data::TestCase) -> CaseFiles<'_> {
    CaseFiles {
        name: &test.case.name,
        origin: Origin::Data,
        input: &test.case.input,
        answer: &test.answer,
        answer_text: &[],
    }
}

impl Row {
    /// A row before its submission runs (or when it cannot).
    fn not_run() -> Row {
        Row {
            name: String::new(),
            expected: Vec::new(),
            from: None,
            got: Err(String::new()),
            failed: None,
            time: Duration::ZERO,
            within_margin: false,
            score: None,
            wanted: None,
        }
    }
}
