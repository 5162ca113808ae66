//! The reports of `grader cases regen|check|power`: a line per folder (and per drifted
//! file), a table of answers per group, a kill matrix.

use std::io::{self, Write};

use crate::report::tables::Table;
use crate::results::cases::{Checked, Measured, Regen, Regenerated};

/// How many drifted files `regen --check` names before summing up the rest.
const DRIFT_LINES: usize = 20;

/// `cases regen`: a line per folder, and the drifted files of a folder `--check` found
/// out of date.
pub(crate) fn regen(folders: &[Regenerated], out: &mut dyn Write) -> io::Result<()> {
    for r in folders {
        let folder = r.folder.display();
        let cases = r.cases;
        match &r.outcome {
            Regen::UpToDate => writeln!(out, "{folder}: {cases} cases, up to date")?,
            Regen::Rewrote(drift) => writeln!(
                out,
                "{folder}: {cases} cases, rewrote data/ ({} added, {} changed, {} removed)",
                drift.missing.len(),
                drift.changed.len(),
                drift.extra.len()
            )?,
            Regen::Drifted(drift) => {
                let at = |name: &String| r.data.join(name).display().to_string();
                let lines: Vec<String> = drift
                    .missing
                    .iter()
                    .map(|n| format!("{}: missing", at(n)))
                    .chain(
                        drift
                            .changed
                            .iter()
                            .map(|n| format!("{}: differs from what the manifest makes", at(n))),
                    )
                    .chain(
                        drift
                            .extra
                            .iter()
                            .map(|n| format!("{}: not made by the manifest", at(n))),
                    )
                    .collect();
                for line in lines.iter().take(DRIFT_LINES) {
                    writeln!(out, "{line}")?;
                }
                if lines.len() > DRIFT_LINES {
                    writeln!(out, "... and {} more", lines.len() - DRIFT_LINES)?;
                }
            }
        }
    }
    Ok(())
}

/// `cases check`: each folder's faults, then its count, and a table of answers per group.
pub(crate) fn check(folders: &[Checked], out: &mut dyn Write) -> io::Result<()> {
    for c in folders {
        let verified = &c.verified;
        for fault in &verified.faults {
            writeln!(out, "{fault}")?;
        }
        let mut table = Table::new(
            &["group", "cases", "answers (answer:cases)"],
            &[false, true],
        );
        for (group, histogram) in &verified.histograms {
            let total: usize = histogram.values().sum();
            let answers: Vec<String> = histogram.iter().map(|(k, n)| format!("{k}:{n}")).collect();
            table.row(vec![group.clone(), total.to_string(), answers.join(" ")]);
        }
        let faults = match verified.faults.len() {
            0 => "all valid and verified".to_owned(),
            1 => "1 fault".to_owned(),
            n => format!("{n} faults"),
        };
        writeln!(
            out,
            "{}: {} cases, {faults}\n{}",
            c.folder.display(),
            verified.cases,
            table.render()
        )?;
    }
    Ok(())
}

/// `cases power`: the kill matrix (cases that kill each mutant, per group), the mutation
/// score and the survivors.
pub(crate) fn power(measured: &Measured, out: &mut dyn Write) -> io::Result<()> {
    let power = &measured.power;
    let mut headers = vec!["mutant"];
    headers.extend(power.groups.iter().map(String::as_str));
    headers.push("verdict");
    let mut right = vec![false];
    right.extend(power.groups.iter().map(|_| true));
    let mut table = Table::new(&headers, &right);
    for (name, row) in &power.kills {
        let mut cells = vec![(*name).to_owned()];
        cells.extend(row.iter().map(|&n| {
            if n == 0 {
                "·".to_owned()
            } else {
                n.to_string()
            }
        }));
        let killed = row.iter().any(|&n| n > 0);
        cells.push(if killed { "killed" } else { "SURVIVES" }.to_owned());
        table.row(cells);
    }
    let total = power.kills.len();
    let survivors = power.survivors();
    let killed = total - survivors.len();
    let score = (killed * 100).checked_div(total).unwrap_or(100);
    write!(
        out,
        "{}: cases that kill each mutant, per group\n{}mutation score: {killed}/{total} ({score}%)\n",
        measured.folder.display(),
        table.render()
    )?;
    if !survivors.is_empty() {
        writeln!(out, "survivors: {}", survivors.join(", "))?;
    }
    Ok(())
}
