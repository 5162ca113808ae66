//! `grader cases regen|check|power`: the shipped case folders, made from their manifests,
//! verified against the reference, and measured against the classic wrong solutions.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use reference::Problem;

use crate::cases::{self, manifest, plan, power, regen, verify};
use crate::cli::CasesCommand;
use crate::report::{self, tables::Table};
use crate::status::{Fault, Status};

/// How many drifted files `regen --check` names before summing up the rest.
const DRIFT_LINES: usize = 20;

pub(crate) fn run(command: CasesCommand) -> Result<Status, Fault> {
    let (CasesCommand::Regen { root, .. }
    | CasesCommand::Check { root, .. }
    | CasesCommand::Power { root, .. }) = &command;
    crate::folders::existing(root, "find case folders in")?;
    match command {
        CasesCommand::Regen {
            problems,
            root,
            check,
        } => regenerate(&problems, &root, check),
        CasesCommand::Check { problems, root } => check(&problems, &root),
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
        return Err(Fault::Usage(format!(
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
    let mut text = String::new();
    for (folder, tree) in &planned {
        let data = folder.join("data");
        if !check_only {
            regen::recover(folder)?;
        }
        let drift = regen::drift(tree, &regen::read_tree(&data)?);
        let cases = tree
            .keys()
            .filter(|k| Path::new(k).extension().is_some_and(|x| x == "in"))
            .count();
        if drift.is_empty() {
            let _ = writeln!(text, "{}: {cases} cases, up to date", folder.display());
        } else if check_only {
            drifted = true;
            describe_drift(&mut text, &data, &drift);
        } else {
            regen::replace(folder, tree)?;
            let _ = writeln!(
                text,
                "{}: {cases} cases, rewrote data/ ({} added, {} changed, {} removed)",
                folder.display(),
                drift.missing.len(),
                drift.changed.len(),
                drift.extra.len()
            );
        }
    }
    report::out(&text);
    if drifted {
        report::note(
            "grader: the case folders differ from their manifests; run `grader cases regen`",
        );
    }
    Ok(Status::failed_if(drifted))
}

fn describe_drift(text: &mut String, data: &Path, drift: &regen::Drift) {
    let lines: Vec<String> = drift
        .missing
        .iter()
        .map(|n| format!("{}: missing", data.join(n).display()))
        .chain(drift.changed.iter().map(|n| {
            format!(
                "{}: differs from what the manifest makes",
                data.join(n).display()
            )
        }))
        .chain(
            drift
                .extra
                .iter()
                .map(|n| format!("{}: not made by the manifest", data.join(n).display())),
        )
        .collect();
    for line in lines.iter().take(DRIFT_LINES) {
        let _ = writeln!(text, "{line}");
    }
    if lines.len() > DRIFT_LINES {
        let _ = writeln!(text, "... and {} more", lines.len() - DRIFT_LINES);
    }
}

fn check(named: &[Problem], root: &Path) -> Result<Status, Fault> {
    let problems = if named.is_empty() {
        chosen(named, root, "")?
    } else {
        named.to_vec()
    };
    let mut faulty = false;
    let mut text = String::new();
    for problem in problems {
        let folder: PathBuf = cases::folder(root, problem);
        let verified = verify::verify(problem, &cases::data_dir(&folder))?;
        for fault in &verified.faults {
            let _ = writeln!(text, "{fault}");
        }
        faulty |= !verified.faults.is_empty();
        let mut table = Table::new(
            &["group", "cases", "answers (answer:cases)"],
            &[false, true],
        );
        for (group, histogram) in &verified.histograms {
            let total: usize = histogram.values().sum();
            let answers: Vec<String> = histogram.iter().map(|(k, n)| format!("{k}:{n}")).collect();
            table.row(vec![group.clone(), total.to_string(), answers.join(" ")]);
        }
        let _ = writeln!(
            text,
            "{}: {} cases, {}\n{}",
            folder.display(),
            verified.cases,
            match verified.faults.len() {
                0 => "all valid and verified".to_owned(),
                1 => "1 fault".to_owned(),
                n => format!("{n} faults"),
            },
            table.render()
        );
    }
    report::out(&text);
    Ok(Status::failed_if(faulty))
}

fn power(problem: Problem, root: &Path) -> Result<Status, Fault> {
    let folder = cases::folder(root, problem);
    let measured = power::measure(problem, &cases::data_dir(&folder))?;
    let mut headers = vec!["mutant"];
    headers.extend(measured.groups.iter().map(String::as_str));
    headers.push("verdict");
    let mut right = vec![false];
    right.extend(measured.groups.iter().map(|_| true));
    let mut table = Table::new(&headers, &right);
    for (name, row) in &measured.kills {
        let mut cells = vec![(*name).to_owned()];
        cells.extend(row.iter().map(|&n| {
            if n == 0 {
                "·".to_owned()
            } else {
                n.to_string()
            }
        }));
        cells.push(
            if row.iter().any(|&n| n > 0) {
                "killed"
            } else {
                "SURVIVES"
            }
            .to_owned(),
        );
        table.row(cells);
    }
    let total = measured.kills.len();
    let survivors = measured.survivors();
    let killed = total - survivors.len();
    let score = (killed * 100).checked_div(total).unwrap_or(100);
    let mut text = format!(
        "{}: cases that kill each mutant, per group\n{}mutation score: {killed}/{total} ({score}%)\n",
        folder.display(),
        table.render()
    );
    if !survivors.is_empty() {
        let _ = writeln!(text, "survivors: {}", survivors.join(", "));
    }
    report::out(&text);
    Ok(Status::failed_if(!survivors.is_empty()))
}
