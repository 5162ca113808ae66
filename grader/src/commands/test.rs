//! `grader test PROBLEM SUBMISSION`: the main job. Builds the submission, runs it on every
//! case under limits on N workers, judges, and reports.

use super::graded::{Asked, Graded};
use crate::cli::args::{TestArgs, TestReport};
use crate::cli::exit::{Fault, Status};
use crate::paths::outputs::{self, Kind, Parent};
use crate::report::exporter::Exporter;
use crate::report::human::submission::{self as human, Heading};
use crate::report::{self, gradescope, json, junit, progress::TestProgress};
use crate::results::limits::LimitsRecord;
use crate::results::submission::{Build, Scoring, SubmissionResult};
use crate::run::grade::{self, CaseWorker, Plan};
use crate::submission::Built;

pub(crate) fn run(args: &TestArgs) -> Result<Status, Fault> {
    // Everything the call names is checked before anything runs.
    let graded = Graded::read(&Asked {
        problem: &args.problem,
        cases: args.cases.as_deref(),
        limits: &args.limits,
        points: &args.points,
        config: args.submission.config.as_deref(),
        cache_dir: args.submission.cache_dir.as_deref(),
        jobs: args.jobs,
        graded: args.submission.submission.as_deref(),
    })?;
    let cases = &graded.cases;
    if let Some(path) = &args.report_file {
        let inputs = super::flags::inputs(Some(&args.submission), cases.iter().map(|c| &c.case));
        outputs::file(path, Kind::Report, Parent::MustExist, &inputs)?;
    }
    let found: Vec<_> = cases.iter().map(|c| c.case.clone()).collect();
    let (points, unpriced) = graded.points.clone();
    if let Some(warning) = unpriced {
        crate::report::note(&format!("grader: warning: {warning}"));
    }
    let scoring = Scoring::of(points, &found, args.gradescope_visibility);
    let limits = graded.limits;
    let names: Vec<String> = cases.iter().map(|c| c.case.name.clone()).collect();
    let mut progress =
        TestProgress::new(args.report == TestReport::Human && args.report_file.is_none());
    let (built, shown) = graded.build(&args.submission, |foreseen, shown| {
        let header = human::header(&Heading {
            problem: graded.id.id(),
            submission: shown,
            language: &foreseen.language,
            built: None,
            total: cases.len(),
            limits: LimitsRecord::of(&limits),
        });
        progress.building(&header, foreseen.compiles.then_some(shown));
    })?;
    let (results, language, build) = match built {
        Built::CompileError { language, message } => {
            (Vec::new(), language, Build::CompileError(message))
        }
        Built::Ready(program) => {
            let plan = Plan {
                checker: graded.checker(),
                limits,
            };
            let build = Build::of(program.compiled, program.cached);
            progress.built(build.describe());
            progress.running(&names);
            let mut workers =
                CaseWorker::for_test(super::flags::jobs(args.jobs), &program, cases, &plan);
            let results = grade::grade(
                &mut workers,
                &program,
                cases.len(),
                args.fail_fast,
                |index, result| progress.case_done(index, result),
            )?;
            workers.into_iter().for_each(CaseWorker::retire);
            (results, program.language.clone(), build)
        }
    };
    progress.finish();
    let result = SubmissionResult {
        problem: graded.id.clone(),
        submission: shown,
        language,
        build,
        limits: LimitsRecord::of(&limits),
        names,
        cases: results,
        boards: cases
            .iter()
            .map(|c| (c.case.name.clone(), c.text.board()))
            .collect(),
        scoring,
    };
    let exporter = match args.report {
        TestReport::Human if progress.streamed() => Exporter::styled(human::after_streamed_table),
        TestReport::Human => Exporter::styled(human::report),
        TestReport::Json => Exporter::raw(json::submission),
        TestReport::Junit => Exporter::raw(junit::submission),
        TestReport::Gradescope => Exporter::raw(gradescope::submission),
    };
    match &args.report_file {
        Some(path) => {
            exporter.save(path, &result)?;
            report::note(&format!(
                "{} {}/{} passed; report written to {}",
                result.verdict(),
                result.passed(),
                result.total(),
                path.display()
            ));
        }
        None => exporter.print(&result)?,
    }
    Ok(Status::failed_if(
        result.verdict() != reference::Verdict::Accepted,
    ))
}
