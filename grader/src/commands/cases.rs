//! `grader cases regen|check|power`: the shipped case folders, made from their manifests,
//! verified against the reference, and measured against the classic wrong solutions;
//! `check` also takes a problem package, whose data its own validators check.

use std::path::{Path, PathBuf};

use reference::Problem;

use crate::cases::{self, folder_check, manifest, plan, power, regen};
use crate::cli::args::{CasesCommand, ProblemOrPackage};
use crate::cli::exit::{Fault, Status};
use crate::report::{self, exporter::Exporter, human::cases as human};
use crate::results::cases::{Checked, Measured, Regen, Regenerated};

pub(crate) fn run(command: CasesCommand) -> Result<Status, Fault> {
    let (CasesCommand::Regen { root, .. }
    | CasesCommand::Check { root, .. }
    | CasesCommand::Power { root, .. }) = &command;
    // Packages named alone need no root: their folders are named.
    let packages_only = matches!(&command, CasesCommand::Check { problems, .. }
        if !problems.is_empty()
            && problems.iter().all(|p| matches!(p, ProblemOrPackage::Package(_))));
    if !packages_only {
        crate::paths::folders::existing(root, "find case folders in")?;
    }
    match command {
        CasesCommand::Regen {
            problems,
            root,
            check,
        } => regenerate(&problems, &root, check),
        CasesCommand::Check {
            problems,
            root,
            sandbox,
        } => check(&problems, &root, sandbox),
        CasesCommand::Power { problem, root } => power(problem, &root),
    }
}

/// The problems to work on: those named, or every problem whose folder has `marker`.
fn chosen(named: &[Problem], root: &Path, marker: &str) -> Result<Vec<Problem>, Fault> {
    if !named.is_empty() {
        let mut problems = named.to_vec();
        problems.dedup();
        return Ok(problems);
    }
    let found: Vec<Problem> = Problem::ALL
        .into_iter()
        .filter(|&p| cases::folder(root, p).join(marker).exists())
        .collect();
    if found.is_empty() {
        return Err(Fault::input(format!(
            "{}: no problem folder with a `{marker}` (expected {}/flip/{marker}, ...)",
            root.display(),
            root.display()
        )));
    }
    Ok(found)
}

fn regenerate(named: &[Problem], root: &Path, check_only: bool) -> Result<Status, Fault> {
    // Every manifest is read, every folder's `data` found to be a folder (or absent) and
    // every tree planned before anything is written: a fault in one leaves every folder
    // as it was.
    let mut planned = Vec::new();
    for problem in chosen(named, root, "manifest.toml")? {
        let folder = cases::folder(root, problem);
        let manifest = manifest::load(&folder.join("manifest.toml"), problem)?;
        regen::preflight(&folder)?;
        planned.push((folder, plan::plan(&manifest)?));
    }
    let mut drifted = false;
    let mut folders = Vec::new();
    for (folder, tree) in planned {
        let data = folder.join("data");
        if !check_only {
            regen::recover(&folder)?;
        }
        let drift = regen::drift(&tree, &regen::read_tree(&data)?);
        let cases = tree
            .keys()
            .filter(|k| Path::new(k).extension().is_some_and(|x| x == "in"))
            .count();
        let outcome = if drift.is_empty() {
            Regen::UpToDate
        } else if check_only {
            drifted = true;
            Regen::Drifted(drift)
        } else {
            regen::replace(&folder, &tree)?;
            Regen::Rewrote(drift)
        };
        folders.push(Regenerated {
            folder,
            data,
            cases,
            outcome,
        });
    }
    Exporter::raw(human::regen).print(folders.as_slice())?;
    if drifted {
        report::note(
            "grader: the case folders differ from their manifests; run `grader cases regen`",
        );
    }
    Ok(Status::failed_if(drifted))
}

fn check(
    named: &[ProblemOrPackage],
    root: &Path,
    sandbox: Option<crate::cli::args::Sandbox>,
) -> Result<Status, Fault> {
    let builtin: Vec<Problem> = named
        .iter()
        .filter_map(|p| match p {
            ProblemOrPackage::Builtin(problem) => Some(*problem),
            ProblemOrPackage::Package(_) => None,
        })
        .collect();
    let packages: Vec<&Path> = named
        .iter()
        .filter_map(|p| match p {
            ProblemOrPackage::Package(folder) => Some(folder.as_path()),
            ProblemOrPackage::Builtin(_) => None,
        })
        .collect();
    let mut faulty = false;
    if !packages.is_empty() {
        faulty = super::package::check_packages(&packages, sandbox)?;
        if builtin.is_empty() {
            return Ok(Status::failed_if(faulty));
        }
    }
    let problems = if builtin.is_empty() {
        chosen(&builtin, root, "")?
    } else {
        builtin
    };
    let mut folders = Vec::new();
    for problem in problems {
        let folder: PathBuf = cases::folder(root, problem);
        let verified = folder_check::verify(problem, &cases::data_dir(&folder))?;
        folders.push(Checked { folder, verified });
    }
    Exporter::raw(human::check).print(folders.as_slice())?;
    faulty |= folders.iter().any(|c| !c.verified.faults.is_empty());
    Ok(Status::failed_if(faulty))
}

fn power(problem: Problem, root: &Path) -> Result<Status, Fault> {
    let folder = cases::folder(root, problem);
    let power = power::measure(problem, &cases::data_dir(&folder))?;
    let survived = !power.survivors().is_empty();
    Exporter::raw(human::power).print(&Measured { folder, power })?;
    Ok(Status::failed_if(survived))
}
