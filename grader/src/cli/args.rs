//! The command line, as clap derive types: the only module that knows clap.
//!
//! docs/cli.md is the contract: command names, arguments and exit statuses are a public
//! interface that scripts depend on (a test keeps every flag here documented there).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use reference::Problem;

use crate::results::feedback::Reveal;

/// Judges contestant programs for classic board-search problems.
#[derive(Debug, Parser)]
#[command(name = "grader", version, propagate_version = true)]
#[command(
    after_help = "Exit statuses: 0 all good, 1 the submission or data failed, \
2 the call is wrong, 3 internal error, 128+N stopped by signal N (130 Ctrl-C).\n\
Documentation: docs/cli.md (commands, JSON), docs/judging.md (verdicts), \
docs/problems.md (or `grader problems PROBLEM`)."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// List the problems with their aliases, generation kinds and mutants; with a
    /// PROBLEM, print its statement, input and output formats and examples.
    Problems {
        /// The problem to describe (flip, fourinrow or swap, or an alias); all listed when
        /// absent. The text is docs/problems.md's section.
        #[arg(value_parser = parse_problem)]
        problem: Option<Problem>,
    },
    /// Print the reference answer for one input, exactly as a correct contestant would.
    Solve {
        /// flip, fourinrow or swap (aliases: poj1753, codevs1004, wikioi1004).
        #[arg(value_parser = parse_problem)]
        problem: Problem,
        /// The input file; standard input when absent.
        file: Option<PathBuf>,
        /// Reject `\r\n` line ends and a missing final newline instead of tolerating them.
        #[arg(long)]
        strict: bool,
        /// Also explain the answer: a minimum solution step by step, or why there is none.
        #[arg(long)]
        explain: bool,
        /// How to print: the answer (and explanation) as text, or one JSON object.
        #[arg(long, value_enum, default_value_t = SolveReport::Human)]
        report: SolveReport,
    },
    /// Judge one output for one input: exit 0 for AC, 1 for PE or WA (a special judge).
    Check {
        /// flip, fourinrow or swap.
        #[arg(value_parser = parse_problem)]
        problem: Problem,
        /// The input the program was given.
        input: PathBuf,
        /// What the program printed.
        output: PathBuf,
        /// A correct answer to judge against; the reference solver's when absent.
        #[arg(long)]
        answer: Option<PathBuf>,
        /// How to print the verdict: `AC` or `WA: why` (human), or one JSON object.
        #[arg(long, value_enum, default_value_t = CheckReport::Human)]
        report: CheckReport,
    },
    /// Validate input files strictly against docs/problems.md (exit 1 if any is malformed).
    Validate {
        /// flip, fourinrow or swap.
        #[arg(value_parser = parse_problem)]
        problem: Problem,
        /// The files to validate; standard input when none.
        files: Vec<PathBuf>,
    },
    /// Seeded random inputs: the same seed gives the same bytes on every platform.
    #[command(after_long_help = kinds_help(), after_help = kinds_help())]
    Gen(GenArgs),
    /// Regenerate, verify and measure the case folders.
    #[command(subcommand)]
    Cases(CasesCommand),
    /// Run a submission on every case under limits and judge it.
    Test(Box<TestArgs>),
    /// Differential random testing against the reference, shrinking any failure to a
    /// small reproducer (exit 1 on a finding).
    #[command(after_help = crate::fuzzing::mix::help())]
    #[command(after_long_help = crate::fuzzing::mix::help())]
    Fuzz(Box<FuzzArgs>),
    /// Grade every submission in a class folder: a gradebook (CSV, JSON, JUnit) out;
    /// resumable; splittable over machines with --shard.
    Batch(Box<BatchArgs>),
    /// Merge the gradebooks (`gradebook.json`) of shards into one.
    Merge(MergeArgs),
    /// What isolation this machine can give programs, and which tier `auto` picks.
    Doctor,
    /// Run one of a problem's classic wrong solutions on an input (for demonstrations
    /// and for measuring `grader fuzz`).
    Mutant(MutantArgs),
    /// Problem packages in the Kattis/ICPC format (docs/packages.md).
    #[command(subcommand)]
    Package(PackageCommand),
}

/// Arguments of `grader test`.
#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// flip, fourinrow or swap, or a problem package's folder (with a `problem.yaml`).
    #[arg(value_parser = parse_problem_or_package, value_name = "PROBLEM")]
    pub(crate) problem: ProblemOrPackage,
    #[command(flatten)]
    pub(crate) submission: SubmissionArgs,
    /// The cases: every `*.in` below it with its `.ans` (or `.out`). Default: the
    /// project's `cases/PROBLEM`.
    #[arg(long, value_name = "DIR")]
    pub(crate) cases: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    /// Cases run at once. Default: the number of cores.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::cli::values::jobs)]
    pub(crate) jobs: Option<u32>,
    /// The report: human (coloured on a terminal), json (docs/cli.md), junit or
    /// gradescope (its autograder `results.json`).
    #[arg(long, value_enum, default_value_t = TestReport::Human)]
    pub(crate) report: TestReport,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, value_name = "PATH")]
    pub(crate) report_file: Option<PathBuf>,
    /// Stop starting cases after the first one that is not AC.
    #[arg(long)]
    pub(crate) fail_fast: bool,
    /// What group GROUP of cases is worth (`secret/answers=40`), over the case folder
    /// manifest's `points`; repeatable. Scores `--report gradescope`: each case is worth
    /// its group's points over the group's cases (1 without points).
    #[arg(long, value_name = "GROUP=POINTS")]
    pub(crate) points: Vec<crate::cases::points::PointsRule>,
    /// `--report gradescope`: when students see the secret cases' results (the samples
    /// are always visible).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t)]
    pub(crate) gradescope_visibility: crate::results::submission::Visibility,
}

/// What to run: a file or a command line, and how to build it.
#[derive(Debug, Args)]
pub(crate) struct SubmissionArgs {
    /// An executable, or a source file (.c, .cpp/.cc/.cxx, .py, .rs, .java, .pas, .go, .js,
    /// or see --lang).
    #[arg(required_unless_present = "cmd", conflicts_with = "cmd")]
    pub(crate) submission: Option<PathBuf>,
    /// Run this command line instead of a file (split like a shell would).
    #[arg(long, value_name = "COMMAND")]
    pub(crate) cmd: Option<String>,
    /// The language or profile (e.g. `cpp98`, or `poj` for POJ-era C and C++), instead of
    /// the one the extension says.
    #[arg(long, value_name = "NAME")]
    pub(crate) lang: Option<String>,
    /// A language table that overrides or adds entries (the format of `languages.toml`).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Where compiled programs are cached. Default: $GRADER_CACHE_DIR, else
    /// $XDG_CACHE_HOME/grader, else ~/.cache/grader.
    #[arg(long, value_name = "DIR")]
    pub(crate) cache_dir: Option<PathBuf>,
}

/// The limits of every run.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct LimitArgs {
    /// CPU time per run (`1`, `1.5s`, `500ms`). Default: 1 s; a package's: its
    /// problem.yaml's, else set from its accepted submissions (docs/packages.md).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = crate::cli::values::duration)]
    pub(crate) time_limit: Option<std::time::Duration>,
    /// Wall time per run. Default: the CPU limit x 3 + 1 s.
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = crate::cli::values::duration)]
    pub(crate) wall_limit: Option<std::time::Duration>,
    /// Peak resident memory per run (`256`, `256MiB`, `1G`; a bare number is MiB).
    /// Default: 256 MiB; a package's: its problem.yaml's.
    #[arg(long, value_name = "MIB", allow_hyphen_values = true, value_parser = crate::cli::values::size)]
    pub(crate) memory_limit: Option<u64>,
    /// Standard output per run. Default: 64 MiB; a package's: its problem.yaml's.
    #[arg(long, value_name = "MIB", allow_hyphen_values = true, value_parser = crate::cli::values::size)]
    pub(crate) output_limit: Option<u64>,
    /// Processes and threads alive at once per run (a box's cap: a fork bomb stops there,
    /// and other runs are not starved).
    #[arg(long, value_name = "N", default_value = "64", allow_hyphen_values = true, value_parser = crate::cli::values::processes)]
    pub(crate) max_processes: u64,
    /// The isolation tier (`grader doctor` shows what this machine has). Default: auto, the
    /// strongest available.
    #[arg(long, value_enum, value_name = "TIER")]
    pub(crate) sandbox: Option<Sandbox>,
}

impl LimitArgs {
    /// The CPU limit when `--time-limit` is not given (a built-in problem's).
    pub(crate) const TIME: std::time::Duration = std::time::Duration::from_secs(1);
    /// The memory limit when `--memory-limit` is not given, bytes.
    pub(crate) const MEMORY: u64 = 256 << 20;
    /// The output limit when `--output-limit` is not given, bytes.
    pub(crate) const OUTPUT: u64 = 64 << 20;

    /// The CPU limit asked for, or the default.
    pub(crate) fn time(&self) -> std::time::Duration {
        self.time_limit.unwrap_or(Self::TIME)
    }

    /// The memory limit asked for, or the default.
    pub(crate) fn memory(&self) -> u64 {
        self.memory_limit.unwrap_or(Self::MEMORY)
    }

    /// The output limit asked for, or the default.
    pub(crate) fn output(&self) -> u64 {
        self.output_limit.unwrap_or(Self::OUTPUT)
    }
}

/// `--sandbox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Sandbox {
    /// The strongest tier this machine supports.
    Auto,
    /// basic, plus a box (namespaces: only the system folders and its own files, read-only,
    /// a private working folder, no network, no other process) and seccomp.
    Strict,
    /// A session of its own, rlimits, cgroup accounting, and a uid per worker when the
    /// grader is root.
    Basic,
    /// A session of its own and the whole tree killed; nothing else.
    None,
}

/// Arguments of `grader fuzz`.
#[derive(Debug, Args)]
pub(crate) struct FuzzArgs {
    /// flip, fourinrow or swap, or a problem package's folder (with a `problem.yaml` and a
    /// generator).
    #[arg(value_parser = parse_problem_or_package, value_name = "PROBLEM")]
    pub(crate) problem: ProblemOrPackage,
    #[command(flatten)]
    pub(crate) submission: SubmissionArgs,
    /// The seed (any unsigned 64-bit number). Default: drawn from the clock, and printed.
    #[arg(long, value_name = "SEED", allow_hyphen_values = true, value_parser = crate::cli::values::seed)]
    pub(crate) seed: Option<u64>,
    /// At most this many runs. Default: 1000, unless --duration is given.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::cli::values::runs)]
    pub(crate) runs: Option<u64>,
    /// Stop starting runs after this long (`60`, `90s`, `500ms`).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = crate::cli::values::duration)]
    pub(crate) duration: Option<std::time::Duration>,
    /// Run every input instead of random ones, where the space is small enough (flip:
    /// 65,536 boards; fourinrow: 411,840).
    #[arg(long, conflicts_with_all = ["seed", "runs"])]
    pub(crate) exhaustive: bool,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    /// Runs at once. Default: the number of cores.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::cli::values::jobs)]
    pub(crate) jobs: Option<u32>,
    /// Write the shrunk failing case into this folder as `.in`/`.ans`, ready for a case
    /// folder.
    #[arg(long, value_name = "DIR")]
    pub(crate) save: Option<PathBuf>,
    /// The regressions file: earlier failures, replayed first; a new failure is added.
    /// Default: `fuzz-regressions/PROBLEM.txt`.
    #[arg(long, value_name = "FILE")]
    pub(crate) regressions: Option<PathBuf>,
    /// Neither replay nor record regressions.
    #[arg(long, conflicts_with = "regressions")]
    pub(crate) no_regressions: bool,
    /// At most this many runs spent shrinking a failure (0: do not shrink).
    #[arg(long, value_name = "N", default_value_t = 500, allow_hyphen_values = true, value_parser = crate::cli::values::shrink_steps)]
    pub(crate) shrink_steps: u32,
    /// The report: human, json or junit.
    #[arg(long, value_enum, default_value_t = TestReport::Human)]
    pub(crate) report: TestReport,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, value_name = "PATH")]
    pub(crate) report_file: Option<PathBuf>,
}

/// Arguments of `grader batch`.
#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// flip, fourinrow or swap, or a problem package's folder (with a `problem.yaml`).
    #[arg(value_parser = parse_problem_or_package, value_name = "PROBLEM")]
    pub(crate) problem: ProblemOrPackage,
    /// The class folder: a file or a folder per student, possibly in section folders.
    pub(crate) dir: PathBuf,
    /// In a student's folder, the entry file: a glob on file names (`main.*`, `*.cpp`).
    #[arg(long, value_name = "PATTERN")]
    pub(crate) entry: Option<String>,
    /// How student folders are told from section folders.
    #[arg(long, value_enum, default_value_t = BatchLayout::Auto)]
    pub(crate) layout: BatchLayout,
    /// The cases. Default: the project's `cases/PROBLEM`.
    #[arg(long, value_name = "DIR")]
    pub(crate) cases: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    /// Runs at once, over all submissions. Default: the number of cores.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::cli::values::jobs)]
    pub(crate) jobs: Option<u32>,
    /// Where the gradebook (`gradebook.csv`, `.json`, `.xml`) and the journal go.
    #[arg(long, value_name = "DIR", default_value = "gradebook")]
    pub(crate) out: PathBuf,
    /// What to print: a human summary, or the gradebook as json, csv or junit.
    #[arg(long, value_enum, default_value_t = BatchReport::Human)]
    pub(crate) report: BatchReport,
    /// Grade only shard K of N (`2/4`): a split by a hash of each student's name.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true, value_parser = crate::batch::shard::parse)]
    pub(crate) shard: Option<crate::batch::shard::Shard>,
    /// Exit 0 once every student has a verdict, whatever it is, and 1 only when a
    /// student could not be graded (`--`): for a shard run by a scheduler or CI, where
    /// status 1 fails the job. A fault is still 2, 3 or 128+N.
    #[arg(long)]
    pub(crate) exit_zero_when_graded: bool,
    /// Stop a submission's runs after its first failing case.
    #[arg(long)]
    pub(crate) fail_fast_per_submission: bool,
    /// Stop a submission's runs after N cases in a row ended in a TLE at the wall limit
    /// with the program idle (it slept or waited for input): its other cases are not run
    /// and are `--`, neither passed nor failed. 0 runs every case.
    #[arg(long, value_name = "N", default_value_t = 3, allow_hyphen_values = true, value_parser = crate::cli::values::wall_tles)]
    pub(crate) stop_after_wall_tles: usize,
    /// A language table that overrides or adds entries (the format of `languages.toml`).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Compile the students PATTERN matches as language or profile NAME, the others by
    /// extension: `--lang-for 'alice=poj'` for one student's POJ-era code. PATTERN is a
    /// glob on the student's name (`section-a/alice`) or its last part (`alice`, `al*`);
    /// repeatable, the last match wins.
    #[arg(long, value_name = "PATTERN=NAME", value_parser = crate::batch::lang_for::parse)]
    pub(crate) lang_for: Vec<crate::batch::lang_for::LangFor>,
    /// What group GROUP of cases is worth (`secret/answers=40`), over the case folder
    /// manifest's `points`; repeatable. With points, each student earns each group's
    /// points in proportion to its AC cases; a group given none is worth 0.
    #[arg(long, value_name = "GROUP=POINTS")]
    pub(crate) points: Vec<crate::cases::points::PointsRule>,
    /// Where compiled programs are cached.
    #[arg(long, value_name = "DIR")]
    pub(crate) cache_dir: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) feedback: FeedbackArgs,
}

/// The feedback pages of `grader batch` and `grader merge`.
#[derive(Debug, Args)]
pub(crate) struct FeedbackArgs {
    /// Also write one self-contained HTML page per student into DIR (`DIR/<student>.html`,
    /// `section-a--alice.html` for `section-a/alice`), to hand out: the student's verdicts,
    /// score and failures, nothing of any other student.
    #[arg(long, value_name = "DIR")]
    pub(crate) feedback: Option<PathBuf>,
    /// What the feedback pages show of the secret cases (sample cases are always shown in
    /// full): the verdict only, also the board and the explanation of a wrong answer, or
    /// also the expected answer and the program's output.
    #[arg(long, value_enum, default_value_t = Reveal::Verdicts, requires = "feedback")]
    pub(crate) reveal: Reveal,
}

/// `--layout` of `grader batch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BatchLayout {
    /// A folder with an entry file (--entry, main.*, solution.*, sol.*, or named after
    /// the folder) is a student; other folders are sections.
    Auto,
    /// As auto; also a folder whose only source file it is, unless a folder below it
    /// holds sources.
    Folders,
    /// Every source file is a student; folders are sections.
    Files,
}

/// What `grader batch` and `grader merge` print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BatchReport {
    /// A table of students and a summary.
    Human,
    /// The gradebook as JSON.
    Json,
    /// The gradebook as CSV.
    Csv,
    /// The gradebook as JUnit XML.
    Junit,
}

/// Arguments of `grader merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The shards' `gradebook.json` files.
    #[arg(required = true, value_name = "GRADEBOOK.json")]
    pub(crate) reports: Vec<PathBuf>,
    /// Where the merged gradebook goes.
    #[arg(long, value_name = "DIR", default_value = "gradebook")]
    pub(crate) out: PathBuf,
    /// What to print.
    #[arg(long, value_enum, default_value_t = BatchReport::Human)]
    pub(crate) report: BatchReport,
    /// Exit 0 once every student has a verdict, whatever it is, and 1 only when a
    /// student could not be graded (`--`): for a shard run by a scheduler or CI, where
    /// status 1 fails the job. A fault is still 2, 3 or 128+N.
    #[arg(long)]
    pub(crate) exit_zero_when_graded: bool,
    #[command(flatten)]
    pub(crate) feedback: FeedbackArgs,
}

/// Arguments of `grader mutant`.
#[derive(Debug, Args)]
pub(crate) struct MutantArgs {
    /// flip, fourinrow or swap.
    #[arg(value_parser = parse_problem)]
    pub(crate) problem: Problem,
    /// The mutant's name (`grader problems` lists them).
    pub(crate) name: String,
    /// The input file; standard input when absent.
    pub(crate) file: Option<PathBuf>,
}

/// The report formats of `grader test` and `grader fuzz`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TestReport {
    /// A table of cases, with diffs of the failures.
    Human,
    /// One JSON object (docs/cli.md).
    Json,
    /// JUnit XML, one `<testcase>` per case.
    Junit,
    /// Gradescope's autograder `results.json` (`grader test` only).
    Gradescope,
}

/// Arguments of `grader gen`.
#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// flip, fourinrow or swap.
    #[arg(value_parser = parse_problem)]
    pub(crate) problem: Problem,
    /// The seed (any unsigned 64-bit number).
    #[arg(long, value_name = "SEED", allow_hyphen_values = true, value_parser = crate::cli::values::seed)]
    pub(crate) seed: u64,
    /// How many inputs to draw.
    #[arg(long, value_name = "N", default_value_t = 1, allow_hyphen_values = true, value_parser = crate::cli::values::count)]
    pub(crate) count: u32,
    /// What kind of input to draw (see the list below).
    #[arg(long, default_value = "random")]
    pub(crate) kind: String,
    /// Write NNN.in and NNN.ans files into this folder instead of printing the inputs.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// With --out: overwrite files that already exist.
    #[arg(long, requires = "out")]
    pub(crate) force: bool,
}

/// The report formats of `grader solve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SolveReport {
    /// The answer as a correct contestant prints it; with `--explain`, the reason and the
    /// steps drawn below it.
    Human,
    /// `{"problem": ..., "answer": ..., "explanation": ...}`.
    Json,
}

/// The report formats of `grader check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CheckReport {
    /// `AC`, or `WA: expected ..., got ...`.
    Human,
    /// `{"problem": ..., "verdict": ..., "message": ...}`.
    Json,
}

/// `grader cases ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum CasesCommand {
    /// Rewrite the case folders from their manifests (deterministic and atomic).
    Regen {
        /// The problems to regenerate; all when none.
        #[arg(value_parser = parse_problem)]
        problems: Vec<Problem>,
        /// The folder holding one case folder per problem.
        #[arg(long, default_value = "cases")]
        root: PathBuf,
        /// Write nothing; exit 1 if any folder differs from what its manifest makes.
        #[arg(long)]
        check: bool,
    },
    /// Validate every input, verify every answer, find duplicates, show the answers.
    Check {
        /// The problems to check; all when none. A problem package's folder (with a
        /// `problem.yaml`) has its data checked by its own validators.
        #[arg(value_parser = parse_problem_or_package, value_name = "PROBLEM|PKG")]
        problems: Vec<ProblemOrPackage>,
        /// The folder holding one case folder per problem.
        #[arg(long, default_value = "cases")]
        root: PathBuf,
        /// The isolation tier a package's validators run in (`grader doctor`). Default:
        /// auto, the strongest available.
        #[arg(long, value_enum, value_name = "TIER")]
        sandbox: Option<Sandbox>,
    },
    /// Run the classic wrong solutions on the cases: the kill matrix and mutation score.
    Power {
        /// The problem whose cases to measure.
        #[arg(value_parser = parse_problem)]
        problem: Problem,
        /// The folder holding one case folder per problem.
        #[arg(long, default_value = "cases")]
        root: PathBuf,
    },
}

/// `grader package ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum PackageCommand {
    /// Write a built-in problem as a problem package: its cases, input validator, output
    /// validator (swap), statement, and the reference and a classic wrong solution as
    /// submissions.
    Export {
        /// flip, fourinrow or swap.
        #[arg(value_parser = parse_problem)]
        problem: Problem,
        /// The package folder to write (made if missing; an existing one must be empty).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Replace the package already in DIR (a folder with a `problem.yaml`; no other
        /// folder is ever replaced).
        #[arg(long)]
        force: bool,
    },
    /// Run every submission of a package on its test data and check that each gets the
    /// verdict its folder names (exit 1 when one does not).
    Verify {
        /// The package folder (with `problem.yaml`, `data/`, `submissions/`).
        package: PathBuf,
        /// Submissions run at once. Default: the number of cores.
        #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::cli::values::jobs)]
        jobs: Option<u32>,
        /// The isolation tier (`grader doctor`). Default: auto, the strongest available.
        #[arg(long, value_enum, value_name = "TIER")]
        sandbox: Option<Sandbox>,
        /// Where compiled programs are cached.
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        /// When the package fixes no time limit: the CPU time its accepted submissions are
        /// first timed under, to set it (one past it runs again under the limit set).
        /// Default: 10 s.
        #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::values::duration)]
        time_ceiling: Option<std::time::Duration>,
    },
}

/// A problem named on the command line: a built-in one, or a problem package's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProblemOrPackage {
    /// flip, fourinrow or swap (or an alias): the names keep their meaning.
    Builtin(Problem),
    /// A folder with a `problem.yaml`.
    Package(PathBuf),
}

fn parse_problem_or_package(word: &str) -> Result<ProblemOrPackage, String> {
    match parse_problem(word) {
        Ok(problem) => Ok(ProblemOrPackage::Builtin(problem)),
        // Anything named problem.yaml makes a package: one that is not a file (a broken
        // link, a device) is then named as such by its reader, not taken for no package.
        Err(_)
            if std::fs::symlink_metadata(std::path::Path::new(word).join("problem.yaml"))
                .is_ok() =>
        {
            Ok(ProblemOrPackage::Package(PathBuf::from(word)))
        }
        Err(unknown) => Err(format!(
            "{unknown}, and no problem package (a folder with a problem.yaml) is there"
        )),
    }
}

fn parse_problem(name: &str) -> Result<Problem, String> {
    name.parse()
        .map_err(|e: reference::UnknownProblem| e.to_string())
}

/// The generation kinds of every problem, for `grader gen --help`.
fn kinds_help() -> String {
    let mut out = String::from("Kinds:\n");
    for problem in Problem::ALL {
        let _ = writeln!(out, "  {problem}:");
        for kind in problem.kinds() {
            let _ = writeln!(out, "    {:<22} {}", kind.name, kind.about);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_cli_is_consistent() {
        Cli::command().debug_assert();
    }
}
