//! The flags several subcommands share, turned into what the domain takes: `--cases` into
//! sound cases, the submission flags into a built program, the limit flags into
//! [`Limits`], `--jobs` into a count, and what a call reads into the [`Inputs`] the rule
//! of outputs checks against.

use std::sync::Arc;

use sandbox::Limits;
use sandbox::tiers::{self, Machine, Tier};

use crate::cases::{
    self as case_folders,
    find::{self, Case},
};
use crate::cli::args::{LimitArgs, Sandbox, SubmissionArgs};
use crate::cli::exit::Fault;
use crate::paths::outputs::Inputs;
use crate::run::grade::{CaseText, SoundCase};
use crate::submission::added::Added;
use crate::submission::{self, Built, Foreseen, Options, Submission, languages::Languages};

/// The cases of `--cases DIR` (default: the project's `cases/PROBLEM`), read and checked
/// before anything runs: at least one, each with its answer, and each sound
/// (`cases::sound`): a broken case is the call's fault, never every contestant's `WA`.
pub(super) fn gradable_cases(
    problem: reference::Problem,
    dir: Option<&std::path::Path>,
) -> Result<Vec<SoundCase>, Fault> {
    let folder = case_folder(problem, dir);
    let cases = find::discover(&case_folders::data_dir(&folder))?;
    if cases.is_empty() {
        return Err(Fault::input(format!(
            "{}: no cases (`*.in` files) below it",
            folder.display()
        )));
    }
    cases
        .into_iter()
        .map(|case| {
            let text = CaseText::load_sound(problem, &case)?;
            Ok(SoundCase { case, text })
        })
        .collect()
}

/// The case folder a call names, or the problem's own.
pub(super) fn case_folder(
    problem: reference::Problem,
    dir: Option<&std::path::Path>,
) -> std::path::PathBuf {
    dir.map_or_else(|| default_cases(problem.id()), std::path::Path::to_path_buf)
}

/// `./cases/PROBLEM` when run from a checkout, else the cases this binary was built with.
fn default_cases(problem: &str) -> std::path::PathBuf {
    let local = std::path::PathBuf::from("cases").join(problem);
    if local.is_dir() {
        return local;
    }
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cases")
        .join(problem)
}

/// What a call reads, for the rule of outputs (`outputs`): the submission and language
/// table the flags name, and the cases.
pub(super) fn inputs<'c>(
    args: Option<&SubmissionArgs>,
    cases: impl IntoIterator<Item = &'c Case>,
) -> Inputs {
    let mut inputs = Inputs::default();
    if let Some(args) = args {
        if let Some(path) = &args.submission {
            inputs.add(path, "submission");
        }
        if let Some(path) = &args.config {
            inputs.add(path, "language table");
        }
    }
    for case in cases {
        inputs.add_case(case);
    }
    inputs
}

/// `--jobs`, by default the number of cores: those this process may use (its CPU
/// affinity and cgroup quota, as `available_parallelism` reads them), and inside a Slurm
/// job no more than the job was given, `SLURM_CPUS_PER_TASK` (set by `--cpus-per-task`),
/// else `SLURM_CPUS_ON_NODE`. A cluster without Slurm's cgroup and affinity plugins
/// gives a job of one CPU the whole machine to see, and does not hold it to its share.
pub(super) fn jobs(jobs: Option<u32>) -> usize {
    jobs.map_or_else(
        || {
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            let given = |name| {
                let text = std::env::var(name).ok()?;
                text.trim().parse::<usize>().ok().filter(|&n| n > 0)
            };
            given("SLURM_CPUS_PER_TASK")
                .or_else(|| given("SLURM_CPUS_ON_NODE"))
                .map_or(cores, |n| n.min(cores))
        },
        |j| j as usize,
    )
}

/// The tier `--sandbox` asks for (`None`: auto).
fn asked_tier(args: &LimitArgs) -> Option<Tier> {
    args.sandbox.and_then(|s| match s {
        Sandbox::Auto => None,
        Sandbox::Strict => Some(Tier::Strict),
        Sandbox::Basic => Some(Tier::Basic),
        Sandbox::None => Some(Tier::None),
    })
}

/// What the flags' runs ask of a worker, which its trial asks too.
fn needs(args: &LimitArgs) -> tiers::Needs {
    tiers::Needs {
        cpu: args.time(),
        memory: args.memory(),
        output: args.output(),
        processes: args.max_processes,
    }
}

/// Sets up, on a thread of its own, the worker [`limits`] will try its tier with, while
/// the command reads its cases and builds (see `tiers::try_ahead`).
pub(super) fn warm_up(args: &LimitArgs) {
    tiers::try_ahead(asked_tier(args), needs(args));
}

/// The limits the flags give (the wall limit defaults to the CPU limit x 3 + 1 s; the
/// sandbox to the strongest tier this machine has).
pub(super) fn limits(args: &LimitArgs) -> Result<Limits, Fault> {
    // Every command that runs programs asks for its limits before its first run: the
    // temporary folder they all need is checked here, before the tier is, whose trial
    // would fail in it and be blamed.
    crate::paths::temp::usable()?;
    let (sandbox, passed) =
        Machine::get().resolve(asked_tier(args), |tier| tiers::tried(tier, needs(args)))?;
    // Why the run is less confined than it could be, once, before any work.
    for why in passed {
        crate::report::note(&format!("grader: note: sandbox {sandbox}, since {why}"));
    }
    Ok(Limits {
        cpu: args.time(),
        wall: args.wall_limit.unwrap_or_else(|| wall_for(args.time())),
        memory: args.memory(),
        output: args.output(),
        processes: args.max_processes,
        sandbox,
    })
}

/// The wall limit of a CPU limit when `--wall-limit` is not given: CPU x 3 + 1 s.
pub(super) fn wall_for(cpu: std::time::Duration) -> std::time::Duration {
    cpu * 3 + std::time::Duration::from_secs(1)
}

/// Builds the submission the flags name, with the files `added` gives its language (a
/// package's included files): a program, or the compiler's refusal; with the name
/// reports show for it. `before` is told what is about to be built, and under which
/// name, before anything compiles (not when the build will be refused).
pub(super) fn build(
    args: &SubmissionArgs,
    (tier, added): (Tier, Arc<Added>),
    before: impl FnOnce(&Foreseen, &str),
) -> Result<(Built, String), Fault> {
    let languages = Languages::load(args.config.as_deref())?;
    let submission = match (&args.cmd, &args.submission) {
        (Some(line), _) => Submission::Command(line.clone()),
        (None, Some(path)) => Submission::File(path.clone()),
        (None, None) => return Err(Fault::call("a SUBMISSION or --cmd is required")),
    };
    let shown = submission.shown();
    let options = Options::new(
        &languages,
        args.lang.as_deref(),
        args.cache_dir.clone(),
        tier,
    )
    .adding(added);
    let built = submission::build_one(&submission, &options, |foreseen| {
        before(foreseen, &shown);
    })?;
    Ok((built, shown))
}

/// How a path is named in messages: the path, or `<stdin>`.
pub(super) fn display_name(path: Option<&std::path::Path>) -> std::path::PathBuf {
    path.map_or_else(|| "<stdin>".into(), std::path::Path::to_path_buf)
}
