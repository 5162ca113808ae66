//! A gradebook's folder (`batch --out`, `merge --out`): the list of its files, each with
//! its format's exporter; the writing of them all (and of the feedback pages, when asked);
//! and the gradebook printed in the format a call asks for.

use std::path::Path;

use super::book::Book;
use super::exporter::Exporter;
use super::human::gradebook::{self as human, Saved};
use super::{csv, html, json, junit};
use crate::cli::args::{BatchReport, FeedbackArgs};
use crate::cli::exit::Fault;
use crate::paths::outputs::Kind;

/// A file of a gradebook folder, and its exporter.
type File<'a> = (&'static str, Exporter<Book<'a>>);

fn json<'a>() -> File<'a> {
    ("gradebook.json", Exporter::raw(json::gradebook))
}

fn csv<'a>() -> File<'a> {
    ("gradebook.csv", Exporter::raw(csv::gradebook))
}

fn junit<'a>() -> File<'a> {
    ("gradebook.xml", Exporter::raw(junit::gradebook))
}

fn html<'a>() -> File<'a> {
    ("gradebook.html", Exporter::raw(html::gradebook::page))
}

/// The files of a gradebook folder, in the order [`write()`] writes them.
fn files<'a>() -> [File<'a>; 4] {
    [json(), csv(), junit(), html()]
}

/// The files of a gradebook folder as the rule of outputs (`outputs::folder`) checks
/// them: each a gradebook file.
pub(crate) fn outputs() -> Vec<(&'static str, Kind)> {
    files()
        .iter()
        .map(|(name, _)| (*name, Kind::Gradebook))
        .collect()
}

/// Writes every file of the gradebook folder `out` (each atomically, a student at a
/// time), and the feedback pages when `feedback` asks for them.
pub(crate) fn write(book: &Book<'_>, out: &Path, feedback: &FeedbackArgs) -> Result<(), Fault> {
    crate::paths::folders::create(out)?;
    for (name, exporter) in files() {
        exporter.save(&out.join(name), book)?;
    }
    if let Some(dir) = &feedback.feedback {
        html::feedback::write_pages(book, dir, feedback.reveal)?;
    }
    Ok(())
}

/// Prints `book` (whose files are in `out`) in the format `report` asks for: the human
/// summary (which names the files), or one file's format.
pub(crate) fn print(book: &Book<'_>, out: &Path, report: BatchReport) -> Result<(), Fault> {
    match report {
        BatchReport::Human => Exporter::styled(human::summary).print(&Saved {
            book: *book,
            folder: out,
        }),
        BatchReport::Json => json().1.print(book),
        BatchReport::Csv => csv().1.print(book),
        BatchReport::Junit => junit().1.print(book),
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
