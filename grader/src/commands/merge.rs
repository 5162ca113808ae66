//! `grader merge GRADEBOOK.json...`: one gradebook from the shards' `gradebook.json` files, each
//! case judged again by this grader's rule (as a batch's journal is).

use std::path::Path;

use crate::batch::gradebook_check;
use crate::cli::args::MergeArgs;
use crate::cli::exit::{Fault, Status};
use crate::paths::files;
use crate::paths::outputs;
use crate::report::book::Held;
use crate::report::{self, gradebook_files, html};
use crate::results::gradebook::Gradebook;

pub(crate) fn run(args: &MergeArgs) -> Result<Status, Fault> {
    let mut inputs = outputs::Inputs::default();
    for path in &args.reports {
        inputs.add(path, "gradebook to merge");
    }
    outputs::folder(&args.out, &gradebook_files::outputs(), &inputs)?;
    let mut books = Vec::new();
    for path in &args.reports {
        let mut book = read(path)?;
        book.upgrade_not_graded();
        let name = crate::paths::spelling::path(path);
        gradebook_check::validate(&book).map_err(|e| Fault::input(format!("{name}: {e}")))?;
        books.push((name, book));
    }
    let mut merged = Gradebook::merge(books).map_err(Fault::input)?;
    for student in merged.rejudge() {
        report::note(&format!(
            "grader: warning: `{student}` is not graded: a TLE at the wall limit that its \
             gradebook does not show to be the program's own; grade the student again"
        ));
    }
    if let Some(dir) = &args.feedback.feedback {
        let names = merged.students.iter().map(|s| s.student.as_str());
        html::feedback::check(dir, &args.out, names, &inputs)?;
    }
    let held = Held::new(merged);
    let book = held.book();
    gradebook_files::write(&book, &args.out, &args.feedback)?;
    gradebook_files::print(&book, &args.out, args.report)?;
    Ok(Status::failed_if(!book.passed(args.exit_zero_when_graded)))
}

/// Reads a gradebook. What does not parse, or holds a value of the wrong type (a verdict
/// that is none), is located by line and column and named by its field, as `gradebook_check`
/// names fields: `students[2] (`alice`).verdict`.
fn read(path: &Path) -> Result<Gradebook, Fault> {
    // Whole: a gradebook is as large as its class, and one cut at a cap would read as
    // a broken one.
    let text = files::read_whole(path)?;
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
        Fault::input(format!(
            "{}:{}:{}: not a gradebook: {field}{}",
            crate::paths::spelling::path(path),
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
