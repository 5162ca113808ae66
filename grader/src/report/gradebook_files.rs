//! A gradebook's folder (`batch --out`, `merge --out`): the list of its files, each with
//! its format's exporter; the writing of them all (and of the feedback pages, when asked);
//! and the gradebook printed in the format a call asks for.

use std::path::Path;

use super::export::Exporter;
use super::human::gradebook::{self as human, Saved};
use super::{csv, html, json, junit};
use crate::cli::{BatchReport, FeedbackArgs};
use crate::outputs::Kind;
use crate::results::gradebook::Gradebook;
use crate::status::Fault;

/// Each file of a gradebook folder, and its exporter.
const JSON: (&str, Exporter<Gradebook>) = ("gradebook.json", Exporter::raw(json::gradebook));
const CSV: (&str, Exporter<Gradebook>) = ("gradebook.csv", Exporter::raw(csv::gradebook));
const JUNIT: (&str, Exporter<Gradebook>) = ("gradebook.xml", Exporter::raw(junit::gradebook));
const HTML: (&str, Exporter<Gradebook>) = ("gradebook.html", Exporter::raw(html::gradebook::page));

/// The files of a gradebook folder, in the order [`write()`] writes them.
const FILES: [(&str, Exporter<Gradebook>); 4] = [JSON, CSV, JUNIT, HTML];

/// The files of a gradebook folder as the rule of outputs (`outputs::folder`) checks
/// them: each a gradebook file.
pub(crate) fn outputs() -> Vec<(&'static str, Kind)> {
    FILES
        .iter()
        .map(|(name, _)| (*name, Kind::Gradebook))
        .collect()
}

/// Writes every file of the gradebook folder `out` (each atomically), and the feedback
/// pages when `feedback` asks for them.
pub(crate) fn write(book: &Gradebook, out: &Path, feedback: &FeedbackArgs) -> Result<(), Fault> {
    crate::folders::create(out)?;
    for (name, exporter) in FILES {
        exporter.save(&out.join(name), book)?;
    }
    if let Some(dir) = &feedback.feedback {
        html::feedback::write_pages(book, dir, feedback.reveal)?;
    }
    Ok(())
}

/// Prints `book` (whose files are in `out`) in the format `report` asks for: the human
/// summary (which names the files), or one file's format.
pub(crate) fn print(book: &Gradebook, out: &Path, report: BatchReport) {
    match report {
        BatchReport::Human => Exporter::styled(human::summary).print(&Saved { book, folder: out }),
        BatchReport::Json => JSON.1.print(book),
        BatchReport::Csv => CSV.1.print(book),
        BatchReport::Junit => JUNIT.1.print(book),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_lists_each_format_once_as_a_gradebook_file() {
        let names: Vec<_> = outputs().into_iter().map(|(name, _)| name).collect();
        assert_eq!(
            names,
            [
                "gradebook.json",
                "gradebook.csv",
                "gradebook.xml",
                "gradebook.html"
            ]
        );
        assert!(outputs().iter().all(|(_, kind)| *kind == Kind::Gradebook));
    }
}
