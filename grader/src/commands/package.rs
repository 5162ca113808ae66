//! `grader package export PROBLEM --out DIR [--force]`: a built-in problem written as a
//! problem package in the Kattis/ICPC format; `grader package verify PKG`: a package's
//! submissions checked against the verdicts their folders name; and for `grader cases
//! check PKG`, a package's data checked by its validators (docs/packages.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use reference::Problem;

use crate::cli::args::{LimitArgs, PackageCommand, Sandbox};
use crate::cli::exit::{Fault, Status};
use crate::package::checks::data_check::{self, Checked};
use crate::package::checks::verify::{self, LimitFrom, Verified};
use crate::package::export::{tree, write};
use crate::package::format::config;
use crate::package::programs::building::Setup;
use crate::report::{self, tables::Table};
use crate::submission::{HeaderUse, Options, languages::Languages};

pub(crate) fn run(command: PackageCommand) -> Result<Status, Fault> {
    match command {
        PackageCommand::Export {
            problem,
            out,
            force,
        } => export(problem, &out, force),
        PackageCommand::Verify {
            package,
            jobs,
            sandbox,
            cache_dir,
            time_ceiling,
        } => verify(&package, jobs, sandbox, cache_dir, time_ceiling),
    }
}

fn export(problem: Problem, out: &Path, force: bool) -> Result<Status, Fault> {
    let folder = super::flags::case_folder(problem, None);
    // The cases are read and checked before anything is written: a broken case folder is
    // never exported as a package that its own tools would then refuse.
    let cases = super::flags::gradable_cases(problem, None)?;
    let mut inputs = super::flags::inputs(None, cases.iter().map(|c| &c.case));
    inputs.add(&folder, "case folder");
    write::check(out, force, &inputs)?;
    let files = tree::package(problem, &cases, super::problems::section(problem));
    write::write(out, &files)?;
    report::note(&format!(
        "wrote the {problem} package to {} ({} cases, {} files)",
        out.display(),
        cases.len(),
        files.len()
    ));
    Ok(Status::Ok)
}

fn verify(
    package: &Path,
    jobs: Option<u32>,
    sandbox: Option<Sandbox>,
    cache_dir: Option<PathBuf>,
    ceiling: Option<Duration>,
) -> Result<Status, Fault> {
    let languages = Languages::load(None)?;
    let mut setup = setup(package, &languages, (jobs, sandbox, cache_dir))?;
    // The sources are known and compiled once: a precompiled header is worth building
    // only for the second that names it.
    setup.options.header = HeaderUse::OnceShared;
    let verified = verify::verify(package, &setup, ceiling.unwrap_or(verify::CEILING))?;
    report::out(&table(&verified));
    let disagrees = verified.rows.iter().any(|r| !r.agrees());
    Ok(Status::failed_if(
        disagrees || !verified.inputs.faults.is_empty(),
    ))
}

/// How the programs of the package at `package` are built and run, from its limits and
/// the flags (`--jobs`, `--sandbox`, `--cache-dir`).
fn setup<'l>(
    package: &Path,
    languages: &'l Languages,
    (jobs, sandbox, cache_dir): (Option<u32>, Option<Sandbox>, Option<PathBuf>),
) -> Result<Setup<'l>, Fault> {
    crate::paths::folders::existing(package, "read a package in")?;
    let config = config::load(package)?;
    // The CPU and wall limits are set by the verification; these give the rest.
    let limits = super::flags::limits(&LimitArgs {
        time_limit: Some(verify::CEILING),
        wall_limit: None,
        memory_limit: Some(config.limits.memory << 20),
        output_limit: Some(config.limits.output << 20),
        max_processes: 64,
        sandbox,
    })?;
    Ok(Setup {
        options: Options::new(languages, None, cache_dir, limits.sandbox)
            .replacing(config.constants.pairs()),
        limits,
        jobs: super::flags::jobs(jobs),
    })
}

/// `grader cases check PKG...`: each package's data through its own validators, as
/// `verify` checks it first; whether any was refused.
pub(super) fn check_packages(packages: &[&Path], sandbox: Option<Sandbox>) -> Result<bool, Fault> {
    let languages = Languages::load(None)?;
    let mut faulty = false;
    for package in packages {
        let setup = setup(package, &languages, (None, sandbox, None))?;
        let (cases, checked) = data_check::package(package, &setup)?;
        faulty |= !checked.faults.is_empty();
        report::out(&format!(
            "{}: {cases} test cases\n{}",
            package.display(),
            data(&checked)
        ));
    }
    Ok(faulty)
}

/// What the package's validators found of its data: which ran, what they refused, which
/// were not run and why.
fn data(checked: &Checked) -> String {
    let mut ran = Vec::new();
    if !checked.ran.is_empty() {
        ran.push(format!("{} on every input", checked.ran.join(", ")));
    }
    if checked.invalid_inputs > 0 {
        ran.push(format!(
            "the input validators on {} invalid input(s)",
            checked.invalid_inputs
        ));
    }
    if !checked.answer_validators.is_empty() {
        ran.push(format!(
            "{} on every answer",
            checked.answer_validators.join(", ")
        ));
    }
    if checked.answers {
        ran.push("the output validator on every answer".to_owned());
    }
    let mut text = if ran.is_empty() {
        "data: no validator run\n".to_owned()
    } else {
        format!(
            "data: {}: {}\n",
            ran.join("; "),
            if checked.faults.is_empty() {
                "all accepted".to_owned()
            } else {
                format!("{} refused", checked.faults.len())
            }
        )
    };
    for line in checked.faults.iter().chain(&checked.skipped) {
        text.push_str("  ");
        text.push_str(line);
        text.push('\n');
    }
    if !checked.not_outputs.is_empty() {
        let _ = writeln!(
            text,
            "  {} secret answer(s) the output validator does not accept as outputs: allowed \
             (only a sample's answer must be one), listed:",
            checked.not_outputs.len()
        );
        for line in &checked.not_outputs {
            text.push_str("    ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// The table of submissions, then what disagrees.
fn table(verified: &Verified) -> String {
    let mut table = Table::new(
        &[
            "submission",
            "expected",
            "got",
            "time",
            "first failure",
            "expected by",
        ],
        &[false, false, false, true, false, false],
    );
    let mut disagreements = 0;
    for row in &verified.rows {
        let got = match (&row.got, row.score) {
            (Ok(verdict), Some(score)) => format!("{} ({score})", verify::kattis(*verdict)),
            (Ok(verdict), None) => verify::kattis(*verdict).to_owned(),
            (Err(why), _) => why.clone(),
        };
        let mark = if row.agrees() {
            ""
        } else {
            disagreements += 1;
            " <- disagrees"
        };
        let margin = if row.within_margin {
            " (only within the safety margin)"
        } else {
            ""
        };
        let expected = if row.expected.is_empty() {
            "-".to_owned()
        } else {
            row.expected.join(",")
        };
        table.row(vec![
            row.name.clone(),
            expected,
            format!("{got}{margin}{mark}"),
            format!("{:.2} s", row.time.as_secs_f64()),
            row.failed
                .as_ref()
                .map(|(case, why)| format!("{case}: {why}"))
                .unwrap_or_default(),
            // Last, so that the columns scripts read before it keep their places.
            row.from.unwrap_or("-").to_owned(),
        ]);
    }
    let ceiling = seconds(verified.ceiling);
    let how = match verified.from {
        LimitFrom::Fixed(file) => format!("fixed by {file}"),
        LimitFrom::Accepted { again: 0 } => "set from the accepted submissions".to_owned(),
        LimitFrom::Accepted { again } => format!(
            "set from the accepted submissions; {again} that went past the {ceiling} ceiling \
             run again under it"
        ),
        LimitFrom::Ceiling => format!(
            "no accepted submission passed within the {ceiling} ceiling, so none could set \
             it: judged at the ceiling; fix time_limit in problem.yaml or give a higher \
             --time-ceiling"
        ),
        LimitFrom::Least => {
            "no accepted submission passed, so none could set it: the least, 1 s".to_owned()
        }
    };
    let skipped = if verified.disabled.is_empty() {
        String::new()
    } else {
        format!(
            "skipped, disabled by their names (`.disabled`): {}\n",
            verified.disabled.join(", ")
        )
    };
    let summary = if disagreements == 0 {
        "every submission got the verdict of its folder".to_owned()
    } else {
        format!("{disagreements} submission(s) did not get the verdict of their folder")
    };
    let also = match verified.disabled.len() {
        0 => String::new(),
        n => format!("; {n} skipped (.disabled)"),
    };
    format!(
        "{}: {} test cases, time limit {} ({how})\n{}\n{}\n{skipped}{summary}{also}\n",
        verified.name,
        verified.cases,
        seconds(verified.time_limit),
        data(&verified.inputs),
        table.render(),
    )
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}
