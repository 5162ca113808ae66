//! `grader merge REPORT...`: one gradebook from the shards' `gradebook.json` files; and
//! the writing of a gradebook, shared with `grader batch`.

use std::path::Path;

use crate::batch::gradebook::{self, Gradebook};
use crate::cli::{BatchReport, MergeArgs};
use crate::files;
use crate::report;
use crate::status::{Fault, Status};

pub(crate) fn run(args: &MergeArgs) -> Result<Status, Fault> {
    let mut books = Vec::new();
    for path in &args.reports {
        let text = files::read_prefix(path)?.0;
        let book: Gradebook = serde_json::from_slice(&text).map_err(|e| {
            Fault::Usage(format!(
                "{}:{}:{}: not a gradebook: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
        })?;
        books.push((path.display().to_string(), book));
    }
    let merged = gradebook::merge(books).map_err(Fault::Usage)?;
    write_and_print(&merged, &args.out, args.report)
}

/// Writes `gradebook.json`, `.csv`, `.xml` and `.html` into `out` (atomically) and prints the
/// chosen report; exit 1 unless every student is `AC`.
pub(crate) fn write_and_print(
    book: &Gradebook,
    out: &Path,
    report: BatchReport,
) -> Result<Status, Fault> {
    crate::folders::create(out)?;
    let json = gradebook::json(book);
    let csv = gradebook::csv(book);
    let junit = gradebook::junit(book);
    let html = report::html::page(book);
    let written = [
        (out.join("gradebook.json"), &json),
        (out.join("gradebook.csv"), &csv),
        (out.join("gradebook.xml"), &junit),
        (out.join("gradebook.html"), &html),
    ];
    for (path, text) in &written {
        files::write_atomic(path, text.as_bytes())?;
    }
    match report {
        BatchReport::Human => {
            report::out_styled(&report::gradebook::human(book, out));
        }
        BatchReport::Json => report::out(&json),
        BatchReport::Csv => report::out(&csv),
        BatchReport::Junit => report::out(&junit),
    }
    Ok(Status::failed_if(!book.all_accepted()))
}
