//! The human summary of a gradebook: a line per student (verdict, passed/total, score,
//! what went wrong), what was skipped, the class's verdict histogram, and where the files
//! are.

use std::io::{self, Write};
use std::path::Path;

use anstyle::Style;

use crate::report::book::{Book, Standing};
use crate::report::style::{paint, verdict_style};
use crate::results::gradebook::NOT_RUN;
use crate::submission::diagnosis;

/// A gradebook and the folder its files were written to (the summary ends by naming
/// them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Saved<'a> {
    /// The gradebook.
    pub(crate) book: Book<'a>,
    /// The folder of `gradebook.json` and the others.
    pub(crate) folder: &'a Path,
}

/// The summary.
pub(crate) fn summary(saved: &Saved<'_>, out: &mut dyn Write) -> io::Result<()> {
    let book = &saved.book;
    let head = book.head;
    let dim = Style::new().dimmed();
    writeln!(
        out,
        "{} {} students, {} cases",
        paint(Style::new().bold(), &head.problem),
        book.standings.len(),
        head.cases.len()
    )?;
    let width = book
        .standings
        .iter()
        .map(|s| s.report.student.len())
        .max()
        .unwrap_or(0);
    let most = head.points.as_ref().map(crate::cases::points::most);
    for standing in book.standings {
        let s = &standing.report;
        let points = match (s.points, most) {
            (Some(earned), Some(most)) => format!("{earned:>6}/{most} pts  "),
            _ => String::new(),
        };
        writeln!(
            out,
            "  {}  {:<width$}  {:>4}/{:<4} {:>6}  {points}{}",
            paint(
                verdict_style(s.verdict),
                &format!("{:<3}", s.verdict.code())
            ),
            s.student,
            s.passed,
            s.total,
            // A student not graded shows `--`, never 0%.
            s.score
                .map_or_else(|| "--".to_owned(), |score| format!("{score:.1}%")),
            paint(dim, &why(standing))
        )?;
    }
    stopped(book, out)?;
    if !head.skipped.is_empty() {
        writeln!(out, "\n{}", paint(dim, "not graded:"))?;
        for s in &head.skipped {
            writeln!(out, "  {}: {}", s.path, s.why)?;
        }
    }
    let histogram: Vec<String> = book
        .histogram()
        .iter()
        .map(|&(mark, n)| format!("{} {n}", paint(verdict_style(mark), mark.code())))
        .collect();
    writeln!(out, "\n{}", histogram.join("  "))?;
    let files = format!(
        "gradebook: {0}/gradebook.html, {0}/gradebook.csv, {0}/gradebook.json, {0}/gradebook.xml",
        saved.folder.display()
    );
    writeln!(out, "{}", paint(dim, &files))
}

/// How many students `grader batch` stopped early for sleeping, and what it cost them,
/// once under the students: a teacher sees the marks are not every case's.
fn stopped(book: &Book<'_>, out: &mut dyn Write) -> io::Result<()> {
    let stopped: Vec<&Standing> = book
        .standings
        .iter()
        .filter(|s| s.report.stopped.is_some())
        .collect();
    if stopped.is_empty() {
        return Ok(());
    }
    let not_run: usize = stopped.iter().map(|s| s.not_run).sum();
    let students = if stopped.len() == 1 {
        "student"
    } else {
        "students"
    };
    writeln!(
        out,
        "\n{} {students} stopped early (their program slept through cases in a row): {not_run} \
         {} not run ({NOT_RUN}: a score counts the cases passed); --stop-after-wall-tles 0 \
         runs them",
        stopped.len(),
        if not_run == 1 { "case" } else { "cases" }
    )
}

/// What went wrong for a student, in a few words: the compiler's first error (and the
/// profile it points to), why it was not graded, or the first failing case.
fn why(standing: &Standing) -> String {
    let s = &standing.report;
    match (&s.compile_error, &s.error) {
        (Some(m), _) => match &s.suggestion {
            Some(suggestion) => format!(
                "{}; {}",
                diagnosis::summary(m),
                suggestion.for_student(&s.student)
            ),
            None => diagnosis::summary(m),
        },
        (None, Some(m)) => m.clone(),
        (None, None) => {
            let first = standing.first_failure.as_ref();
            let first = first.map(|c| format!("first failure {}: {}", c.name, c.message));
            match (first, &s.stopped) {
                (Some(first), Some(stopped)) => format!("{first}; {stopped}"),
                (first, _) => first.unwrap_or_default(),
            }
        }
    }
}
