//! `grader merge REPORT...`: one gradebook from the shards' `gradebook.json` files; and
//! the writing of a gradebook, shared with `grader batch`.

use std::path::Path;

use crate::batch::validate;
use crate::cli::{BatchReport, FeedbackArgs, MergeArgs};
use crate::files;
use crate::outputs::{self, Kind};
use crate::report::export::Exporter;
use crate::report::human::gradebook::{self as human, Saved};
use crate::report::{csv, html, json, junit};
use crate::results::gradebook::Gradebook;
use crate::status::{Fault, Status};

/// The files of a gradebook folder, as [`write_and_print`] writes them.
pub(crate) const GRADEBOOK: [(&str, Kind); 4] = [
    (JSON.0, Kind::Gradebook),
    (CSV.0, Kind::Gradebook),
    (JUNIT.0, Kind::Gradebook),
    (HTML.0, Kind::Gradebook),
];

/// Each file of a gradebook folder, and its exporter.
const JSON: (&str, Exporter<Gradebook>) = ("gradebook.json", Exporter::raw(json::gradebook));
const CSV: (&str, Exporter<Gradebook>) = ("gradebook.csv", Exporter::raw(csv::gradebook));
const JUNIT: (&str, Exporter<Gradebook>) = ("gradebook.xml", Exporter::raw(junit::gradebook));
const HTML: (&str, Exporter<Gradebook>) = ("gradebook.html", Exporter::raw(html::gradebook::page));

pub(crate) fn run(args: &MergeArgs) -> Result<Status, Fault> {
    let mut inputs = outputs::Inputs::default();
    for path in &args.reports {
        inputs.add(path, "gradebook to merge");
    }
    outputs::folder(&args.out, &GRADEBOOK, &inputs)?;
    let mut books = Vec::new();
    for path in &args.reports {
        let book = read(path)?;
        validate::validate(&book).map_err(|e| Fault::Usage(format!("{}: {e}", path.display())))?;
        books.push((path.display().to_string(), book));
    }
    let merged = Gradebook::merge(books).map_err(Fault::Usage)?;
    if let Some(dir) = &args.feedback.feedback {
        let names = merged.students.iter().map(|s| s.student.as_str());
        html::feedback::check(dir, &args.out, names, &inputs)?;
    }
    write_and_print(&merged, &args.out, args.report, &args.feedback)
}

/// Reads a gradebook. What does not parse, or holds a value of the wrong type (a verdict
/// that is none), is located by line and column and named by its field, as `validate`
/// names fields: `students[2] (`alice`).verdict`.
fn read(path: &Path) -> Result<Gradebook, Fault> {
    let text = files::read_prefix(path)?.0;
    let mut json = serde_json::Deserializer::from_slice(&text);
    serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let mut at = e.path().to_string();
        // The student's name, when the fault is in a student and the file is JSON.
        if let Some(rest) = at.strip_prefix("students[")
            && let Some((index, rest)) = rest.split_once(']')
            && let Ok(index) = index.parse::<usize>()
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&text)
            && let Some(name) = value["students"][index]["student"].as_str()
        {
            at = format!("students[{index}] (`{name}`){rest}");
        }
        let inner = e.inner();
        let field = if at == "." {
            String::new()
        } else {
            format!("{at}: ")
        };
        Fault::Usage(format!(
            "{}:{}:{}: not a gradebook: {field}{}",
            path.display(),
            inner.line(),
            inner.column(),
            strip_position(&inner.to_string())
        ))
    })
}

/// serde_json's message without the ` at line L column C` it ends with (the location
/// leads the line instead).
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |at| &message[..at])
}
/// Writes `gradebook.json`, `.csv`, `.xml` and `.html` into `out` (atomically), and the
/// feedback pages when asked, and prints the chosen report; exit 1 unless every student
/// is `AC`.
pub(crate) fn write_and_print(
    book: &Gradebook,
    out: &Path,
    report: BatchReport,
    feedback: &FeedbackArgs,
) -> Result<Status, Fault> {
    crate::folders::create(out)?;
    for (name, exporter) in [JSON, CSV, JUNIT, HTML] {
        exporter.save(&out.join(name), book)?;
    }
    if let Some(dir) = &feedback.feedback {
        html::feedback::write_pages(book, dir, feedback.reveal)?;
    }
    let saved = Saved { book, folder: out };
    match report {
        BatchReport::Human => Exporter::styled(human::summary).print(&saved),
        BatchReport::Json => JSON.1.print(book),
        BatchReport::Csv => CSV.1.print(book),
        BatchReport::Junit => JUNIT.1.print(book),
    }
    Ok(Status::failed_if(!book.all_accepted()))
}
