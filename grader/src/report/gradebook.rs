//! The human summary of a gradebook: a line per student (verdict, passed/total, score,
//! what went wrong), what was skipped, the class's verdict histogram, and where the files
//! are.

use std::fmt::Write as _;
use std::path::Path;

use anstyle::Style;

use crate::report::{paint, verdict_style};
use crate::results::gradebook::Gradebook;
use crate::submission::diagnosis;

/// The summary, with ANSI colours (stripped by the writer when not wanted).
pub(crate) fn human(book: &Gradebook, out: &Path) -> String {
    let dim = Style::new().dimmed();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} {} students, {} cases",
        paint(Style::new().bold(), &book.problem),
        book.students.len(),
        book.cases.len()
    );
    let width = book
        .students
        .iter()
        .map(|s| s.student.len())
        .max()
        .unwrap_or(0);
    for s in &book.students {
        let why = match (&s.compile_error, &s.error) {
            (Some(m), _) => match &s.suggestion {
                Some(suggestion) => format!(
                    "{}; {}",
                    diagnosis::summary(m),
                    suggestion.for_student(&s.student)
                ),
                None => diagnosis::summary(m),
            },
            (None, Some(m)) => m.clone(),
            (None, None) => s
                .failures()
                .next()
                .map(|c| format!("first failure {}: {}", c.name, c.message))
                .unwrap_or_default(),
        };
        let _ = writeln!(
            text,
            "  {}  {:<width$}  {:>4}/{:<4} {:>5.1}%  {}",
            paint(
                verdict_style(s.verdict),
                &format!("{:<3}", s.verdict.code())
            ),
            s.student,
            s.passed,
            s.total,
            s.score,
            paint(dim, &why)
        );
    }
    if !book.skipped.is_empty() {
        let _ = writeln!(text, "\n{}", paint(dim, "not graded:"));
        for s in &book.skipped {
            let _ = writeln!(text, "  {}: {}", s.path, s.why);
        }
    }
    let histogram: Vec<String> = book
        .histogram()
        .iter()
        .map(|&(mark, n)| format!("{} {n}", paint(verdict_style(mark), mark.code())))
        .collect();
    let _ = writeln!(text, "\n{}", histogram.join("  "));
    let _ = writeln!(
        text,
        "{}",
        paint(
            dim,
            &format!(
                "gradebook: {0}/gradebook.html, {0}/gradebook.csv, {0}/gradebook.json, {0}/gradebook.xml",
                out.display()
            )
        )
    );
    text
}
