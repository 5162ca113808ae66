//! `grader merge REPORT...`: one gradebook from the shards' `gradebook.json` files; and
//! the writing of a gradebook, shared with `grader batch`.

use std::path::Path;

use crate::batch::gradebook::{self, Gradebook};
use crate::batch::validate;
use crate::cli::{BatchReport, MergeArgs};
use crate::files;
use crate::outputs::{self, Kind};
use crate::report;
use crate::status::{Fault, Status};

/// The files of a gradebook folder, as [`write_and_print`] writes them.
pub(crate) const GRADEBOOK: [(&str, Kind); 4] = [
    ("gradebook.json", Kind::Gradebook),
    ("gradebook.csv", Kind::Gradebook),
    ("gradebook.xml", Kind::Gradebook),
    ("gradebook.html", Kind::Gradebook),
];

pub(crate) fn run(args: &MergeArgs) -> Result<Status, Fault> {
    let mut inputs = outputs::Inputs::default();
    for path in &args.reports {
        inputs.add(path, "gradebook to merge");
    }
    outputs::folder(&args.out, &GRADEBOOK, &inputs)?;
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
        validate::validate(&book).map_err(|e| Fault::Usage(format!("{}: {e}", path.display())))?;
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
    for ((name, _), text) in GRADEBOOK.iter().zip([&json, &csv, &junit, &html]) {
        files::write_atomic(&out.join(name), text.as_bytes())?;
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
