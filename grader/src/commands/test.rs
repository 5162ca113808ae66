//! `grader test PROBLEM SUBMISSION`: the main job. Builds the submission, runs it on every
//! case under limits on N workers, judges, and reports.

use std::path::PathBuf;

use crate::cases::{self, discover};
use crate::cli::{TestArgs, TestReport};
use crate::files;
use crate::grade::{self, Plan};
use crate::report::{self, verdicts::Graded};
use crate::status::{Fault, Status};
use crate::submission::Built;

pub(crate) fn run(args: &TestArgs) -> Result<Status, Fault> {
    let problem = args.problem;
    // Everything the call names is checked before anything runs.
    let folder = match &args.cases {
        Some(dir) => dir.clone(),
        None => default_cases(problem.id()),
    };
    let cases = discover::discover(&cases::data_dir(&folder))?;
    if cases.is_empty() {
        return Err(Fault::Usage(format!(
            "{}: no cases (`*.in` files) below it",
            folder.display()
        )));
    }
    if let Some(case) = cases.iter().find(|c| c.answer.is_none()) {
        return Err(Fault::Usage(format!(
            "{}: no answer file beside it (.ans or .out)",
            case.input.display()
        )));
    }
    let limits = super::limits(&args.limits)?;
    let (built, shown) = super::build(&args.submission)?;
    let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    let (results, language, cached, compile_error) = match built {
        Built::CompileError { language, message } => (Vec::new(), language, false, Some(message)),
        Built::Ready(program) => {
            let plan = Plan {
                problem,
                limits,
                jobs: jobs(args.jobs),
                fail_fast: args.fail_fast,
            };
            let results = grade::grade(&program, &cases, &plan)?;
            (results, program.language.clone(), program.cached, None)
        }
    };
    let graded = Graded {
        problem: problem.id(),
        submission: shown,
        language,
        cached,
        compile_error,
        limits,
        total: cases.len(),
        results: &results,
        names,
    };
    let text = match args.report {
        TestReport::Human => report::verdicts::human(&graded),
        TestReport::Json => report::verdicts::json(&graded),
        TestReport::Junit => report::verdicts::junit(&graded),
    };
    match &args.report_file {
        Some(path) => {
            files::write_atomic(path, report::plain(&text).as_bytes())?;
            report::note(&format!(
                "{} {}/{} passed; report written to {}",
                graded.verdict().code(),
                graded.passed(),
                graded.total,
                path.display()
            ));
        }
        None => report::out_styled(&text),
    }
    Ok(Status::failed_if(
        graded.verdict() != reference::Verdict::Accepted,
    ))
}

/// `--jobs`, by default the number of cores.
pub(crate) fn jobs(jobs: Option<u32>) -> usize {
    jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |j| j as usize,
    )
}

/// `./cases/PROBLEM` when run from a checkout, else the cases this binary was built with.
pub(crate) fn default_cases(problem: &str) -> PathBuf {
    let local = PathBuf::from("cases").join(problem);
    if local.is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cases")
        .join(problem)
}
